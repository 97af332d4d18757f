"""Shard levels: experience makes a shard stronger.

A character's shards keep experience points (`Hero.shard_xp`, shard id -> points). The
thresholds are content (`levels:` at the top of shards.yaml): with `[3, 8, 15]` a shard is at
level 1 below 3 points, level 2 from 3, level 3 from 8 and level 4 from 15. Each shard says
what every level above the first adds (`growth`, see content.Growth):

- `power`: added to the damage, heal, shield and revive of each of its abilities that has one
  (before the user's stat and the spent cards are added);
- `status`: added to the amount of the bleed, poison, burn, petrify, freeze and choke its
  abilities cause;
- `equip`: stats added to its equip bonus.

At level 1 (no experience) a shard is exactly as its content writes it.
"""

from __future__ import annotations

from rules.by_gods_and_kings.content import Catalogue, ShardAbility, Stats
from rules.by_gods_and_kings.effects_model import DAMAGE_OVER_TIME, STAT_DOWN, Effect
from rules.by_gods_and_kings.state import BgkState, Hero


def shard_level(cat: Catalogue, shard_id: str, xp: int) -> int:
    """The level a shard has with this much experience (1 with none)."""
    del shard_id  # every shard climbs the same thresholds; the id names what is asked
    return 1 + sum(1 for need in cat.shard_levels if xp >= need)


def hero_shard_level(cat: Catalogue, hero: Hero, shard_id: str) -> int:
    """The level of one of a character's shards, from its experience (missing: 0)."""
    return shard_level(cat, shard_id, hero.shard_xp.get(shard_id, 0))


def level_of(s: BgkState, hero: Hero, shard_id: str) -> int:
    return hero_shard_level(s.cat, hero, shard_id)


def max_level(cat: Catalogue) -> int:
    return 1 + len(cat.shard_levels)


def grown_effect(cat: Catalogue, shard_id: str, effect: Effect, level: int) -> Effect:
    """The effect of one of the shard's abilities at this level."""
    steps = level - 1
    growth = cat.shards[shard_id].growth
    if steps <= 0 or growth is None:
        return effect
    update: dict[str, object] = {}
    if growth.power:
        for field in ("damage", "heal", "shield", "revive"):
            value = getattr(effect, field)
            if value:
                update[field] = value + growth.power * steps
    if growth.status and effect.statuses:
        update["statuses"] = [
            st.model_copy(update={"amount": st.amount + growth.status * steps})
            if st.kind in DAMAGE_OVER_TIME or st.kind in STAT_DOWN else st
            for st in effect.statuses]
    return effect.model_copy(update=update) if update else effect


def grown_ability(cat: Catalogue, shard_id: str, ab: ShardAbility, level: int) -> ShardAbility:
    effect = grown_effect(cat, shard_id, ab.effect, level)
    return ab if effect is ab.effect else ab.model_copy(update={"effect": effect})


def growth_stats(cat: Catalogue, hero: Hero) -> Stats:
    """What the levels of the character's equipped shards add to its stats."""
    out = Stats()
    for sid in hero.equipped:
        growth = cat.shards[sid].growth
        steps = hero_shard_level(cat, hero, sid) - 1
        if growth is None or steps <= 0:
            continue
        eq = growth.equip
        out = out + Stats(hp=eq.hp * steps, defense=eq.defense * steps,
                          physical=eq.physical * steps, magic=eq.magic * steps, spd=eq.spd * steps)
    return out


def shard_of(s: BgkState, hero: Hero, ab: ShardAbility) -> str | None:
    """The shard of the character's that has this ability (None: none of its shards)."""
    owned = [*hero.equipped, *(x for x in hero.shards if x not in hero.equipped)]
    for match in (lambda a: a is ab, lambda a: a == ab):
        for sid in owned:
            if sid in s.cat.shards and any(match(a) for a in s.cat.shards[sid].abilities):
                return sid
    return None


def levelled(s: BgkState, hero: Hero, ab: ShardAbility) -> ShardAbility:
    """The ability as the character's shard fires it at its level."""
    sid = shard_of(s, hero, ab)
    if sid is None:
        return ab
    return grown_ability(s.cat, sid, ab, level_of(s, hero, sid))


def describe_level(cat: Catalogue, hero: Hero, shard_id: str) -> str:
    """'Shard of Fury (level 2)'."""
    return f"{cat.shards[shard_id].name} (level {hero_shard_level(cat, hero, shard_id)})"
