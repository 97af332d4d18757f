"""The typed events a renderer reads (see rules.core.game.EventData)."""

from __future__ import annotations

from typing import ClassVar

from rules.core import EventData


class TurnBegan(EventData):
    kind: ClassVar[str] = "turn"
    unit: str
    name: str
    round: int


class CardPlayed(EventData):
    kind: ClassVar[str] = "card_played"
    unit: str
    card: str
    field: list[str]


class TargetPicked(EventData):
    """An enemy's target card (None when a taunt chose the target)."""

    kind: ClassVar[str] = "target_picked"
    foe: str
    card: str | None
    number: int | None
    target: str


class AbilityUsed(EventData):
    kind: ClassVar[str] = "ability"
    unit: str
    name: str
    how: str
    """discard, sacrifice, flush, straight, three, threshold, held, sync."""


class Hit(EventData):
    kind: ClassVar[str] = "hit"
    source: str
    target: str
    raw: int
    dealt: int
    """What reached the target after DEF (shield included)."""
    hp: int


class Healed(EventData):
    kind: ClassVar[str] = "healed"
    target: str
    amount: int
    hp: int


class Fell(EventData):
    kind: ClassVar[str] = "fell"
    unit: str


class StatusSet(EventData):
    kind: ClassVar[str] = "status"
    target: str
    status: str
    amount: int
    turns: int


class SaveMade(EventData):
    kind: ClassVar[str] = "save"
    hero: str
    save: str
    stat: int
    card: str | None
    total: int
    target: int
    passed: bool


class BattleEnded(EventData):
    kind: ClassVar[str] = "battle_end"
    won: bool
    step: int
