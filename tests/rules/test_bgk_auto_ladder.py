"""Issue 29 item 5, the floor of the difficulty ladder (content/README.md, By Gods and Kings,
"Difficulty ladder"): every scenario can be cleared by the automatic player that seats get,
alone and with four characters. A few seeded games each (the full ladder is measured by
`python -m rules.by_gods_and_kings.balance`, not here)."""

from __future__ import annotations

import pytest

from rules.by_gods_and_kings import GAME as BGK
from rules.by_gods_and_kings.catalogue import cached_catalogue
from rules.simulate import play_one

SEEDS = 6
"""Games tried per scenario and party size: the first victory ends the search."""


@pytest.mark.parametrize("party", [1, 4])
@pytest.mark.parametrize("scenario", sorted(cached_catalogue().scenarios))
def test_every_scenario_is_won_alone_and_by_four(scenario, party):
    players = ["seat1"] if party == 1 else ["seat1", "seat2"]
    outcomes = []
    for seed in range(SEEDS):
        _, _, end = play_one(BGK, players, {"scenario": scenario, "party": str(party)}, seed)
        outcomes.append(end.outcome)
        if end.outcome == "victory":
            break
    assert "victory" in outcomes, f"{scenario} with {party}: {outcomes}"
