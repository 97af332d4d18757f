"""Gods of Magic random playouts: every game ends, no card is created or lost, the state round-trips."""

from __future__ import annotations

import pytest

from rules.core import Rng
from rules.gods_of_magic import GAME as G

CASES = [(n, seed, opts) for n, seed in [(2, 100), (3, 101), (4, 102), (5, 103), (6, 104), (7, 105), (8, 106)]
         for opts in [{}]] + [
    (3, 200, {"storytelling": "strict"}), (4, 201, {"storytelling": "strict", "target": "100"}),
    (2, 202, {"storytelling": "on", "target": "100"}),
]


@pytest.mark.parametrize("n,seed,opts", CASES, ids=[f"{c[0]}p-s{c[1]}-{'-'.join(c[2].values()) or 'default'}"
                                                    for c in CASES])
def test_playout_ends_and_keeps_every_card(n, seed, opts):
    players = [f"p{i}" for i in range(n)]
    s = G.setup(players, opts, seed)
    total = len(s.cards)
    chooser = Rng(seed=seed)
    for step in range(G.max_steps):
        assert s.count_cards() == total, "deck + discard + hands + realms must stay the deck size"
        G.check_invariants(s)
        if step % 7 == 0:
            assert G.load_state(G.dump_state(s)) == s
        if G.result(s) is not None:
            break
        acting = G.to_act(s)
        player = chooser.choice(acting)
        legal = G.legal_actions(s, player)
        # automatic players, with a random legal move now and then (objections included)
        action = chooser.choice(legal) if chooser.randint(0, 4) == 0 else G.auto_action(s, player, chooser)
        s = G.apply(s, player, action.key, "A line of story." if action.text_prompt else None).state
    else:
        pytest.fail("the game did not end")
    result = G.result(s)
    assert result.winners and set(result.winners) <= set(players)
    assert result.tags["end"] in ("target", "deck")
    if result.tags["end"] == "target":
        assert max(s.scores.values()) >= int(s.options["target"])
