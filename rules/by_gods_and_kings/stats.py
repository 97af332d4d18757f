"""A unit's stats now: base values, equipment and shards (characters), lowered by statuses.

HP in a sheet is the maximum; the unit's `hp` is what it has left.
"""

from __future__ import annotations

from typing import Any

from rules.by_gods_and_kings.content import Catalogue, Stats
from rules.by_gods_and_kings.cow import built
from rules.by_gods_and_kings.effects_model import STAT_DOWN
from rules.by_gods_and_kings.gear import gear_stats, shard_stats
from rules.by_gods_and_kings.levels import growth_stats
from rules.by_gods_and_kings.memo import LIMIT, catalogue_memo
from rules.by_gods_and_kings.state import BgkState, Foe, Hero, Npc, Unit

BOSS_RANKS = ("boss", "mega_boss")


SMALL_PARTY_HP = {1: 16, 2: 38, 3: 85}
"""Percent of the written HP every enemy has against a party of one, two or three."""


def scaled_hp(hp: int, rank: str, party: int) -> int:
    """An enemy's HP for a party of this size, rounded up. Content writes HP for a party of
    four. Smaller parties meet every enemy with a share of it (SMALL_PARTY_HP). Larger parties
    meet more minions and mini bosses (a battle's `min_party`) and bosses with HP ×
    (2 × party + 1) / 9 (17/9 for eight)."""
    if party < 4:
        return -(-hp * SMALL_PARTY_HP[party] // 100)
    if rank not in BOSS_RANKS:
        return hp
    return -(-hp * (2 * party + 1) // 9)


def hero_base(cat: Catalogue, hero: Hero, party: list[Hero]) -> Stats:
    """A character's stats without statuses: base + equipment + shards (their levels'
    growth included). Remembered per catalogue for everything they depend on (see memo.py),
    keyed on plain tuples: the character's template, loadout items, shards and their experience, and
    those of the other characters' equipped shards that a bonus of its shards asks for (most
    shards ask for none: then the party is not read)."""
    equipped = tuple(hero.equipped)
    worn = hero.loadout  # its item ids: plain strings hash and compare faster than the model
    xp = hero.shard_xp
    key = (hero.template, worn.main, worn.off, worn.body, worn.head, equipped, tuple(map(xp.get, equipped)))
    held = _HERO_BASE
    if held[0] is not cat or len(held[1]) > LIMIT:
        held = _hero_base_table(cat)
    memo = held[1]
    found = memo.get(key)
    if found is None:
        asked = frozenset(x for sid in equipped for bonus in cat.shards[sid].bonuses
                          for x in bonus.ally_shard or ())
        by_mates: dict[frozenset[str], Stats] = {}  # with mates' shards asked for: the stats by those shards
        found = memo[key] = (asked, None if asked else _hero_base(cat, hero, frozenset()), by_mates)
    asked, base, by_mates = found
    if base is not None:
        return base
    me = hero.id
    mates = frozenset([sid for h in party if h.id != me for sid in h.equipped if sid in asked])
    base = by_mates.get(mates)
    if base is None:
        base = by_mates[mates] = _hero_base(cat, hero, mates)
    return base


_HERO_BASE: tuple[Catalogue | None, dict[Any, Any]] = (None, {})
"""The catalogue `hero_base` last read and its table (`catalogue_memo`), kept at hand: one
tuple, replaced whole, so a thread never pairs one catalogue with another's table."""


def _hero_base_table(cat: Catalogue) -> tuple[Catalogue | None, dict[Any, Any]]:
    global _HERO_BASE
    _HERO_BASE = held = (cat, catalogue_memo(cat, "hero_base"))
    return held


def _hero_base(cat: Catalogue, hero: Hero, others: frozenset[str]) -> Stats:
    template = next(c for c in cat.characters if c.id == hero.template)
    return (template.base + gear_stats(cat, hero.loadout)
            + shard_stats(cat, hero.equipped, hero.loadout, set(others)) + growth_stats(cat, hero))


_FOE_BASE: tuple[Catalogue | None, dict[Any, Any]] = (None, {})
"""As `_HERO_BASE`, for `foe_base`."""


def _foe_base_table(cat: Catalogue) -> tuple[Catalogue | None, dict[Any, Any]]:
    global _FOE_BASE
    _FOE_BASE = held = (cat, catalogue_memo(cat, "foe_base"))
    return held


def foe_base(cat: Catalogue, enemy_id: str, party: int) -> Stats:
    """An enemy's stats without statuses, its HP scaled to the party's size."""
    held = _FOE_BASE
    if held[0] is not cat or len(held[1]) > LIMIT:
        held = _foe_base_table(cat)
    memo = held[1]
    key = (enemy_id, party)
    found = memo.get(key)
    if found is None:
        enemy = cat.enemies[enemy_id]
        found = memo[key] = enemy.stats.model_copy(update={"hp": scaled_hp(enemy.hp, enemy.rank, party)})
    return found


_STAT_FIELDS = frozenset(("hp", "defense", "physical", "magic", "spd"))


def _lowered(stats: Stats, unit: Unit) -> Stats:
    """`stats` lowered by the unit's statuses, each stat at least 0 (HP at least 1). The
    lowered sheet is made without validation (`cow.built`): its values lie between 0 (1 for
    HP) and those of `stats`, a valid sheet, so they are within a sheet's bounds (a test
    compares it with the validated one)."""
    d = stats.__dict__  # its values read from the model's dict: faster than its attributes
    if d["hp"] >= 1 and d["defense"] >= 0 and d["physical"] >= 0 and d["magic"] >= 0 and d["spd"] >= 0 \
            and (not unit.statuses or not any(st.kind in STAT_DOWN for st in unit.statuses)):
        return stats  # nothing lowers it and nothing is out of range: the same values
    values = {"hp": max(1, stats.hp), "defense": stats.defense, "physical": stats.physical,
              "magic": stats.magic, "spd": stats.spd}
    for st in unit.statuses:
        field = STAT_DOWN.get(st.kind) if st.kind != "taunt" else None
        if field is not None:
            values[field] -= st.amount
    for field in ("defense", "physical", "magic", "spd"):
        values[field] = max(0, values[field])
    return built(Stats, values, set(_STAT_FIELDS))


def sheet(s: BgkState, unit: Hero | Foe | Npc) -> Stats:
    """The unit's stats now (HP: its maximum)."""
    cat = s.cat
    if isinstance(unit, Hero):
        base = hero_base(cat, unit, s.party)
    elif isinstance(unit, Foe):
        base = foe_base(cat, unit.enemy, len(s.party))
    else:
        base = cat.npcs[unit.npc].stats
    return _lowered(base, unit)


def max_hp(s: BgkState, unit: Hero | Foe | Npc) -> int:
    return sheet(s, unit).hp


def stat(s: BgkState, unit: Hero | Foe | Npc, name: str) -> int:
    value: int = sheet(s, unit).__dict__[name]  # a field of the sheet: faster than `getattr`
    return value
