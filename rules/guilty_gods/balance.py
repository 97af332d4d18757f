"""Balance runs for Guilty Gods (the generic rules.simulate finds only registered games).

    python -m rules.guilty_gods.balance --games 1000                  # automatic v automatic
    python -m rules.guilty_gods.balance --games 1000 --rival greedy   # automatic v greedy
    python -m rules.guilty_gods.balance --games 1000 --rival random

Each run plays `games` duels per seating: Lilium makes the first move, then Umbra does (the
winner of the initiative roll is made to choose so). Against a rival, the automatic player
takes each deck in turn. Prints win rates, game length (actions and turns) and time per game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from rules.core import Action, Rng
from rules.guilty_gods import GAME
from rules.guilty_gods.rivals import greedy_action, random_action
from rules.guilty_gods.state import GgState

Chooser = Callable[[Any, GgState, str, Rng], Action]


def _auto(game: Any, s: GgState, player: str, rng: Rng) -> Action:
    return game.auto_action(s, player, rng)


RIVALS: dict[str, Chooser] = {"auto": _auto, "greedy": greedy_action, "random": random_action}


def duel(seed: int, first_deck: str, players: dict[str, Chooser]) -> tuple[GgState, int]:
    """One game, seat 1 Lilium and seat 2 Umbra, `first_deck` moving first; `players` gives
    each seat's chooser. Returns the final state and the number of actions."""
    s = GAME.setup(["lilium", "umbra"], {"decks": "lilium-umbra"}, seed)
    rng = Rng(seed=seed).fork("balance")
    steps = 0
    while GAME.result(s) is None:
        if steps >= GAME.max_steps:
            raise RuntimeError(f"seed {seed}: no end after {steps} actions")
        p = GAME.to_act(s)[0]
        if s.phase == "first":
            key = "first.who:me" if p == first_deck else "first.who:them"
        else:
            key = players[p](GAME, s, p, rng).key
        s = GAME.apply(s, p, key).state
        steps += 1
    return s, steps


def run(games: int, rival: str, seed: int = 0) -> list[dict[str, Any]]:
    rows = []
    for first in ("lilium", "umbra"):
        setups: list[tuple[str, dict[str, Chooser]]]
        if rival == "auto":
            setups = [("lilium", {"lilium": _auto, "umbra": _auto})]
        else:
            setups = [("lilium", {"lilium": _auto, "umbra": RIVALS[rival]}),
                      ("umbra", {"lilium": RIVALS[rival], "umbra": _auto})]
        for auto_deck, players in setups:
            wins, lengths, turns, ends = 0, [], [], {"gnosis": 0, "cards": 0}
            started = time.perf_counter()
            for i in range(games):
                s, steps = duel(seed + i, first, players)
                winner = (s.winners or [""])[0]
                wins += winner == auto_deck
                lengths.append(steps)
                turns.append(s.turn)
                ends[s.end_reason] += 1
            rows.append({"first": first, "deck": auto_deck, "games": games, "won": wins / games,
                         "actions": statistics.fmean(lengths), "turns": statistics.fmean(turns),
                         "ends": ends, "ms": 1000 * (time.perf_counter() - started) / games})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.guilty_gods.balance")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rival", choices=sorted(RIVALS), default="auto")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    who = "Lilium" if args.rival == "auto" else "the automatic player"
    print(f"Guilty Gods, {args.games} games per row, rival: {args.rival}; 'won' is {who}'s rate")
    for r in run(args.games, args.rival, args.seed):
        side = "" if args.rival == "auto" else f" automatic player with {r['deck']:6}"
        print(f"  {r['first']:6} moves first{side}: won {r['won']:.1%}; {r['actions']:.1f} actions, "
              f"{r['turns']:.1f} turns; ends {r['ends']}; {r['ms']:.1f} ms/game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
