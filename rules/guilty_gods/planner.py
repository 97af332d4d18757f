"""Searching moves for the automatic players: every attack or defense the hand and the seals
allow, scored by a value model (policy.py has the careful one, rivals.py the greedy one).

A plan is the list of (card, place) steps that builds the move from nothing, west to east
(`row` or `f<i>` first, then `e`/`ea`, then supports `s<i>`, then the group support `g`), so
that the automatic player can click it through the step plans one action at a time. The search
only uses what the player may know: their own hand and seals, the move on the table, and the
public facts about the rival (Gnosis, seals, hand size, the cards not yet seen face up).
`next_key` turns a plan into the next click, whatever was clicked before (undoing what does not
fit the plan).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from rules.guilty_gods.combos import chain_cost, combination_cost, place
from rules.guilty_gods.content import CreatureDef
from rules.guilty_gods.plans import draft_of
from rules.guilty_gods.state import GgState, Move

MAX_ROW = 5

Scorer = Callable[["Shape"], float]
"""A value model: how good a candidate move is for the player searching."""


@dataclass
class Plan:
    steps: list[tuple[str, str]] = field(default_factory=list)
    """(card, place) in build order."""
    chain: bool = False
    cost: int = 0
    value: float = 0.0


@dataclass
class Shape:
    """A candidate move as the value models see it."""

    kind: str
    cards: list[CreatureDef]
    """The row, west to east."""
    spheres: list[frozenset[str]]
    offset: int = 0
    supports: dict[int, CreatureDef] = field(default_factory=dict)
    group: CreatureDef | None = None
    cost: int = 0
    """Joins, Combination and automatic supports."""
    combo_at: int | None = None
    """Index of the east card of the join that Combination opens."""

    def used(self) -> list[CreatureDef]:
        return self.cards + list(self.supports.values()) + ([self.group] if self.group else [])

    def steps(self) -> list[tuple[str, str]]:
        """West to east; a support that opens a card's slots goes under it before the next card
        joins through that slot, the other supports once the row is complete."""
        first = "row" if self.kind == "attack" else f"f{self.offset}"
        out = []
        for i, c in enumerate(self.cards):
            out.append((c.id, first if i == 0 else "ea" if self.combo_at == i else "e"))
            sup = self.supports.get(i)
            if sup is not None and sup.support.effect.open_slots:
                out.append((sup.id, f"s{i}"))
        out += [(c.id, f"s{i}") for i, c in sorted(self.supports.items())
                if not c.support.effect.open_slots]
        if self.group is not None:
            out.append((self.group.id, "g"))
        return out


def hand_counts(s: GgState, player: str, kind: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in s.seats[player].hand:
        if s.cards[c].kind == kind:
            out[c] = out.get(c, 0) + 1
    return out


def _join(kind: str, west: CreatureDef, east: CreatureDef) -> tuple[int, bool, bool]:
    """(cost, west card's touching slot closed, east card's closed) of joining two cards in a
    row of this kind."""
    a, b = (west.right, east.left) if kind == "attack" else (west.left, east.right)
    return a.cost + b.cost, not a.open, not b.open


def rows(s: GgState, player: str, kind: str, seals: int, max_len: int) -> Iterator[Shape]:
    """Every row of the player's cards of this kind (west to east) whose joins they can pay,
    using Aizen's Combination for one closed slot when they have it, and a support that opens
    slots (put under the card) for the closed east slot of a card."""
    counts = hand_counts(s, player, kind)
    combo = combination_cost(s, player)
    ids = sorted(counts)
    cards = s.cards  # looked up once: the catalogue is read through a property
    openers = [cid for cid in ids if cards[cid].support.effect.open_slots]
    supports: dict[int, CreatureDef] = {}

    def opener(under: CreatureDef) -> tuple[str, int] | None:
        """The cheapest support in hand that opens `under`'s slots: (card, seals)."""
        found = [(cards[c].support.cost_for(under.level), c) for c in openers if counts[c] > 0]
        return (min(found)[1], min(found)[0]) if found else None

    def grow(row: list[CreatureDef], cost: int, combo_at: int | None) -> Iterator[Shape]:
        yield Shape(kind=kind, cards=list(row), spheres=[frozenset(c.spheres) for c in row],
                    cost=cost, combo_at=combo_at, supports=dict(supports))
        if len(row) >= max_len:
            return
        last = len(row) - 1
        for cid in ids:
            if counts[cid] == 0:
                continue
            card = cards[cid]
            join, west_closed, east_closed = _join(kind, row[-1], card)
            extra, at, sup = join, combo_at, None
            if west_closed and last not in supports and not east_closed:
                sup = opener(row[-1])
                if sup is not None and sup[0] == cid and counts[cid] < 2:
                    sup = None
                if sup is not None:
                    extra, west_closed = join + sup[1], False
            closed = west_closed + east_closed
            if closed == 1 and combo is not None and combo_at is None:
                extra, at, sup = join + combo, len(row), None
            elif closed:
                continue
            if cost + extra > seals:
                continue
            if sup is not None:
                counts[sup[0]] -= 1
                supports[last] = cards[sup[0]]
            counts[cid] -= 1
            row.append(card)
            yield from grow(row, cost + extra, at)
            row.pop()
            counts[cid] += 1
            if sup is not None:
                counts[sup[0]] += 1
                del supports[last]

    for cid in ids:
        counts[cid] -= 1
        yield from grow([cards[cid]], 0, None)
        counts[cid] += 1


def with_supports(s: GgState, shape: Shape, value: float, spare: dict[str, int], seals: int,
                  score: Callable[[Shape], float]) -> tuple[Shape, float]:
    """Add supports one by one to `shape` (whose score is `value`) while the score improves
    (greedy); returns the shape reached and its score."""
    best, best_v = shape, value
    cards = s.cards
    while True:
        found = None
        for cid, n in spare.items():
            if n <= 0:
                continue
            card = cards[cid]
            sup = card.support
            if sup.effect.open_slots:
                continue
            targets: list[int | None] = ([i for i in range(len(best.cards)) if i not in best.supports]
                                         if sup.scope == "individual" else
                                         ([None] if best.group is None else []))
            for i in targets:
                cost = 0
                if sup.automatic:
                    cost = sup.cost_for(best.cards[i].level if i is not None else 0)
                if best.cost + cost > seals:
                    continue
                cand = Shape(kind=best.kind, cards=best.cards, spheres=list(best.spheres),
                             offset=best.offset, supports=dict(best.supports), group=best.group,
                             cost=best.cost + cost, combo_at=best.combo_at)
                if i is None:
                    cand.group = card
                else:
                    cand.supports[i] = card
                if sup.automatic and sup.effect.sphere:
                    idx = range(len(cand.cards)) if i is None else [i]
                    for j in idx:
                        cand.spheres[j] = cand.spheres[j] | {sup.effect.sphere}
                v = score(cand)
                if v > best_v + 1e-9:
                    found, best_v = (cand, cid), v
        if found is None:
            return best, best_v
        best = found[0]
        spare[found[1]] -= 1


TOP = 10
"""Rows scored without supports; the best few are tried with supports."""


def _top(shapes: Iterator[Shape], score: Callable[[Shape], float]) -> list[tuple[Shape, float]]:
    """The `TOP` best-scoring shapes (the first found first among equals), with their scores."""
    scored = sorted(((score(x), i, x) for i, x in enumerate(shapes)), key=lambda t: (-t[0], t[1]))
    return [(x, v) for v, _i, x in scored[:TOP]]


def best_attack(s: GgState, player: str, score: Callable[[Shape], float],
                chain_value: Callable[[Shape], float] | None = None) -> Plan | None:
    """The best-scoring attack (None: no attack card)."""
    seals = s.seats[player].seals
    best: Plan | None = None
    counts = hand_counts(s, player, "attack")
    for shape, value in _top(rows(s, player, "attack", seals, MAX_ROW), score):
        spare = dict(counts)
        for c in shape.used():
            spare[c.id] -= 1
        full, v = with_supports(s, shape, value, spare, seals, score)
        plan = Plan(steps=full.steps(), cost=full.cost, value=v)
        cc = chain_cost(s, player)
        if chain_value is not None and cc is not None and full.cost + cc <= seals:
            cv = chain_value(full)
            if cv > 0:
                plan.chain, plan.cost, plan.value = True, full.cost + cc, v + cv
        if best is None or plan.value > best.value:
            best = plan
    return best


def best_defense(s: GgState, player: str, score: Callable[[Shape], float]) -> Plan | None:
    """The best-scoring defense (None: no defense card)."""
    assert s.attack is not None
    n = len(s.attack.row)
    seals = s.seats[player].seals
    counts = hand_counts(s, player, "defense")
    best: Plan | None = None
    placed = (Shape(kind="defense", cards=shape.cards, spheres=shape.spheres, offset=offset,
                    cost=shape.cost, combo_at=shape.combo_at, supports=shape.supports)
              for shape in rows(s, player, "defense", seals, min(n, MAX_ROW))
              for offset in range(0, n - len(shape.cards) + 1))
    for shape, value in _top(placed, score):
        spare = dict(counts)
        for c in shape.used():
            spare[c.id] -= 1
        full, v = with_supports(s, shape, value, spare, seals, score)
        if best is None or v > best.value:
            best = Plan(steps=full.steps(), cost=full.cost, value=v)
    return best


# --- driving a plan through the step actions ------------------------------------------------------

def signature(move: Move) -> tuple[object, ...]:
    return (tuple((p.card, p.support, p.opened) for p in move.row), move.group,
            move.offset if move.kind == "defense" else 0)


def next_key(s: GgState, player: str, plan: Plan | None, fallback: str) -> str:
    """The next click towards `plan` (None: towards `fallback`, renewing or taking the hit)."""
    draft = draft_of(s, player)
    b = s.building
    if plan is None:
        if b is not None:
            return f"{b.verb}.back"
        if draft.steps:
            return "undo"
        if draft.chain:
            return "chain"
        return fallback
    # how much of the plan the draft already is (-1: it went elsewhere)
    m = Move(player=player, kind=draft.kind)
    done = 0 if signature(m) == signature(draft) else -1
    for k, (card, at) in enumerate(plan.steps):
        m = place(s, m, card, at)
        if signature(m) == signature(draft):
            done = k + 1
    if b is not None:
        if 0 <= done < len(plan.steps) and plan.steps[done][0] == b.args["card"]:
            return f"{b.verb}.at:{plan.steps[done][1]}"
        return f"{b.verb}.back"
    if done < 0:
        return "undo" if draft.steps else fallback
    if done < len(plan.steps):
        card, at = plan.steps[done]
        if done == 0:
            return f"attack.card:{card}" if draft.kind == "attack" else f"face.card:{card}"
        return f"add.card:{card}"
    if draft.chain != plan.chain:
        return "chain"
    return "go"
