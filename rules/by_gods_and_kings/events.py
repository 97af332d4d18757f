"""The typed events a renderer reads (see rules.core.game.EventData)."""

from __future__ import annotations

from typing import Any, ClassVar

from rules.core import Event, EventData, Outcome


class _Said:
    """The data of an event of a `Said` type, made by `Said.said`, ready for its text."""

    __slots__ = ("kind", "data")

    def __init__(self, kind: str, data: dict[str, Any]) -> None:
        self.kind, self.data = kind, data

    def event(self, text: str) -> Event:
        out = object.__new__(Event)
        setattr_ = object.__setattr__
        setattr_(out, "__dict__", {"kind": self.kind, "text": text, "data": self.data, "visible_to": None})
        setattr_(out, "__pydantic_fields_set__", {"kind", "text", "data", "visible_to"})
        setattr_(out, "__pydantic_extra__", None)
        setattr_(out, "__pydantic_private__", None)
        return out


_PLAIN_SET = frozenset(("kind", "text"))
_DATA_SET = frozenset(("kind", "text", "data"))


def plain(kind: str, text: str, data: dict[str, Any] | None = None) -> Event:
    """`Event(kind=kind, text=text, data=data)` (`data` left out when None) made by hand as
    `_Said.event` makes its events: the callers pass a string kind and text and data of plain
    JSON values, which validation would only copy into a new dict. A test compares the events
    of seeded games with the validated ones."""
    out = object.__new__(Event)
    setattr_ = object.__setattr__
    setattr_(out, "__dict__", {"kind": kind, "text": text, "data": {} if data is None else dict(data),
                               "visible_to": None})
    setattr_(out, "__pydantic_fields_set__", set(_PLAIN_SET if data is None else _DATA_SET))
    setattr_(out, "__pydantic_extra__", None)
    setattr_(out, "__pydantic_private__", None)
    return out


def outcome(state: Any, events: list[Event]) -> Outcome:
    """`Outcome(state=state, events=events)` made by hand (the events are already Events)."""
    out = object.__new__(Outcome)
    setattr_ = object.__setattr__
    setattr_(out, "__dict__", {"state": state, "events": list(events)})
    setattr_(out, "__pydantic_fields_set__", {"state", "events"})
    setattr_(out, "__pydantic_extra__", None)
    setattr_(out, "__pydantic_private__", None)
    return out


class Said(EventData):
    """Event data that the game may also make by hand (`said`)."""

    @classmethod
    def said(cls, **data: Any) -> _Said:
        """`cls(**data)`, for its `.event(text)`, made by hand: validating the data, dumping it
        and validating the event again was most of an event's cost, and the callers pass plain
        JSON values already (strings, numbers, lists of strings). A test checks every event of
        seeded games against the validated way."""
        names = _FIELD_NAMES.get(cls)
        if names is None:
            names = _FIELD_NAMES[cls] = tuple(cls.model_fields)
        return _Said(cls.kind, {name: (v[:] if type(v) is list else v) for name in names for v in (data[name],)})


_FIELD_NAMES: dict[type[Said], tuple[str, ...]] = {}
"""The fields of each kind of `Said` data, in order (read once: `model_fields` is a property)."""


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


