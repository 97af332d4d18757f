"""The automatic player's value model: what a card, a seal, a point of damage and a whole
candidate move are worth, from what the player may know.

Attacks are scored by the damage expected to get through (the rival's likely best blocker is
estimated from the cards of their deck not yet seen face up and the size of their hand), the
skills the seals left can pay, the seals the lit cards bring, what the cards used were worth
and a fresh hand when the move empties it. Defenses are scored by the damage they save
(survival first), the skills they fire and deny, seals, and the cards spent; taking the hit is
worth 0.
"""

from __future__ import annotations

from collections import Counter

from rules.guilty_gods.combat import effects
from rules.guilty_gods.combos import spheres
from rules.guilty_gods.content import CreatureDef, Effect
from rules.guilty_gods.planner import Plan, Scorer, Shape, best_attack, best_defense
from rules.guilty_gods.state import MAX_SEALS, START_GNOSIS, GgState, Move

W_SEAL = 0.45
REFILL = 1.2
"""A hand emptied by the move draws seven at once."""
RENEW_BELOW = -0.3
"""Renew instead of attacking when the best attack scores less."""


def card_value(c: CreatureDef) -> float:
    """What keeping a card in hand is worth."""
    return 0.2 + 0.12 * len(c.spheres) + 0.05 * c.level


def w_damage(gnosis: int) -> float:
    """A point of damage matters more the closer it brings someone to 0."""
    return 1.0 + 2.0 / max(1, gnosis)


class Rival:
    """The public facts about a player's opponent that the planning uses."""

    def __init__(self, s: GgState, player: str):
        opp = s.other(player)
        seat = s.seats[opp]
        pool = Counter(s.deck_cards[seat.deck_id])
        pool.subtract(Counter(seat.played))
        if s.defense is not None and s.defense.player == opp:
            pool.subtract(Counter(s.defense.cards()))
        total = sum(n for n in pool.values() if n > 0) or 1
        self.defense = [(frozenset(s.cards[c].spheres), n) for c, n in pool.items()
                        if n > 0 and s.cards[c].kind == "defense"]
        n_def = sum(n for _, n in self.defense)
        self.expected_defenders = len(seat.hand) * n_def / total
        self.gnosis = seat.gnosis
        self.seals = seat.seals
        self.hand = len(seat.hand)
        self._block: dict[frozenset[str], float] = {}

    def block(self, attack: frozenset[str]) -> float:
        """Expected spheres of `attack` stopped by the best of the rival's likely defenders."""
        if attack not in self._block:
            k = self.expected_defenders
            total = sum(n for _, n in self.defense)
            if not total or k <= 0:
                self._block[attack] = 0.0
            else:
                dist: Counter[int] = Counter()
                for d, n in self.defense:
                    dist[len(attack & d)] += n
                exp, below = 0.0, 0.0
                for x in range(len(attack)):
                    below += dist[x] / total
                    exp += 1 - below ** k
                self._block[attack] = exp
        return self._block[attack]


def effect_value(s: GgState, player: str, e: Effect) -> float:
    """What an effect (not counting damage and prevention) is worth to `player`."""
    opp = s.seats[s.other(player)]
    seat = s.seats[player]
    v = 0.0
    if seat.seals < MAX_SEALS:
        v += W_SEAL * e.seals
    v += 2 * W_SEAL * min(e.steal, opp.seals + 1) * 0.8
    v += (0.8 if seat.gnosis < START_GNOSIS else 0.4) * e.heal
    v += 0.3 * e.draw
    v += 0.4 * min(e.discard, len(opp.hand))
    return v


class EffectValues:
    """`effect_value` for one player in one state, each effect worked out once: a plan scores
    thousands of shapes made of the same few cards (the state does not change meanwhile)."""

    def __init__(self, s: GgState, player: str):
        self.s, self.player = s, player
        self._known: dict[int, tuple[Effect, float]] = {}

    def __call__(self, e: Effect) -> float:
        found = self._known.get(id(e))
        if found is None or found[0] is not e:
            found = self._known[id(e)] = (e, effect_value(self.s, self.player, e))
        return found[1]


# --- attacks ------------------------------------------------------------------------------------

def attack_score(s: GgState, player: str, rival: Rival) -> Scorer:
    seat = s.seats[player]
    hand = len(seat.hand)
    summoner = s.summoner(player)
    ophiel = summoner.power("extra_damage") if summoner and s.powers_on(player) else None
    w = w_damage(rival.gnosis)
    worth = EffectValues(s, player)
    facing = Facing(rival)
    skill = SkillValues(w, worth)

    def score(shape: Shape) -> float:
        n = len(shape.cards)
        facts = [facing(x) for x in shape.spheres]
        d = [f[0] for f in facts]
        b = [f[1] for f in facts]
        ranked = sorted(b, reverse=True)
        blocked = ranked[0] + (0.35 * ranked[1] if n > 1 and rival.seals > 0 else 0.0)
        exp = max(0.0, sum(d) - blocked)
        p = [f[2] for f in facts]
        fail = 1.0
        for x in p:
            fail *= 1 - x
        success = 1 - fail
        extra_fx: list[Effect] = []
        skills: list[tuple[float, int, float]] = []  # value, cost, chance
        for i, c in enumerate(shape.cards):
            if c.skill is not None:
                skills.append((skill(c.skill.effect), c.skill.cost, p[i]))
            sup = shape.supports.get(i)
            if sup is not None:
                if sup.support.automatic:
                    extra_fx.append(sup.support.effect)
                else:
                    skills.append((skill(sup.support.effect), sup.support.cost_for(c.level), p[i]))
        if shape.group is not None:
            g = shape.group.support
            if g.automatic:
                extra_fx.append(g.effect)
            else:
                skills.append((skill(g.effect), g.cost_for(0), success))
        auto_damage = sum(e.damage for e in extra_fx) if extra_fx else 0
        dmg = exp + auto_damage + (ophiel.amount * success if ophiel else 0)
        v = w * dmg
        if dmg >= rival.gnosis:
            v += 3.0
        if extra_fx:
            v += sum(worth(e) for e in extra_fx)
        left = seat.seals - shape.cost
        if len(skills) > 1:
            skills.sort(key=lambda t: -(t[0] * t[2] - t[1] * W_SEAL))
        for value, cost, chance in skills:
            if cost <= left and value > cost * W_SEAL:
                v += chance * (value - cost * W_SEAL)
                left -= cost
        lit = sum(1 for c in shape.cards if c.seal)
        v += W_SEAL * min(lit, MAX_SEALS - (seat.seals - shape.cost))
        v -= W_SEAL * shape.cost
        used = shape.used()
        v -= sum(map(card_value, used))
        if len(used) == hand:
            v += REFILL
        return v

    return score


class Facing:
    """What an attack card of given spheres meets from the rival, worked out once per set of
    spheres (an attack plan scores thousands of rows made of the same few cards): (its number
    of spheres, the spheres expected blocked, the chance it gets through)."""

    def __init__(self, rival: Rival):
        self.rival = rival
        self._known: dict[frozenset[str], tuple[int, float, float]] = {}

    def __call__(self, spheres: frozenset[str]) -> tuple[int, float, float]:
        found = self._known.get(spheres)
        if found is None:
            d = len(spheres)
            b = min(self.rival.block(spheres), float(d))
            found = self._known[spheres] = (d, b, max(0.15, 1 - b / d))
        return found


class SkillValues:
    """What a skill's effect is worth to the attacker (its damage and the rest), each effect
    worked out once, like `EffectValues`."""

    def __init__(self, w: float, worth: EffectValues):
        self.w, self.worth = w, worth
        self._known: dict[int, tuple[Effect, float]] = {}

    def __call__(self, e: Effect) -> float:
        found = self._known.get(id(e))
        if found is None or found[0] is not e:
            found = self._known[id(e)] = (e, e.damage * self.w + self.worth(e))
        return found[1]


def chain_value(s: GgState, player: str) -> Scorer:
    hand = s.seats[player].hand

    def value(shape: Shape) -> float:
        left = list(hand)
        for c in shape.used():
            left.remove(c.id)
        if not left:
            return 1.6
        best = max((len(s.cards[c].spheres) for c in left if s.cards[c].kind == "attack"), default=0)
        return 1.6 if best >= 2 else (0.5 if best == 1 else 0.0)

    return value


def plan_attack(s: GgState, player: str) -> Plan | None:
    return best_attack(s, player, attack_score(s, player, Rival(s, player)), chain_value(s, player))


# --- defenses -----------------------------------------------------------------------------------

def defense_score(s: GgState, player: str) -> Scorer:
    attack = s.attack
    assert attack is not None
    seat = s.seats[player]
    att = attack.player
    n = len(attack.row)
    a_sph = [frozenset(spheres(s, attack, i)) for i in range(n)]
    raw0 = [len(x) for x in a_sph]
    a_fx = effects(s, "a") if s.tally is not None else None
    auto_damage = _auto(s, attack).damage if a_fx is None else a_fx.damage
    summoner = s.summoner(att)
    ophiel = summoner.power("extra_damage") if summoner and s.powers_on(att) else None
    att_seals = s.seats[att].seals
    # what the attacker's skills would add for each attack card that gets through
    skill_damage = [0.0] * n
    skill_other = [0.0] * n
    for i, p in enumerate(attack.row):
        c = s.cards[p.card]
        for eff, cost in ((c.skill.effect, c.skill.cost) if c.skill else (None, 0),
                          _sup(s, p.support, c.level)):
            if eff is not None and cost <= att_seals:
                skill_damage[i] += eff.damage
                skill_other[i] += effect_value(s, att, eff)
    mine = s.summoner(player)
    sarah = bool(mine and s.powers_on(player) and mine.power("seals_for_damage")
                 and seat.seals < MAX_SEALS)
    w = w_damage(seat.gnosis) - (W_SEAL if sarah else 0.0)
    hand = len(seat.hand)

    def dealt(raw: list[int], prevent: float) -> float:
        through = sum(raw) + auto_damage + sum(skill_damage[i] for i in range(n) if raw[i] > 0)
        if ophiel and sum(raw) > 0:
            through += ophiel.amount
        return max(0.0, through - prevent)

    before = dealt(raw0, 0)

    def score(shape: Shape) -> float:
        raw = list(raw0)
        for j, sph in enumerate(shape.spheres):
            i = shape.offset + j
            raw[i] = len(a_sph[i] - sph)
        stopped = [raw[shape.offset + j] == 0 for j in range(len(shape.cards))]
        prevent = 0.0
        v = 0.0
        skills: list[tuple[Effect, int]] = []
        for j, c in enumerate(shape.cards):
            sup = shape.supports.get(j)
            if sup is not None and sup.support.automatic:
                prevent += sup.support.effect.prevent
                v += effect_value(s, player, sup.support.effect)
            if not stopped[j]:
                continue
            if c.skill is not None:
                skills.append((c.skill.effect, c.skill.cost))
            if sup is not None and not sup.support.automatic:
                skills.append((sup.support.effect, sup.support.cost_for(c.level)))
        if shape.group is not None:
            g = shape.group.support
            if g.automatic:
                prevent += g.effect.prevent
                v += effect_value(s, player, g.effect)
            elif any(stopped):
                skills.append((g.effect, g.cost_for(0)))
        left = seat.seals - shape.cost
        for eff, cost in sorted(skills, key=lambda t: t[1]):
            if cost > left:
                continue
            gain = effect_value(s, player, eff) + w * min(eff.prevent, max(0.0, dealt(raw, prevent)))
            if gain > cost * W_SEAL:
                prevent += eff.prevent
                v += gain - cost * W_SEAL
                left -= cost
        after = dealt(raw, prevent)
        v += w * (before - after)
        if before >= seat.gnosis > after:
            v += 50.0
        v += sum(0.6 * skill_other[i] for i in range(n) if raw0[i] > 0 and raw[i] == 0)
        lit = sum(1 for c in shape.cards if c.seal)
        v += W_SEAL * min(lit, MAX_SEALS - (seat.seals - shape.cost))
        v -= W_SEAL * shape.cost
        used = shape.used()
        v -= 0.8 * sum(card_value(c) for c in used)
        if len(used) == hand:
            v += REFILL
        return v

    return score


def _sup(s: GgState, sup_id: str | None, level: int) -> tuple[Effect | None, int]:
    if sup_id is None:
        return None, 0
    sup = s.cards[sup_id].support
    return (None, 0) if sup.automatic else (sup.effect, sup.cost_for(level))


def _auto(s: GgState, move: Move) -> Effect:
    total = 0
    for p in move.row:
        if p.support and s.cards[p.support].support.automatic:
            total += s.cards[p.support].support.effect.damage
    if move.group and s.cards[move.group].support.automatic:
        total += s.cards[move.group].support.effect.damage
    return Effect(damage=min(total, 3))


def plan_defense(s: GgState, player: str) -> Plan | None:
    plan = best_defense(s, player, defense_score(s, player))
    return plan if plan is not None and plan.value > 0 else None
