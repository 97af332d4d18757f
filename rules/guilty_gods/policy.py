"""The automatic player: plans whole moves (values.py scores them, planner.py searches them),
then clicks them through one step at a time. The summoner is the one whose powers make the best
plan of the turn; skills fire when what they do is worth their seals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core import Action, Rng
from rules.guilty_gods.combat import chances, damage_total, protection
from rules.guilty_gods.combos import chain_cost, combination_cost
from rules.guilty_gods.content import Effect
from rules.guilty_gods.planner import Plan, next_key, signature
from rules.guilty_gods.plans import NO_KEEP
from rules.guilty_gods.state import HAND_SIZE, MAX_SEALS, GgState
from rules.guilty_gods.values import (
    RENEW_BELOW,
    W_SEAL,
    card_value,
    effect_value,
    plan_attack,
    plan_defense,
    w_damage,
)

if TYPE_CHECKING:
    from rules.guilty_gods.game import GuiltyGods

# --- the decisions --------------------------------------------------------------------------------

_plans: dict[tuple[object, ...], tuple[Plan | None, str]] = {}


def _key(s: GgState, player: str) -> tuple[object, ...]:
    seat = s.seats[player]
    opp = s.seats[s.other(player)]
    attack = signature(s.attack) if s.attack is not None else None
    return (s.phase, player, tuple(sorted(seat.hand)), seat.seals, seat.summoner, s.turn > 1,
            seat.gnosis, opp.gnosis, opp.seals, opp.summoner, len(opp.hand),
            tuple(sorted(opp.played)), attack, len(seat.deck), opp.deck_id, seat.deck_id)


def decide_move(s: GgState, player: str) -> tuple[Plan | None, str]:
    """(plan, what to do without one) for the attacker or the defender."""
    key = _key(s, player)
    if key not in _plans:
        if len(_plans) > 2048:
            _plans.clear()
        _plans[key] = _decide_move(s, player)
    return _plans[key]


def _decide_move(s: GgState, player: str) -> tuple[Plan | None, str]:
    if s.phase == "defend":
        return plan_defense(s, player), "hit"
    seat = s.seats[player]
    plan = plan_attack(s, player)
    keep = _best_keep(s, player)
    if plan is None or (plan.value < RENEW_BELOW and len(seat.deck) >= HAND_SIZE):
        return None, f"renew.keep:{keep}"
    return plan, f"renew.keep:{keep}"


def _best_keep(s: GgState, player: str) -> str:
    hand = s.seats[player].hand
    attack = [c for c in hand if s.cards[c].kind == "attack"]
    pool = attack or hand
    if not pool:
        return NO_KEEP
    return max(sorted(set(pool)), key=lambda c: card_value(s.cards[c]))


def choose_summoner(s: GgState, player: str) -> str:
    from rules.guilty_gods.game import clone

    seat = s.seats[player]
    best, best_v = "", -1e9
    plans: dict[tuple[object, ...], Plan | None] = {}
    for sid in s.deck_summoners[seat.deck_id]:
        t = clone(s)
        t.phase = "act"
        t.seats[player].summoner = sid
        summoner = s.summoners[sid]
        v = 0.0
        on = t.powers_on(player)
        low = summoner.power("seal_when_low")
        if on and low is not None and seat.seals <= low.threshold:
            t.seats[player].seals = min(MAX_SEALS, seat.seals + low.amount)
        if summoner.power("seals_for_damage") and seat.seals < MAX_SEALS - 1:
            v += W_SEAL * 2.0
        if on and summoner.power("draw") and len(seat.hand) < HAND_SIZE and len(seat.deck) > 5:
            v += KAIROS_DRAW
        alike = planning_summoner(t, player)
        if alike not in plans:
            plans[alike] = plan_attack(t, player)
        plan = plans[alike]
        prot = summoner.power("protection")
        if prot is not None and on:
            v += protection_value(t, player, plan, prot.cost, prot.amount)
        v += max(plan.value, RENEW_BELOW) if plan is not None else RENEW_BELOW
        if v > best_v:
            best, best_v = sid, v
    return best


KAIROS_DRAW = 0.55
"""Kairos's card: about what an average card in hand is worth (`card_value` of a two-sphere
level-2 card is 0.54)."""
PROTECT_LOW = 4
"""At this Gnosis or less, the rival's next attack may well be the last: the point Protection
takes off is worth a summoner of its own."""


def protection_value(s: GgState, player: str, plan: Plan | None, cost: int, amount: int) -> float:
    """What holding Protection through the rival's next attack is worth: nothing when the
    initiative comes back (Chain of Actions) or the seals left after the plan cannot pay it;
    else the damage it takes off against the seals it costs, and more when Gnosis is low."""
    seat = s.seats[player]
    spent = plan.cost if plan is not None else 0
    if (plan is not None and plan.chain) or seat.seals - spent < cost:
        return 0.0
    v = max(0.0, amount * w_damage(seat.gnosis) - cost * W_SEAL)
    if seat.gnosis <= PROTECT_LOW:
        v += 1.0
    return v


def planning_summoner(s: GgState, player: str) -> tuple[object, ...]:
    """All that `plan_attack` reads of the player's summoner, with their seals (which a summoner
    may raise): two summoners alike in these make the same plan, worked out once."""
    summoner = s.summoner(player)
    ophiel = summoner.power("extra_damage") if summoner and s.powers_on(player) else None
    return (s.seats[player].seals, combination_cost(s, player), chain_cost(s, player),
            ophiel.amount if ophiel else None)


def skill_value(s: GgState, player: str, chance_id: str, effect: Effect | None, cost: int) -> float:
    seat = s.seats[player]
    now = damage_total(s)
    w = w_damage(seat.gnosis)
    if chance_id == "protect":
        prot = protection(s, player)
        if prot is None or now <= 0:
            return -1
        v = w * min(prot[1], now)
        if now >= seat.gnosis > now - prot[1]:
            v += 50
        return v - cost * (W_SEAL + 0.1)
    assert effect is not None
    opp_gnosis = s.seats[s.other(player)].gnosis
    v = effect_value(s, player, effect) + effect.damage * w_damage(opp_gnosis)
    v += w * min(effect.prevent, now)
    if now >= seat.gnosis > now - effect.prevent:
        v += 50
    if effect.damage and s.attack is not None and s.attack.player == player and now < opp_gnosis <= now + effect.damage:
        v += 50
    return v - cost * W_SEAL


def choose(game: GuiltyGods, s: GgState, player: str, rng: Rng,
           legal: list[Action] | None = None) -> Action:
    """The automatic choice among `legal` (the player's legal actions, built here when not given)."""
    if legal is None:
        legal = game.legal_actions(s, player)
    by_key = {a.key: a for a in legal}
    key = _decide(s, player, rng, list(by_key))
    if key not in by_key:  # a plan that no longer fits: the simplest way forward
        key = next((k for k in ("go", "hit", "skill:done", "hand:keep") if k in by_key), legal[0].key)
    return by_key[key]


def _decide(s: GgState, player: str, rng: Rng, keys: list[str]) -> str:
    seat = s.seats.get(player)
    if s.phase == "deck":
        return rng.choice(keys)
    assert seat is not None
    if s.phase == "hand":
        return "hand:redraw" if "hand:redraw" in keys else "hand:keep"
    if s.phase == "first":
        return "first.who:me"
    if s.phase == "summoner":
        return f"summon.who:{choose_summoner(s, player)}"
    if s.phase == "kairos":
        return "kairos:draw" if len(seat.hand) < HAND_SIZE or len(seat.deck) > 20 else "kairos:skip"
    if s.phase == "discard":
        worst = min(sorted(set(seat.hand)), key=lambda c: card_value(s.cards[c]))
        return f"discard.card:{worst}"
    if s.phase in ("act", "defend"):
        plan, fallback = decide_move(s, player)
        return next_key(s, player, plan, fallback)
    if s.phase == "skills":
        best, best_v = "skill:done", 0.0
        for c in chances(s, player):
            if c.cost > seat.seals:
                continue
            v = skill_value(s, player, c.id, c.effect, c.cost)
            if v > best_v:
                best, best_v = f"skill:{c.id}", v
        return best
    return keys[0]

