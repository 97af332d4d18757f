"""The generic random-playout test that every registered game passes (DESIGN.md)."""

from __future__ import annotations

import pytest

import rules
from rules.core import Action, IllegalAction, Rng

SEEDS = range(12)


def _player_counts(game) -> list[int]:
    counts = {game.min_players, game.max_players, min(game.max_players, max(game.min_players, 2))}
    return sorted(counts)


CASES = [
    pytest.param(gid, n, seed, id=f"{gid}-{n}p-s{seed}")
    for gid, game in sorted(rules.GAMES.items())
    for n in _player_counts(game)
    for seed in SEEDS
]


def _playout(game, n: int, seed: int):
    players = [f"p{i}" for i in range(n)]
    opening = game.start(players, {}, seed)
    state = game.setup(players, {}, seed)
    assert opening.state == state, "start and setup make the same game"
    assert all(e.text for e in opening.events)
    chooser = Rng(seed=seed * 7919 + n)
    history: list[tuple[str, str, str | None]] = []
    for _step in range(game.max_steps):
        game.check_invariants(state)
        assert state.model_validate_json(state.model_dump_json()) == state
        if game.result(state) is not None:
            return state, history
        required = game.to_act(state)
        assert required, "a running game must wait for someone"
        acting = game.acting(state)
        player = chooser.choice(acting)
        legal = game.legal_actions(state, player)
        assert legal, f"{player} is to act but has no legal action"
        keys = [a.key for a in legal]
        assert len(set(keys)) == len(keys), f"duplicate action keys: {keys}"
        assert all(len(k) <= 64 for k in keys)
        labels = [a.label for a in legal]
        assert len(set(labels)) == len(labels), f"duplicate labels: {labels}"
        for other in players:
            if other not in acting:  # only required players and those who may react have actions
                assert game.legal_actions(state, other) == [], f"{other} is not to act but has actions"
        # an illegal key changes nothing
        before = state.model_dump_json()
        with pytest.raises(IllegalAction):
            game.apply(state, player, "no-such-action")
        assert state.model_dump_json() == before
        # mostly the automatic player, sometimes a random legal action; a reaction when it wants
        action: Action | None
        if player in required:
            action = game.auto_action(state, player, chooser) if chooser.randint(0, 2) else chooser.choice(legal)
        else:
            action = game.auto_reaction(state, player, chooser)
            if action is None:
                if chooser.randint(0, 3):
                    player = chooser.choice(required)
                    legal = game.legal_actions(state, player)
                    keys = [a.key for a in legal]
                    action = game.auto_action(state, player, chooser)
                else:
                    action = chooser.choice(legal)
        assert action.key in keys
        text = "A line of story." if action.text_prompt else None
        out1 = game.apply(state, player, action.key, text)
        out2 = game.apply(state, player, action.key, text)
        assert state.model_dump_json() == before, "apply changed its input"
        assert out1.state == out2.state and out1.events == out2.events, "apply is not deterministic"
        history.append((player, action.key, text))
        state = out1.state
    pytest.fail(f"{game.id} did not end within {game.max_steps} actions")


@pytest.mark.parametrize("game_id,n,seed", CASES)
def test_random_playout(game_id, n, seed):
    game = rules.get_game(game_id)
    final, history = _playout(game, n, seed)
    result = game.result(final)
    assert set(result.winners) <= set(game.players(final))
    # replaying (seed, actions) gives the same game
    state = game.setup([f"p{i}" for i in range(n)], {}, seed)
    for player, key, text in history:
        state = game.apply(state, player, key, text).state
    assert state == final


RECORD_GAMES = [gid for gid, game in sorted(rules.GAMES.items()) if game.record_type is not None]


@pytest.mark.parametrize("game_id", RECORD_GAMES)
def test_records_carry_over_across_two_sessions(game_id):
    """A game that keeps records takes each player's record in and hands an updated one back,
    which the next session takes in again (JSON in between, as the store keeps them)."""
    game = rules.get_game(game_id)
    players = [f"p{i}" for i in range(game.min_players)]
    assert game.record_type is not None
    records = {p: game.new_record(f"hero {p}") for p in players}
    kept: dict = {}
    for session in range(2):
        state = game.start(players, {}, 40 + session, records=records).state
        chooser = Rng(seed=session)
        for _ in range(game.max_steps):
            if game.result(state) is not None:
                break
            player = chooser.choice(game.to_act(state))
            state = game.apply(state, player, game.auto_action(state, player, chooser).key).state
        out = game.records_out(state)
        assert set(out) == set(players) and all(isinstance(r, game.record_type) for r in out.values())
        records = {p: game.record_type.model_validate_json(r.model_dump_json()) for p, r in out.items()}
        kept[session] = records
    assert kept[0] != kept[1], "the second session changed the records it was given"
