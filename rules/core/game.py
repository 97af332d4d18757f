"""The game interface every game of Pantheon implements.

A game is a set of pure functions over a serializable pydantic state (see
DESIGN.md). The bot only ever talks to games through `Game`.

`Game` is generic in the game's state and view models: a game declares
`class MyGame(Game[MyState, MyView])` and types its methods with them. A bare
`Game` (the bot's registry, a test game) stands for any game.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import Any, ClassVar, Generic, Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from rules.core.content import Pinned
from rules.core.rng import Rng
from rules.core.text import count as counted


class IllegalAction(Exception):
    """An action that the rules do not allow now. The message is shown to the user."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def who(player: str) -> str:
    """A reference to a player inside event or panel text; the front end shows their name."""
    return f"⟨{player}⟩"


_WHO = re.compile(r"⟨([^⟩]+)⟩")


def name_players(text: str, names: dict[str, str]) -> str:
    """Replace every `who(player)` reference in `text` with that player's display name."""
    return _WHO.sub(lambda m: names.get(m.group(1), m.group(1)), text)


ButtonStyle = Literal["primary", "secondary", "success", "danger"]


class Action(BaseModel):
    """One atomic, enumerable action a player may take now."""

    model_config = ConfigDict(frozen=True)

    key: str
    """Stable identifier, at most 64 characters of [A-Za-z0-9_.:-]: it travels in a custom_id."""
    label: str
    """What the button or menu option says (at most 80 characters)."""
    group: str | None = None
    """Actions sharing a group are offered together in one select menu with this placeholder."""
    description: str | None = None
    """A longer explanation, shown under a menu option (at most 100 characters)."""
    private: bool = False
    """True when the label reveals hidden information (a card in hand): offered only in the
    player's private view, never on the public table."""
    style: ButtonStyle = "secondary"
    text_prompt: str | None = None
    """When set, the front end asks the player for a line of text (a modal) and passes it to
    `apply` as `text`."""
    text_required: bool = False


class Event(BaseModel):
    """Something that happened, for the log and for renderers."""

    kind: str
    """A short type name: 'card_played', 'dice_rolled', 'damage', 'turn', ..."""
    text: str
    """One line for the log, in the project's own words; may contain `who(player)` references."""
    data: dict[str, Any] = Field(default_factory=dict)
    visible_to: list[str] | None = None
    """None: everyone may see it; otherwise only these players (a card drawn, ...)."""

    def visible_for(self, player: str | None) -> bool:
        return self.visible_to is None or (player is not None and player in self.visible_to)


class EventData(BaseModel):
    """The typed data of one kind of event, for the events a front end reads (a die to draw, a
    round to number): the game builds the event from it, the renderer reads it back typed.

        class MagicRoll(EventData):
            kind: ClassVar[str] = "magic_roll"
            player: str
            face: int

        events.append(MagicRoll(player=p, face=6).event(f"{who(p)} rolls 6."))
        roll = MagicRoll.of(event)          # in the renderer: roll.face is an int
    """

    kind: ClassVar[str]

    def event(self, text: str, visible_to: list[str] | None = None) -> Event:
        return Event(kind=self.kind, text=text, data=self.model_dump(mode="json"),
                     visible_to=visible_to)

    @classmethod
    def of(cls, event: Event) -> Self:
        """The event's data, typed; ValueError when the event is of another kind."""
        if event.kind != cls.kind:
            raise ValueError(f"a {event.kind!r} event is not a {cls.kind!r} event")
        return cls.model_validate(event.data)


class Outcome(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    state: Any
    events: list[Event] = Field(default_factory=list)


class Result(BaseModel):
    """A finished game."""

    winners: list[str]
    """Players who won (empty: everybody lost, as in a solo run that ends in death)."""
    scores: dict[str, float] = Field(default_factory=dict)
    summary: str
    """One or two lines for the table; may contain `who(player)` references."""
    tags: dict[str, str] = Field(default_factory=dict)
    """Extra facts kept with the result for statistics (character, quest, faction of a seat ...)."""


class OptionChoice(BaseModel):
    value: str
    label: str
    description: str | None = None
    """A line under the label in the lobby's menu (Discord shows at most 100 characters)."""


class OptionSpec(BaseModel):
    """A lobby option of a game (chosen by the host before the start)."""

    key: str
    label: str
    choices: list[OptionChoice]
    default: str

    def validate_value(self, value: str) -> str:
        if value not in {c.value for c in self.choices}:
            allowed = ", ".join(c.value for c in self.choices)
            raise IllegalAction(f"`{value}` is not a choice for {self.label}: use one of {allowed}.")
        return value


class RulesPage(BaseModel):
    title: str
    body: str
    """Markdown, at most 4,000 characters."""


StateT = TypeVar("StateT", bound=BaseModel)
"""The model of a game's state (what `setup` returns and every method receives)."""
ViewT = TypeVar("ViewT", bound=BaseModel)
"""The model of what a player or a spectator sees (what `view` returns)."""


class Game(ABC, Generic[StateT, ViewT]):
    """Base class of every game. Subclasses set the class attributes and implement the methods."""

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    """One line for the game choice in `/game new`."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_type: type[StateT]
    """Set in the class body (`state_type = MyState`); `load_state` validates with it."""
    options: list[OptionSpec] = []
    """Lobby options: usually set in the class body, or in `__init__` when built from content.
    Never mutated in place."""
    simulation_options: ClassVar[tuple[str, ...]] = ()
    """Keys `resolve_options` accepts for simulations and tests only (rules.simulate, the
    bench), never at a table: the lobby refuses them by name."""
    max_steps: ClassVar[int] = 10_000
    """Upper bound on actions in one game, for playout tests."""
    colour: ClassVar[int] = 0x5865F2
    has_private_view: ClassVar[bool] = True
    """False when nothing is hidden from the table (a solo run, chess): no DMs, no "My hand"."""
    record_type: ClassVar[type[BaseModel] | None] = None
    """Carry-over between sessions: the model of what a player brings into a game and takes out
    of it (a character with its experience and gear, a deck choice). None: the game keeps
    nothing between sessions. Records are kept per server and per person; in the lobby each
    seat picks one of its owner's records, or a new one."""
    record_label: ClassVar[str] = "record"
    """What a record is called at the table ("character", "deck")."""
    records_per_seat: ClassVar[int] = 1
    """How many records one seat may bring (a person running several characters)."""

    # --- setup -----------------------------------------------------------
    def resolve_options(self, options: dict[str, str] | None) -> dict[str, str]:
        """The defaults, overridden by `options`; raises IllegalAction on an unknown key or value."""
        out = {o.key: o.default for o in self.options}
        specs = {o.key: o for o in self.options}
        for key, value in (options or {}).items():
            if key not in specs:
                known = ", ".join(specs) or "none"
                raise IllegalAction(f"{self.name} has no option `{key}` (options: {known}).")
            out[key] = specs[key].validate_value(str(value))
        return out

    def check_players(self, count: int) -> None:
        if count < self.min_players:
            raise IllegalAction(f"{self.name} needs at least {counted(self.min_players, 'player')}.")
        if count > self.max_players:
            raise IllegalAction(f"{self.name} seats at most {counted(self.max_players, 'player')}.")

    @abstractmethod
    def setup(self, players: list[str], options: dict[str, str], seed: int) -> StateT:
        """A new state for these players (in seat order)."""

    def start(self, players: list[str], options: dict[str, str], seed: int,
              records: dict[str, list[BaseModel]] | None = None) -> Outcome:
        """A new game with its opening events (rolls for the first player, a faction drawn ...),
        as a move returns them. The front ends call this; the default is `setup` with no
        events, and a game whose opening has something to tell overrides it.

        `records`: for games with a `record_type`, what each player brings in (player id ->
        their records, 1 to `records_per_seat`, in the order chosen; a new one when they chose
        none)."""
        return Outcome(state=self.setup(players, options, seed))

    def new_record(self, name: str) -> BaseModel:
        """A fresh record named `name` (a new character) for games with a `record_type`."""
        raise NotImplementedError(f"{self.name} keeps no records between sessions")

    def record_kinds(self) -> list[OptionChoice]:
        """What a new record may start as (a starting kit), for `/character create`; [] when
        there is no choice."""
        return []

    def create_record(self, name: str, kind: str | None) -> BaseModel:
        """A new record made on purpose (`/character create`): `kind` is one of `record_kinds`.
        Raises IllegalAction with a sentence for a kind that does not exist."""
        return self.new_record(name)

    def describe_record(self, record: BaseModel) -> list[tuple[str, str]]:
        """The record as (heading, text) sections for `/character view`."""
        return [("Record", record.model_dump_json()[:1000])]

    def records_out(self, state: StateT) -> dict[str, list[BaseModel]]:
        """What each player takes out of a finished game (player id -> their updated records,
        in the order they were brought: experience gained, loot kept). Only for games with a
        `record_type`; the store saves them for the players' owners."""
        return {}

    # --- play ------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: StateT) -> list[str]:
        """The players the game is waiting for (empty when finished): a required choice. Several
        at once are a simultaneous choice ("everyone ready"). They drive the turn timer, the
        reminders and "to act" on the table."""

    def may_act(self, state: StateT) -> list[str]:
        """Players the game does not wait for but who may act now: a reaction out of turn (an
        objection, an ability usable at any moment). Their actions are offered like any other
        (in their private view, or on the table when nothing is hidden), no timer runs for them,
        and automatic players answer through `auto_reaction`. Default: nobody."""
        return []

    def acting(self, state: StateT) -> list[str]:
        """Everyone who has actions now: the required players first, then those who may react."""
        required = self.to_act(state)
        return required + [p for p in self.may_act(state) if p not in required]

    @abstractmethod
    def legal_actions(self, state: StateT, player: str) -> list[Action]:
        """Everything `player` may do now."""

    @abstractmethod
    def apply(
        self, state: StateT, player: str, action: str | Action, text: str | None = None
    ) -> Outcome:
        """The new state and events; raises IllegalAction and leaves `state` untouched."""

    @abstractmethod
    def view(self, state: StateT, player: str | None) -> ViewT:
        """What `player` may see (None: a spectator, i.e. the public table)."""

    @abstractmethod
    def result(self, state: StateT) -> Result | None:
        """None while the game runs."""

    @abstractmethod
    def auto_action(self, state: StateT, player: str, rng: Rng) -> Action:
        """The automatic player's choice among `legal_actions(state, player)`."""

    def auto_reaction(self, state: StateT, player: str, rng: Rng) -> Action | None:
        """The automatic player's answer to an optional moment (`may_act`): one of
        `legal_actions(state, player)`, or None to let it pass. Default: never reacts."""
        return None

    @abstractmethod
    def rules_pages(self) -> list[RulesPage]:
        """The game explained in the project's own words, for `/game rules`."""

    # --- helpers with defaults ---------------------------------------------
    def load_state(self, data: str) -> StateT:
        return self.state_type.model_validate_json(data)

    def dump_state(self, state: StateT) -> str:
        return state.model_dump_json()

    def resample(self, state: StateT, player: str | None, rng: Rng) -> StateT:
        """A state that `player` (None: a spectator at the table) cannot tell apart from `state`:
        everything hidden from them (other players' hands and pending choices, the order of the
        deck, the random generator's seed) dealt anew with `rng`, consistently with what they see
        (the same counts, the same public cards). Returns a new state; `state` is untouched.

        The shared tests use it to prove that nothing hidden reaches a player: their view, their
        action labels, the public actions and the table must come out the same for both states.
        Every game with hidden information overrides it; the default suits games where nothing
        but the dice is hidden: only the generator's seed changes."""
        clone = state.model_copy(deep=True)
        current = getattr(clone, "rng", None)
        if isinstance(current, Rng):
            reseeded = Rng(seed=rng.randint(0, 2**62), counter=current.counter)
            clone = clone.model_copy(update={"rng": reseeded})
        return clone

    def pinned_content(self) -> Pinned[Any] | None:
        """The game's content versions (`rules.core.content.Pinned`) when its states name the
        version they play with; None when the game reads nothing that a pack could change
        under a running game."""
        return None

    def content_version(self, state: StateT) -> str | None:
        """The content version this state plays with (its `content` field), if any."""
        version = getattr(state, "content", None)
        return version if isinstance(version, str) else None

    def check_invariants(self, state: StateT) -> None:
        """Raise AssertionError when the state breaks one of the game's invariants."""
        return None

    def phase_timeout(self, state: StateT) -> int | None:
        """Seconds allowed for the current phase when it has its own short limit (an objection
        window ...); None: the session's turn timer applies."""
        return None

    def state_shape(self, state: StateT) -> Hashable | None:
        """A cheap summary of a state that changes with every move, or None (the default) when
        the game does not use `offer_to_auto`. It guards the reuse of the automatic player's
        actions: a state object changed in place since is checked the long way."""
        return None

    def offer_to_auto(self, state: StateT, player: str, legal: list[Action]) -> list[Action]:
        """`legal`, the actions an `auto_action` chooses among, remembered for the `apply` of
        its choice on this very state object (`find_action` looks the key up there instead of
        building every legal action again: a simulation applies each automatic choice at once).
        Only for games with a `state_shape`."""
        shape = self.state_shape(state)
        self._offered = None if shape is None else (state, player, shape, legal)
        return legal

    _offered: tuple[Any, str, Hashable, list[Action]] | None = None

    def find_action(self, state: StateT, player: str, action: str | Action) -> Action:
        """The legal action with this key, or IllegalAction with a clear message. Right after
        `auto_action` on this very state (the same object, its shape unchanged; see
        `offer_to_auto`), the actions it chose among are looked up."""
        key = action.key if isinstance(action, Action) else action
        offered, self._offered = self._offered, None
        if offered is not None and offered[0] is state and offered[1] == player \
                and offered[2] == self.state_shape(state):
            for candidate in offered[3]:
                if candidate.key == key:
                    return candidate
        for candidate in self.legal_actions(state, player):
            if candidate.key == key:
                return candidate
        if player not in self.acting(state) and not self.legal_actions(state, player):
            raise IllegalAction("It is not your turn.")
        raise IllegalAction("That move is not possible now.")

    def parse_move_text(self, state: StateT, player: str, text: str) -> list[str]:
        """The action keys that play a typed move (`/move b3 c5`), in order; IllegalAction with a
        reason when the text cannot be read or the move is not allowed."""
        raise IllegalAction(f"{self.name} has no typed moves: use the buttons on the table.")

    def move_completions(self, state: StateT, player: str, prefix: str) -> list[str]:
        """Typed moves starting with `prefix`, for autocomplete (at most 25)."""
        return []

    def players(self, state: StateT) -> list[str]:
        """The seats in order: the state's `players` field (every game state has one)."""
        seats: list[str] | None = getattr(state, "players", None)
        if seats is None:
            raise AttributeError(f"{type(state).__name__} has no `players`: override Game.players")
        return list(seats)

    def seat_label(self, state: StateT, player: str) -> str | None:
        """An extra word shown beside a seat (a faction, a character), if any."""
        return None
