"""By Gods and Kings random playouts: the shared checks (tests/support/playout.py) over party
sizes 1 to 8 and seat counts, plus the resample guard (only the draw pile's order and the seed
are hidden)."""

from __future__ import annotations

import pytest

from rules.by_gods_and_kings import GAME as G
from rules.by_gods_and_kings.state import BgkState
from rules.core import Rng
from tests.support.playout import playout, replay

SEEDS = range(5)
SEATINGS = [(1, 1), (2, 1), (2, 2), (3, 2), (4, 1), (4, 4), (5, 3), (6, 2), (7, 7), (8, 1), (8, 8)]
"""(party size, seats)."""


def _playout(party: int, seats: int, seed: int, options: dict[str, str] | None = None):
    players = [f"p{i}" for i in range(seats)]
    return playout(G, players, {"party": str(party), **(options or {})}, seed,
                   chooser_seed=seed * 7919 + party)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("party,seats", SEATINGS, ids=[f"{n}ch-{k}seats" for n, k in SEATINGS])
def test_random_playout(party, seats, seed):
    final, history = _playout(party, seats, seed)
    result = G.result(final)
    assert result is not None
    assert result.winners in ([], list(final.players))
    assert result.tags["outcome"] in ("victory", "defeat")
    assert len(final.party) == party
    players = [f"p{i}" for i in range(seats)]
    assert replay(G, players, {"party": str(party)}, seed, history) == final, "replaying gives the same game"


@pytest.mark.parametrize("scenario,party,seats,seed", [
    ("sallow-fen", 1, 1, 0), ("sallow-fen", 4, 3, 1), ("sallow-fen", 8, 8, 2),
    ("hollow-barrow", 2, 2, 0), ("hollow-barrow", 5, 3, 1)])
def test_every_scenario_plays_out_with_route_votes(scenario, party, seats, seed):
    final, history = _playout(party, seats, seed, {"scenario": scenario})
    assert G.result(final) is not None and final.scenario == scenario
    assert final.outcome == "defeat" or len(final.visited) >= 3, "a victory went through the map"
    players = [f"p{i}" for i in range(seats)]
    assert replay(G, players, {"party": str(party), "scenario": scenario}, seed, history) == final


@pytest.mark.parametrize("seed", range(3))
def test_playout_with_ties_in_party_order_and_one_attempt(seed):
    final, _ = _playout(8, 3, 100 + seed, {"ties": "order", "attempts": "1"})
    assert final.attempt == 1


def test_purely_random_players_finish_too():
    for seed in range(12):
        party = 1 + seed % 8
        s = G.setup(["a", "b"] if party > 1 else ["a"], {"party": str(party)}, 1000 + seed)
        chooser = Rng(seed=seed)
        for _ in range(G.max_steps):
            if G.result(s) is not None:
                break
            p = chooser.choice(G.acting(s))
            s = G.apply(s, p, chooser.choice(G.legal_actions(s, p)).key).state
        else:
            pytest.fail("a random game did not end")


# ---------------------------------------------------------------------------------------------
# hidden information: only the draw pile's order and the generator's seed


def _acts(s: BgkState, p: str) -> list[tuple[str, str]]:
    return [(a.key, a.label) for a in G.legal_actions(s, p)]


@pytest.mark.parametrize("seed,party,seats", [(1, 2, 1), (2, 4, 2), (3, 6, 3)])
def test_resample_is_indistinguishable_along_automatic_games(seed, party, seats):
    players = [f"p{i}" for i in range(seats)]
    s = G.setup(players, {"party": str(party)}, seed)
    chooser, rng = Rng(seed=seed), Rng(seed=seed + 1000)
    differed = 0
    for _step in range(G.max_steps):
        if G.result(s) is not None:
            break
        for viewer in [None, *players]:
            before = s.model_dump_json()
            r = G.resample(s, viewer, rng)
            assert s.model_dump_json() == before, "resample changed its input"
            G.check_invariants(r)
            assert r.rng.counter == s.rng.counter and r.rng.seed != s.rng.seed
            assert sorted(r.deck) == sorted(s.deck)
            differed += r.deck != s.deck
            assert G.view(r, viewer) == G.view(s, viewer)
            assert G.to_act(r) == G.to_act(s) and G.may_act(r) == G.may_act(s)
            for q in players:
                assert _acts(r, q) == _acts(s, q)
        p = chooser.choice(G.to_act(s))
        s = G.apply(s, p, G.auto_action(s, p, chooser).key).state
    else:
        pytest.fail("the game did not end")
    assert differed > 0


def test_nothing_is_private_but_the_draw_pile():
    s = G.setup(["a", "b"], {"party": "4"}, 5)
    view = G.view(s, None)
    assert all(u.hand is not None for u in view.party), "hands are face up for the table"
    assert "deck" not in view.model_dump() and view.deck_count == len(s.deck)
    for p in s.players:  # only the rest of a reaction, once its ability is picked, is offered
        # in the player's own view (the card spent, the aim, Back: tests/bot/test_render_bgk_phone.py)
        assert all(a.key.startswith("use.") and not a.key.startswith("use.ability:")
                   for a in G.legal_actions(s, p) if a.private)
