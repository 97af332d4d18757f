"""The session service: lobbies, turns, automatic players and turn timers, over the store.

No discord import: the Discord layer (and the local table, and the benchmark) call this.
Every change follows one path: lock the session -> load it -> check seat, turn and
version -> `rules.apply` -> automatic seats play -> commit state, seats and log rows in
one transaction (a compare-and-swap on the version) -> return the events. Nothing is
sent before the commit, so a failed send never loses or doubles a move.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from pydantic import BaseModel

from bot.models import (
    TURN_TIMER_CHOICES,
    ActResult,
    LogEntry,
    RecordRow,
    ResultRow,
    Seat,
    Session,
    StatRow,
)
from bot.records import RecordError, Records
from bot.store import TABLE_TARGET, ChannelBusy, Store
from rules import GAMES, get_game
from rules.core.game import Action, Event, Game, IllegalAction, Result, who
from rules.core.rng import Rng, new_seed

log = logging.getLogger(__name__)

PING_TARGET = "#ping"
"""The `messages.target` of a session's turn ping in the channel."""

REMINDER_LEAD_MAX = 300.0
"""The reminder comes a quarter of the allowed time before the deadline, at most this early."""
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


class NotYourTurn(ServiceError):
    default = "It is not your turn."


class NotSeated(ServiceError):
    default = "You are not playing in this game."


def default_turn_timer(game: Game) -> str:
    return "0" if game.max_players == 1 else "300"


def _auto_rng(session_id: int, version: int, player_id: str) -> Rng:
    """The automatic player's generator for one choice: derived from the session and version,
    so a replay makes the same choices."""
    digest = hashlib.blake2b(f"auto:{session_id}:{version}:{player_id}".encode(), digest_size=8)
    return Rng(seed=int.from_bytes(digest.digest(), "big") >> 1)


class _Change:
    """One committed change in the making: the session, its new state and the log rows."""

    def __init__(self, session: Session, now: float):
        self.session = session
        self.game = session.game()
        self.base_version = session.version
        self.old_state: BaseModel | None = session.state() if session.state_json else None
        self.state: BaseModel | None = self.old_state
        self.old_seats = [s.model_copy() for s in session.seats]
        self.log: list[LogEntry] = []
        self.events: list[Event] = []
        self.now = now
        self.actors: set[str] = set()
        self.auto_played = False

    def record(self, player_id: str | None, action_key: str, events: list[Event],
               text: str | None = None) -> None:
        self.session.version += 1
        self.log.append(LogEntry(version=self.session.version, player_id=player_id,
                                 action_key=action_key, text=text, events=events, at=self.now))
        self.events.extend(events)

    def play(self, player_id: str, action: str | Action, text: str | None = None,
             before: list[Event] | None = None) -> None:
        """Apply one action (IllegalAction propagates and nothing is recorded)."""
        assert self.state is not None
        outcome = self.game.apply(self.state, player_id, action, text=text)
        key = action.key if isinstance(action, Action) else action
        self.state = outcome.state
        self.actors.add(player_id)
        self.record(player_id, key, [*(before or []), *outcome.events], text)

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


class SessionService:
    """Everything the front ends do to a game goes through here."""

    TURN_TIMER_CHOICES = TURN_TIMER_CHOICES

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 seed_source: Callable[[], int] = new_seed):
        self.store = store
        self.clock = clock
        self.seed_source = seed_source
        self.records = Records(store)
        # In-process optimisation only: the version compare-and-swap is the guarantee.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

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
        return session

    async def _save(self, session: Session, expected: int, *, seats: bool = True,
                    log_rows: list[LogEntry] | None = None,
                    results: list[ResultRow] | None = None,
                    records: list[RecordRow] | None = None) -> None:
        session.updated_at = self.clock()
        ok = await self.store.save(session, expected, seats=seats, log=log_rows or (),
                                   results=results or (), records=records or ())
        if not ok:
            raise StaleVersion()

    @staticmethod
    def _require_host(session: Session, user_id: int, can_manage: bool = False,
                      what: str = "do that") -> None:
        if user_id != session.host_id and not can_manage:
            host = session.seat_of_user(session.host_id)
            name = f" ({host.name})" if host else ""
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

    def _busy(self, existing: Session) -> ServiceError:
        name = GAMES[existing.game_id].name if existing.game_id in GAMES else existing.game_id
        return ServiceError(f"A game of {name} is already open here; finish it or "
                            "`/game end` it first.")

    # --- lobby ------------------------------------------------------------------
    async def open_lobby(self, *, guild_id: int | None, channel_id: int, game_id: str,
                         host_id: int, host_name: str,
                         options: dict[str, str] | None = None) -> Session:
        try:
            game = get_game(game_id)
        except KeyError:
            installed = ", ".join(sorted(GAMES)) or "none"
            shown = game_id[:40].replace("`", "'")
            raise ServiceError(f"Unknown game `{shown}`. Installed: {installed}.") from None
        existing = await self.store.open_in_channel(channel_id)
        if existing is not None:
            raise self._busy(existing)
        opts = {k: str(v) for k, v in (options or {}).items()}
        timer = self._check_timer(opts.pop("turn_timer", default_turn_timer(game)))
        try:
            resolved = game.resolve_options(opts)
        except IllegalAction as exc:
            raise ServiceError(exc.message) from None
        resolved["turn_timer"] = timer
        now = self.clock()
        session = Session(
            id=0, guild_id=guild_id, channel_id=channel_id, game_id=game_id, status="lobby",
            host_id=host_id, options=resolved, state_json=None, version=1, created_at=now,
            updated_at=now,
            seats=[Seat(position=0, player_id=str(host_id), name=host_name, user_id=host_id)],
        )
        try:
            session.id = await self.store.insert_session(session)
        except ChannelBusy:
            existing = await self.store.open_in_channel(channel_id)
            raise self._busy(existing) if existing else ServiceError(
                "A game is already open here.") from None
        return session

    @staticmethod
    def _check_timer(value: str) -> str:
        value = str(value)
        allowed = [v for v, _ in TURN_TIMER_CHOICES]
        if value not in allowed:
            raise ServiceError(f"`{value}` is not a choice for the turn timer: use one of "
                               f"{', '.join(allowed)} (seconds).")
        return value

    async def _lobby_change(self, session_id: int,
                            change: Callable[[Session, Game], None]) -> Session:
        async with self._locked(session_id):
            session = await self.get(session_id)
            self._require_lobby(session)
            expected = session.version
            change(session, session.game())
            for i, seat in enumerate(session.seats):
                seat.position = i
            session.version += 1
            await self._save(session, expected)
            return session

    async def join(self, session_id: int, user_id: int, name: str) -> Session:
        def change(s: Session, game: Game) -> None:
            if s.seat_of_user(user_id) is not None:
                raise ServiceError("You are already at this table.")
            if len(s.seats) >= game.max_players:
                raise ServiceError(f"The table is full ({game.max_players} seats).")
            s.seats.append(Seat(position=len(s.seats), player_id=str(user_id), name=name,
                                user_id=user_id))
        return await self._lobby_change(session_id, change)

    async def leave_lobby(self, session_id: int, user_id: int) -> Session:
        """The host leaving hands the host to the next person, or cancels when none is left."""
        def change(s: Session, game: Game) -> None:
            seat = s.seat_of_user(user_id)
            if seat is None:
                raise NotSeated("You are not at this table.")
            s.seats.remove(seat)
            people = [x for x in s.seats if x.user_id is not None]
            if not people:
                s.status = "abandoned"
            elif user_id == s.host_id:
                s.host_id = people[0].user_id  # type: ignore[assignment]
        return await self._lobby_change(session_id, change)

    async def add_bot(self, session_id: int, by_user_id: int) -> Session:
        def change(s: Session, game: Game) -> None:
            self._require_host(s, by_user_id, what="add an automatic player")
            if len(s.seats) >= game.max_players:
                raise ServiceError(f"The table is full ({game.max_players} seats).")
            used = {x.player_id for x in s.seats}
            n = next(i for i in range(1, len(used) + 2) if f"bot-{i}" not in used)
            s.seats.append(Seat(position=len(s.seats), player_id=f"bot-{n}", name=f"Bot {n}",
                                user_id=None, auto=True))
        return await self._lobby_change(session_id, change)

    async def remove_bot(self, session_id: int, player_id: str, by_user_id: int) -> Session:
        """Host only: take an automatic seat away from the lobby."""
        def change(s: Session, game: Game) -> None:
            self._require_host(s, by_user_id, what="remove an automatic player")
            seat = s.seat(player_id)
            if seat is None or seat.user_id is not None:
                raise ServiceError("There is no such automatic player at this table.")
            s.seats.remove(seat)
        return await self._lobby_change(session_id, change)

    async def set_option(self, session_id: int, by_user_id: int, key: str, value: str) -> Session:
        def change(s: Session, game: Game) -> None:
            self._require_host(s, by_user_id, what="change the options")
            if key == "turn_timer":
                s.options[key] = self._check_timer(value)
                return
            spec = next((o for o in game.options if o.key == key), None)
            if spec is None:
                known = ", ".join([o.key for o in game.options] + ["turn_timer"])
                raise ServiceError(f"{game.name} has no option `{key}` (options: {known}).")
            try:
                s.options[key] = spec.validate_value(str(value))
            except IllegalAction as exc:
                raise ServiceError(exc.message) from None
        return await self._lobby_change(session_id, change)

    async def choose_record(self, session_id: int, user_id: int, name: str) -> Session:
        """In the lobby, a person picks the record their seat brings in (NEW: a new one)."""
        session = await self.get(session_id)
        self._require_lobby(session)
        if session.game().record_type is None:
            raise ServiceError(f"{session.game().name} keeps nothing between games.")
        try:
            await self.records.check_choice(session, user_id, name)
        except RecordError as exc:
            raise ServiceError(exc.message) from None

        def change(s: Session, game: Game) -> None:
            seat = s.seat_of_user(user_id)
            if seat is None:
                raise NotSeated("Join the table first, then choose.")
            seat.record = name
        return await self._lobby_change(session_id, change)

    async def records_of(self, guild_id: int | None, user_id: int, game_id: str) -> list[RecordRow]:
        return await self.records.of(guild_id, user_id, get_game(game_id))

    async def cancel(self, session_id: int, by_user_id: int, *, can_manage: bool = False) -> Session:
        """lobby -> abandoned (host or a manager)."""
        def change(s: Session, game: Game) -> None:
            self._require_host(s, by_user_id, can_manage, what="cancel this lobby")
            s.status = "abandoned"
        return await self._lobby_change(session_id, change)

    # --- play -------------------------------------------------------------------
    async def start(self, session_id: int, by_user_id: int) -> ActResult:
        async with self._locked(session_id):
            session = await self.get(session_id)
            self._require_lobby(session)
            self._require_host(session, by_user_id, what="start the game")
            game = session.game()
            try:
                game.check_players(len(session.seats))
            except IllegalAction as exc:
                raise ServiceError(exc.message) from None
            seed = int(self.seed_source())
            change = _Change(session, self.clock())
            records = None
            if game.record_type is not None:
                try:
                    records = await self.records.bring(session)
                except RecordError as exc:
                    raise ServiceError(exc.message) from None
            opening = game.start([s.player_id for s in session.seats], session.game_options, seed,
                                 records=records)
            change.state = opening.state
            session.status = "active"
            names = ", ".join(who(s.player_id) for s in session.seats)
            # the seed fixes every shuffle and roll: it stays inside the state, never in an event
            change.record(str(by_user_id), "start",
                          [Event(kind="start", text=f"{game.name} begins: {names}.",
                                 data={"players": [s.player_id for s in session.seats]}),
                           *opening.events])
            return await self._commit(change)

    async def act(self, session_id: int, user_id: int, action_key: str | list[str], *,
                  version: int | None, text: str | None = None) -> ActResult:
        """A person's action, or several applied together in one commit (a typed `/move`).
        `version` None: not checked (commands). Raises StaleVersion, NotSeated, NotYourTurn,
        ServiceError, or the rules' IllegalAction (then nothing is written)."""
        keys = [action_key] if isinstance(action_key, str) else list(action_key)
        if not keys:
            raise ServiceError("No move given.")
        async with self._locked(session_id):
            session = await self.get(session_id)
            self._require_active(session)
            seat = session.seat_of_user(user_id)
            if seat is None:
                raise NotSeated()
            if not session.current_for(seat, version):
                raise StaleVersion()
            if seat.auto:
                raise ServiceError("The automatic player has your seat in this game now.")
            change = _Change(session, self.clock())
            game, state, pid = change.game, change.state, seat.player_id
            assert state is not None
            if pid not in game.acting(state) and not any(
                    a.key == keys[0] for a in game.legal_actions(state, pid)):
                raise NotYourTurn()
            for i, key in enumerate(keys):
                change.play(pid, key, text=text if i == len(keys) - 1 else None)
            return await self._commit(change)

    async def hand_to_auto(self, session_id: int, player_id: str, by_user_id: int, *,
                           can_manage: bool = False) -> ActResult:
        """The host (or a manager) gives a seat to the automatic player."""
        async with self._locked(session_id):
            session = await self.get(session_id)
            self._require_active(session)
            seat = session.seat(player_id)
            own = seat is not None and seat.user_id == by_user_id
            if not own:
                self._require_host(session, by_user_id, can_manage,
                                   what="give a seat to the automatic player")
            if seat is None:
                raise ServiceError("There is no such seat in this game.")
            if seat.auto:
                raise ServiceError("The automatic player already has that seat.")
            change = _Change(session, self.clock())
            seat.auto = True
            change.record(player_id, "auto", [Event(
                kind="seat_auto", text=f"The automatic player takes over {who(player_id)}'s seat.",
                data={"player": player_id})])
            return await self._commit(change)

    async def leave_game(self, session_id: int, user_id: int) -> ActResult:
        """The seat becomes automatic; if no person is left playing, the game is abandoned.
        In a lobby this is `leave_lobby`."""
        session = await self.get(session_id)
        if session.status == "lobby":
            left = await self.leave_lobby(session_id, user_id)
            return ActResult(session=left, events=[], changed_players=[])
        return await self._set_auto(
            session_id, user_id, True, refused="You have already left this game.", key="leave",
            kind="left", text="{who} leaves; the automatic player takes the seat.")

    async def take_back_seat(self, session_id: int, user_id: int) -> ActResult:
        """A person takes their seat back from the automatic player (after `leave_game` or a
        hand-over by the host)."""
        return await self._set_auto(
            session_id, user_id, False, refused="You are already playing this seat.", key="back",
            kind="seat_back", text="{who} takes their seat back.")

    async def _set_auto(self, session_id: int, user_id: int, auto: bool, *, refused: str, key: str,
                        kind: str, text: str) -> ActResult:
        """A person gives their seat to the automatic player (auto=True) or takes it back."""
        async with self._locked(session_id):
            session = await self.get(session_id)
            self._require_active(session)
            seat = session.seat_of_user(user_id)
            if seat is None:
                raise NotSeated()
            if seat.auto == auto:
                raise ServiceError(refused)
            change = _Change(session, self.clock())
            seat.auto = auto
            change.record(seat.player_id, key, [Event(
                kind=kind, text=text.format(who=who(seat.player_id)), data={"player": seat.player_id})])
            return await self._commit(change)

    async def end(self, session_id: int, by_user_id: int, *, can_manage: bool = False) -> Session:
        """Host or manager: a lobby or active game -> abandoned."""
        async with self._locked(session_id):
            session = await self.get(session_id)
            if session.status not in ("lobby", "active"):
                raise ServiceError("This game has already ended.")
            self._require_host(session, by_user_id, can_manage, what="end this game")
            expected = session.version
            session.status = "abandoned"
            session.deadline = session.remind_at = None
            session.reminded = False
            session.version += 1
            rows = [LogEntry(version=session.version, player_id=str(by_user_id), action_key="end",
                             events=[Event(kind="ended", text="The game was ended.")],
                             at=self.clock())]
            await self._save(session, expected, seats=False, log_rows=rows)
            return session

    # --- the commit -----------------------------------------------------------------
    def _run_auto(self, change: _Change) -> None:
        """Automatic seats play until a person must act or the game ends: first the reactions
        they want to make while the moment lasts (`Game.auto_reaction`), then the choices the
        game waits for."""
        game = change.game
        for _ in range(max(game.max_steps, 1)):
            assert change.state is not None
            if game.result(change.state) is not None:
                return
            reaction = self._auto_reaction(change)
            if reaction is not None:
                change.auto_played = True
                change.play(*reaction)
                continue
            pid = change.auto_seat_to_act()
            if pid is None:
                return
            rng = _auto_rng(change.session.id, change.session.version, pid)
            change.auto_played = True
            change.play(pid, game.auto_action(change.state, pid, rng))
        log.warning("session %s: automatic players stopped after %s steps",
                    change.session.id, game.max_steps)

    @staticmethod
    def _auto_reaction(change: _Change) -> tuple[str, Action] | None:
        """The first automatic seat that wants to react now, with its reaction."""
        game, state = change.game, change.state
        assert state is not None
        for pid in game.may_act(state):
            seat = change.session.seat(pid)
            if seat is None or not seat.auto:
                continue
            action = game.auto_reaction(state, pid, _auto_rng(change.session.id,
                                                              change.session.version, pid))
            if action is not None:
                return pid, action
        return None

    def _set_timer(self, change: _Change, *, force: bool) -> None:
        session, game, state = change.session, change.game, change.state
        assert state is not None
        humans = change.humans_to_act(state)
        allowed = (game.phase_timeout(state) or session.turn_timer) if humans else 0
        if not allowed:
            session.deadline = session.remind_at = None
            session.reminded = False
            return
        if not force and session.deadline is not None and change.old_state is not None \
                and not change.auto_played:
            # The same turn goes on (a composite move, a cheer, one of several players to
            # act finished): the deadline stays, so nobody can stall by acting in place.
            before = set(change.humans_to_act(change.old_state))
            if set(humans) <= before and change.actors <= before and \
                    game.phase_timeout(change.old_state) == game.phase_timeout(state):
                return
        session.deadline = change.now + allowed
        session.remind_at = session.deadline - min(allowed / 4, REMINDER_LEAD_MAX)
        session.reminded = False

    def _changed_players(self, change: _Change) -> tuple[list[str], set[str]]:
        """The players whose private view or choices changed, and those whose choices (legal
        actions) changed."""
        game, old, new = change.game, change.old_state, change.state
        assert new is not None
        out, choices = [], set()
        for seat in change.session.seats:
            pid = seat.player_id
            moved = old is None or game.legal_actions(old, pid) != game.legal_actions(new, pid)
            if moved:
                choices.add(pid)
            if moved or game.view(old, pid) != game.view(new, pid):
                out.append(pid)
        return out, choices

    def _result_rows(self, session: Session, result: Result, now: float) -> list[ResultRow]:
        pids = {s.player_id for s in session.seats}
        common = {k: v for k, v in result.tags.items() if k.split(".", 1)[0] not in pids}
        rows = []
        for seat in session.seats:
            prefix = seat.player_id + "."
            tags = dict(common)
            tags.update({k[len(prefix):]: v for k, v in result.tags.items() if k.startswith(prefix)})
            rows.append(ResultRow(
                session_id=session.id, guild_id=session.guild_id, game_id=session.game_id,
                position=seat.position, player_id=seat.player_id, user_id=seat.user_id,
                name=seat.name, won=seat.player_id in result.winners,
                score=result.scores.get(seat.player_id), tags=tags, finished_at=now))
        return rows

    async def _commit(self, change: _Change, *, timed_out: list[str] | None = None,
                      force_timer: bool = False) -> ActResult:
        """Automatic seats play, then the state, seats, log and results are written at once."""
        session, game = change.session, change.game
        result: Result | None = None
        if not any(s.user_id is not None and not s.auto for s in session.seats):
            session.status = "abandoned"  # nobody is left to play for
            change.record(None, "abandon", [Event(kind="abandoned",
                                                  text="No player is left: the game is abandoned.")])
        else:
            self._run_auto(change)
            assert change.state is not None
            result = game.result(change.state)
        session.set_state(change.state)
        results: list[ResultRow] = []
        kept: list[RecordRow] = []
        if result is not None:
            session.status = "finished"
            results = self._result_rows(session, result, change.now)
            assert change.state is not None
            kept = self.records.take_out(session, change.state, change.now)
            change.events.append(Event(kind="game_over", text=result.summary,
                                       data={"winners": result.winners}))
            if change.log:
                change.log[-1].events.append(change.events[-1])
        if session.status == "active":
            self._set_timer(change, force=force_timer)
        else:
            session.deadline = session.remind_at = None
            session.reminded = False
        changed, choices = self._changed_players(change)
        for seat in session.seats:  # their controls rendered before now no longer mean the same
            if seat.player_id in choices:
                seat.actions_version = session.version
        before = set(game.to_act(change.old_state)) if change.old_state is not None else set()
        newly = [p for p in change.humans_to_act(change.state) if p not in before] \
            if session.status == "active" else []
        await self._save(session, change.base_version, seats=session.seats != change.old_seats,
                         log_rows=change.log, results=results, records=kept)
        return ActResult(session=session, events=change.events, changed_players=changed,
                         result=result, timed_out=timed_out or [], newly_to_act=newly)

    # --- timers -------------------------------------------------------------------
    async def due_reminders(self) -> list[Session]:
        """Active sessions whose reminder is due (and not sent), before their deadline."""
        now = self.clock()
        out = []
        for sid, deadline, remind_at, reminded in await self.store.timed_sessions(due_by=now):
            if not reminded and remind_at is not None and remind_at <= now < deadline:
                session = await self.store.load(sid)
                if session is not None:
                    out.append(session)
        return out

    async def mark_reminded(self, session_id: int, deadline: float | None = None) -> None:
        """The reminder was sent. Pass the session's `deadline` as seen when reminding, so a
        deadline that moved on meanwhile keeps its own reminder."""
        if deadline is None:
            session = await self.get(session_id)
            deadline = session.deadline
        await self.store.set_reminded(session_id, deadline)

    async def expire_turns(self) -> list[ActResult]:
        """The automatic player takes the turns whose time ran out."""
        now = self.clock()
        out = []
        for sid, deadline, _, _ in await self.store.timed_sessions(due_by=now):
            if deadline > now:
                continue
            try:
                result = await self._expire(sid, now)
            except ServiceError:
                continue  # another process moved it on first
            except Exception:
                log.exception("session %s: the turn timer failed", sid)
                continue
            if result is not None:
                out.append(result)
        return out

    async def _expire(self, session_id: int, now: float) -> ActResult | None:
        async with self._locked(session_id):
            session = await self.get(session_id)
            if session.status != "active" or session.deadline is None or session.deadline > now:
                return None
            change = _Change(session, self.clock())
            game = change.game
            late = change.humans_to_act(change.state)
            for pid in late:
                note = [Event(kind="timeout", data={"player": pid},
                              text=f"Time ran out for {who(pid)}: the automatic player takes the turn.")]
                for _ in range(TIMEOUT_STEPS):
                    assert change.state is not None
                    if game.result(change.state) is not None or pid not in game.to_act(change.state):
                        break
                    rng = _auto_rng(session.id, session.version, pid)
                    change.play(pid, game.auto_action(change.state, pid, rng), before=note)
                    note = []
            return await self._commit(change, timed_out=late, force_timer=True)

    async def next_deadline(self) -> float | None:
        """The earliest deadline or unsent reminder, so the bot can sleep until then."""
        return await self.store.next_timer()

    # --- messages and flags ----------------------------------------------------------
    async def mark_dm_blocked(self, session_id: int, player_id: str, blocked: bool) -> None:
        async with self._locked(session_id):
            await self.store.set_dm_blocked(session_id, player_id, blocked)

    async def set_table_message(self, session_id: int, channel_id: int, message_id: int) -> None:
        await self.store.set_message(session_id, TABLE_TARGET, channel_id, message_id)

    async def set_dm_message(self, session_id: int, player_id: str, channel_id: int,
                             message_id: int) -> None:
        await self.store.set_message(session_id, player_id, channel_id, message_id)

    async def dm_message(self, session_id: int, player_id: str) -> tuple[int, int] | None:
        return await self.store.get_message(session_id, player_id)

    async def set_ping_message(self, session_id: int, channel_id: int, message_id: int) -> None:
        """The short "your turn" message in the channel (replaced, never piled up)."""
        await self.store.set_message(session_id, PING_TARGET, channel_id, message_id)

    async def ping_message(self, session_id: int) -> tuple[int, int] | None:
        return await self.store.get_message(session_id, PING_TARGET)

    # --- queries ---------------------------------------------------------------------
    async def active_in_channel(self, channel_id: int) -> Session | None:
        return await self.store.open_in_channel(channel_id)

    async def latest_in_channel(self, channel_id: int) -> Session | None:
        """The newest session of this channel, finished ones included."""
        return await self.store.latest_in_channel(channel_id)

    async def sessions_of_user(self, user_id: int) -> list[Session]:
        return await self.store.active_of_user(user_id)

    async def recent_log(self, session_id: int, limit: int = 15) -> list[LogEntry]:
        return await self.store.recent_log(session_id, limit)

    async def stats(self, guild_id: int | None, game_id: str | None = None, *,
                    include_bots: bool = False) -> list[StatRow]:
        """Games played and won per person (and game) in this server, most wins first."""
        rows: dict[tuple[str, object, str], StatRow] = {}
        for r in await self.store.results(guild_id, game_id):
            if r.user_id is None and not include_bots:
                continue
            key = ("user", r.user_id, r.game_id) if r.user_id is not None else ("bot", r.name, r.game_id)
            row = rows.get(key)
            if row is None:
                row = rows[key] = StatRow(user_id=r.user_id, name=r.name, game_id=r.game_id,
                                          played=0, won=0)
            row.name = r.name  # the latest name
            row.played += 1
            row.won += int(r.won)
            for tag, value in r.tags.items():
                counts = row.tags.setdefault(f"{tag}:{value}", {"played": 0, "won": 0})
                counts["played"] += 1
                counts["won"] += int(r.won)
        return sorted(rows.values(), key=lambda x: (-x.won, -x.played, x.name.lower(), x.game_id))
