"""Bot-token calls per click at a human pace: the players click once every `every` seconds of
virtual time, so the interaction tokens the bot keeps (a click's token edits and deletes its
message outside Discord's global limit for 15 minutes) lapse as they would at a real table.

`python -m bench.pace` prints the figures for one click a minute and one every 5 minutes.
"""

from __future__ import annotations

import asyncio
import tempfile
import types
from pathlib import Path

import bot.controller as controller_module
from bot import edits
from tests.bot.e2e import make_bot, open_table, play_auto_move
from tests.support.calls import CASES, CallCount
from tests.support.discord_harness import DiscordHarness

PACES = (60.0, 300.0)
"""Seconds between two clicks."""


async def count_at_pace(label: str, game: str, people: list[int], bots: int, options: str | None,
                        every: float, *, db: Path, seed: int = 7, limit: int = 5000) -> CallCount:
    """One whole game by automatic moves, a click every `every` seconds of virtual time."""
    edits.PACING = None  # a minute between clicks: the per-channel bucket never fills
    now = [0.0]
    real = controller_module.time
    controller_module.time = types.SimpleNamespace(monotonic=lambda: now[0])  # type: ignore[assignment]
    count = CallCount(label)
    try:
        bot = make_bot(db, seed=seed)
        async with DiscordHarness(bot) as h:
            await open_table(h, game, people, bots=bots, options=options)
            first = len(h.calls)
            while True:
                now[0] += every
                if await play_auto_move(h, bot) is None:
                    break
                count.clicks += 1
                assert count.clicks < limit, f"{label}: the game did not end"
            count.tally(h.calls[first:])
        await bot.close()
    finally:
        controller_module.time = real
    return count


async def count_all_at(every: float, cases=CASES, seed: int = 7) -> list[CallCount]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (label, game, people, bots, options) in enumerate(cases):
            out.append(await count_at_pace(label, game, people, bots, options, every,
                                           db=Path(tmp) / f"pace{i}.db", seed=seed))
    return out


def report() -> list[str]:
    lines = []
    for every in PACES:
        lines.append(f"  a click every {every / 60:g} minute(s) (virtual time; tokens lapse after 15 minutes):")
        lines += ["    " + c.line() for c in asyncio.run(count_all_at(every))]
    return lines


if __name__ == "__main__":
    print("\n".join(report()))
