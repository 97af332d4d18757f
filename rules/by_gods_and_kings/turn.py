"""A character's turn (play a card, then a basic attack or the abilities its Field fires) and
an NPC's turn (the administrator plays its card and picks its target).

**A full Field**: a character's Field holds at most three cards. Playing a card onto a full
Field first sends one of its cards (the player's choice) to the discard pile. Firing the
abilities of a hand spends the three Field cards (they go to the discard pile, like an enemy's
Field when its ability fires); a basic attack leaves the Field as it is.
"""

from __future__ import annotations

from functools import lru_cache

from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.abilities import (
    ability,
    hand_abilities,
    hold,
    holdable,
    sync_of,
    synchronize,
    use,
)
from rules.by_gods_and_kings.content import FoeAbility
from rules.by_gods_and_kings.effects import deal
from rules.by_gods_and_kings.enemy import fighter_abilities, reached, strike
from rules.by_gods_and_kings.events import CardPlayed, plain
from rules.by_gods_and_kings.gear import attack_stats
from rules.by_gods_and_kings.options import option
from rules.by_gods_and_kings.reactions import level_description, target_options, target_values
from rules.by_gods_and_kings.state import PLACE, BgkState, Hero, Npc, assign
from rules.by_gods_and_kings.stats import max_hp, stat
from rules.core import Event
from rules.core.steps import Option

STAT_NAMES = {"physical": "Physical", "magic": "Magic"}


def actor_hero(s: BgkState) -> Hero:
    actor = s.actor
    assert actor is not None and actor[0] == "c", "a character is acting"
    return s.hero(actor)


def peek_actor(s: BgkState) -> Hero:
    """The acting character, to read only (see `BgkState.peek`)."""
    actor = s.actor
    assert actor is not None and actor[0] == "c", "a character is acting"
    return s.party[PLACE[actor]]


# --- the opening ----------------------------------------------------------------------------------
def opening_keys(s: BgkState, seat: str) -> list[str]:
    """The keys of putting a first card on the Field for the seat's units still opening: the
    units in the opening's order, each hand's different cards in order."""
    keys = []
    for uid in s.opening:
        if s.seat_of(uid) == seat:
            unit = s.peek(uid)
            assert isinstance(unit, Hero | Npc)
            keys += [f"open:{uid}:{c}" for c in dict.fromkeys(unit.hand)]
    return keys


# --- play ------------------------------------------------------------------------------------
def play_options(s: BgkState, arg: str, chosen: dict[str, str]) -> list[Option]:
    hero = peek_actor(s)
    if arg == "card":
        return list(_card_options(tuple(hero.hand)))
    if len(hero.field) < cards.FIELD_SIZE:
        return [ROOM]
    return list(_push_options(tuple(hero.field)))


ROOM = Option(value="none", label="The Field has room")


def play_values(s: BgkState, arg: str) -> list[str]:
    """The values of `play_options`, without their labels."""
    hero = peek_actor(s)
    if arg == "card":
        return list(dict.fromkeys(hero.hand))
    if len(hero.field) < cards.FIELD_SIZE:
        return [ROOM.value]
    return list(dict.fromkeys(hero.field))


@lru_cache(maxsize=4096)
def _card_options(hand: tuple[str, ...]) -> tuple[Option, ...]:
    """The options for playing a card of this hand: the same for every hand of these cards (an
    Option is frozen), so worked out once for the step's actions and again for its move."""
    return tuple(card_option(c) for c in dict.fromkeys(hand))


@lru_cache(maxsize=1024)
def card_option(card: str) -> Option:
    """The option of playing `card` (made once per card code: an Option is frozen)."""
    return Option(value=card, label=f"Play {cards.name(card)}")


@lru_cache(maxsize=4096)
def _push_options(field: tuple[str, ...]) -> tuple[Option, ...]:
    """The options for the card pushed off a full Field (see `_card_options`)."""
    return tuple(Option(value=c, label=f"Push {cards.name(c)} off the Field") for c in dict.fromkeys(field))


def play(s: BgkState, card: str, out: str, events: list[Event]) -> None:
    hero = actor_hero(s)
    if out != "none":
        hero.field.remove(out)
        s.discard.append(out)
        events.append(plain("push", f"{hero.name} pushes {cards.name(out)} off its full Field.",
                            data={"unit": hero.id, "card": out}))
    hero.hand.remove(card)
    hero.field.append(card)
    kinds = cards.hands(hero.field)
    made = f" It holds a {', a '.join(cards.HAND_NAMES[k] for k in kinds)}!" if kinds else ""
    events.append(CardPlayed.told(
        f"{hero.name} plays {cards.name(card)}: Field {cards.names(hero.field)}.{made}",
        unit=hero.id, card=card, field=list(hero.field)))
    assign(s, played=card, phase="resolve")


# --- resolve: a basic attack or the abilities ----------------------------------------------------
def attack_raw(s: BgkState, hero: Hero, bonus: str) -> int:
    assert s.played is not None
    return cards.value(s.played) + stat(s, hero, bonus)


def attack_choices(s: BgkState) -> list[tuple[str, str, int]]:
    """(foe id, bonus stat, raw damage) for each basic attack the actor may make. The raw
    damage does not depend on the foe: it is worked out once per bonus stat."""
    hero = peek_actor(s)
    raws = [(bonus, attack_raw(s, hero, bonus)) for bonus in attack_stats(s.cat, hero.loadout)]
    return [(f.id, bonus, raw) for f in s.peek_foes() for bonus, raw in raws]


def attack_key(foe: str, bonus: str, two: bool) -> str:
    """The key of a basic attack: the foe, and the bonus stat when the character has `two`
    to choose from."""
    return f"atk:{foe}:{bonus}" if two else f"atk:{foe}"


def attack_keys(s: BgkState) -> list[str]:
    """The keys of the basic attacks `attack_choices` gives, in their order (without working
    out their damage)."""
    bonuses = attack_stats(s.cat, peek_actor(s).loadout)
    two = len(set(bonuses)) > 1
    return [attack_key(f.id, bonus, two) for f in s.peek_foes() for bonus in bonuses]


def basic_attack(s: BgkState, foe_id: str, bonus: str, events: list[Event]) -> None:
    hero = peek_actor(s)  # read (the blow changes only the foe), unless it misses
    target = s.unit(foe_id)
    if hero.miss:
        actor_hero(s).miss = False
        events.append(plain("miss", f"Blinded, {hero.name} misses {target.name}."))
        return
    deal(s, hero, target, attack_raw(s, hero, bonus), events,
         what=f"{cards.name(s.played or '')} + {STAT_NAMES[bonus]}")


def deploy(s: BgkState, events: list[Event]) -> None:
    """Fire the Field's abilities: the three cards are spent, the abilities queue up."""
    hero = actor_hero(s)
    queue = hand_abilities(s, hero)
    assign(s, queue=queue, spent=cards.total(hero.field))
    s.discard.extend(hero.field)
    events.append(plain("deploy", (
        f"{hero.name} spends {cards.names(hero.field)} to fire "
        f"{', '.join(ability(s, r).name for r in queue)}."), data={"unit": hero.id, "queue": queue}))
    hero.field = []
    s.phase = "deploy"


# --- deploy: each ability in the order chosen ------------------------------------------------------
def ability_option(s: BgkState, hero: Hero, ref: str) -> Option:
    """The option of firing the queued ability `ref` next."""
    ab = ability(s, ref)
    return Option(value=ref, label=f"Fire {ab.name}", description=level_description(s, hero, ref, ab))


def fire_options(s: BgkState, arg: str, chosen: dict[str, str]) -> list[Option]:
    hero = peek_actor(s)
    if arg == "ability":
        return [ability_option(s, hero, r) for r in s.queue]
    ref = chosen["ability"]
    ab = ability(s, ref)
    aims = target_options(s, hero, ab.target)
    if not aims:
        return [Option(value="none", label=f"{ab.name}: nobody to aim at")]
    out = [option(f"now.{o.value}", f"{ab.name}: {o.label.lower()}") for o in aims]
    if holdable(s, ref):
        if hero.held is None:
            out += [option(f"hold.{o.value}", f"Hold {ab.name} ready, {o.label.lower()}") for o in aims]
        for other in s.party:
            if not other.alive or other.id == hero.id or other.held is None:
                continue
            sync = sync_of(s, ref, other)
            held = ability(s, other.held.ref)
            out += [Option(value=f"sync.{other.id}.{o.value}",
                           label=f"{sync.name} ×{sync.multiplier}: with {other.name}'s {held.name}, "
                                 f"{o.label.lower()}"[:80], style="success")
                    for o in aims]
    return out


def fire_values(s: BgkState, ref: str) -> list[str]:
    """The values of `fire_options` for aiming the ability `ref`, without their labels."""
    hero = peek_actor(s)
    aims = target_values(s, ability(s, ref).target)
    if not aims:
        return ["none"]
    out = [f"now.{v}" for v in aims]
    if holdable(s, ref):
        if hero.held is None:
            out += [f"hold.{v}" for v in aims]
        for other in s.party:
            if other.alive and other.id != hero.id and other.held is not None:
                out += [f"sync.{other.id}.{v}" for v in aims]
    return out


def fire(s: BgkState, ref: str, how: str, events: list[Event]) -> None:
    hero = actor_hero(s)
    s.queue.remove(ref)
    ab = ability(s, ref)
    if how == "none":
        events.append(Event(kind="fizzle", text=f"{ab.name} has nobody to aim at."))
        return
    mode, _, rest = how.partition(".")
    if mode == "hold":
        hold(s, hero, ref, rest, events)
    elif mode == "sync":
        holder_id, _, target = rest.partition(".")
        synchronize(s, hero, ref, s.hero(holder_id), target, events)
    else:
        use(s, hero, ab, ab.trigger, None if rest in ("all", "self") else rest, s.spent, events)


# --- an NPC's turn ---------------------------------------------------------------------------------
def actor_npc(s: BgkState) -> Npc:
    assert s.actor is not None and s.actor[0] == "n", "an NPC is acting"
    unit = s.unit(s.actor)
    assert isinstance(unit, Npc)
    return unit


def npc_fires(s: BgkState, npc: Npc, card: str | None) -> FoeAbility | None:
    """The ability the NPC fires once `card` is on its Field (the highest threshold its total
    reaches, as `enemy.reached` finds it), or None: a basic attack. No card chosen yet: None."""
    if card is None or npc.has("numb"):
        return None
    total = cards.total(npc.field) + cards.value(card)
    best: FoeAbility | None = None
    for ab in fighter_abilities(s, npc):
        if total >= ab.threshold and (best is None or ab.threshold > best.threshold):
            best = ab
    return best


def npc_options(s: BgkState, arg: str, chosen: dict[str, str]) -> list[Option]:
    npc = actor_npc(s)
    if arg == "card":
        out = []
        for c in dict.fromkeys(npc.hand):
            total = cards.total(npc.field) + cards.value(c)
            fires = [a for a in fighter_abilities(s, npc) if total >= a.threshold]
            note = f" (fires {max(fires, key=lambda a: a.threshold).name})" if fires else f" (Field {total})"
            out.append(Option(value=c, label=f"{npc.name} plays {cards.name(c)}{note}"))
        return out
    ab = npc_fires(s, npc, chosen.get("card"))
    if ab is None:
        return [option(f.id, f"{npc.name} hits {f.name} ({f.hp} HP)") for f in s.peek_foes()]
    if ab.target == "foe":
        return [option(f.id, f"{ab.name} at {f.name} ({f.hp} HP)") for f in s.peek_foes()]
    if ab.target == "ally":
        return [option(u.id, f"{ab.name} on {u.name} ({u.hp}/{max_hp(s, u)} HP)") for u in s.peek_allies()]
    return [option(_NPC_AREA[ab.target], f"{ab.name} {_NPC_AREA_TEXT[ab.target]}")]


_NPC_AREA = {"foes": "all", "allies": "all", "self": "self"}
"""The one value of the target step when the NPC's ability touches a whole side or itself."""
_NPC_AREA_TEXT = {"foes": "at every foe", "allies": "on every ally", "self": "on itself"}


def npc_values(s: BgkState, arg: str, chosen: dict[str, str] | None = None) -> list[str]:
    """The values of `npc_options`, without their labels."""
    assert s.actor is not None and s.actor[0] == "n", "an NPC is acting"
    npc = s.peek(s.actor)
    assert isinstance(npc, Npc)
    if arg == "card":
        return list(dict.fromkeys(npc.hand))
    ab = npc_fires(s, npc, (chosen or {}).get("card"))
    if ab is None or ab.target == "foe":
        return [f.id for f in s.peek_foes()]
    if ab.target == "ally":
        return [u.id for u in s.peek_allies()]
    return [_NPC_AREA[ab.target]]


def npc_play(s: BgkState, card: str, target: str, events: list[Event]) -> None:
    npc = actor_npc(s)
    npc.hand.remove(card)
    npc.field.append(card)
    events.append(CardPlayed.told(
        f"{npc.name} plays {cards.name(card)}: its Field holds {cards.total(npc.field)}.",
        unit=npc.id, card=card, field=list(npc.field)))
    index = reached(s, npc)
    if index is None:
        strike(s, npc, s.unit(target), cards.value(card), events)
        return
    ab = fighter_abilities(s, npc)[index]
    spent = cards.total(npc.field)
    s.discard.extend(npc.field)
    npc.field = []
    # the players chose the target: a foe for a foe's ability, an ally for an ally's
    use(s, npc, ab, "threshold", target if ab.target in ("foe", "ally") else None, spent, events)
