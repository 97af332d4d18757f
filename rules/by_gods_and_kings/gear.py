"""Equipment: the ten weapon types, what may be worn together, and what a loadout adds.

- Two-handed weapons (axe, greatsword, bow, staff, scythe) leave the off hand empty.
- With a one-handed weapon (sword, spear, club, dagger, runeblade) the off hand may hold a
  shield; an off-hand weapon (dual-wielding, any one-handed type) or an off-hand item needs
  an equipped shard that allows it as well.
- A dual-wielded off-hand weapon gives half its stats, rounded down, and never decides which
  bonus a basic attack adds. Nothing in the off hand changes SPD.
- Each weapon type adds its speed to SPD, ranked as the rulebook ranks them: the dagger is the
  fastest, the axe the slowest.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from rules.by_gods_and_kings.content import Catalogue, Stats, WeaponType
from rules.by_gods_and_kings.effects_model import Stat


class WeaponRule(NamedTuple):
    hands: int
    bonus: Literal["physical", "magic", "either"]
    """Which stat a basic attack adds: bows and daggers let the player choose."""
    speed: int
    """Added to SPD."""
    pace: str
    """How the rulebook ranks its speed."""


WEAPON_RULES: dict[WeaponType, WeaponRule] = {
    "dagger": WeaponRule(1, "either", 3, "the fastest"),
    "bow": WeaponRule(2, "either", 2, "moderately quick"),
    "club": WeaponRule(1, "magic", 2, "moderately quick"),
    "runeblade": WeaponRule(1, "magic", 1, "adequately quick"),
    "sword": WeaponRule(1, "physical", 0, "average"),
    "spear": WeaponRule(1, "physical", -1, "below average"),
    "greatsword": WeaponRule(2, "physical", -2, "slow"),
    "scythe": WeaponRule(2, "magic", -2, "quite slow"),
    "staff": WeaponRule(2, "magic", -3, "very slow"),
    "axe": WeaponRule(2, "physical", -4, "the slowest"),
}

OffKind = Literal["weapon", "shield", "item"]


class Loadout(BaseModel):
    """What a character wears: item ids (None: empty)."""

    model_config = ConfigDict(frozen=True)

    main: str | None = None
    off: str | None = None
    body: str | None = None
    head: str | None = None


def weapon_type(cat: Catalogue, loadout: Loadout) -> WeaponType | None:
    return cat.items[loadout.main].type if loadout.main else None


def one_handed(cat: Catalogue, loadout: Loadout) -> bool:
    kind = weapon_type(cat, loadout)
    return kind is not None and WEAPON_RULES[kind].hands == 1


def allows_offhand(cat: Catalogue, equipped: Iterable[str]) -> bool:
    return any(cat.shards[s].offhand for s in equipped)


def off_kind(cat: Catalogue, item: str) -> OffKind | None:
    """What an item would be in the off hand (None: it cannot go there)."""
    it = cat.items[item]
    if it.slot == "weapon":
        assert it.type is not None
        return "weapon" if WEAPON_RULES[it.type].hands == 1 else None
    if it.slot == "shield":
        return "shield"
    if it.slot == "offhand":
        return "item"
    return None


def loadout_problem(cat: Catalogue, loadout: Loadout, equipped: Iterable[str]) -> str | None:
    """Why this loadout cannot be worn with these shards (None: it can)."""
    slots = {"main": "weapon", "body": "body", "head": "head"}
    for field, slot in slots.items():
        item = getattr(loadout, field)
        if item is not None and cat.items[item].slot != slot:
            return f"{cat.items[item].name} is not a {slot} piece"
    if loadout.off is None:
        return None
    kind = off_kind(cat, loadout.off)
    name = cat.items[loadout.off].name
    if kind is None:
        return f"{name} cannot be held in the off hand"
    if not one_handed(cat, loadout):
        return f"{name} needs a one-handed weapon in the main hand"
    if kind != "shield" and not allows_offhand(cat, equipped):
        return f"{name} in the off hand needs a shard that allows it"
    return None


def gear_stats(cat: Catalogue, loadout: Loadout) -> Stats:
    """What the worn equipment adds (weapon speed included)."""
    out = Stats()
    kind = weapon_type(cat, loadout)
    if loadout.main is not None and kind is not None:
        out = out + cat.items[loadout.main].stats + Stats(spd=WEAPON_RULES[kind].speed)
    for piece in (loadout.body, loadout.head):
        if piece is not None:
            out = out + cat.items[piece].stats
    if loadout.off is not None:
        item = cat.items[loadout.off]
        stats = item.stats.halved() if item.slot == "weapon" else item.stats
        out = out + stats.model_copy(update={"spd": 0})
    return out


def shard_stats(cat: Catalogue, equipped: Iterable[str], loadout: Loadout,
                others: set[str]) -> Stats:
    """What the equipped shards add: their equip bonus, and each conditional bonus whose
    conditions hold (`others`: the shards the other characters of the party have equipped)."""
    out = Stats()
    kind = weapon_type(cat, loadout)
    for sid in equipped:
        shard = cat.shards[sid]
        out = out + shard.equip
        for bonus in shard.bonuses:
            if bonus.ally_shard and not others.intersection(bonus.ally_shard):
                continue
            if bonus.weapon and kind not in bonus.weapon:
                continue
            out = out + bonus.stats
    return out


def attack_stats(cat: Catalogue, loadout: Loadout) -> list[Stat]:
    """The bonuses a basic attack may add, by the main-hand weapon (bare hands: Physical)."""
    kind = weapon_type(cat, loadout)
    if kind is None:
        return ["physical"]
    bonus = WEAPON_RULES[kind].bonus
    return ["physical", "magic"] if bonus == "either" else [bonus]
