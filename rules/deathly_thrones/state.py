"""The run's state and its public view.

The four stacks of the deck: health (hearts) and armor (spades) are counters
0..9; the battle deck (clubs and diamonds 1..9) is split between the face-down
deck, the discard pile and the two cards on the table; the step deck (10, J, Q,
K) between the face-down deck and the cards already drawn.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.core import Card, EventData, Rng
from rules.deathly_thrones.content import EventType

Phase = Literal["walk", "fight", "choose", "over"]
"""walk: draw a step card; fight: draw battle cards; choose: where the damage lands; over."""
Side = Literal["you", "enemy"]
Part = Literal["health", "armor"]


class Round(BaseModel):
    """One exchange of a fight: the two battle cards and what they did."""

    your_card: Card
    enemy_card: Card
    your_power: int
    """Your health (strength) plus your card."""
    enemy_power: int
    hits: int
    """The difference of the attack powers."""
    target: Side | None
    """Who takes the hits (None: a tie, redrawn)."""
    armor: int = 0
    """The target's armor when hit."""
    damage: int = 0
    """Hits minus the target's armor (never below 0)."""
    part: Part | None = None
    """Where the damage went (None: no damage, or the choice is still open)."""
    lost: int = 0
    """Points actually lost by that part (it cannot go below 0)."""


class Fight(BaseModel):
    step: int
    enemy: str
    health: int
    armor: int
    start_health: int
    start_armor: int
    rounds: int = 0
    """Rounds drawn so far, ties included."""
    last: Round | None = None
    """The round on the table (its damage choice open while the phase is 'choose')."""


class RunState(BaseModel):
    players: list[str]
    character: str
    quest: str
    content: str = ""
    """The version of this run's character and quest (`content.RUNS`), pinned at the start: a
    run keeps its quest when a server changes its pack. Empty: read them from the files."""
    health: int
    armor: int
    position: int = 0
    """The step reached, 0 before the first card."""
    phase: Phase = "walk"
    step_deck: list[Card]
    """Face down; the order is hidden."""
    steps_drawn: list[Card] = Field(default_factory=list)
    battle_deck: list[Card]
    """Face down; the order is hidden."""
    battle_discard: list[Card] = Field(default_factory=list)
    battle_table: list[Card] = Field(default_factory=list)
    """The two cards of a round whose damage choice is still open."""
    fight: Fight | None = None
    visited: list[int] = Field(default_factory=list)
    """Steps landed on (their events were played), in order."""
    note: str = ""
    """What the last event did, for the table."""
    outcome: Literal["won", "dead"] | None = None
    rng: Rng


class PassedStep(BaseModel):
    step: int
    type: EventType
    name: str
    landed: bool
    """True when the player landed there and played the event; False when walked past."""
    story: str | None = None


class CurrentEvent(BaseModel):
    step: int
    type: EventType
    name: str
    text: str
    outcome: str
    result: str
    """The reward or penalty, described."""


class FightView(BaseModel):
    enemy: str
    health: int
    armor: int
    start_health: int
    start_armor: int
    rounds: int
    last: Round | None = None
    choosing: bool = False
    """True when the player must now choose where the damage of `last` lands."""


class RunView(BaseModel):
    """The public run: the same for the player and for spectators (only deck order is hidden)."""

    player: str
    character: str
    character_name: str
    quest: str
    quest_name: str
    intro: str
    health: int
    armor: int
    position: int
    length: int
    phase: Phase
    steps_drawn: list[Card]
    step_cards_left: int
    battle_cards_left: int
    battle_discard: int
    passed: list[PassedStep]
    current: CurrentEvent | None = None
    fight: FightView | None = None
    note: str = ""
    outcome: Literal["won", "dead"] | None = None
    throne: str = ""
    """The ending, once won."""


class BattleDrawn(EventData):
    """One round of battle cards drawn: its number, and the round itself (cards, powers, hits)."""

    model_config = ConfigDict(extra="allow")
    kind: ClassVar[str] = "battle"
    round: int
