"""The typed events a renderer reads (see rules.core.game.EventData)."""

from __future__ import annotations

from typing import Any, ClassVar, get_origin

from rules.by_gods_and_kings.cow import built
from rules.core import Event, EventData, Outcome

_PLAIN_SET = frozenset(("kind", "text"))
_DATA_SET = frozenset(("kind", "text", "data"))


def plain(kind: str, text: str, data: dict[str, Any] | None = None) -> Event:
    """`Event(kind=kind, text=text, data=data)` (`data` left out when None) made by hand as
    `Said.told` makes its events: the callers pass a string kind and text and data of plain
    JSON values, which validation would only copy into a new dict. A test compares the events
    of seeded games with the validated ones."""
    return built(Event, {"kind": kind, "text": text, "data": {} if data is None else dict(data), "visible_to": None},
                 set(_PLAIN_SET if data is None else _DATA_SET))


def outcome(state: Any, events: list[Event]) -> Outcome:
    """`Outcome(state=state, events=events)` made by hand (the events are already Events)."""
    return built(Outcome, {"state": state, "events": list(events)}, {"state", "events"})


class Said(EventData):
    """Event data that the game may also make by hand (`told`)."""

    @classmethod
    def told(cls, text: str, /, **data: Any) -> Event:
        """`cls(**data).event(text)` made by hand: validating the data, dumping it and
        validating the event again was most of an event's cost, and the callers pass plain
        JSON values already (strings, numbers, lists of strings). The callers name the fields
        in their order, so the keywords' dict (a new one at every call) is the data itself,
        each list in it copied; named in another order, they are put in the fields' order (that
        of the event's dump). A test checks every event of seeded games against the validated
        way."""
        fields = _FIELDS.get(cls)
        if fields is None:
            fields = _FIELDS[cls] = _fields_of(cls)
        names, lists = fields
        if tuple(data) != names:
            data = {name: data[name] for name in names}
        for name in lists:
            data[name] = data[name][:]
        return built(Event, {"kind": cls.kind, "text": text, "data": data, "visible_to": None},
                     {"kind", "text", "data", "visible_to"})


def _fields_of(cls: type[Said]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The fields of a kind of `Said` data in order, and those of them holding a list."""
    fields = cls.model_fields
    return tuple(fields), tuple(name for name, f in fields.items() if get_origin(f.annotation) is list)


_FIELDS: dict[type[Said], tuple[tuple[str, ...], tuple[str, ...]]] = {}
"""`_fields_of` each kind of `Said` data (read once: `model_fields` is a property)."""


class TurnBegan(Said):
    kind: ClassVar[str] = "turn"
    unit: str
    name: str
    round: int


class CardPlayed(Said):
    kind: ClassVar[str] = "card_played"
    unit: str
    card: str
    field: list[str]


class TargetPicked(Said):
    """An enemy's target card (None when a taunt chose the target)."""

    kind: ClassVar[str] = "target_picked"
    foe: str
    card: str | None
    number: int | None
    target: str


class AbilityUsed(Said):
    kind: ClassVar[str] = "ability"
    unit: str
    name: str
    how: str
    """discard, sacrifice, flush, straight, three, threshold, held, sync."""


class Hit(Said):
    kind: ClassVar[str] = "hit"
    source: str
    target: str
    raw: int
    dealt: int
    """What reached the target after DEF (shield included)."""
    hp: int


class Healed(Said):
    kind: ClassVar[str] = "healed"
    target: str
    amount: int
    hp: int


class Fell(Said):
    kind: ClassVar[str] = "fell"
    unit: str


class StatusSet(Said):
    kind: ClassVar[str] = "status"
    target: str
    status: str
    amount: int
    turns: int


class SaveMade(Said):
    kind: ClassVar[str] = "save"
    hero: str
    save: str
    stat: int
    card: str | None
    total: int
    target: int
    passed: bool


class BattleEnded(Said):
    kind: ClassVar[str] = "battle_end"
    won: bool
    step: int


