"""The session service's ground: its errors, one change in the making, and the plumbing every
part shares (the store, the clock, per-session locks, loading and the compare-and-set save)."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import secrets
import socket
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager

from pydantic import BaseModel

from bot.models import (
    TURN_TIMER_CHOICES,
    LogEntry,
    RecordRow,
    ResultRow,
    Seat,
    Session,
)
from bot.records import Records
from bot.store import Store
from bot.store.base import Statement
from rules import GAMES
from rules.core.game import Action, Event, Game
from rules.core.rng import Rng, new_seed
from rules.core.text import escape_markdown

log = logging.getLogger(__name__)

PING_TARGET = "#ping"
"""The `messages.target` of a session's turn ping in the channel."""

REMINDER_LEAD_MAX = 300.0
"""The last reminder comes a quarter of the allowed time before the deadline, at most this early."""
REMINDER_EVERY = 86400.0
"""A turn that waits longer is reminded once a day as well (games played over days)."""
TIMEOUT_STEPS = 100
"""At most this many automatic actions for one timed-out person in one expiry."""


class ServiceError(Exception):
    """A request that cannot be done; `.message` is a short sentence for the user."""

    default = "That cannot be done now."

    def __init__(self, message: str | None = None):
        self.message = message or self.default
        super().__init__(self.message)


class StaleVersion(ServiceError):
    default = "This message is out of date: the game has moved on."


class LostRace(StaleVersion):
    """The compare-and-set found a newer version: someone else committed first."""


class NotYourTurn(ServiceError):
    default = "It is not your turn."


class NotSeated(ServiceError):
    default = "You are not playing in this game."


def default_turn_timer(game: Game) -> str:
    return "0" if game.max_players == 1 else "300"


def auto_rng(session_id: int, version: int, player_id: str) -> Rng:
    """The automatic player's generator for one choice: derived from the session and version,
    so a replay makes the same choices."""
    digest = hashlib.blake2b(f"auto:{session_id}:{version}:{player_id}".encode(), digest_size=8)
    return Rng(seed=int.from_bytes(digest.digest(), "big") >> 1)


AUTO_STORY = "The automatic player makes this move without a story."
"""The line of an automatic player's move where the game asks for one (Gods of Magic's strict
storytelling): the other players may still object to it."""


class Change:
    """One committed change in the making: the session, its new state and the log rows."""

    def __init__(self, session: Session, now: float):
        self.session = session
        self.game = session.game()
        self.base_version = session.version
        self.old_memo = session.memo() if session.state_json else None
        self.old_state: BaseModel | None = self.old_memo.state if self.old_memo else None
        self.state: BaseModel | None = self.old_state
        self.old_seats = [s.model_copy() for s in session.seats]
        self.log: list[LogEntry] = []
        self.events: list[Event] = []
        self.now = now
        self.actors: set[str] = set()
        self.table_actors: set[str] = set()
        """The actors who made a move the table offers (not a private step): their table
        controls are spent."""
        self.old_table = (session.status, session.deadline, session.table_events)
        self.auto_played = False

    def record(self, player_id: str | None, action_key: str, events: list[Event],
               text: str | None = None) -> None:
        self.session.version += 1
        self.log.append(LogEntry(version=self.session.version, player_id=player_id,
                                 action_key=action_key, text=text, events=events, at=self.now))
        self.events.extend(events)

    def play(self, player_id: str, action: str | Action, text: str | None = None,
             before: list[Event] | None = None) -> None:
        """Apply one action (IllegalAction propagates and nothing is recorded). An automatic
        player's move that must be told (strict storytelling) gets `AUTO_STORY` as its line."""
        assert self.state is not None
        if isinstance(action, Action) and action.text_required and text is None:
            text = AUTO_STORY
        if self.state is self.old_state and self.old_memo is not None and isinstance(action, str):
            known = self.old_memo.known_actions(player_id)
            if known is not None:  # the rules' apply looks the key up there (games that can)
                self.game.offer_to_auto(self.state, player_id, known)
        key = action.key if isinstance(action, Action) else action
        if not self._private_step(player_id, action):
            self.table_actors.add(player_id)
        outcome = self.game.apply(self.state, player_id, action, text=text)
        self.state = outcome.state
        self.actors.add(player_id)
        self.record(player_id, key, [*(before or []), *outcome.events], text)

    def _private_step(self, player_id: str, action: str | Action) -> bool:
        """The move is one of the player's private actions (a card picked in a DM). Known for a
        key only on the state the change started from (its actions are worked out already for
        the click); any other is counted as a table move."""
        if isinstance(action, Action):
            return action.private
        if not self.game.has_private_view or self.state is not self.old_state or self.old_memo is None:
            return False
        found = self.old_memo.action(player_id, action)
        return found is not None and found.private

    def auto_seat_to_act(self) -> str | None:
        assert self.state is not None
        for pid in self.game.to_act(self.state):
            seat = self.session.seat(pid)
            if seat is not None and seat.auto:
                return pid
        return None

    def humans_to_act(self, state: BaseModel | None) -> list[str]:
        if state is None:
            return []
        out = []
        for pid in self.game.to_act(state):
            seat = self.session.seat(pid)
            if seat is not None and not seat.auto:
                out.append(pid)
        return out


SAVED_SESSIONS = 1024
"""Sessions whose last save this process keeps (a few KB each: their text, not their parsed
state, which only `bot.models.KEPT` holds, so KEPT_STATES bounds it), for the next click at
their tables (`ServiceBase.get_current`)."""


def _copy_session(session: Session) -> Session:
    """A copy whose changes leave `session` as it is (its parsed state is shared: a state is
    never changed in place)."""
    return session.model_copy(update={"seats": [seat.model_copy() for seat in session.seats],
                                      "options": dict(session.options)})


class ServiceBase:
    """The store, the clock and the checks every part of the service uses."""

    TURN_TIMER_CHOICES = TURN_TIMER_CHOICES

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 seed_source: Callable[[], int] = new_seed):
        self.store = store
        self.clock = clock
        self.seed_source = seed_source
        self.records = Records(store)
        # In-process optimisation only: the version compare-and-swap is the guarantee.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._kept: set[tuple[str, str]] = set()  # content versions already in the database
        # Turn timers shared with other processes (bot/service/timers.py): this process's name,
        # its shards (None: not sharded), how long a claim or a silent process lasts.
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.shard_count: int | None = None
        self.shard_ids: list[int] | None = None
        self.lease = 60.0
        # Called with a session whose new state is about to be written (the Discord layer
        # starts drawing its pictures then, so they are drawn while the move is saved).
        self.before_save: Callable[[Session], None] | None = None
        # The sessions this process saved last, as saved (see `get_current`).
        self._saved: OrderedDict[int, Session] = OrderedDict()

    # --- plumbing ---------------------------------------------------------------
    @asynccontextmanager
    async def _locked(self, session_id: int) -> AsyncIterator[None]:
        lock = self._locks.get(session_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[session_id] = lock
        async with lock:
            yield

    async def get(self, session_id: int) -> Session:
        session = await self.store.load(session_id)
        if session is None:
            raise ServiceError(f"There is no game #{session_id}.")
        return await self.with_content(session)

    async def get_current(self, session_id: int, version: int | None) -> Session:
        """The session for a control rendered at `version`: a copy of this process's own last
        save of it when that is the version the control shows (no read: a move made on it is
        written only if nobody wrote since, by the compare-and-set, and otherwise tried again on
        what they wrote, see `act`), else the session as stored. Only what every change counts
        in the version is taken from the copy: the few writes that do not count (the table
        message, a closed-DMs flag, a reminder sent) drop the session from `_saved`."""
        saved = self._saved.get(session_id)
        if saved is not None and version is not None and saved.version == version:
            return await self.with_content(_copy_session(saved))
        return await self.get(session_id)

    def _remember(self, session: Session) -> None:
        saved = _copy_session(session)
        saved.drop_parsed()  # parsed again from KEPT (bounded by KEPT_STATES) when next clicked
        self._saved[session.id] = saved
        self._saved.move_to_end(session.id)
        while len(self._saved) > SAVED_SESSIONS:
            self._saved.popitem(last=False)

    def _forget(self, session_id: int) -> None:
        """A write that does not count in the version touched the session: read it next time."""
        self._saved.pop(session_id, None)

    async def with_content(self, session: Session) -> Session:
        """Make sure the content version the session's game started with is loaded here (the
        server's pack may have changed since, and this may be a new process): it comes back
        from the database."""
        if session.state_json is None:
            return session
        game = session.game()
        pinned = game.pinned_content()
        if pinned is None:
            return session
        version = game.content_version(session.state())
        if version is None or pinned.knows(version):
            return session
        kept = await self.store.get_content(game.id, version)
        if kept is None:
            raise ServiceError(f"The cards this game of {game.name} started with are no longer "
                               "known; it cannot go on. `/game end` it and start a new one.")
        pinned.restore(version, kept)
        return session

    async def keep_content(self, session: Session) -> None:
        """Write the content version a starting game uses to the database (once per version)."""
        game = session.game()
        pinned = game.pinned_content()
        version = game.content_version(session.state()) if session.state_json else None
        if pinned is None or version is None or (game.id, version) in self._kept:
            return
        await self.store.put_content(game.id, version, pinned.dump(version))
        self._kept.add((game.id, version))

    async def _save(self, session: Session, expected: int, *, seats: bool = True,
                    old_seats: list[Seat] | None = None,
                    log_rows: list[LogEntry] | None = None,
                    results: list[ResultRow] | None = None,
                    records: list[RecordRow] | None = None, holds: Sequence[Statement] = (),
                    on_commit: Callable[[], None] | None = None) -> None:
        session.updated_at = self.clock()
        try:
            ok = await self.store.save(session, expected, seats=seats, old_seats=old_seats,
                                       log=log_rows or (), results=results or (), records=records or (),
                                       holds=holds, on_commit=on_commit)
        except BaseException:
            self._forget(session.id)  # whether it was written is unknown
            raise
        if not ok:
            self._forget(session.id)
            raise LostRace()
        self._remember(session)

    @staticmethod
    def require_host(session: Session, user_id: int, can_manage: bool = False,
                      what: str = "do that") -> None:
        if user_id != session.host_id and not can_manage:
            host = session.seat_of_user(session.host_id)
            name = f" ({escape_markdown(host.name)})" if host else ""
            raise ServiceError(f"Only the host{name} can {what}.")

    @staticmethod
    def _require_lobby(session: Session) -> None:
        if session.status == "active":
            raise ServiceError("This game has already started.")
        if session.status != "lobby":
            raise ServiceError("This game has finished.")

    @staticmethod
    def _require_active(session: Session) -> None:
        if session.status == "lobby":
            raise ServiceError("This game has not started yet.")
        if session.status != "active":
            raise ServiceError("This game has finished.")

    def _playing_seat(self, session: Session, user_id: int) -> Seat:
        """The person's seat in a running game (ServiceError, NotSeated otherwise)."""
        self._require_active(session)
        seat = session.seat_of_user(user_id)
        if seat is None:
            raise NotSeated()
        return seat

    def _busy(self, existing: Session) -> ServiceError:
        name = GAMES[existing.game_id].name if existing.game_id in GAMES else existing.game_id
        return ServiceError(f"A game of {name} is already open here; finish it or "
                            "`/game end` it first.")

