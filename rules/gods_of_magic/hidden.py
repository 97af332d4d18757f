"""What a god cannot see, dealt anew: `Game.resample` for Gods of Magic.

Hidden from a viewer: the other gods' hands (every hand for the table), the cards in the deck
and their order, and the generator's seed. The discard pile is not hidden: every card reaches
it face up (destroyed, transformed or discarded with a public event) and the table shows its
top. The cards in play, the scores and every count are public.

The hidden cards are dealt back at random with the same counts, so that the state stays one the
game could reach: the card the god to act has picked from their hand for the current move (or,
for a Transformation, a card of the target's suit) is replaced by one that fits that move too.
The earlier states kept for strict storytelling (the state before a move under objection, the
one a Recombination began in) follow the same renaming (see `_follow`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rules.core import Rng
from rules.core.steps import Building
from rules.gods_of_magic.content import Suit
from rules.gods_of_magic.magic import rc_spots
from rules.gods_of_magic.moves import can_place
from rules.gods_of_magic.state import GomState
from rules.gods_of_magic.undo import (
    before_objection,
    keep_objection,
    keep_recombination,
    recombination_start,
)

_TOKEN = re.compile(r"[A-Za-z0-9_-]+")


def _constraints(s: GomState, hidden: list[str]) -> list[tuple[str, Callable[[str], bool]]]:
    """(card, test): a card of a hidden hand whose replacement must pass `test`, because the
    state shows that the god picked it (or holds such a card) for the move under way."""
    picked = s.pending  # the card chosen first in the move being built (hand card or target)
    if s.phase not in ("play", "magic") or not picked or s.player not in hidden:
        return []
    mover, cid = s.player, picked[0]
    hand = s.hands[mover]
    if cid in hand:
        if s.step == "recombine":
            return [(cid, lambda c: bool(rc_spots(s, mover, c)))]
        if s.step == "alter":
            return [(cid, lambda c: s.suit(c) == Suit.DESCRIPTOR and can_place(s, mover, c))]
        return [(cid, lambda c: can_place(s, mover, c))]
    if s.step == "transform":
        suit = s.suit(cid)
        same = [c for c in hand if s.suit(c) == suit]
        if same:
            return [(same[0], lambda c: s.suit(c) == suit)]
    return []


def _permutation(s: GomState, hidden: list[str], rng: Rng) -> dict[str, str]:
    """A random one-to-one map of the hidden cards (the deck and the hidden hands) onto themselves."""
    pool = _hidden_cards(s, hidden)
    sigma: dict[str, str] = {}
    for old, fits in _constraints(s, hidden):
        taken = set(sigma.values())
        candidates = [c for c in pool if c not in taken and fits(c)]
        sigma[old] = rng.choice(candidates) if candidates else old
    taken = set(sigma.values())
    rest_old = [c for c in pool if c not in sigma]
    rest_new = rng.shuffled([c for c in pool if c not in taken])
    sigma.update(zip(rest_old, rest_new, strict=True))
    return sigma


def _hidden_cards(s: GomState, hidden: list[str]) -> list[str]:
    return list(s.deck) + [c for p in hidden for c in s.hands[p]]


def _remap(s: GomState, sigma: dict[str, str], hidden: list[str], rng: Rng | None = None) -> None:
    """Rename the cards of `s` through `sigma` (a one-to-one map of its hidden cards; the others
    stay), and the hidden cards of the earlier states it keeps with it (see `_follow`). With
    `rng`, the generator of `s` is also replaced by a fresh one drawn from it."""
    def m(c: str) -> str:
        return sigma.get(c, c)

    start = recombination_start(s) if s.recombine_undo is not None else None
    before = before_objection(s) if s.objection is not None else None
    s.deck = [m(c) for c in s.deck]
    s.hands = {p: [m(c) for c in h] for p, h in s.hands.items()}
    if s.building is not None:
        s.building = Building(verb=s.building.verb, args={a: m(v) for a, v in s.building.args.items()})
    s.forbidden = [_TOKEN.sub(lambda t: m(t.group(0)), f) for f in s.forbidden]
    if rng is not None:
        s.rng = Rng(seed=rng.randint(0, 2**62), counter=s.rng.counter)
    if start is not None:
        _remap(start, _follow(sigma, start, hidden), hidden)
        keep_recombination(s, start)
    if before is not None:
        _remap(before, _follow(sigma, before, hidden), hidden)
        keep_objection(s, before)


def _follow(sigma: dict[str, str], snap: GomState, hidden: list[str]) -> dict[str, str]:
    """The map for an earlier state that `s` keeps (one an objection may restore): the same as
    `sigma` on the cards hidden then and now, one-to-one on the cards hidden then; a card seen in
    play then keeps its name (the table saw it), and so, where possible, does one hidden then and
    seen since (the card just placed by the move under objection)."""
    pool = _hidden_cards(snap, hidden)
    members = set(pool)
    out: dict[str, str] = {}
    for c in pool:
        if c in sigma and sigma[c] in members and sigma[c] not in out.values():
            out[c] = sigma[c]
    free = [c for c in pool if c not in set(out.values())]
    free_set = set(free)
    for c in pool:
        if c not in out and c in free_set:
            out[c] = c
    used = set(out.values())
    out.update(zip([c for c in pool if c not in out], [c for c in free if c not in used], strict=True))
    return out


def resample(state: GomState, viewer: str | None, rng: Rng) -> GomState:
    """A state `viewer` (None: the table) cannot tell from `state`; `state` is untouched."""
    s = state.model_copy(deep=True)
    hidden = [p for p in s.players if p != viewer]
    sigma = _permutation(state, hidden, rng)
    _remap(s, sigma, hidden, rng)
    return s
