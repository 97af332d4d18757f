"""The session service's value types: what the store keeps and the Discord layer reads."""

from __future__ import annotations

import datetime
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from bot.kept import Kept
from rules import get_game
from rules.core.game import Action, Event, Game, Result
from rules.core.text import escape_markdown

Status = Literal["lobby", "active", "finished", "abandoned"]

TURN_TIMER_CHOICES: list[tuple[str, str]] = [  # seconds (as the option stores them), label
    ("0", "Off"),
    ("60", "1 minute"),
    ("300", "5 minutes"),
    ("900", "15 minutes"),
    ("3600", "1 hour"),
    ("86400", "1 day"),
    ("259200", "3 days"),
    ("604800", "7 days"),
]
"""The lobby's turn timer choices."""


class Seat(BaseModel):
    position: int
    player_id: str
    """The id used inside the game state: str(discord user id) for people, "bot-1".. for
    automatic players."""
    name: str
    """Display name."""
    user_id: int | None
    """The Discord user; None for automatic players."""
    auto: bool = False
    """Played by the automatic player (an automatic seat, or a person's seat handed over)."""
    dm_blocked: bool = False
    """A DM to this player failed (Discord 50007): the table offers "Show my hand"."""
    record: str | None = None
    """The names of the records (characters ...) this seat brings in, one a line, for games
    that keep records between sessions; "": a new one; None: no choice (the latest one)."""

    @property
    def record_names(self) -> list[str] | None:
        """`record` as a list: None for no choice, [] for a new one."""
        if self.record is None:
            return None
        return [n for n in self.record.split("\n") if n]

    actions_version: int = 0
    """The session version at which this player's choices (their legal actions: keys and labels)
    last changed. A control rendered at version V >= this still means what it said, so a click
    on it is accepted even after other players moved (simultaneous choices)."""
    away_until: float | None = None
    """The person is away (`/game away`) until then (`AWAY_OPEN`: until they are back): the table
    waits for them, no automatic player takes their turns and nobody is reminded."""
    overdue: bool = False
    """Away, and their turn has waited past the table's time limit: the others may let the
    automatic player move for them (the table offers it)."""

    def is_away(self, now: float) -> bool:
        return self.away_until is not None and now < self.away_until

    table_version: int = 0
    """The same for the part of those choices the table shows (the actions that are not
    private): a private step (a card picked in a DM) leaves it, so the table's controls stay
    current and the table is not edited, which would tell the others that a step was made."""


class Memo:
    """One parsed state's legal actions and views, each computed once: a state never changes
    (`apply` returns a new one), so the commit, the answer and the DMs of one click share them."""

    def __init__(self, game: Game, state: BaseModel):
        self.game, self.state = game, state
        self._actions: dict[str, list[Action]] = {}
        self._views: dict[str | None, BaseModel] = {}

    def legal_actions(self, player_id: str) -> list[Action]:
        """The game's legal actions of this player (shared: do not change the list)."""
        found = self._actions.get(player_id)
        if found is None:
            found = self._actions[player_id] = self.game.legal_actions(self.state, player_id)
        return found

    def action(self, player_id: str, key: str) -> Action | None:
        """The player's legal action with this key, if any."""
        return next((a for a in self.legal_actions(player_id) if a.key == key), None)

    def known_actions(self, player_id: str) -> list[Action] | None:
        """This player's legal actions if already worked out (else None: nothing is computed)."""
        return self._actions.get(player_id)

    def view(self, viewer: str | None) -> BaseModel:
        """The game's view of the state for this viewer (None: the table)."""
        found = self._views.get(viewer)
        if found is None:
            found = self._views[viewer] = self.game.view(self.state, viewer)
        return found


KEPT: Kept[Memo] = Kept(256)
"""Parsed states kept in this process with their memos, by (game id, exact saved text), most
recently used first: every busy table's current state (a state replaced by a move is dropped at
once). Sized by KEPT_STATES, the one bound on the parsed states a process holds: whatever keeps
a session longer than a click (the service's saved sessions) keeps its text only
(`Session.drop_parsed`), and finds its parsed state here again. A kept state with every
viewer's view and every player's actions takes about 20-40 KB (Guilty Gods, Deathly Thrones) to
350-580 KB (Terra Sancta at 4, Gods of Magic at 8 players late in a game, By Gods and Kings at 8
characters): 256 of the largest, about 145 MB (bench/memory.py measures a process with 1,000
active sessions: bench/RESULTS.md)."""


def keep_states(count: int) -> None:
    """Keep at most `count` parsed states from now on (0: none)."""
    KEPT.resize(count)


def known_memo(game_id: str, state_json: str) -> Memo | None:
    """The memo of a state this process parsed or made, found by its exact saved text (a state
    is never changed once made, so equal text means an equal state: the next click at a table
    reuses the state its last move made, with the actions and views already worked out)."""
    return KEPT.find((game_id, state_json))


def forget_memos() -> None:
    """Drop every kept state (tests, and the benchmark's cold figures)."""
    KEPT.clear()


def utc_day(at: float) -> str:
    """A day as people write it, in UTC (the day `/game away` reads): 5 December 2026."""
    day = datetime.datetime.fromtimestamp(at, tz=datetime.UTC)
    return f"{day.day} {day:%B %Y} (UTC)"


AWAY_OPEN = 4_102_444_800.0
"""`Seat.away_until` of a person away until they say they are back (2100-01-01)."""


SHOWN_EVENTS_KEPT = 48
"""The public events of one change the table keeps (the Latest panel shows the last few and
counts the rest): a change of many automatic turns stores no more."""


def shown_events_json(public: list[Event]) -> str:
    """`Session.table_events` for a change's public events."""
    kept = public[-SHOWN_EVENTS_KEPT:]
    return json.dumps({"events": [e.model_dump(mode="json") for e in kept],
                       "skipped": len(public) - len(kept)})


class Invite(BaseModel):
    """A person invited back by "Play again", and the records their seat brought."""

    user_id: int
    record: str | None = None


class Rematch(BaseModel):
    of: int
    """The finished session."""
    people: list[Invite]
    """Its people other than the one who pressed Play again, in seat order."""
    order: list[int | None] = Field(default_factory=list)
    """Its seats in order: each person's user id, None for an automatic seat (the new lobby
    keeps this order as people join)."""

    def rank(self, seats: list[Seat]) -> list[Seat]:
        """`seats` in the finished game's order (newcomers after, as they came)."""
        bots = [i for i, u in enumerate(self.order) if u is None]
        out = []
        for n, seat in enumerate(seats):
            if seat.user_id is not None and seat.user_id in self.order:
                key = self.order.index(seat.user_id)
            elif seat.user_id is None and bots:
                key = bots.pop(0)
            else:
                key = len(self.order) + n
            out.append((key, n, seat))
        return [seat for _, _, seat in sorted(out, key=lambda x: (x[0], x[1]))]


class Session(BaseModel):
    id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    status: Status
    host_id: int
    options: dict[str, str]
    """The game's options (resolved with defaults) + "turn_timer" (seconds as str, "0" = off)."""
    seats: list[Seat]
    state_json: str | None
    """None in the lobby."""
    version: int
    """+1 on every committed change (lobby changes included; +1 per action in the log)."""
    created_at: float
    updated_at: float
    deadline: float | None = None
    """When the current turn times out (None: no timer)."""
    remind_at: float | None = None
    """When the player to act is reminded (deadline minus the reminder lead)."""
    reminded: bool = False
    """The reminder for the current deadline was sent."""
    table_channel_id: int | None = None
    table_message_id: int | None = None
    table_events: str | None = None
    """The public events the table shows (JSON, `Event`s): those of the last change that had
    any. Stored with the session, so a table drawn by any process after a private step (which
    has none) reads as before, its Latest and dice panels included."""

    rematch: str | None = None
    """A lobby opened by "Play again" (`Rematch` as JSON): the game it follows, the people
    invited back."""

    _state: Any = PrivateAttr(default=None)
    _memo: Memo | None = PrivateAttr(default=None)
    _shown: Any = PrivateAttr(default=None)

    def game(self) -> Game:
        return get_game(self.game_id)

    def _parsed(self) -> dict[str, Any]:
        """The parsed state and its memo, the private attributes `_state` and `_memo`, read and
        written in their dict: pydantic resolves `self._state` through `BaseModel.__getattr__`
        (a few microseconds each time), and a click asks for the state a few dozen times."""
        return self.__pydantic_private__  # type: ignore[return-value]

    def state(self) -> BaseModel:
        """The parsed game state (cached per instance); ValueError in the lobby."""
        if self.state_json is None:
            raise ValueError(f"session {self.id} has no state (status {self.status})")
        parsed = self._parsed()
        state = parsed["_state"]
        if state is None:
            text = self.state_json
            memo = KEPT.get((self.game_id, text), lambda: Memo(self.game(), self.game().load_state(text)))
            state = parsed["_state"] = memo.state
            parsed["_memo"] = memo
        return state

    def unparsed(self) -> Session:
        """A copy without the parsed state (for work that waits: an edit paced by Discord keeps
        only this, so that KEPT_STATES alone bounds the parsed states a process holds)."""
        copy = self.model_copy()
        copy.drop_parsed()
        return copy

    def drop_parsed(self) -> None:
        """Let go of the parsed state and its memo (kept in `KEPT` while KEPT_STATES allows):
        for a session kept after its click, so that only `KEPT` holds parsed states."""
        parsed = self._parsed()
        parsed["_state"] = parsed["_memo"] = None

    def set_state(self, state: BaseModel | None) -> None:
        """Replace the state (kept parsed, here and in this process's kept states, so neither
        this click nor the next one at the table parses it again)."""
        if self.state_json is not None:  # the state this one replaces is no longer any table's
            KEPT.forget((self.game_id, self.state_json))
        parsed = self._parsed()
        parsed["_state"], parsed["_memo"] = state, None
        if state is None:
            self.state_json = None
            return
        self.state_json = self.game().dump_state(state)
        parsed["_memo"] = memo = Memo(self.game(), state)
        KEPT.put((self.game_id, self.state_json), memo)

    def memo(self) -> Memo:
        """The legal actions and views of the current state, computed once each."""
        state = self.state()
        parsed = self._parsed()
        memo = parsed["_memo"]
        if memo is None or memo.state is not state:
            memo = parsed["_memo"] = Memo(self.game(), state)
        return memo

    def legal_actions(self, player_id: str) -> list[Action]:
        return self.memo().legal_actions(player_id)

    def action(self, player_id: str, key: str) -> Action | None:
        return self.memo().action(player_id, key)

    def view(self, viewer: str | None) -> BaseModel:
        return self.memo().view(viewer)

    def names(self) -> dict[str, str]:
        """Player id -> display name, escaped for message text and embeds (a name is shown as
        typed: no markdown, masked link or mention of its own)."""
        return {s.player_id: escape_markdown(s.name) for s in self.seats}

    def plain_names(self) -> dict[str, str]:
        """Player id -> display name as typed, for button labels, menu options and form titles
        (Discord shows no markdown there)."""
        return {s.player_id: s.name for s in self.seats}

    def seat_of_user(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def seat(self, player_id: str) -> Seat | None:
        return next((s for s in self.seats if s.player_id == player_id), None)

    def current_for(self, seat: Seat, version: int | None, *, on_table: bool = False) -> bool:
        """A control rendered at `version` is still current for this seat: nothing the seat may
        choose has changed since (None: commands, not checked). `on_table`: a control of the
        table (an action that is not private, or the table's menu pages), which stays current
        while the seat's table choices are unchanged (`Seat.table_version`)."""
        since = seat.table_version if on_table else seat.actions_version
        return version is None or since <= version <= self.version

    def rematch_of(self) -> Rematch | None:
        return Rematch.model_validate_json(self.rematch) if self.rematch else None

    def shown_events(self) -> tuple[list[Event], int]:
        """`table_events` parsed (none for a table not yet told anything), and how many earlier
        ones of that change were left out (`SHOWN_EVENTS_KEPT`)."""
        if not self.table_events:
            return [], 0
        parsed = self._parsed()
        known = parsed.get("_shown")
        if known is not None and known[0] is self.table_events:
            return known[1]
        data = json.loads(self.table_events)
        out = [Event.model_validate(e) for e in data["events"]], int(data.get("skipped", 0))
        parsed["_shown"] = (self.table_events, out)
        return out

    @property
    def turn_timer(self) -> int:
        return int(self.options.get("turn_timer", "0") or 0)

    @property
    def game_options(self) -> dict[str, str]:
        """The options the game itself knows (without the platform's "turn_timer")."""
        return {k: v for k, v in self.options.items() if k != "turn_timer"}


class ActResult(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)  # `old` is a Memo

    session: Session
    """After everything (automatic turns included)."""
    events: list[Event]
    """Every event in order, including the automatic players' turns that followed."""
    choices_changed: list[str] = Field(default_factory=list)
    """Player ids whose legal actions changed (their older controls no longer hold)."""
    view_candidates: list[str] = Field(default_factory=list)
    """Other players whose private view may have changed: compared when first asked
    (`changed_players`), i.e. after the click was answered."""
    old: Memo | None = Field(default=None, exclude=True, repr=False)
    """The state before the change, with its views (for that comparison)."""
    result: Result | None = None
    """Set when the game finished now."""
    timed_out: list[str] = Field(default_factory=list)
    """Player ids whose turn the automatic player took because time ran out."""
    newly_to_act: list[str] = Field(default_factory=list)
    """People who were not to act before this change and are now (their turn has come)."""
    table_same: bool = False
    """The table reads as before (a private step): it is not edited (`CommitService._table_same`)."""
    _changed: list[str] | None = PrivateAttr(None)

    @property
    def changed_players(self) -> list[str]:
        """Player ids whose private view or legal actions changed, in seat order."""
        if self._changed is None:
            old, new = self.old, self.session
            moved = set(self.choices_changed) | {
                p for p in self.view_candidates if old is None or old.view(p) != new.view(p)}
            self._changed = [s.player_id for s in self.session.seats if s.player_id in moved]
        return self._changed


class LogEntry(BaseModel):
    version: int
    """The session's version after this action."""
    player_id: str | None
    action_key: str
    text: str | None = None
    events: list[Event] = Field(default_factory=list)
    at: float


class StatRow(BaseModel):
    user_id: int | None
    name: str
    game_id: str
    played: int
    won: int
    tags: dict[str, dict[str, int]] = Field(default_factory=dict)
    """"<tag>:<value>" -> {"played": n, "won": m}, e.g. "quest:iron-throne", "character:knight",
    "faction:bots": the game-wide tags and this seat's own tags of every result."""


class ResultRow(BaseModel):
    """One seat of a finished game, as kept for statistics."""

    session_id: int
    guild_id: int | None
    game_id: str
    position: int
    player_id: str
    user_id: int | None
    name: str
    won: bool
    score: float | None = None
    tags: dict[str, str] = Field(default_factory=dict)
    """Game-wide tags and this seat's tags with the "<player_id>." prefix removed."""
    finished_at: float


class RecordRow(BaseModel):
    """What a person carries from one session of a game to the next (a character), as stored."""

    guild_id: int
    user_id: int
    game_id: str
    name: str
    data: str
    """The game's record model as JSON."""
    version: int = 0
    """+1 each time a game hands it back."""
    updated_at: float = 0.0
