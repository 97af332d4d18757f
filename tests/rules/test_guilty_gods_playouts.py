"""Guilty Gods random playouts: the shared checks (tests/support/playout.py) with each deck
choice, and the resample guard on hidden cards."""

from __future__ import annotations

import pytest

from rules.core import Rng
from rules.guilty_gods import GAME as G
from rules.guilty_gods.state import GgState
from tests.support.playout import playout, replay

SEEDS = range(16)
OPTIONS = [{}, {"decks": "lilium-umbra"}, {"decks": "umbra-lilium"}]


def _playout(seed: int, options: dict[str, str]):
    return playout(G, ["p0", "p1"], options, seed, chooser_seed=seed * 7919 + 2)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("options", OPTIONS, ids=["roll", "lilium-umbra", "umbra-lilium"])
def test_random_playout(seed, options):
    final, history = _playout(seed, options)
    result = G.result(final)
    assert result is not None and len(result.winners) == 1
    assert result.tags["end"] in ("gnosis", "cards")
    loser = final.other(result.winners[0])
    if result.tags["end"] == "gnosis":
        assert final.seats[loser].gnosis == 0
    else:
        assert not final.seats[loser].deck and not final.has_attack(loser)
    assert replay(G, ["p0", "p1"], options, seed, history) == final, "replaying gives the same game"


def test_purely_random_players_finish_too():
    for seed in range(20):
        s = G.setup(["a", "b"], {}, 1000 + seed)
        chooser = Rng(seed=seed)
        for _ in range(G.max_steps):
            if G.result(s) is not None:
                break
            p = chooser.choice(G.to_act(s))
            s = G.apply(s, p, chooser.choice(G.legal_actions(s, p)).key).state
        else:
            pytest.fail("a random game did not end")


# ---------------------------------------------------------------------------------------------
# hidden information


def _acts(s: GgState, p: str, private_too: bool) -> list[tuple[str, str]]:
    return [(a.key, a.label) for a in G.legal_actions(s, p) if private_too or not a.private]


def _check_resample(s: GgState, viewer: str | None, rng: Rng) -> GgState:
    before = s.model_dump_json()
    r = G.resample(s, viewer, rng)
    assert s.model_dump_json() == before, "resample changed its input"
    G.check_invariants(r)
    assert r.rng.counter == s.rng.counter and r.rng.seed != s.rng.seed
    assert G.view(s, viewer) == G.view(r, viewer)
    assert G.view(s, None) == G.view(r, None)
    assert G.to_act(s) == G.to_act(r)
    for q in G.to_act(s):
        assert _acts(s, q, False) == _acts(r, q, False), f"the table sees {q}'s actions change"
    if viewer is not None and viewer in s.seats:
        assert _acts(s, viewer, True) == _acts(r, viewer, True), "the viewer's own actions change"
        assert r.seats[viewer].hand == s.seats[viewer].hand
    return r


@pytest.mark.parametrize("seed,mixed", [(1, False), (2, False), (3, True), (4, True), (5, True)])
def test_resample_is_indistinguishable_along_automatic_games(seed, mixed):
    players = ["p0", "p1"]
    s = G.setup(players, {}, seed)
    chooser, rng = Rng(seed=seed), Rng(seed=seed + 1000)
    differed = 0
    for _step in range(G.max_steps):
        if G.result(s) is not None:
            break
        for viewer in [None, *players]:
            r = _check_resample(s, viewer, rng)
            if s.seats:
                hidden = [q for q in players if q != viewer]
                differed += any(r.seats[q].hand != s.seats[q].hand for q in hidden)
        p = chooser.choice(G.to_act(s))
        legal = G.legal_actions(s, p)
        a = chooser.choice(legal) if mixed and chooser.randint(0, 3) == 0 else G.auto_action(s, p, chooser)
        s = G.apply(s, p, a.key).state
    else:
        pytest.fail("the game did not end")
    assert differed > 0


def test_resample_redeals_the_rivals_cards_with_the_same_counts_and_keeps_the_table():
    s = G.setup(["a", "b"], {"decks": "lilium-umbra"}, 3)
    s.seats["b"].hidden = [s.seats["b"].deck.pop() for _ in range(3)]
    s.seats["b"].played = [s.seats["b"].deck.pop() for _ in range(2)]
    r = G.resample(s, "a", Rng(seed=1))
    a, b = s.seats["a"], s.seats["b"]
    ra, rb = r.seats["a"], r.seats["b"]
    assert ra.hand == a.hand and sorted(ra.deck) == sorted(a.deck)
    assert rb.played == b.played, "face-up cards are public"
    assert (len(rb.hand), len(rb.deck), len(rb.hidden)) == (len(b.hand), len(b.deck), len(b.hidden))
    assert sorted(rb.hand + rb.deck + rb.hidden) == sorted(b.hand + b.deck + b.hidden)
    assert rb.hand != b.hand


def test_a_move_being_built_is_invisible_to_the_table_and_the_rival():
    s = G.setup(["a", "b"], {"decks": "lilium-umbra"}, 8)
    chooser = Rng(seed=8)
    while not (s.phase == "act" and s.draft is not None and s.draft.row):
        p = G.to_act(s)[0]
        s = G.apply(s, p, G.auto_action(s, p, chooser).key).state
    mover = s.player
    table = [a for a in G.legal_actions(s, mover) if not a.private]
    assert table == [], "the table sees nothing of a move being built"
    r = _check_resample(s, s.other(mover), Rng(seed=2))
    assert r.draft is None
    r = _check_resample(s, mover, Rng(seed=2))
    assert r.draft == s.draft
