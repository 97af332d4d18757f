"""Balance runs for By Gods and Kings: the automatic party plays the scenario over many seeds.

    python -m rules.by_gods_and_kings.balance --games 200 --party 1,2,3,4,5,6,7,8

(`rules.simulate` finds only registered games.) Each game seats min(party, 2) players, all
played by the automatic player (its reactions included); seed i plays game i. Reported per
party size: victories, the attempt the scenario was won at, characters fallen per game, the
lowest share of HP any character had left in a battle (mean over games), actions and time.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from rules.by_gods_and_kings import GAME as G
from rules.by_gods_and_kings.state import BgkState
from rules.by_gods_and_kings.stats import max_hp
from rules.core import Rng


def play(party: int, seed: int, options: dict[str, str] | None = None) -> tuple[BgkState, int, int, float]:
    """One automatic game: (final state, actions, characters fallen, lowest HP share)."""
    players = [f"p{i}" for i in range(min(party, 2))]
    s = G.setup(players, {"party": str(party), **(options or {})}, seed)
    chooser = Rng(seed=seed)
    steps, falls, low = 0, 0, 1.0
    while G.result(s) is None and steps < G.max_steps:
        p = chooser.choice(G.acting(s))
        if p in G.to_act(s):
            action = G.auto_action(s, p, chooser)
        else:
            reaction = G.auto_reaction(s, p, chooser)
            if reaction is None:
                p = chooser.choice(G.to_act(s))
                reaction = G.auto_action(s, p, chooser)
            action = reaction
        out = G.apply(s, p, action.key)
        falls += sum(1 for e in out.events if e.kind == "fell" and e.data["unit"].startswith("c"))
        s = out.state
        if s.battle is not None:
            low = min(low, min(h.hp / max_hp(s, h) for h in s.party))
        steps += 1
    return s, steps, falls, low


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--party", default="1,2,3,4,5,6,7,8")
    args = parser.parse_args()
    print("| Party | Won | Won at attempt 1 / 2 / 3 | Fallen a game | Lowest HP left | Actions (mean, max) | ms/game |")
    print("|---|---|---|---|---|---|---|")
    for party in (int(x) for x in args.party.split(",")):
        won, at, falls, lows, steps = 0, Counter[int](), 0, 0.0, []
        start = time.perf_counter()
        for seed in range(args.games):
            s, n, fell, low = play(party, seed)
            if s.outcome == "victory":
                won += 1
                at[s.attempt] += 1
            falls += fell
            lows += low
            steps.append(n)
        ms = (time.perf_counter() - start) * 1000 / args.games
        g = args.games
        print(f"| {party} | {100 * won / g:.1f}% | {' / '.join(f'{100 * at[k] / g:.1f}%' for k in (1, 2, 3))} "
              f"| {falls / g:.2f} | {100 * lows / g:.0f}% | {sum(steps) / g:.0f}, {max(steps)} | {ms:.0f} |")


if __name__ == "__main__":
    main()
