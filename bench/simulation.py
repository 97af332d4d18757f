"""Simulation times per game and player count (`python -m bench` runs them in a fresh process,
so they live in a module a new process can import)."""

from __future__ import annotations

import time

import rules


def player_counts(game) -> list[int]:
    out = []
    for n in range(game.min_players, game.max_players + 1):
        try:
            game.check_players(n)
        except rules.IllegalAction:
            continue
        out.append(n)
    return out


def simulation_times(games: int, game_id: str) -> list[tuple[str, int, float]]:
    """(game, players, seconds per automatic game) on `games` seeded games of one game, each
    player count in turn, as `python -m rules.simulate` plays them (its collector settings; the
    bench runs each game in a fresh process, as that command does)."""
    from rules.simulate import batch_collector, play_one

    batch_collector()
    game = rules.get_game(game_id)
    out = []
    for n in player_counts(game):
        names = [f"seat{i + 1}" for i in range(n)]
        start = time.perf_counter()
        for seed in range(games):
            play_one(game, names, {}, seed)
        out.append((game_id, n, (time.perf_counter() - start) / games))
    return out
