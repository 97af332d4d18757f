"""Combos: how cards join side by side, what a move costs, and where a card may go in it.

A row of attack cards reads from the attacker's left to right: two neighbours touch through the
left card's right slot and the right card's left slot. Defense cards face the attack cards
turned round (their spheres are printed reversed for that), so in the same left-to-right order
two defense neighbours touch through the left one's printed LEFT slot and the right one's
printed RIGHT slot. Joining costs the seals of both touching slots; a closed slot joins nothing
unless Aizen's Combination opened it (once a move) or an automatic support under that card
opens it.

Places for a card in a move (the values of the `at` step, see plans.py):
    f<i>      the first defense card, facing attack card i (from 0)
    w, e      join the row on the left (west) or right (east) end
    wa, ea    the same, Aizen's Combination opening the one closed slot in the way
    s<i>      individual support under row card i
    g         group support beside the move
"""

from __future__ import annotations

from rules.guilty_gods.content import CreatureDef, Kind, Slot
from rules.guilty_gods.copying import copy_move
from rules.guilty_gods.state import GgState, Move, Placed, Side

OPEN = Slot(open=True, cost=0)


def touching(kind: Kind) -> tuple[Side, Side]:
    """(side of the left card, side of the right card) that touch in a row of this kind."""
    return ("right", "left") if kind == "attack" else ("left", "right")


def slot(s: GgState, p: Placed, side: Side) -> Slot:
    card = s.cards[p.card]
    printed = card.left if side == "left" else card.right
    if printed.open:
        return printed
    if p.opened == side:
        return OPEN
    if p.support is not None:
        sup = s.cards[p.support].support
        if sup.automatic and sup.effect.open_slots:
            return OPEN
    return printed


def join_cost(s: GgState, kind: Kind, west: Placed, east: Placed) -> int | None:
    """Seals to join these two neighbours (None: a closed slot is in the way)."""
    ws, es = touching(kind)
    a, b = slot(s, west, ws), slot(s, east, es)
    if not (a.open and b.open):
        return None
    return a.cost + b.cost


def combination_cost(s: GgState, player: str) -> int | None:
    """Aizen's Combination for this player now (None: not available)."""
    if not s.powers_on(player):
        return None
    summoner = s.summoner(player)
    power = summoner.power("combination") if summoner else None
    return power.cost if power else None


def chain_cost(s: GgState, player: str) -> int | None:
    """Chain of Actions for the initiative holder now (None: not available)."""
    if player != s.player or not s.powers_on(player):
        return None
    summoner = s.summoner(player)
    power = summoner.power("chain") if summoner else None
    return power.cost if power else None


def support_cost(s: GgState, move: Move) -> int:
    """Seals the automatic supports of the move cost (they are paid as they are played)."""
    total = 0
    for p in move.row:
        if p.support is not None:
            sup = s.cards[p.support].support
            if sup.automatic:
                total += sup.cost_for(s.cards[p.card].level)
    if move.group is not None:
        sup = s.cards[move.group].support
        if sup.automatic:
            total += sup.cost_for(0)
    return total


def join_total(s: GgState, move: Move) -> int | None:
    total = 0
    for west, east in zip(move.row, move.row[1:], strict=False):
        cost = join_cost(s, move.kind, west, east)
        if cost is None:
            return None
        total += cost
    return total


def move_cost(s: GgState, move: Move) -> int:
    """Every seal the move costs when confirmed: joins, Combination, automatic supports, Chain."""
    joins = join_total(s, move)
    assert joins is not None, "a move's row is always joined"
    total = joins + support_cost(s, move)
    if move.combination:
        total += combination_cost(s, move.player) or 0
    if move.chain:
        total += chain_cost(s, move.player) or 0
    return total


def free_seals(s: GgState, move: Move) -> int:
    """Seals left once the move as built so far is paid."""
    return s.seats[move.player].seals - move_cost(s, move)


def spheres(s: GgState, move: Move, i: int) -> set[str]:
    """The spheres row card i has in this move: its own, plus those automatic supports add."""
    p = move.row[i]
    out: set[str] = set(s.cards[p.card].spheres)
    for sup_id in (p.support, move.group):
        if sup_id is not None:
            sup = s.cards[sup_id].support
            if sup.automatic and sup.effect.sphere is not None:
                out.add(sup.effect.sphere)
    return out


def available(s: GgState, move: Move) -> dict[str, int]:
    """Cards of the hand not yet used in the move (of the move's kind), with their counts."""
    counts: dict[str, int] = {}
    for c in s.seats[move.player].hand:
        if s.cards[c].kind == move.kind:
            counts[c] = counts.get(c, 0) + 1
    for c in move.cards():
        if c in counts:
            counts[c] -= 1
    return {c: n for c, n in counts.items() if n > 0}


# --- placing cards --------------------------------------------------------------------------

def place(s: GgState, move: Move, cid: str, at: str) -> Move:
    """The move with `cid` put at `at`; the caller has checked it is allowed (see `places`)."""
    m = copy_move(move)
    new = Placed(card=cid)
    if at.startswith("f"):
        m.row, m.offset = [new], int(at[1:])
        m.steps.append("start")
    elif at == "row":
        m.row = [new]
        m.steps.append("start")
    elif at in ("w", "wa", "e", "ea"):
        west, east = (new, m.row[0]) if at[0] == "w" else (m.row[-1], new)
        if at.endswith("a"):
            ws, es = touching(m.kind)
            if not slot(s, west, ws).open:
                west.opened = ws
            else:
                east.opened = es
        if at[0] == "w":
            m.row.insert(0, new)
            if m.kind == "defense":
                m.offset -= 1
        else:
            m.row.append(new)
        m.steps.append(at[0] + ("+a" if at.endswith("a") else ""))
    elif at.startswith("s"):
        m.row[int(at[1:])].support = cid
        m.steps.append(at)
    elif at == "g":
        m.group = cid
        m.steps.append("g")
    else:
        raise ValueError(f"unknown place {at!r}")
    return m


def undo(move: Move) -> Move:
    """The move without its last placement."""
    m = copy_move(move)
    step = m.steps.pop()
    if step == "start":
        m.row, m.offset = [], 0
    elif step[0] in "we":
        if step[0] == "w":
            m.row.pop(0)
            if m.kind == "defense":
                m.offset += 1
        else:
            m.row.pop()
        if step.endswith("+a"):
            for p in m.row:
                p.opened = None
    elif step.startswith("s"):
        m.row[int(step[1:])].support = None
    elif step == "g":
        m.group = None
    return m


def _end_join(s: GgState, move: Move, cid: str, west_end: bool,
              combination: bool) -> bool:
    """Whether `cid` can join the row at that end (with Aizen's Combination opening exactly
    the one closed slot in the way, when asked)."""
    new = Placed(card=cid)
    west, east = (new, move.row[0]) if west_end else (move.row[-1], new)
    ws, es = touching(move.kind)
    closed = [not slot(s, west, ws).open, not slot(s, east, es).open]
    if combination:
        return sum(closed) == 1
    return not any(closed)


def places(s: GgState, move: Move, cid: str, attack: Move | None = None) -> list[str]:
    """Where `cid` may go in `move` now (before checking the seals): see the module's list.
    `attack`: the attack a defense faces."""
    card: CreatureDef = s.cards[cid]
    if not move.row:
        if move.kind == "attack":
            return ["row"]
        assert attack is not None, "a defense faces an attack"
        return [f"f{i}" for i in range(len(attack.row))]
    out: list[str] = []
    room_w = move.kind == "attack" or move.offset > 0
    room_e = move.kind == "attack" or (attack is not None
                                        and move.offset + len(move.row) < len(attack.row))
    combo = combination_cost(s, move.player) is not None and not move.combination
    for west_end, room, name in ((True, room_w, "w"), (False, room_e, "e")):
        if not room:
            continue
        if _end_join(s, move, cid, west_end, False):
            out.append(name)
        elif combo and _end_join(s, move, cid, west_end, True):
            out.append(name + "a")
    if card.support.scope == "individual":
        out += [f"s{i}" for i, p in enumerate(move.row) if p.support is None]
    elif move.group is None:
        out.append("g")
    return out


def step_cost(s: GgState, move: Move, cid: str, at: str) -> int:
    """What putting `cid` at `at` adds to the move's cost now."""
    return move_cost(s, place(s, move, cid, at)) - move_cost(s, move)
