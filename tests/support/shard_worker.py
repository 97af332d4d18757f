"""One harnessed bot in its own OS process, for the multi-process tests (tests/bot/test_scale.py).

    python -m tests.support.shard_worker DATABASE_URL --shard-count 2 --shard-ids 0
    [--channels N --channel-base C]   N channels from C (default: 2000 and 2001), members 100...

The real (sharded) bot runs on the offline Discord harness, on the shared database, with a clock
`time.time() + offset`. The test drives it with one JSON object per line on stdin and reads one
JSON answer per line on stdout (answers may come out of order: each carries the request's `id`):

    {"op": "slash", "name": "game new", "user": 1, "channel": 2000, "options": {...}}
    {"op": "click_named", "label": "Join", "user": 1, "channel": 2000}  a button on the last
                                                  message of the channel that has it (lobbies)
    {"op": "select_named", "suffix": ":turn_timer", "value": "60", "user": 1, "channel": 2000}
    {"op": "prepare", "user": 1, "channel": 2000, "key": "play:0"}  /game hand, and find the
                                                  component offering that action now
    {"op": "fire", "n": 100}                      that many clicks of the prepared component at once
    {"op": "auto_move", "channel": 2000}          the automatic player's choice for the person to
                                                  act, clicked through Discord; answers the version
    {"op": "bench_move", "channel": 2000}         the same, quicker to find the component
    {"op": "tick"}                                 the turn timers once (reminders, expiries)
    {"op": "advance", "seconds": 60}               move this process's clock
    {"op": "quit"}
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

import tests.conftest  # noqa: F401  (registers the test games)
from bot.app import build_bot
from bot.config import Settings
from rules.core import Rng
from tests.bot import e2e
from tests.support.discord_harness import DiscordHarness, FakeMessage

GUILD = 1000  # shard (1000 >> 22) % n = 0


class Worker:
    def __init__(self, args: argparse.Namespace):
        self.offset = 0.0
        settings = Settings(database_url=args.database, discord_token="test",
                            shard_count=args.shard_count, shard_ids=args.shard_ids,
                            worker_lease_seconds=args.lease, timer_poll_seconds=1)
        self.bot = build_bot(settings, clock=self.now, seed_source=lambda: args.seed,
                             run_timers=False)
        if args.channels:  # many tables (the benchmark): channels from --channel-base, members 100...
            channels = tuple(range(args.channel_base, args.channel_base + args.channels))
            members = {100 + i: f"Player {i}" for i in range(2 * args.channels)}
            self.h = DiscordHarness(self.bot, guild_id=GUILD, channel_ids=channels, members=members)
        else:
            self.h = DiscordHarness(self.bot, guild_id=GUILD)
        self.prepared: tuple[FakeMessage, str, list[str] | None, int] | None = None
        self.out_lock = asyncio.Lock()

    def now(self) -> float:
        return time.time() + self.offset

    async def answer(self, request: dict, **body: Any) -> None:
        line = json.dumps({"id": request.get("id"), **body})
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    async def handle(self, request: dict) -> None:
        try:
            body = await getattr(self, "op_" + request["op"])(request)
            await self.answer(request, ok=True, **(body or {}))
        except Exception as exc:  # the test sees it
            await self.answer(request, ok=False, error=f"{type(exc).__name__}: {exc}")

    async def op_slash(self, r: dict) -> dict:
        reply = await self.h.slash(r["name"], user=r["user"], channel=r["channel"],
                                   options=r.get("options") or {})
        return {"text": reply.text(), "ephemeral": reply.ephemeral}

    def _last_with(self, channel: int, predicate) -> tuple[FakeMessage, dict]:
        for message in reversed(self.h.messages_in(channel)):
            for comp in message.buttons() + message.selects():
                if predicate(comp):
                    return message, comp
        raise LookupError("no such component")

    async def op_click_named(self, r: dict) -> dict:
        message, comp = self._last_with(r["channel"], lambda c: c.get("label") == r["label"])
        reply = await self.h.click(message, comp["custom_id"], user=r["user"])
        return {"text": reply.text()}

    async def op_select_named(self, r: dict) -> dict:
        message, comp = self._last_with(
            r["channel"], lambda c: str(c.get("custom_id", "")).endswith(r["suffix"]))
        reply = await self.h.select(message, comp["custom_id"], [r["value"]], user=r["user"])
        return {"text": reply.text()}

    async def op_prepare(self, r: dict) -> dict:
        assert self.bot.service is not None
        session = await self.bot.service.active_in_channel(r["channel"])
        assert session is not None
        key = r.get("key")
        if key is None:  # the automatic player's choice for this person
            seat = session.seat_of_user(r["user"])
            assert seat is not None
            key = session.game().auto_action(session.state(), seat.player_id,
                                             Rng(seed=session.version)).key
        hand = await self.h.slash("game hand", user=r["user"], channel=r["channel"])
        assert hand.message is not None
        found = e2e.component_for([hand.message], session.id, session.version, key)
        assert found is not None, f"no component offers {key}"
        message, cid, values = found
        self.prepared = (message, cid, values, r["user"])
        return {"version": session.version}

    async def op_fire(self, r: dict) -> dict:
        assert self.prepared is not None
        message, cid, values, user = self.prepared

        async def one() -> str:
            reply = await (self.h.click(message, cid, user=user) if values is None
                           else self.h.select(message, cid, values, user=user))
            return "refused" if "out of date" in reply.text() else "applied"

        outcomes = await asyncio.gather(*[one() for _ in range(r["n"])])
        return {"applied": outcomes.count("applied"), "refused": outcomes.count("refused")}

    async def op_auto_move(self, r: dict) -> dict:
        reply = await e2e.play_auto_move(self.h, self.bot, r["channel"])
        assert self.bot.store is not None
        session = await self.bot.store.latest_in_channel(r["channel"])
        assert session is not None
        return {"done": reply is None, "version": session.version, "status": session.status,
                "text": reply.text() if reply is not None else ""}

    async def op_bench_move(self, r: dict) -> dict:
        """auto_move for the benchmark: looks for the component in the channel and the DMs only
        (the harness's ephemeral lookup scans every interaction so far), else as auto_move."""
        assert self.bot.service is not None
        session = await self.bot.service.active_in_channel(r["channel"])
        if session is not None and session.status == "active":
            game, state = session.game(), session.state()
            seat = session.seat(next(p for p in game.to_act(state) if not session.seat(p).auto))
            action = game.auto_action(state, seat.player_id, Rng(seed=session.version))
            found = None if action.text_prompt else e2e.component_for(
                self.h.messages_in(r["channel"]) + self.h.dms_to(seat.user_id), session.id,
                session.version, action.key, oldest=seat.actions_version)
            if found is not None:
                message, cid, values = found
                await (self.h.click(message, cid, user=seat.user_id) if values is None
                       else self.h.select(message, cid, values, user=seat.user_id))
                after = await self.bot.service.get(session.id)
                return {"done": False, "version": after.version, "status": after.status}
        return await self.op_auto_move(r)

    async def op_tick(self, r: dict) -> dict:
        assert self.bot.controller is not None
        before = {c: len(self.h.messages_in(c)) for c in self.h.channel_ids}
        published: list[int] = []
        publish = self.bot.controller.publish

        async def counting(result, *args, **kwargs):
            published.append(result.session.id)
            return await publish(result, *args, **kwargs)

        self.bot.controller.publish = counting  # type: ignore[method-assign]
        try:
            await self.bot.controller.tick()
            await self.h.settle()
        finally:
            del self.bot.controller.publish
        sent = [m.content for c in self.h.channel_ids for m in self.h.messages_in(c)[before[c]:]]
        return {"expired": published, "sent": sent}

    async def op_advance(self, r: dict) -> dict:
        self.offset += r["seconds"]
        return {"now": self.now()}

    async def run(self) -> None:
        await self.h.start()
        sys.stdout.write(json.dumps({"id": "ready", "ok": True, "worker": self.bot.service.worker
                                     if self.bot.service else ""}) + "\n")
        sys.stdout.flush()
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        tasks: set[asyncio.Task] = set()
        while True:
            line = await reader.readline()
            if not line:
                break
            request = json.loads(line)
            if request["op"] == "quit":
                await asyncio.gather(*tasks)
                await self.h.close()
                await self.answer(request, ok=True)
                return
            task = asyncio.create_task(self.handle(request))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await self.h.close(raise_errors=False)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("database")
    parser.add_argument("--shard-count", type=int, default=None)
    parser.add_argument("--shard-ids", default=None)
    parser.add_argument("--lease", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--channels", type=int, default=0)
    parser.add_argument("--channel-base", type=int, default=3000)
    args = parser.parse_args()
    asyncio.run(Worker(args).run())


if __name__ == "__main__":
    main()
