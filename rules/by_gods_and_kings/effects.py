"""Applying what abilities do: damage through DEF and shields, healing, statuses, revivals.

Damage: an attack of `raw` points takes `raw - DEF // 2` HP from its target, at least 1 (DEF
halved, rounded down); a shield takes it first. Bleed, poison and a failed save's penalty
ignore DEF and shields.
"""

from __future__ import annotations

from typing import Literal

from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.cow import built, changed
from rules.by_gods_and_kings.effects_model import ALLIES_ONLY, Effect, StatusSpec, Target
from rules.by_gods_and_kings.events import Fell, Healed, Hit, StatusSet, plain
from rules.by_gods_and_kings.state import BgkState, Foe, Hero, Npc, Status, assign
from rules.by_gods_and_kings.stats import max_hp, stat
from rules.core import Event

AnyUnit = Hero | Foe | Npc


def mitigated(raw: int, defense: int) -> int:
    """What an attack of `raw` points takes through `defense`: raw - DEF // 2, at least 1."""
    return max(1, raw - defense // 2) if raw > 0 else 0


def deal(s: BgkState, source: AnyUnit, target: AnyUnit, raw: int, events: list[Event], *,
         pierce: bool = False, what: str = "") -> int:
    """An attack lands; returns the damage it did (shield included)."""
    if target.hp <= 0 or raw <= 0:  # (not alive)
        return 0
    dealt = raw if pierce else mitigated(raw, stat(s, target, "defense"))
    absorbed = min(target.shield, dealt)
    assign(target, shield=target.shield - absorbed, hp=max(0, target.hp - (dealt - absorbed)))
    how = f" with {what}" if what else ""
    shielded = f" ({absorbed} on the shield)" if absorbed else ""
    events.append(Hit.told(
        f"{source.name} hits {target.name}{how} for {dealt}{shielded} ({raw} before DEF): {target.hp} HP left.",
        source=source.id, target=target.id, raw=raw, dealt=dealt, hp=target.hp))
    if target.hp == 0:
        fall(s, target, events)
    return dealt


def lose(s: BgkState, target: AnyUnit, amount: int, events: list[Event], why: str) -> None:
    """HP lost around DEF and shields (bleed, poison, a failed save)."""
    if not target.alive or amount <= 0:
        return
    target.hp = max(0, target.hp - amount)
    events.append(Hit.told(
        f"{target.name} loses {amount} HP to {why}: {target.hp} HP left.",
        source=target.id, target=target.id, raw=amount, dealt=amount, hp=target.hp))
    if target.hp == 0:
        fall(s, target, events)


def fall(s: BgkState, unit: AnyUnit, events: list[Event]) -> None:
    assign(unit, statuses=[], shield=0, miss=False)
    if isinstance(unit, Hero):
        unit.held = None
        events.append(Fell.told(f"{unit.name} falls and can do nothing more in this battle.", unit=unit.id))
        return
    s.discard.extend(unit.field)
    unit.field = []
    if isinstance(unit, Npc):
        s.discard.extend(unit.hand)
        unit.hand = []
    events.append(Fell.told(f"{unit.name} is defeated.", unit=unit.id))


def heal(s: BgkState, target: AnyUnit, amount: int, events: list[Event]) -> None:
    if not target.alive or amount <= 0:
        return
    top = max_hp(s, target)
    gained = max(0, min(amount, top - target.hp))
    if not gained:
        return
    target.hp += gained
    events.append(Healed.told(
        f"{target.name} recovers {gained} HP ({target.hp}/{top}).", target=target.id, amount=gained, hp=target.hp))


def revive(s: BgkState, target: AnyUnit, amount: int, events: list[Event]) -> None:
    if target.alive:
        return
    target.hp = min(amount, max_hp(s, target))
    events.append(Healed.told(
        f"{target.name} is revived with {target.hp} HP and keeps the cards on its Field.",
        target=target.id, amount=target.hp, hp=target.hp))


def set_status(target: AnyUnit, spec: StatusSpec, events: list[Event], source: str | None = None) -> None:
    """A status takes hold; the same status again keeps the larger amount and duration.
    Stun and paralyze never touch enemies or NPCs."""
    if not target.alive:
        return
    if spec.kind in ALLIES_ONLY and not isinstance(target, Hero):
        events.append(Event(kind="immune", text=f"{target.name} cannot be {_past(spec.kind)}."))
        return
    statuses = target.statuses
    at = next((i for i, x in enumerate(statuses) if x.kind == spec.kind), None)
    if at is None:  # `Status(kind=..., amount=..., turns=..., source=...)` of values of its types
        current = built(Status, {"kind": spec.kind, "amount": spec.amount, "turns": spec.turns, "source": source},
                        {"kind", "amount", "turns", "source"})
        statuses.append(current)
    else:  # a status is frozen: the stronger one replaces it
        current = statuses[at]
        current = statuses[at] = changed(current, amount=max(current.amount, spec.amount),
                                         turns=max(current.turns, spec.turns))
    events.append(StatusSet.told(
        f"{target.name}: {spec.describe()}.",
        target=target.id, status=spec.kind, amount=current.amount, turns=current.turns))


def _past(kind: str) -> str:
    return {"stun": "stunned", "paralyze": "paralyzed"}.get(kind, kind)


def taunt(user: AnyUnit, target: AnyUnit, turns: int, events: list[Event]) -> None:
    if not target.alive:
        return
    target.statuses = [x for x in target.statuses if x.kind != "taunt"]
    target.statuses.append(built(Status, {"kind": "taunt", "amount": 0, "turns": turns, "source": user.id},
                                 {"kind", "turns", "source"}))  # `Status(kind="taunt", turns=..., source=...)`
    events.append(StatusSet.told(
        f"{target.name} is taunted: it aims only at {user.name} for {turns} turn{'s' * (turns > 1)}.",
        target=target.id, status="taunt", amount=0, turns=turns))


def draw_up(s: BgkState, unit: Hero | Npc, n: int, events: list[Event]) -> None:
    """Draw n cards, never above the hand limit."""
    got = []
    for _ in range(n):
        if len(unit.hand) >= cards.HAND_LIMIT:
            break
        card = s.draw_card()
        if card is None:
            break
        unit.hand.append(card)
        got.append(card)
    if got:
        events.append(plain("draw", f"{unit.name} draws {cards.names(got)}.",
                            data={"unit": unit.id, "cards": got}))


Side = Literal["party", "enemies"]


def side(unit: AnyUnit) -> Side:
    return "enemies" if isinstance(unit, Foe) else "party"


def living_side(s: BgkState, which: Side) -> list[AnyUnit]:
    if which == "enemies":
        return list(s.living_foes())
    return list(s.living_allies())


def opposite(which: Side) -> Side:
    return "party" if which == "enemies" else "enemies"


def targets(s: BgkState, user: AnyUnit, kind: Target, chosen: str | None) -> list[AnyUnit]:
    """The units an ability touches. `chosen`: the unit picked for foe, ally and fallen
    (the players choose an NPC's; an enemy helps the most wounded of its side)."""
    mine = side(user)
    if kind == "self":
        return [user]
    if kind == "foes":
        return living_side(s, opposite(mine))
    if kind == "allies":
        return living_side(s, mine)
    if chosen is not None and chosen != "all":
        return [s.unit(chosen)]
    if kind == "ally":  # the pool is read; only the one helped is handed out to change
        pool: list[AnyUnit] = [*(s.peek_foes() if mine == "enemies" else s.peek_allies())]
        if not pool:
            return []
        return [s.unit(max(pool, key=lambda u: (max_hp(s, u) - u.hp, -_index(u))).id)]
    return []


def _index(unit: AnyUnit) -> int:
    return int(unit.id[1:])


def amounts(s: BgkState, user: AnyUnit, effect: Effect, spent: int) -> int:
    """What is added to an effect's damage, heal and shield: the user's stat and the cards spent."""
    bonus = stat(s, user, effect.stat) if effect.stat else 0
    return bonus + (spent if effect.add_card else 0)


def apply_effect(s: BgkState, user: AnyUnit, effect: Effect, chosen: list[AnyUnit], spent: int,
                 events: list[Event], *, what: str, damage: int | None = None) -> None:
    """Do `effect` to each chosen unit. `damage` replaces the effect's own raw damage (a
    synchronization adds and multiplies two abilities' damage)."""
    extra = amounts(s, user, effect, spent)
    raw = damage if damage is not None else (effect.damage + extra if effect.damage else 0)
    for t in chosen:
        if effect.revive:
            revive(s, t, effect.revive, events)
        if not t.alive:
            continue
        if raw:
            deal(s, user, t, raw, events, pierce=effect.pierce, what=what)
            if not t.alive:
                continue
        if effect.heal:
            heal(s, t, effect.heal + extra, events)
        if effect.shield:
            t.shield += effect.shield + extra
            events.append(plain("shield", f"{t.name} gains a shield of {effect.shield + extra} "
                                f"({t.shield} in all).", data={"unit": t.id, "shield": t.shield}))
        if effect.cleanse and t.statuses:
            t.statuses = []
            events.append(Event(kind="cleanse", text=f"{t.name} is rid of every status.",
                                data={"unit": t.id}))
        for spec in effect.statuses:
            set_status(t, spec, events, source=user.id)
        if effect.taunt:
            taunt(user, t, effect.taunt, events)
        if effect.draw and isinstance(t, Hero | Npc):
            draw_up(s, t, effect.draw, events)
        if effect.wipe_field and t.field:
            s.discard.extend(t.field)
            events.append(Event(kind="wipe", text=f"{t.name}'s Field ({cards.names(t.field)}) is wiped.",
                                data={"unit": t.id}))
            t.field = []
