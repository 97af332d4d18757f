"""Two simple players to measure the automatic player against (balance.py reports both).

random: any legal action, uniformly.
greedy: looks at one move only: attacks with whatever deals the most damage if nothing blocked
it (seals spent freely), defends with whatever stops the most, fires every skill it can pay,
summons the first summoner with an immediate effect, renews only when it must.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core import Action, Rng
from rules.guilty_gods.combat import chances
from rules.guilty_gods.combos import spheres
from rules.guilty_gods.planner import Scorer, Shape, best_attack, best_defense, next_key
from rules.guilty_gods.plans import NO_KEEP
from rules.guilty_gods.state import GgState

if TYPE_CHECKING:
    from rules.guilty_gods.game import GuiltyGods


def random_action(game: GuiltyGods, s: GgState, player: str, rng: Rng) -> Action:
    return rng.choice(game.legal_actions(s, player))


def _attack_damage(shape: Shape) -> float:
    auto = sum(c.support.effect.damage for c in shape.supports.values() if c.support.automatic)
    if shape.group is not None and shape.group.support.automatic:
        auto += shape.group.support.effect.damage
    return sum(len(x) for x in shape.spheres) + auto - 0.001 * shape.cost


def _blocked(s: GgState) -> Scorer:
    attack = s.attack
    assert attack is not None
    a_sph = [frozenset(spheres(s, attack, i)) for i in range(len(attack.row))]

    def score(shape: Shape) -> float:
        stopped = sum(len(a_sph[shape.offset + j] & x) for j, x in enumerate(shape.spheres))
        prevent = sum(c.support.effect.prevent for c in shape.supports.values() if c.support.automatic)
        if shape.group is not None and shape.group.support.automatic:
            prevent += shape.group.support.effect.prevent
        return stopped + prevent - 0.001 * shape.cost

    return score


def greedy_action(game: GuiltyGods, s: GgState, player: str, rng: Rng) -> Action:
    legal = {a.key: a for a in game.legal_actions(s, player)}
    seat = s.seats.get(player)
    key = next(iter(legal))
    if s.phase == "deck":
        key = rng.choice(list(legal))
    elif s.phase == "hand":
        key = "hand:keep"
    elif s.phase == "first":
        key = "first.who:me"
    elif s.phase == "summoner" and seat is not None:
        ids = s.deck_summoners[seat.deck_id]
        eager = [x for x in ids if any(p.power in ("draw", "seal_when_low", "extra_damage")
                                       for p in s.summoners[x].powers)]
        key = f"summon.who:{(eager or ids)[0]}"
    elif s.phase == "kairos":
        key = "kairos:draw"
    elif s.phase == "discard" and seat is not None:
        low = min(sorted(set(seat.hand)), key=lambda c: s.cards[c].level)
        key = f"discard.card:{low}"
    elif s.phase == "act":
        plan = best_attack(s, player, _attack_damage)
        key = next_key(s, player, plan, f"renew.keep:{NO_KEEP}")
    elif s.phase == "defend":
        plan = best_defense(s, player, _blocked(s))
        key = next_key(s, player, plan if plan is not None and plan.value > 0 else None, "hit")
    elif s.phase == "skills" and seat is not None:
        key = next((f"skill:{c.id}" for c in chances(s, player) if c.cost <= seat.seals),
                   "skill:done")
    return legal.get(key) or next(iter(legal.values()))
