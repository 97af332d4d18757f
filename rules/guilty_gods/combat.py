"""Combat: attack against defense, the skills that may fire, and the end of the move.

Each attack card faces at most one defense card; every sphere of the attack card that the
facing card lacks is one point of damage (no facing card: every sphere). Then skills: the
attacker's may fire for cards that dealt damage (a group support: when any card did), the
defender's for cards that stopped their facing card completely (a group support: when any
did); automatic supports already work from the moment they were played. A skill fires at most
once, for the seals it states. At the end of the move the damage is taken, seals are gained
(from every played card with a lit seal, never from supports) and the other effects happen;
Gnosis comes back at the end of the turn, too late for a player already at 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.core import Event, who
from rules.guilty_gods.combos import spheres
from rules.guilty_gods.content import Effect
from rules.guilty_gods.hands import draw_up_to_limit, names
from rules.guilty_gods.state import MAX_SEALS, START_GNOSIS, GgState, Move, Tally


def compare(s: GgState, attack: Move, defense: Move | None) -> Tally:
    raw: list[int] = []
    for i in range(len(attack.row)):
        a = spheres(s, attack, i)
        j = i - defense.offset if defense is not None else -1
        if defense is not None and 0 <= j < len(defense.row):
            raw.append(len(a - spheres(s, defense, j)))
        else:
            raw.append(len(a))
    stopped = ([raw[defense.offset + j] == 0 for j in range(len(defense.row))]
               if defense is not None else [])
    return Tally(raw=raw, stopped=stopped)


@dataclass
class Chance:
    """A skill that may fire now."""

    id: str
    """own.<i>, sup.<i>, group or protect (relative to the player's own move)."""
    card: str | None
    label: str
    cost: int
    effect: Effect | None

    def text(self, protection: str = "1 less damage from this attack") -> str:
        """What firing it does, in words (a group support's damage counts once for the move)."""
        if self.effect is None:
            return protection
        return self.effect.describe(group=self.id == "group")


def side_of(s: GgState, player: str) -> str:
    return "a" if s.attack is not None and s.attack.player == player else "d"


def _move(s: GgState, side: str) -> Move | None:
    return s.attack if side == "a" else s.defense


def chances(s: GgState, player: str) -> list[Chance]:
    """The player's skills whose condition is met in this combat and that have not fired."""
    t = s.tally
    assert t is not None, "skills need a combat"
    side = side_of(s, player)
    move = _move(s, side)
    out: list[Chance] = []
    if move is not None:
        ok = [x > 0 for x in t.raw] if side == "a" else list(t.stopped)
        for i, p in enumerate(move.row):
            card = s.cards[p.card]
            if not ok[i]:
                continue
            if card.skill is not None:
                out.append(Chance(f"own.{i}", p.card, f"{card.name} (card {i + 1})",
                                  card.skill.cost, card.skill.effect))
            if p.support is not None:
                sup = s.cards[p.support]
                if not sup.support.automatic:
                    out.append(Chance(f"sup.{i}", p.support, f"{sup.name} under {card.name}",
                                      sup.support.cost_for(card.level), sup.support.effect))
        if move.group is not None and any(ok):
            sup = s.cards[move.group]
            if not sup.support.automatic:
                out.append(Chance("group", move.group, f"{sup.name} (group)",
                                  sup.support.cost_for(0), sup.support.effect))
    if side == "d":
        prot = protection(s, player)
        if prot is not None and damage_total(s) > 0:
            out.append(Chance("protect", None, "Astraega's Protection", prot[0], None))
    return [c for c in out if f"{side}:{c.id}" not in t.fired]


def protection(s: GgState, player: str) -> tuple[int, int] | None:
    """(cost, damage taken off) of the player's Protection now, if their summoner has it."""
    summoner = s.summoner(player)
    power = summoner.power("protection") if summoner and s.powers_on(player) else None
    return (power.cost, power.amount) if power else None


@dataclass
class Fx:
    damage: int = 0
    prevent: int = 0
    seals: int = 0
    steal: int = 0
    heal: int = 0
    draw: int = 0
    discard: int = 0
    sources: list[str] = field(default_factory=list)

    def add(self, e: Effect) -> None:
        self.damage += e.damage
        self.prevent += e.prevent
        self.seals += e.seals
        self.steal += e.steal
        self.heal += e.heal
        self.draw += e.draw
        self.discard += e.discard


def effects(s: GgState, side: str) -> Fx:
    """What the automatic supports and the fired skills of one side's move add up to."""
    fx = Fx()
    move = _move(s, side)
    if move is None:
        return fx
    t = s.tally
    fired = set(t.fired) if t is not None else set()
    for i, p in enumerate(move.row):
        card = s.cards[p.card]
        if card.skill is not None and f"{side}:own.{i}" in fired:
            fx.add(card.skill.effect)
        if p.support is not None:
            sup = s.cards[p.support].support
            if sup.automatic or f"{side}:sup.{i}" in fired:
                fx.add(sup.effect)
    if move.group is not None:
        sup = s.cards[move.group].support
        if sup.automatic or f"{side}:group" in fired:
            fx.add(sup.effect)
    return fx


def extra_damage(s: GgState) -> int:
    """Ophiel's extra damage for this attack (0 unless it succeeded with Ophiel summoned)."""
    assert s.attack is not None and s.tally is not None
    player = s.attack.player
    summoner = s.summoner(player)
    power = summoner.power("extra_damage") if summoner and s.powers_on(player) else None
    return power.amount if power and sum(s.tally.raw) > 0 else 0


def damage_total(s: GgState) -> int:
    """The damage the defender takes with the skills fired so far."""
    t = s.tally
    assert t is not None and s.attack is not None
    total = sum(t.raw) + effects(s, "a").damage + extra_damage(s) - effects(s, "d").prevent
    if "d:protect" in t.fired:
        prot = protection(s, s.other(s.attack.player))
        total -= prot[1] if prot else 0
    return max(0, total)


def fire(s: GgState, player: str, chance: Chance, events: list[Event]) -> None:
    t = s.tally
    assert t is not None
    side = side_of(s, player)
    s.seats[player].seals -= chance.cost
    t.fired.append(f"{side}:{chance.id}")
    t.paid[player] = t.paid.get(player, 0) + chance.cost
    what = chance.text()
    paid = f" for {chance.cost} seal{'s' * (chance.cost > 1)}" if chance.cost else ""
    events.append(Event(kind="skill", text=f"{who(player)} activates {chance.label}{paid}: {what}.",
                        data={"player": player, "skill": chance.id, "card": chance.card,
                              "cost": chance.cost}))


# --- the end of the move ----------------------------------------------------------------------

def _lit(s: GgState, move: Move | None) -> int:
    return sum(1 for p in move.row if s.cards[p.card].seal) if move is not None else 0


def gain_seals(s: GgState, player: str, n: int, events: list[Event], why: str) -> None:
    seat = s.seats[player]
    got = min(n, MAX_SEALS - seat.seals)
    seat.seals += got
    if n > 0:
        capped = f" ({n - got} lost: {MAX_SEALS} is the most)" if got < n else ""
        events.append(Event(kind="seals", text=(
            f"{who(player)} gains {got} Divine Seal{'s' * (got != 1)} ({why}){capped}: "
            f"{seat.seals} now."), data={"player": player, "gain": got, "seals": seat.seals}))


def finish_move(s: GgState, events: list[Event]) -> bool:
    """Deal the damage and carry out the end of the move and of the turn. Returns False when
    the defender fell to 0 Gnosis (the game is over, `s.winners` set)."""
    atk, dfn, t = s.attack, s.defense, s.tally
    assert atk is not None and t is not None
    a = atk.player
    d = s.other(a)
    fa, fd = effects(s, "a"), effects(s, "d")
    total = damage_total(s)
    raw = sum(t.raw)
    parts = [f"{raw} through the spheres"]
    if fa.damage:
        parts.append(f"+{fa.damage} from skills")
    if extra_damage(s):
        parts.append(f"+{extra_damage(s)} from Ophiel")
    if fd.prevent:
        parts.append(f"-{fd.prevent} prevented")
    if "d:protect" in t.fired:
        parts.append("-1 by Protection")
    seat_d = s.seats[d]
    seat_d.gnosis = max(0, seat_d.gnosis - total)
    events.append(Event(kind="damage", text=(
        f"{who(d)} takes {total} damage ({', '.join(parts)}): {seat_d.gnosis} Gnosis left."),
        data={"player": d, "damage": total, "raw": raw, "gnosis": seat_d.gnosis,
              "success": raw > 0}))
    if seat_d.gnosis <= 0:
        s.phase, s.winners, s.end_reason = "over", [a], "gnosis"
        s.building = s.draft = None
        events.append(Event(kind="game_over", text=f"{who(d)} has no Gnosis left: {who(a)} wins the duel.",
                            data={"winners": [a], "reason": "gnosis"}))
        return False
    # seals: stolen first, then gained (a card's seal only now, at the end of the move)
    for thief, victim, n in ((a, d, fa.steal), (d, a, fd.steal)):
        took = min(n, s.seats[victim].seals)
        if took:
            s.seats[victim].seals -= took
            events.append(Event(kind="steal", text=f"{who(thief)} steals {took} seal{'s' * (took > 1)} "
                                f"from {who(victim)}.", data={"player": thief, "count": took}))
        gain_seals(s, thief, took, [], "")  # stolen seals join at once, within the cap
    lit_a, lit_d = _lit(s, atk), _lit(s, dfn)
    gain_seals(s, a, lit_a + fa.seals, events, _why(lit_a, fa.seals))
    summoner = s.summoner(d)
    sarah = total if summoner and s.powers_on(d) and summoner.power("seals_for_damage") else 0
    gain_seals(s, d, lit_d + fd.seals + sarah, events, _why(lit_d, fd.seals, sarah))
    # the cards leave the table face up
    s.seats[a].played += atk.cards()
    if dfn is not None:
        s.seats[d].played += dfn.cards()
    for victim, n in ((d, fa.discard), (a, fd.discard)):
        hand = s.seats[victim].hand
        gone = [hand.pop(s.rng.randint(0, len(hand) - 1)) for _ in range(min(n, len(hand)))]
        if gone:
            s.seats[victim].played += gone
            events.append(Event(kind="discard", text=f"{who(victim)} discards {names(s, gone)} at random.",
                                data={"player": victim, "cards": gone}))
    for player, fx in ((a, fa), (d, fd)):
        if fx.draw:
            draw_up_to_limit(s, player, fx.draw, events, "a skill")
    # the end of the turn: Gnosis comes back
    for player, fx in ((a, fa), (d, fd)):
        seat = s.seats[player]
        gain = min(fx.heal, START_GNOSIS - seat.gnosis)
        if gain > 0:
            seat.gnosis += gain
            events.append(Event(kind="heal", text=(
                f"{who(player)} restores {gain} Gnosis at the end of the turn: {seat.gnosis} now."),
                data={"player": player, "gain": gain, "gnosis": seat.gnosis}))
    s.attack = s.defense = s.tally = None
    s.skill_player = None
    return True


def _why(lit: int, skill: int, sarah: int = 0) -> str:
    parts = []
    if lit:
        parts.append(f"{lit} lit seal{'s' * (lit > 1)}")
    if skill:
        parts.append("skills")
    if sarah:
        parts.append(f"Sarah, for {sarah} damage taken")
    return ", ".join(parts) or "nothing"
