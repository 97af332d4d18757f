"""python -m bench: Pantheon's benchmark, in one run.

0. Bot-token Discord calls per click in every game (tests/support/calls.py), also with a click
   a minute and one every 5 minutes of virtual time (bench/pace.py).
1. One action in every game: from an INTERACTION_CREATE payload fed to the real discord.py
   client to the recorded interaction response (SQLite commit included), median and 99th
   percentile, against its floor measured interleaved (bench/latency.py).
2. Under load: completed actions per second and CPU per completed action with 1, 10, 50 and
   `--sessions` tables clicking at once.
3. Random playouts per second for each registered game (rules only).
4. Simulation time: automatic games of each game at each player count, timed on a sample
   (`--sim-games`, seeds 0 ...) and extrapolated to 10,000 games in one process.
5. State size: the largest saved state (JSON bytes) along automatic games of each game at its
   largest player count (and Gods of Magic with strict storytelling), every seat an 18-digit
   Discord id, as people's seats are.
6. Memory: what 1,000 active sessions of each game add to a bot process (`--memory-sessions`;
   bench/memory.py), with the parsed states still alive (KEPT_STATES bounds them).

It starts and ends with the machine's speed (`machine_speed`): the milliseconds figures, and the
simulation times above all, depend on the machine, so a run says which kind it ran on.

`--database URL|throwaway` instead compares one action's latency on SQLite and that database, and
with `--throughput SECONDS` also measures completed actions per second on it with 1 and 2 bot
processes (bench/throughput.py).

Discord is the offline harness of the tests (no network); the database is a real
SQLite file in a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import rules
from bench import latency as clicks
from bench import memory
from bench.simulation import player_counts, simulation_times
from rules.core import Rng

BENCH_GAME = "gods-of-magic"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


LOOP_STEPS = 10_000_000
SIM_BUDGET_LOOPS = 1_000
"""10,000 automatic games of a game at a player count within this many machine-speed loops
(about 4 minutes where the loop takes 0.25 s)."""


def machine_speed(rounds: int = 3) -> float:
    """Seconds a plain Python loop of `LOOP_STEPS` additions takes on this machine (the best of
    `rounds`): one figure to tell a slow machine from a fast one when comparing runs."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        i = 0
        while i < LOOP_STEPS:
            i += 1
        best = min(best, time.perf_counter() - start)
    return best


def speed_line(when: str) -> str:
    return (f"machine at the {when}: {os.cpu_count()} cores, Python {sys.version.split()[0]}; a loop of "
            f"{LOOP_STEPS:,} Python additions takes {machine_speed():.2f} s (best of 3)")


def random_playouts(seconds: float) -> dict[str, float]:
    out = {}
    for gid in rules.REGISTERED:
        game = rules.get_game(gid)
        players = [f"p{i}" for i in range(max(game.min_players, min(2, game.max_players)))]
        done = 0
        start = time.perf_counter()
        seed = 0
        while time.perf_counter() - start < seconds:
            state = game.setup(players, {}, seed)
            rng = Rng(seed=seed)
            for _ in range(game.max_steps):
                if game.result(state) is not None:
                    break
                player = rng.choice(game.to_act(state))
                action = rng.choice(game.legal_actions(state, player))
                state = game.apply(state, player, action.key, "..." if action.text_prompt else None).state
            done += 1
            seed += 1
        out[gid] = done / (time.perf_counter() - start)
    return out


def in_fresh_process(work, *args):
    """`work(*args)` in a new Python process: timings not coloured by what this one did before
    (the Discord sections leave a large heap that slows the garbage collector's passes)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(work, *args).result()


DISCORD_ID = 712_345_678_901_234_567
"""The first seat's id in the state-size row: a person's seat is their Discord id, 18 digits
today (snowflakes grow past 19 digits only after 2084)."""

SIZE_CASES: list[tuple[str, dict[str, str]]] = [("gods-of-magic", {"storytelling": "strict"})]
"""Extra (game, options) whose largest state is measured besides each game's defaults."""


def state_sizes(games: int) -> list[tuple[str, int, dict[str, str], int]]:
    """(game, players, options, largest state in JSON bytes) along `games` automatic games at the
    game's largest player count."""
    cases: list[tuple[str, dict[str, str]]] = [(gid, {}) for gid in rules.REGISTERED]
    cases += [(gid, o) for gid, o in SIZE_CASES if gid in rules.GAMES]
    out = []
    for gid, options in cases:
        game = rules.get_game(gid)
        n = player_counts(game)[-1]
        names = [str(DISCORD_ID + i) for i in range(n)]
        largest = 0
        for seed in range(games):
            state = game.setup(names, options, seed)
            chooser = Rng(seed=seed).fork("simulate")
            for _ in range(game.max_steps):
                largest = max(largest, len(game.dump_state(state).encode()))
                if game.result(state) is not None:
                    break
                player = game.to_act(state)[0]
                action = game.auto_action(state, player, chooser)
                state = game.apply(state, player, action.key, "a story" if action.text_prompt else None).state
        out.append((gid, n, options, largest))
    return out


async def commit_cost(commits: int) -> dict[str, float]:
    """Median seconds of one session save (the compare-and-set commit of a move) with
    synchronous=FULL, what the bot uses, and NORMAL, measured interleaved on the same disk."""
    from bot.store import Store
    from tests.support.highcard import GAME as HIGH_CARD

    rules.GAMES.setdefault(HIGH_CARD.id, HIGH_CARD)
    from bot.models import Seat, Session

    out: dict[str, list[float]] = {"FULL": [], "NORMAL": []}
    with tempfile.TemporaryDirectory() as tmp:
        stores = {mode: await Store.open(Path(tmp) / f"{mode}.db", synchronous=mode) for mode in out}
        sessions = {}
        for mode, store in stores.items():
            session = Session(id=0, guild_id=1, channel_id=1, game_id=HIGH_CARD.id, status="active",
                              host_id=1, options={}, state_json=None, version=1, created_at=0.0,
                              updated_at=0.0, seats=[Seat(position=0, player_id="1", name="a", user_id=1)])
            session.id = await store.insert_session(session)
            sessions[mode] = session
        for _ in range(commits):
            for mode, store in stores.items():
                session = sessions[mode]
                t0 = time.perf_counter()
                session.version += 1
                assert await store.save(session, session.version - 1, seats=False)
                out[mode].append(time.perf_counter() - t0)
        for store in stores.values():
            await store.close()
    return {mode: statistics.median(v) for mode, v in out.items()}


def compare_backends(database: str, samples: int, throughput: float = 0.0, sessions: int = 200,
                     game: str = BENCH_GAME) -> int:
    """One action's median and p99 on SQLite, then on `database` (or a throwaway PostgreSQL);
    with `throughput` (seconds), completed actions per second on `database` with 1 and 2 bot
    processes at `sessions` concurrent sessions (bench/throughput.py)."""
    server = None
    if database == "throwaway":
        from tests.support import postgres

        server, reason = postgres.find(durable=True)  # fsync on, as in production
        if server is None:
            print(f"No throwaway PostgreSQL: {reason}", file=sys.stderr)
            return 2
        database = asyncio.run(server.new_database())
    try:
        print("one action, from its INTERACTION_CREATE frame to the committed answer, one table "
              "clicked at a time (bench/latency.py):")
        for name, target in (("sqlite", None), ("postgresql", database)):
            for figures in asyncio.run(clicks.measure_all(samples, database=target)):
                print(f"  {name:<10} {figures.plain_line()}")
        if throughput > 0:
            from bench import throughput as tp

            print(f"throughput on postgresql, {sessions} concurrent sessions of {game} for "
                  f"{throughput:g} s (driver: this process, one request in flight per session; "
                  "bot + fake Discord + the automatic player's choice: the worker processes; "
                  f"{os.cpu_count()} cores shared with PostgreSQL):")
            rates = {}
            for n, base in ((1, tp.CHANNEL_BASE), (2, tp.CHANNEL_BASE + 10_000)):
                if server is not None:
                    database = asyncio.run(server.new_database())
                done, window, cpu, driver = asyncio.run(
                    tp.run(database, n, sessions, throughput, game, base))
                rates[n] = done / throughput
                print(f"  {n} process(es): {done} actions in {throughput:g} s, {rates[n]:.1f} "
                      f"actions/s; CPU busy over the {window:.1f} s to the last answer: worker(s) "
                      + ", ".join(f"{c / window:.0%}" for c in cpu)
                      + f", driver {driver / window:.0%} of a core; worker CPU per action "
                      f"{sum(cpu) / max(done, 1) * 1000:.1f} ms")
            print(f"  2 processes / 1 process: {rates[2] / rates[1]:.2f}x")
    finally:
        if server is not None:
            server.stop()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=300,
                        help="clicks timed per game (and per database with --database)")
    parser.add_argument("--sessions", type=int, default=200,
                        help="the largest number of sessions clicking at once")
    parser.add_argument("--load-moves", type=int, default=clicks.LOAD_MOVES,
                        help="the first moves of each table's game that every row of the load table plays")
    parser.add_argument("--playout-seconds", type=float, default=3.0)
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--sim-games", type=int, default=20,
                        help="automatic games timed per game and player count (extrapolated to 10,000)")
    parser.add_argument("--size-games", type=int, default=2,
                        help="automatic games searched for the largest state per game")
    parser.add_argument("--memory-sessions", type=int, default=memory.SESSIONS,
                        help="active sessions of each game whose memory is measured (0: not measured)")
    parser.add_argument("--database", metavar="URL",
                        help="compare one action's latency on SQLite and on this (empty) database "
                             "instead of the whole benchmark; `throwaway` starts a PostgreSQL "
                             "server for the run (tests/support/postgres.py)")
    parser.add_argument("--throughput", type=float, default=0.0, metavar="SECONDS",
                        help="with --database: also completed actions per second on it with 1 and "
                             "2 bot processes (--sessions concurrent sessions), each for SECONDS")
    parser.add_argument("--throughput-game", default=BENCH_GAME)
    args = parser.parse_args(argv)
    if BENCH_GAME not in rules.GAMES:
        print(f"{BENCH_GAME} is not installed", file=sys.stderr)
        return 2
    if args.database:
        return compare_backends(args.database, args.samples, args.throughput, args.sessions,
                                args.throughput_game)
    print(speed_line("start"))
    print("bot-token Discord calls per click (a whole game by automatic moves through the harness; "
          "Discord's global limit is 50 calls/s per bot):")
    from tests.support.calls import count_all

    for tokens in (True, False):
        print("  interaction tokens used while fresh (15 min):" if tokens
              else "  every interaction token taken as expired (the bot's own calls only):")
        for count in asyncio.run(count_all(tokens=tokens)):
            print("    " + count.line())
    from bench.pace import report as at_a_human_pace

    print("\n".join(at_a_human_pace()))
    ms = 1000
    cost = asyncio.run(commit_cost(args.commits))
    print(f"commit of a move ({args.commits} each, interleaved): synchronous=FULL median "
          f"{cost['FULL'] * ms:.2f} ms, NORMAL {cost['NORMAL'] * ms:.2f} ms "
          f"(FULL costs {cost['FULL'] / cost['NORMAL']:.2f}x NORMAL; the bot uses FULL)")
    print(f"one action, click to committed answer, each game against its floor measured interleaved "
          f"({args.samples} actions a game; floor = parse + rules + one-hop commit, bench/latency.py):")
    games = asyncio.run(clicks.measure_all(args.samples))
    for figures in games:
        print("  " + figures.line())
    medians = {f.label.split()[0]: statistics.median(f.actions) for f in games}
    if "terra-sancta" in medians and "gods-of-magic" in medians:
        print(f"  a Terra Sancta action takes {medians['terra-sancta'] / medians['gods-of-magic']:.2f}x "
              "a Gods of Magic action (goal 2; its board picture is drawn in a worker thread)")
    levels = tuple(sorted({1, 10, 50, args.sessions}))
    print(f"under load: the first {args.load_moves} moves of {max(levels)} {BENCH_GAME} 2p games in every row, "
          "that many tables clicking back to back at once, each row twice (levels forwards, then "
          "backwards; one process: bot, fake Discord and the driver choosing moves; CPU of all its threads):")
    rows = asyncio.run(clicks.load(levels, args.load_moves, BENCH_GAME))
    lone = rows[0].cpu_per_action
    for row in rows:
        print(f"  {row.sessions:4} sessions: {row.completed:6} actions completed in {row.seconds:4.1f} s, {row.rate:7.1f} "
              f"actions/s; CPU per completed action {row.cpu_per_action * ms:.2f} ms "
              f"({row.cpu_per_action / lone:.2f}x a lone session's; goal 1.2)")
    for gid, rate in random_playouts(args.playout_seconds).items():
        print(f"random playouts, {gid}: {rate:.1f} games/s")
    loop = machine_speed()
    budget = SIM_BUDGET_LOOPS * loop / 60  # minutes: the goal scales with the machine's speed
    print(f"simulation (automatic players, {args.sim_games} games timed per row, extrapolated to 10,000 "
          "in one process; each game in a fresh process, as `python -m rules.simulate` plays it; "
          f"budget {SIM_BUDGET_LOOPS:,} machine-speed loops = {budget:.1f} min here, the loop taking "
          f"{loop:.2f} s):")
    timed = [row for gid in rules.REGISTERED
             for row in in_fresh_process(simulation_times, args.sim_games, gid)]
    for gid, n, seconds in timed:
        minutes = seconds * 10_000 / 60
        print(f"  {gid:<18} {n} player(s): {seconds * ms:7.1f} ms/game, 10,000 games ~{minutes:5.1f} min "
              f"({minutes / budget:.2f}x the budget)")
    print(f"largest state (JSON, {args.size_games} automatic games at the largest player count, "
          "18-digit Discord ids as players; budget 4,096 bytes):")
    for gid, n, options, size in state_sizes(args.size_games):
        label = gid + (" " + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")
        print(f"  {label:<36} {n} player(s): {size:6,} bytes ({size / 4096:.2f}x the budget)")
    if args.memory_sessions > 0:
        print(f"memory for {args.memory_sessions:,} active sessions, MiB per game (each game in a "
              "fresh process at its largest player count, two people, one move a table; "
              f"tracemalloc; budget {memory.BUDGET_MIB} MiB for {memory.SESSIONS:,}; bench/memory.py):")
        for gid in rules.REGISTERED:
            print("  " + in_fresh_process(memory.measure, gid, args.memory_sessions).line())
    print(speed_line("end"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
