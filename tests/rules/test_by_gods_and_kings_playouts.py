"""By Gods and Kings random playouts: the checks tests/rules/test_playouts.py makes for every
registered game (this game is registered by the lead later), over party sizes 1 to 8 and seat
counts, plus the resample guard (only the draw pile's order and the seed are hidden)."""

from __future__ import annotations

import re

import pytest

from rules.by_gods_and_kings import GAME as G
from rules.by_gods_and_kings.state import BgkState
from rules.core import Action, IllegalAction, Rng

KEY = re.compile(r"[A-Za-z0-9_.:\-]{1,64}")
SEEDS = range(5)
SEATINGS = [(1, 1), (2, 1), (2, 2), (3, 2), (4, 1), (4, 4), (5, 3), (6, 2), (7, 7), (8, 1), (8, 8)]
"""(party size, seats)."""


def _playout(party: int, seats: int, seed: int, options: dict[str, str] | None = None
             ) -> tuple[BgkState, list[tuple[str, str]]]:
    players = [f"p{i}" for i in range(seats)]
    opts = {"party": str(party), **(options or {})}
    opening = G.start(players, opts, seed)
    state = G.setup(players, opts, seed)
    assert opening.state == state, "start and setup make the same game"
    assert opening.events and all(e.text for e in opening.events)
    chooser = Rng(seed=seed * 7919 + party)
    history: list[tuple[str, str]] = []
    for _step in range(G.max_steps):
        G.check_invariants(state)
        assert state.model_validate_json(state.model_dump_json()) == state
        assert G.load_state(G.dump_state(state)) == state
        if G.result(state) is not None:
            return state, history
        G.view(state, None)
        G.view(state, players[-1])
        required = G.to_act(state)
        assert required, "a running game must wait for someone"
        acting = G.acting(state)
        player = chooser.choice(acting)
        legal = G.legal_actions(state, player)
        assert legal, f"{player} is to act but has no legal action"
        keys = [a.key for a in legal]
        assert len(set(keys)) == len(keys), f"duplicate action keys: {keys}"
        assert all(KEY.fullmatch(k) for k in keys), keys
        labels = [a.label for a in legal]
        assert len(set(labels)) == len(labels), f"duplicate labels: {labels}"
        assert all(len(x) <= 80 for x in labels), labels
        assert all(a.description is None or len(a.description) <= 100 for a in legal)
        for other in players:
            if other not in acting:
                assert G.legal_actions(state, other) == [], f"{other} is not to act but has actions"
        before = state.model_dump_json()
        with pytest.raises(IllegalAction):
            G.apply(state, player, "no-such-action")
        assert state.model_dump_json() == before
        action: Action | None
        if player in required:
            action = G.auto_action(state, player, chooser) if chooser.randint(0, 2) else chooser.choice(legal)
        else:
            action = G.auto_reaction(state, player, chooser)
            if action is None:
                if chooser.randint(0, 3):
                    player = chooser.choice(required)
                    legal = G.legal_actions(state, player)
                    keys = [a.key for a in legal]
                    action = G.auto_action(state, player, chooser)
                else:
                    action = chooser.choice(legal)
        assert action.key in keys
        out1 = G.apply(state, player, action.key)
        out2 = G.apply(state, player, action.key)
        assert state.model_dump_json() == before, "apply changed its input"
        assert out1.state == out2.state and out1.events == out2.events, "apply is not deterministic"
        assert all(e.text for e in out1.events)
        history.append((player, action.key))
        state = out1.state
    pytest.fail(f"no end within {G.max_steps} actions")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("party,seats", SEATINGS, ids=[f"{n}ch-{k}seats" for n, k in SEATINGS])
def test_random_playout(party, seats, seed):
    final, history = _playout(party, seats, seed)
    result = G.result(final)
    assert result is not None
    assert result.winners in ([], list(final.players))
    assert result.tags["outcome"] in ("victory", "defeat")
    assert len(final.party) == party
    state = G.setup([f"p{i}" for i in range(seats)], {"party": str(party)}, seed)
    for player, key in history:
        state = G.apply(state, player, key).state
    assert state == final, "replaying (seed, actions) gives the same game"


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
    for p in s.players:
        assert not any(a.private for a in G.legal_actions(s, p))
