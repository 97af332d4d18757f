"""One simulator for every game: automatic players against each other.

    python -m rules.simulate GAME --games N [--players P] [--option k=v ...] [--seed S] [--jobs J]

Prints win rates by seat and by every result tag (faction, character, quest ...),
game lengths in actions, and time per game. The balance figures in
content/README.md come from here, with the command that produced them.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

import rules
from rules.core import Game, Outcome, Result, Rng, StateT


def play_one(game: Game[StateT, Any], players: list[str], options: dict[str, str],
             seed: int) -> tuple[Result, int, StateT]:
    """Play one game with automatic players only; returns (result, actions, final state)."""
    steps, state = 0, game.setup(players, options, seed)
    for _, after, _ in automatic_moves(game, state, seed):
        state = after
        steps += 1
    result = game.result(state)
    assert result is not None
    return result, steps, state


def automatic_moves(game: Game[StateT, Any], state: StateT, seed: int) -> Iterator[tuple[str, StateT, Outcome]]:
    """The moves of automatic players from `state` to the game's end: (player, new state, its
    outcome) for each. As a table's automatic seats play (bot/service/commit.py): first the
    reactions the seats that may react want to make (`Game.auto_reaction`, for a game that has
    reactions), then the move of the first seat the game waits for."""
    chooser = Rng(seed=seed).fork("simulate")
    reacts = type(game).auto_reaction is not Game.auto_reaction
    quick = getattr(game, "auto_reactions", None)  # the same answer, asked at once (By Gods and Kings)
    steps = 0
    while game.result(state) is None:
        if steps >= game.max_steps:
            raise RuntimeError(f"{game.id} seed {seed}: no end after {steps} actions")
        action = None
        if quick is not None:
            found = quick(state, chooser)
            if found is not None:
                player, action = found
        elif reacts:
            for player in game.may_act(state):
                action = game.auto_reaction(state, player, chooser)
                if action is not None:
                    break
        if action is None:
            player = game.to_act(state)[0]
            action = game.auto_action(state, player, chooser)
        out = game.apply(state, player, action.key, "..." if action.text_prompt else None)
        state = out.state
        steps += 1
        yield player, state, out


def batch_collector() -> None:
    """Tune Python's garbage collector for a batch of games: what is loaded so far (content,
    catalogues) is set aside for good, and young objects are examined after 20,000 allocations
    instead of 700. Moves make many short-lived objects and few cycles (reference counting frees
    them), so the collector's frequent passes only cost time (a few percent of a game)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def _tally(game_id: str, names: list[str], options: dict[str, str],
           seeds: range) -> tuple[Counter[str], dict[str, Counter[str]], dict[str, Counter[str]], list[int],
                                  Counter[str]]:
    """Play the games of these seeds: wins by seat, games and wins by tag value, lengths, and
    `plain`: the tags that are not per seat, with the games won by several seats ("" key)."""
    game = rules.get_game(game_id)
    wins: Counter[str] = Counter()
    plain: Counter[str] = Counter()
    tag_games: dict[str, Counter[str]] = defaultdict(Counter)
    tag_wins: dict[str, Counter[str]] = defaultdict(Counter)
    lengths: list[int] = []
    for seed in seeds:
        result, steps, _ = play_one(game, names, options, seed)
        lengths.append(steps)
        plain[""] += len(result.winners) > 1
        for w in result.winners:
            wins[w] += 1
        for key, value in result.tags.items():
            # tags like "seat1.faction" = "bots" count per seat; plain tags per game
            seat, _, tag = key.partition(".")
            if tag and seat in names:
                tag_games[tag][value] += 1
                if seat in result.winners:
                    tag_wins[tag][value] += 1
            else:
                plain[key] += 1
                tag_games[key][value] += 1
                if result.winners:
                    tag_wins[key][value] += 1
    return wins, dict(tag_games), dict(tag_wins), lengths, plain


def _tally_job(job: tuple[str, list[str], dict[str, str], range]) -> tuple:
    batch_collector()  # a worker process of `--jobs`
    return _tally(*job)


def simulate(game_id: str, games: int, players: int, options: dict[str, str],
             seed: int = 0, jobs: int = 1) -> dict[str, Any]:
    """Play `games` games (seeds `seed` ...) and report the figures. With `jobs` > 1 the seeds
    are split into contiguous runs played by that many processes, and the tallies are merged in
    seed order: the figures are the same whatever `jobs` (only the time differs)."""
    rules.get_game(game_id)  # an unknown game fails here, not in a worker
    names = [f"seat{i + 1}" for i in range(players)]
    jobs = max(1, min(jobs, games))
    bounds = [seed + games * i // jobs for i in range(jobs + 1)]
    chunks = [(game_id, names, options, range(a, b)) for a, b in zip(bounds, bounds[1:], strict=False)]
    started = time.perf_counter()
    if jobs == 1:
        parts = [_tally(*chunks[0])]
    else:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            parts = pool.map(_tally_job, chunks)
    elapsed = time.perf_counter() - started
    wins: Counter[str] = Counter()
    tag_games: dict[str, Counter[str]] = defaultdict(Counter)
    tag_wins: dict[str, Counter[str]] = defaultdict(Counter)
    lengths: list[int] = []
    plain: Counter[str] = Counter()
    for part_wins, part_games, part_tag_wins, part_lengths, part_plain in parts:
        wins.update(part_wins)
        plain.update(part_plain)
        for tag, counts in part_games.items():
            tag_games[tag].update(counts)
        for tag, counts in part_tag_wins.items():
            tag_wins[tag].update(counts)
        lengths += part_lengths
    return {
        "game": game_id, "games": games, "players": players, "options": options, "jobs": jobs,
        "wins_by_seat": {n: wins[n] / games for n in names},
        "by_tag": {
            tag: {v: (tag_wins[tag][v] / n, n) for v, n in sorted(counts.items())}
            for tag, counts in tag_games.items()
        },
        "plain_tags": sorted(k for k in plain if k),
        "rivals": players > 1 and plain[""] == 0,
        "length_mean": statistics.fmean(lengths),
        "length_median": statistics.median(lengths),
        "length_max": max(lengths),
        "seconds_per_game": elapsed / games,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.simulate", description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=sorted(rules.GAMES))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes to play in (the figures do not depend on it)")
    args = parser.parse_args(argv)
    game = rules.get_game(args.game)
    players = args.players or max(game.min_players, min(2, game.max_players))
    options = dict(o.split("=", 1) for o in args.option)
    game.resolve_options(options)
    batch_collector()
    report = simulate(args.game, args.games, players, options, args.seed, args.jobs)
    print(f"{game.name}: {args.games} games, {players} player(s), options {options or 'default'}")
    for seat, rate in report["wins_by_seat"].items():
        print(f"  {seat}: won {rate:.1%}")
    for tag, values in report["by_tag"].items():
        for value, (rate, n) in values.items():
            if report["rivals"] and tag in report["plain_tags"]:
                # seats against each other: a tag of the whole game says how often, not who won
                print(f"  {tag}={value}: {n} of {args.games} games ({n / args.games:.1%})")
            else:
                print(f"  {tag}={value}: won {rate:.1%} of {n}")
    print(f"  length: mean {report['length_mean']:.1f}, median {report['length_median']}, "
          f"max {report['length_max']} actions")
    print(f"  time: {report['seconds_per_game'] * 1000:.2f} ms per game"
          + (f" ({report['jobs']} processes)" if report["jobs"] > 1 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
