"""What a player cannot see, dealt anew: `Game.resample` for Guilty Gods.

Hidden from a viewer: the other player's hand, deck and face-down pile (as one pool: the viewer
knows which cards the rival's deck holds and which were played face up, not where the rest
are), the order of the viewer's own deck, the move the other player is building (it is
private until confirmed, so it is dropped: nothing was picked yet, as far as the viewer can
tell) and the generator's seed. The counts of every pile stay the same. Everything on the table
(moves, seals, Gnosis, summoners, face-up piles) is public.
"""

from __future__ import annotations

from rules.core import Rng
from rules.guilty_gods.state import GgState


def resample(state: GgState, viewer: str | None, rng: Rng) -> GgState:
    s = state.model_copy(deep=True)
    for p, seat in s.seats.items():
        if p == viewer:
            seat.deck = rng.shuffled(seat.deck)
            continue
        pool = rng.shuffled(seat.hand + seat.deck + seat.hidden)
        n_hand, n_deck = len(seat.hand), len(seat.deck)
        seat.hand = pool[:n_hand]
        seat.deck = pool[n_hand:n_hand + n_deck]
        seat.hidden = pool[n_hand + n_deck:]
    if s.draft is not None and s.draft.player != viewer:
        s.draft = None
        s.building = None
    s.rng = Rng(seed=rng.randint(0, 2**62), counter=state.rng.counter)
    return s
