"""Completed actions per second with 1 and 2 bot processes on one database (`--throughput`).

Each bot process is a harnessed bot in its own OS process (tests/support/shard_worker.py: the
real discord.py client and bot on the offline Discord harness, on the shared database). The
sessions are split between the processes (each opens and plays its own tables: a table's
messages live in its process's harness). The load driver, this process, keeps one request in
flight per session: "play the automatic player's move at this table", sent down the worker's
stdin; the worker answers once the click's interaction response came back, i.e. after the move's
commit. An action counts when that answer arrives within the window.

What runs where: the driver (this process) only writes and reads JSON lines; in each worker run
the bot, the fake Discord (payloads in, REST calls recorded) and the choice of the automatic move
(reading the session, `auto_action`, finding the component to click); the database server runs
its own processes. All of them share the machine's cores.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from tests.support.workers import WorkerProcess

CHANNEL_BASE = 10_000


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc; 0.0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _open(w: WorkerProcess, game: str, channel: int, users: list[int]) -> None:
    await w.ask("slash", name="game new", user=users[0], channel=channel, options={"game": game},
                timeout=300)
    for user in users[1:]:
        await w.ask("click_named", label="Join", user=user, channel=channel, timeout=300)
    await w.ask("click_named", label="Start", user=users[0], channel=channel, timeout=300)


async def run(database: str, processes: int, sessions: int, seconds: float, game: str,
              channel_base: int = CHANNEL_BASE) -> tuple[int, float, list[float], float]:
    """(completed actions, seconds of the window, CPU seconds of each worker in the window, CPU
    seconds of this driver in the window) with `sessions` tables split over `processes`
    worker processes, each table playing automatic moves back to back for `seconds`."""
    shares = [sessions // processes + (1 if i < sessions % processes else 0) for i in range(processes)]
    bases = [channel_base + 1000 * i for i in range(processes)]
    workers = list(await asyncio.gather(*(
        WorkerProcess.start(database, name=f"w{i}", channels=n, channel_base=base)
        for i, (n, base) in enumerate(zip(shares, bases, strict=True)))))
    try:
        tables = [(w, base + k, [100 + 2 * k, 101 + 2 * k])
                  for w, n, base in zip(workers, shares, bases, strict=True) for k in range(n)]
        opening = asyncio.Semaphore(20)

        async def open_one(table: tuple[WorkerProcess, int, list[int]]) -> None:
            async with opening:
                await _open(*table[:1], game, *table[1:])

        await asyncio.gather(*(open_one(t) for t in tables))
        done = 0
        cpu = [cpu_seconds(w.proc.pid) for w in workers]
        driver = time.process_time()
        start = time.perf_counter()
        deadline = start + seconds

        async def play(w: WorkerProcess, channel: int, users: list[int]) -> None:
            nonlocal done
            while time.perf_counter() < deadline:
                moved = await w.ask("bench_move", channel=channel, timeout=300)
                if not moved["done"] and time.perf_counter() <= deadline:
                    done += 1
                if moved["done"] or moved["status"] != "active":
                    await _open(w, game, channel, users)  # over: a new game (not counted)

        await asyncio.gather(*(play(*t) for t in tables))
        # the window's end: the last answers come a little after the deadline (not counted)
        cpu = [cpu_seconds(w.proc.pid) - c for w, c in zip(workers, cpu, strict=True)]
        return done, time.perf_counter() - start, cpu, time.process_time() - driver
    finally:
        await asyncio.gather(*(w.quit() for w in workers))
