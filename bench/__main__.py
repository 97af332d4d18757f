"""python -m bench: Pantheon's benchmark, in one run.

1. Latency of one game action: from an INTERACTION_CREATE payload fed to the real
   discord.py client to the recorded interaction response (SQLite commit included),
   median and 99th percentile, one session at a time.
2. The same with 200 sessions acting concurrently.
3. Random playouts per second for each registered game (rules only).

Discord is the offline harness of the tests (no network); the database is a real
SQLite file in a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import rules
from bot.app import build_bot
from bot.config import Settings
from rules.core import Rng

BENCH_GAME = "gods-of-magic"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def random_playouts(seconds: float) -> dict[str, float]:
    out = {}
    for gid, game in sorted(rules.GAMES.items()):
        if gid.startswith("test-"):
            continue
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


class Table:
    """One session at the harness table, with helpers to click the move the automatic player would choose."""

    def __init__(self, h, channel: int, users: list[int]):
        self.h, self.channel, self.users = h, channel, users
        self.session_id: int | None = None

    async def open(self, bot) -> None:
        h, host = self.h, self.users[0]
        reply = await h.slash("game new", user=host, channel=self.channel, options={"game": BENCH_GAME})
        lobby = reply.message
        for u in self.users[1:]:
            await h.click(lobby, h.find_button(lobby, "Join"), user=u)
        await h.click(h.messages_in(self.channel)[-1], h.find_button(h.messages_in(self.channel)[-1], "Start"),
                      user=host)
        session = await bot.service.active_in_channel(self.channel)
        self.session_id = session.id

    async def next_click(self, bot):
        """(message, custom_id, values, user) for the automatic player's choice of the player to act."""
        session = await bot.service.get(self.session_id)
        if session.status != "active":
            return None
        game, state = session.game(), session.state()
        pid = game.to_act(state)[0]
        seat = session.seat(pid)
        action = game.auto_action(state, pid, Rng(seed=session.version))
        candidates = [m for m in self.h.messages_in(self.channel)] + self.h.dms_to(seat.user_id)
        for message in reversed(candidates):
            for row in message.components:
                for comp in row.get("components", []):
                    cid = comp.get("custom_id", "")
                    if comp.get("type") == 2 and cid == f"pa:{session.id}:{session.version}:{action.key}":
                        return message, cid, None, seat.user_id, action
                    if comp.get("type") == 3 and cid.startswith(f"ps:{session.id}:{session.version}:") and \
                            any(o["value"] == action.key for o in comp.get("options", [])):
                        return message, cid, [action.key], seat.user_id, action
        return None

    async def step(self, bot) -> float | None:
        found = await self.next_click(bot)
        if found is None:
            return None
        message, cid, values, user, action = found
        if action.text_prompt:
            return None
        t0 = time.perf_counter()
        if values is None:
            reply = await self.h.click(message, cid, user=user)
        else:
            reply = await self.h.select(message, cid, values, user=user)
        first = min((c.at for c in reply.calls if getattr(c, "via", "") == "webhook"), default=None)
        return (first - t0) if first is not None else (time.perf_counter() - t0)


async def latency(samples: int, sessions: int) -> tuple[list[float], list[float]]:
    from tests.support.discord_harness import DiscordHarness

    with tempfile.TemporaryDirectory() as tmp:
        channels = tuple(3000 + i for i in range(sessions))
        members = {100 + i: f"Player {i}" for i in range(2 * sessions)}
        settings = Settings(database_path=Path(tmp) / "bench.db", discord_token="x")
        bot = build_bot(settings, run_timers=False)
        async with DiscordHarness(bot, channel_ids=channels, members=members) as h:
            tables = [Table(h, ch, [100 + 2 * i, 101 + 2 * i]) for i, ch in enumerate(channels)]
            for t in tables:
                await t.open(bot)
            single: list[float] = []
            t = tables[0]
            while len(single) < samples:
                took = await t.step(bot)
                if took is None:
                    await h.slash("game end", user=t.users[0], channel=t.channel)
                    await t.open(bot)
                    continue
                single.append(took)
            concurrent: list[float] = []
            for _round in range(max(1, samples // sessions)):
                results = await asyncio.gather(*(tt.step(bot) for tt in tables))
                concurrent += [r for r in results if r is not None]
        await bot.close()
    return single, concurrent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--playout-seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    if BENCH_GAME not in rules.GAMES:
        print(f"{BENCH_GAME} is not installed", file=sys.stderr)
        return 2
    single, concurrent = asyncio.run(latency(args.samples, args.sessions))
    ms = 1000
    print(f"action latency, 1 session ({len(single)} actions): median {statistics.median(single) * ms:.2f} ms, "
          f"p99 {pct(single, 0.99) * ms:.2f} ms")
    if concurrent:
        print(f"action latency, {args.sessions} sessions concurrently ({len(concurrent)} actions): "
              f"median {statistics.median(concurrent) * ms:.2f} ms, p99 {pct(concurrent, 0.99) * ms:.2f} ms")
    for gid, rate in random_playouts(args.playout_seconds).items():
        print(f"random playouts, {gid}: {rate:.1f} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
