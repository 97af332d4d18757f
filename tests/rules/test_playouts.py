"""The generic random-playout test that every registered game passes (DESIGN.md)."""

from __future__ import annotations

import pytest

import rules
from rules.core import Rng
from tests.support.playout import playout, replay

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


@pytest.mark.parametrize("game_id,n,seed", CASES)
def test_random_playout(game_id, n, seed):
    game = rules.get_game(game_id)
    players = [f"p{i}" for i in range(n)]
    final, history = playout(game, players, {}, seed)
    result = game.result(final)
    assert set(result.winners) <= set(game.players(final))
    assert replay(game, players, {}, seed, history) == final, "replaying (seed, actions) gives the same game"


RECORD_GAMES = [gid for gid, game in sorted(rules.GAMES.items()) if game.record_type is not None]


@pytest.mark.parametrize("game_id", RECORD_GAMES)
def test_records_carry_over_across_two_sessions(game_id):
    """A game that keeps records takes each player's record in and hands an updated one back,
    which the next session takes in again (JSON in between, as the store keeps them)."""
    game = rules.get_game(game_id)
    players = [f"p{i}" for i in range(game.min_players)]
    assert game.record_type is not None
    records = {p: [game.new_record(f"hero {p}")] for p in players}
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
        assert set(out) == set(players)
        assert all(len(rs) == 1 and isinstance(rs[0], game.record_type) for rs in out.values())
        records = {p: [game.record_type.model_validate_json(r.model_dump_json()) for r in rs]
                   for p, rs in out.items()}
        kept[session] = records
    assert kept[0] != kept[1], "the second session changed the records it was given"
