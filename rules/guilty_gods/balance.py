"""Balance runs for Guilty Gods, the seating fixed (`rules.simulate guilty-gods` rolls for it).

    python -m rules.guilty_gods.balance --games 1000                  # automatic v automatic
    python -m rules.guilty_gods.balance --games 1000 --rival greedy   # automatic v greedy
    python -m rules.guilty_gods.balance --games 1000 --rival random
    python -m rules.guilty_gods.balance --games 1000 --summoners      # and each summoner's use

Each run plays `games` duels per seating: Lilium makes the first move, then Umbra does (the
winner of the initiative roll is made to choose so). Against a rival, the automatic player
takes each deck in turn. Prints win rates, game length (actions and turns) and time per game;
with --summoners (automatic players on both sides), for each summoner how many initiatives
chose it, how often the side that chose it won those initiatives' duels, and how often its
paid powers were used.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.core import Action, Event, Rng
from rules.guilty_gods import GAME
from rules.guilty_gods.content import load_decks
from rules.guilty_gods.rivals import greedy_action, random_action
from rules.guilty_gods.state import GgState

Chooser = Callable[[Any, GgState, str, Rng], Action]


def _auto(game: Any, s: GgState, player: str, rng: Rng) -> Action:
    return game.auto_action(s, player, rng)


RIVALS: dict[str, Chooser] = {"auto": _auto, "greedy": greedy_action, "random": random_action}


def duel(seed: int, first_deck: str, players: dict[str, Chooser],
         events: list[Event] | None = None) -> tuple[GgState, int]:
    """One game, seat 1 Lilium and seat 2 Umbra, `first_deck` moving first; `players` gives
    each seat's chooser. Returns the final state and the number of actions (the events of the
    duel go to `events` when given)."""
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
        out = GAME.apply(s, p, key)
        s = out.state
        if events is not None:
            events += out.events
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


@dataclass
class SummonerUse:
    """One summoner over a batch of duels."""

    turns: int = 0
    """Initiatives that chose it (the first turn of a duel, when no power works, not counted)."""
    won: int = 0
    """Of those, the initiatives whose side went on to win the duel."""
    uses: Counter[str] = field(default_factory=Counter)
    """How many times each of its powers worked: chain, combination (moves with a slot it opened),
    protection, extra_damage (Ophiel's point dealt), seals_for_damage (Sarah gave seals), draw
    (Kairos drew a card), seal_when_low (Genma gave a seal)."""


def tally_summoners(events: list[Event], winner: str, into: dict[str, SummonerUse]) -> None:
    """Add one duel's summoner choices and power uses (from its events) to `into`."""
    summoner: dict[str, str] = {}
    first_turn = True

    def use_of(player: str) -> SummonerUse:
        return into.setdefault(summoner[player], SummonerUse())

    for e in events:
        d = e.data
        if e.kind == "turn":
            first_turn = d["turn"] == 1
        elif e.kind == "summoner":
            summoner[d["player"]] = d["summoner"]
            if not first_turn:
                use = use_of(d["player"])
                use.turns += 1
                use.won += d["player"] == winner
        elif e.kind == "chain":  # bought with an attack or a renewal
            use_of(d["player"]).uses["chain"] += 1
        elif e.kind in ("attack", "defense") and "opened by Combination" in e.text:
            use_of(d["player"]).uses["combination"] += 1
        elif e.kind == "skill" and d["skill"] == "protect":
            use_of(d["player"]).uses["protection"] += 1
        elif e.kind == "damage" and "from Ophiel" in e.text:
            use_of(RIVAL[d["player"]]).uses["extra_damage"] += 1
        elif e.kind == "seals" and "Sarah" in e.text:
            use_of(d["player"]).uses["seals_for_damage"] += 1
        elif e.kind == "draw" and "Kairos" in e.text:
            use_of(d["player"]).uses["draw"] += 1
        elif e.kind == "seals" and "from Genma" in e.text:
            use_of(d["player"]).uses["seal_when_low"] += 1


RIVAL = {"lilium": "umbra", "umbra": "lilium"}
"""The seats of `duel` are named after their decks."""


def summoner_run(games: int, seed: int = 0) -> dict[str, SummonerUse]:
    """Automatic players on both sides, `games` duels per seating (as `run`)."""
    into: dict[str, SummonerUse] = {}
    players: dict[str, Chooser] = {"lilium": _auto, "umbra": _auto}
    for first in ("lilium", "umbra"):
        for i in range(games):
            events: list[Event] = []
            s, _ = duel(seed + i, first, players, events)
            tally_summoners(events, (s.winners or [""])[0], into)
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.guilty_gods.balance")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rival", choices=sorted(RIVALS), default="auto")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--summoners", action="store_true",
                        help="each summoner's share of the initiatives, its side's wins, its powers' uses")
    args = parser.parse_args(argv)
    if args.summoners:
        uses = summoner_run(args.games, args.seed)
        print(f"Guilty Gods, {args.games} games per seating, automatic players; initiatives after "
              "the first turn")
        for deck in ("lilium", "umbra"):
            ids = [x.id for x in load_decks()[deck].summoners]
            total = sum(uses[x].turns for x in ids if x in uses) or 1
            for sid in ids:
                u = uses.get(sid, SummonerUse())
                powers = ", ".join(f"{k} {n}" for k, n in sorted(u.uses.items())) or "none"
                print(f"  {deck:6} {sid:8}: chosen {u.turns} times ({u.turns / total:.1%}), its side "
                      f"won {u.won / max(1, u.turns):.1%} of those; powers used: {powers}")
        return 0
    who = "Lilium" if args.rival == "auto" else "the automatic player"
    print(f"Guilty Gods, {args.games} games per row, rival: {args.rival}; 'won' is {who}'s rate")
    for r in run(args.games, args.rival, args.seed):
        side = "" if args.rival == "auto" else f" automatic player with {r['deck']:6}"
        print(f"  {r['first']:6} moves first{side}: won {r['won']:.1%}; {r['actions']:.1f} actions, "
              f"{r['turns']:.1f} turns; ends {r['ends']}; {r['ms']:.1f} ms/game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
