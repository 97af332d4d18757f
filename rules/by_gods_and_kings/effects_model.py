"""What an ability does, as content describes it: its target and its effect.

Shard abilities, enemy abilities, NPC abilities and save penalties all use one small
vocabulary (`Effect`) that the code implements (`rules.by_gods_and_kings.effects`); content
combines its fields. Targets are relative to whoever uses the ability (`Target`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

StatusKind = Literal["bleed", "poison", "burn", "petrify", "freeze", "choke", "stun", "paralyze",
                     "sleep", "blind", "numb"]
STATUS_KINDS: tuple[StatusKind, ...] = ("bleed", "poison", "burn", "petrify", "freeze", "choke",
                                        "stun", "paralyze", "sleep", "blind", "numb")
DAMAGE_OVER_TIME: tuple[StatusKind, ...] = ("bleed", "poison")
STAT_DOWN: dict[StatusKind, str] = {"burn": "defense", "petrify": "physical", "freeze": "spd",
                                    "choke": "magic"}
"""Statuses that lower a stat while they last, and which one."""
ALLIES_ONLY: tuple[StatusKind, ...] = ("stun", "paralyze")
"""Statuses that never touch enemies or NPCs."""

STATUS_TEXT: dict[StatusKind, str] = {
    "bleed": "loses {amount} HP at the start of each turn",
    "poison": "loses {amount} HP at the start of each turn",
    "burn": "DEF lowered by {amount}",
    "petrify": "Physical lowered by {amount}",
    "freeze": "SPD lowered by {amount}",
    "choke": "Magic lowered by {amount}",
    "stun": "draws no card",
    "paralyze": "plays no card (Discard and Sacrifice still allowed)",
    "sleep": "skips the turn",
    "blind": "flips the top card each turn: 9 to King and the attack or ability misses",
    "numb": "uses no ability",
}

Target = Literal["foe", "foes", "ally", "allies", "self", "fallen"]
"""Relative to the user. foe: one opponent (a player chooses it; an enemy aims at the character
its target card picked); foes: every living opponent; ally: one living member of the user's
side (a player chooses, for an NPC too; an enemy helps the most wounded); allies: every living member
of the user's side; self; fallen: one character of the party at 0 HP (revivals)."""
TARGET_TEXT: dict[Target, str] = {
    "foe": "one foe", "foes": "every foe", "ally": "one ally", "allies": "every ally",
    "self": "oneself", "fallen": "a fallen ally"}

Stat = Literal["physical", "magic"]


class StatusSpec(BaseModel):
    """A status an effect causes: its kind, its amount (HP a turn for bleed and poison, the stat
    lost for burn, petrify, freeze and choke; nothing for the others) and how many of the
    bearer's turns it lasts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: StatusKind
    amount: int = Field(0, ge=0, le=50)
    turns: int = Field(ge=1, le=9)

    @model_validator(mode="after")
    def _amount(self) -> StatusSpec:
        needs = self.kind in DAMAGE_OVER_TIME or self.kind in STAT_DOWN
        if needs and self.amount < 1:
            raise ValueError(f"{self.kind} needs an amount of at least 1")
        if not needs and self.amount:
            raise ValueError(f"{self.kind} takes no amount")
        return self

    def describe(self) -> str:
        what = STATUS_TEXT[self.kind].format(amount=self.amount)
        return f"{self.kind} ({what}) for {self.turns} turn{'s' * (self.turns > 1)}"


class Effect(BaseModel):
    """What an ability does to each of its targets; the fields combine."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    damage: int = Field(0, ge=0, le=200)
    heal: int = Field(0, ge=0, le=200)
    shield: int = Field(0, ge=0, le=200)
    """A barrier that takes damage before HP (after DEF), until the battle ends."""
    stat: Stat | None = None
    """Adds the user's Physical or Magic to the damage, heal and shield."""
    add_card: bool = False
    """Adds the value of the card(s) spent on the ability (discarded, sacrificed, or the three
    Field cards of a hand) to the damage, heal and shield."""
    pierce: bool = False
    """The damage ignores DEF."""
    statuses: list[StatusSpec] = Field(default_factory=list)
    cleanse: bool = False
    """Removes every status from the target."""
    revive: int = Field(0, ge=0, le=200)
    """A fallen character comes back with this many HP (keeping its Field)."""
    taunt: int = Field(0, ge=0, le=9)
    """The target foes aim only at the user for this many of their turns."""
    draw: int = Field(0, ge=0, le=5)
    """The target characters draw this many cards (never above 5 in hand)."""
    wipe_field: bool = False
    """The target's Field goes to the discard pile."""

    @property
    def scaled(self) -> bool:
        return bool(self.damage or self.heal or self.shield)

    def is_empty(self) -> bool:
        return not (self.scaled or self.statuses or self.cleanse or self.revive or self.taunt
                    or self.draw or self.wipe_field)

    @model_validator(mode="after")
    def _check(self) -> Effect:
        if self.is_empty():
            raise ValueError("the effect does nothing")
        if (self.stat or self.add_card) and not self.scaled:
            raise ValueError("stat and add_card add to damage, heal or shield: set one of them")
        if self.pierce and not self.damage:
            raise ValueError("pierce needs damage")
        kinds = [s.kind for s in self.statuses]
        if len(set(kinds)) != len(kinds):
            raise ValueError("a status is listed twice")
        return self

    def describe(self) -> str:
        extra = ""
        if self.stat:
            extra += f" + {'Physical' if self.stat == 'physical' else 'Magic'}"
        if self.add_card:
            extra += " + the spent cards' value"
        parts = []
        if self.damage:
            parts.append(f"deals {self.damage}{extra}{' (ignores DEF)' if self.pierce else ''}")
        if self.heal:
            parts.append(f"heals {self.heal}{extra}")
        if self.shield:
            parts.append(f"shields {self.shield}{extra}")
        if self.revive:
            parts.append(f"revives with {self.revive} HP")
        if self.cleanse:
            parts.append("removes every status")
        if self.taunt:
            parts.append(f"taunts for {self.taunt} turn{'s' * (self.taunt > 1)}")
        if self.draw:
            parts.append(f"draws {self.draw}")
        if self.wipe_field:
            parts.append("wipes the Field")
        parts.extend(s.describe() for s in self.statuses)
        return ", ".join(parts)


def check_target(target: Target, effect: Effect, *, enemy_side: bool) -> None:
    """Raise ValueError when the effect makes no sense on that target."""
    harmful = bool(effect.damage or effect.statuses or effect.taunt or effect.wipe_field)
    helpful = bool(effect.heal or effect.shield or effect.cleanse or effect.revive or effect.draw)
    if target in ("foe", "foes") and helpful:
        raise ValueError(f"a {target} ability cannot heal, shield, cleanse, revive or draw")
    if target not in ("foe", "foes") and (effect.damage or effect.statuses or effect.wipe_field):
        raise ValueError(f"damage, statuses and wipe_field need a foe or foes target, not {target}")
    if effect.taunt and target not in ("foe", "foes"):
        raise ValueError("taunt needs a foe or foes target (the foes taunted)")
    if (effect.revive != 0) != (target == "fallen"):
        raise ValueError("revive goes with the target fallen, and fallen with revive")
    if enemy_side and target == "fallen":
        raise ValueError("enemies and NPCs revive nobody")
    if enemy_side and effect.draw:
        raise ValueError("enemies and NPCs make nobody draw")
    if not harmful and not helpful:
        raise ValueError("the effect does nothing")
