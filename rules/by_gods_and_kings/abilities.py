"""Using abilities: shard abilities of characters (Discard, Sacrifice, Flush, Straight, Three of
a Kind), held elemental abilities and elemental synchronization.

An ability is named by `shard.trigger` (a shard has at most one ability per trigger).

**Elemental synchronization** (the project's design; the rulebook leaves it open): an elemental
ability aimed at foes may be *held ready* instead of fired. Until the start of its holder's
next turn, any other character firing an elemental ability may release it together with its
own: both strike the releasing ability's target at once, their damage is added and
multiplied by the synchronization of the two elements (elements.yaml), DEF counts once, and
the synchronization's status lands too. A held ability nobody released fires alone at the
start of its holder's next turn; it is lost when the holder falls or the battle ends.
"""

from __future__ import annotations

from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.content import FoeAbility, ShardAbility, SyncDef
from rules.by_gods_and_kings.effects import AnyUnit, amounts, apply_effect, set_status, targets
from rules.by_gods_and_kings.events import AbilityUsed
from rules.by_gods_and_kings.levels import levelled
from rules.by_gods_and_kings.memo import catalogue_memo
from rules.by_gods_and_kings.state import BgkState, Held, Hero
from rules.core import Event

HOW_TEXT = {"discard": "Discard", "sacrifice": "Sacrifice", "flush": "Flush",
            "straight": "Straight", "three": "Three of a Kind"}


def ability(s: BgkState, ref: str) -> ShardAbility:
    shard, trigger = ref.split(".")
    return next(a for a in s.cat.shards[shard].abilities if a.trigger == trigger)


def element(s: BgkState, ref: str) -> str | None:
    return s.cat.shards[ref.split(".")[0]].element


def holdable(s: BgkState, ref: str) -> bool:
    """Elemental abilities aimed at foes can be held ready and synchronized."""
    return element(s, ref) is not None and ability(s, ref).target in ("foe", "foes")


def numb(unit: AnyUnit) -> bool:
    return unit.has("numb")


def hand_abilities(s: BgkState, hero: Hero) -> list[str]:
    """The abilities the character's Field fires now (Flush, Straight, Three of a Kind), in
    the order of its equipped shards; none while numb."""
    return field_abilities(s, hero, hero.field)


def field_abilities(s: BgkState, hero: Hero, field: list[str]) -> list[str]:
    """`hand_abilities` of the character were its Field `field` (a Field being weighed).
    Remembered per catalogue for the equipped shards and the hands the Field holds; each
    caller gets a list of its own."""
    if numb(hero) or len(field) != cards.FIELD_SIZE:
        return []  # a Field that is not full holds no hand
    kinds = cards.hands(field)
    if not kinds:
        return []
    equipped = tuple(hero.equipped)
    memo = catalogue_memo(s.cat, "field_abilities")
    key = (equipped, tuple(kinds))
    found = memo.get(key)
    if found is None:
        found = memo[key] = tuple(f"{sid}.{a.trigger}" for sid in equipped
                                  for a in s.cat.shards[sid].abilities if a.trigger in kinds)
    return list(found)


def use(s: BgkState, user: AnyUnit, ab: ShardAbility | FoeAbility, how: str, chosen: str | None, spent: int,
        events: list[Event]) -> None:
    """Fire an ability (a character's, an enemy's or an NPC's); a character's shard fires it
    at the shard's level (levels.py)."""
    if isinstance(user, Hero) and isinstance(ab, ShardAbility):
        ab = levelled(s, user, ab)
    events.append(AbilityUsed.told(
        f"{user.name} uses {ab.name} ({HOW_TEXT.get(how, how)}): {ab.effect.describe()}.",
        unit=user.id, name=ab.name, how=how))
    if user.miss:
        user.miss = False
        events.append(Event(kind="miss", text=f"Blinded, {user.name} misses: {ab.name} does nothing."))
        return
    apply_effect(s, user, ab.effect, targets(s, user, ab.target, chosen), spent, events, what=ab.name)


def hold(s: BgkState, hero: Hero, ref: str, target: str, events: list[Event]) -> None:
    ab = ability(s, ref)
    hero.held = Held(shard=ref.split(".")[0], trigger=ab.trigger, target=target, spent=s.spent)
    events.append(Event(kind="held", text=(
        f"{hero.name} holds {ab.name} ready ({element(s, ref)}): an ally's elemental ability may "
        "release it before their next turn."), data={"unit": hero.id, "ability": ref}))


def release_alone(s: BgkState, hero: Hero, events: list[Event]) -> None:
    """A held ability nobody released fires at the start of its holder's turn."""
    held = hero.held
    if held is None:
        return
    hero.held = None
    ab = ability(s, held.ref)
    target: str | None = held.target
    if ab.target == "foe":
        if target is None or not s.unit(target).alive:
            living = s.living_foes()
            if not living:
                return
            target = living[0].id
    use(s, hero, ab, "held", target, held.spent, events)


def sync_of(s: BgkState, ref: str, holder: Hero) -> SyncDef:
    assert holder.held is not None
    a, b = element(s, ref), element(s, holder.held.ref)
    assert a is not None and b is not None
    return s.cat.sync(a, b)


def synchronize(s: BgkState, hero: Hero, ref: str, holder: Hero, target: str,
                events: list[Event]) -> None:
    """`hero` fires `ref` and releases `holder`'s held ability with it."""
    held = holder.held
    assert held is not None
    sync = sync_of(s, ref, holder)
    holder.held = None
    mine, theirs = levelled(s, hero, ability(s, ref)), levelled(s, holder, ability(s, held.ref))
    events.append(AbilityUsed.told(
        f"{hero.name}'s {mine.name} and {holder.name}'s {theirs.name} strike together: "
        f"{sync.name}, damage ×{sync.multiplier}!", unit=hero.id, name=sync.name, how="sync"))
    if hero.miss:
        hero.miss = False
        events.append(Event(kind="miss", text=f"Blinded, {hero.name} misses: the synchronization fails."))
        return
    raw = 0
    if mine.effect.damage:
        raw += mine.effect.damage + amounts(s, hero, mine.effect, s.spent)
    if theirs.effect.damage:
        raw += theirs.effect.damage + amounts(s, holder, theirs.effect, held.spent)
    raw *= sync.multiplier
    chosen = targets(s, hero, mine.target, None if target == "all" else target)
    apply_effect(s, hero, mine.effect, chosen, s.spent, events, what=sync.name, damage=raw)
    rest = theirs.effect.model_copy(update={"damage": 0})
    apply_effect(s, holder, rest, chosen, held.spent, events, what=sync.name, damage=0)
    if sync.status is not None:
        for t in chosen:
            set_status(t, sync.status, events, source=hero.id)
