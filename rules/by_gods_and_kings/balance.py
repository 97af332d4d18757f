"""Balance runs for By Gods and Kings: the automatic party plays each scenario over many seeds.

    python -m rules.by_gods_and_kings.balance --games 200 --party 4,6 --scenario kobold-warren --jobs 2

Each game seats min(party, 2) players, all played by the automatic player as `rules.simulate`
and a table's automatic seats play (its Discard and Sacrifice abilities and route votes
included); seed i plays game i, so the figures are the same whatever `--jobs` says. Reported per scenario and party size: the
share of games won, won at the first attempt, characters fallen per game, the lowest share of
HP any character had left in a battle (mean over games), battles fought and rounds per battle
(means, every attempt counted), actions and time.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass
from multiprocessing import Pool

from rules.by_gods_and_kings import GAME as G
from rules.by_gods_and_kings.catalogue import cached_catalogue
from rules.by_gods_and_kings.state import BgkState
from rules.by_gods_and_kings.stats import max_hp
from rules.simulate import automatic_moves


@dataclass
class Played:
    """What one automatic game gives the report."""

    won: bool
    attempt: int
    actions: int
    falls: int
    low: float
    battles: int
    rounds: int
    areas: tuple[str, ...]
    ms: float


def play(party: int, seed: int, options: dict[str, str] | None = None) -> tuple[BgkState, int, int, float]:
    """One automatic game: (final state, actions, characters fallen, lowest HP share)."""
    s, played = _play(party, seed, options)
    return s, played.actions, played.falls, played.low


def _play(party: int, seed: int, options: dict[str, str] | None = None) -> tuple[BgkState, Played]:
    """One game played as `rules.simulate` plays it (`automatic_moves`: the seats' reactions,
    then the move the game waits for), with the figures of the report counted on the way."""
    start = time.perf_counter()
    players = [f"p{i}" for i in range(min(party, 2))]
    opening = G.start(players, {"party": str(party), **(options or {})}, seed)
    s = opening.state
    steps, falls, low = 0, 0, 1.0
    battles = sum(1 for e in opening.events if e.kind == "battle")
    rounds = sum(1 for e in opening.events if e.kind == "round")
    for _, after, out in automatic_moves(G, opening.state, seed):
        s = after
        for e in out.events:
            if e.kind == "fell" and e.data["unit"].startswith("c"):
                falls += 1
            elif e.kind == "battle":
                battles += 1
            elif e.kind == "round":
                rounds += 1
        if s.battle is not None:
            low = min(low, min(h.hp / max_hp(s, h) for h in s.party))
        steps += 1
    ms = (time.perf_counter() - start) * 1000
    return s, Played(won=s.outcome == "victory", attempt=s.attempt, actions=steps, falls=falls, low=low,
                     battles=battles, rounds=rounds, areas=tuple(s.visited), ms=ms)


def _job(args: tuple[str, int, int]) -> Played:
    scenario, party, seed = args
    return _play(party, seed, {"scenario": scenario})[1]


def report(scenario: str, party: int, games: list[Played]) -> str:
    g = len(games)
    won = sum(1 for x in games if x.won)
    at = Counter(x.attempt for x in games if x.won)
    battles = sum(x.battles for x in games)
    rounds = sum(x.rounds for x in games)
    actions = [x.actions for x in games]
    return (f"| {scenario} | {party} | {100 * won / g:.1f}% | {100 * at[1] / g:.1f}% "
            f"| {sum(x.falls for x in games) / g:.2f} | {100 * sum(x.low for x in games) / g:.0f}% "
            f"| {battles / g:.1f} | {rounds / max(1, battles):.1f} "
            f"| {sum(actions) / g:.0f}, {max(actions)} | {sum(x.ms for x in games) / g:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--party", default="1,2,3,4,5,6,7,8")
    parser.add_argument("--scenario", default="", help="a scenario id (default: every scenario)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (same figures)")
    parser.add_argument("--paths", action="store_true", help="also count the ways the games took")
    args = parser.parse_args()
    known = sorted(cached_catalogue().scenarios)
    scenarios = [args.scenario] if args.scenario else known
    for sc in scenarios:
        if sc not in known:
            parser.error(f"unknown scenario {sc!r} (known: {', '.join(known)})")
    print("| Scenario | Party | Won | Won at attempt 1 | Fallen a game | Lowest HP left "
          "| Battles a game | Rounds a battle | Actions (mean, max) | ms/game |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    pool = Pool(args.jobs) if args.jobs > 1 else None
    try:
        for sc in scenarios:
            for party in (int(x) for x in args.party.split(",")):
                work = [(sc, party, seed) for seed in range(args.games)]
                games = pool.map(_job, work) if pool is not None else [_job(w) for w in work]
                print(report(sc, party, games), flush=True)
                if args.paths:
                    ways = Counter(" > ".join(x.areas) for x in games)
                    for way, n in ways.most_common():
                        print(f"|   | {n} | {way} |")
    finally:
        if pool is not None:
            pool.close()
    if args.jobs > 1:
        print("\nms/game is the time of one game in its worker.")


if __name__ == "__main__":
    main()
