"""The bot's Discord calls: bot-token calls per click in whole games (they count against
Discord's global limit of 50 per second per bot; interaction responses and followups do not),
and a burst of clicks at one table kept inside the per-channel bucket for message edits."""

from __future__ import annotations

import asyncio
import heapq
import itertools

import pytest

from bot import table
from tests.bot.e2e import ALICE, BOB, CAROL, CHANNEL, DAVE, make_bot, open_table, play_auto_move
from tests.support.calls import CASES, count_game
from tests.support.discord_harness import DiscordHarness

CALLS_PER_CLICK_MAX = 1.0


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
async def test_at_most_one_bot_token_call_per_click_in_a_whole_game(tmp_path, case):
    label, game, people, bots, options = case
    count = await count_game(label, game, people, bots, options, db=tmp_path / "calls.db")
    assert count.clicks > 10
    assert count.per_click <= CALLS_PER_CLICK_MAX, count.line()


class VirtualTime:
    """Seconds the test moves by hand: the edit queue sleeps on it, the harness stamps calls."""

    def __init__(self) -> None:
        self.t = 0.0
        self._waiters: list[tuple[float, int, asyncio.Future]] = []
        self._n = itertools.count()

    def now(self) -> float:
        return self.t

    async def sleep(self, delay: float) -> None:
        fut = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (self.t + max(delay, 0.0), next(self._n), fut))
        await fut

    async def _run_ready(self) -> None:
        for _ in range(20):
            await asyncio.sleep(0)

    async def advance(self, seconds: float) -> None:
        end = self.t + seconds
        while self._waiters and self._waiters[0][0] <= end:
            at, _, fut = heapq.heappop(self._waiters)
            self.t = max(self.t, at)
            if not fut.done():
                fut.set_result(None)
            await self._run_ready()
        self.t = end
        await self._run_ready()

    async def run_out(self, busy) -> None:
        """Move time on until nothing waits any more."""
        for _ in range(10_000):
            await self._run_ready()
            if not busy():
                return
            if self._waiters:
                await self.advance(max(self._waiters[0][0] - self.t, 0.0))
        raise AssertionError("the edit queue never drained")


def most_in_a_window(stamps: list[float], window: float) -> int:
    stamps = sorted(stamps)
    return max((sum(1 for t in stamps[i:] if t - s < window) for i, s in enumerate(stamps)), default=0)


async def test_a_burst_of_clicks_at_one_table_stays_inside_the_edit_bucket(tmp_path):
    """Four players click as fast as they can (a move every 0.2 s) in a game played from DMs:
    every click changes the table. The bot's own edits (tokens taken as expired) of any one
    channel never exceed 5 in 5 seconds, queued edits collapse into the newest, and once the
    queue has run out the table shows the final state."""
    clock = VirtualTime()
    bot = make_bot(tmp_path / "burst.db", seed=11)
    async with DiscordHarness(bot, clock=clock.now) as h:
        h.ignore_task(lambda t: t.get_name().startswith("pantheon-edit:"))
        edits = bot.controller.edits
        edits.pacing, edits.clock, edits.sleep = (5, 5.0), clock.now, clock.sleep
        bot.controller.token_life = 0.0  # every table edit is one of the bot's own calls
        await open_table(h, "gods-of-magic", [ALICE, BOB, CAROL, DAVE], options="target=100")
        first = len(h.calls)
        clicks = 0
        for _ in range(40):
            if await play_auto_move(h, bot) is None:
                break
            clicks += 1
            await clock.advance(0.2)
        await clock.run_out(edits.busy)
        await h.settle()
        session = await bot.service.active_in_channel(CHANNEL) or await bot.service.latest_in_channel(CHANNEL)

        patches: dict[int, list[float]] = {}
        for call in h.calls[first:]:
            if call.via == "http" and call.method == "PATCH" and "/messages/" in call.path:
                patches.setdefault(int(call.path.split("/")[2]), []).append(call.at)
        table_edits = patches.get(CHANNEL, [])
        assert clicks >= 30 and len(table_edits) >= 5
        for channel, stamps in patches.items():
            assert most_in_a_window(stamps, 5.0) <= 5, (channel, sorted(stamps))
        assert len(table_edits) < clicks  # the burst's edits were coalesced
        shown = h.message(session.table_message_id)
        final = await table.render_table(session)
        assert shown.content == final.content  # the last state is shown, nothing lost
        assert [e.get("title") for e in shown.embeds][:len(final.panels) - 1] == \
            [p.title for p in final.panels][:len(final.panels) - 1]


async def test_a_typed_move_pings_the_next_player_through_its_own_interaction(tmp_path):
    """/move answers ephemerally; the turn ping that follows is a followup of that command, not
    a bot-token message (and the old ping is deleted through the token that sent it)."""
    bot = make_bot(tmp_path / "m.db")
    async with DiscordHarness(bot) as h:
        await open_table(h, "terra-sancta", [ALICE, BOB], options="factions=random")
        passed = []
        for _ in range(60):
            session = await bot.service.active_in_channel(CHANNEL)
            mover = int(session.state().turn_player)
            choices = await h.autocomplete("move", user=mover, channel=CHANNEL, options={"move": ""},
                                           focused="move")
            if not choices:
                await play_auto_move(h, bot)
                continue
            reply = await h.slash("move", user=mover, channel=CHANNEL, options={"move": choices[0]["value"]})
            after = await bot.service.active_in_channel(CHANNEL)
            if after.state().turn_player != str(mover):
                passed.append(reply)
            if len(passed) == 3:
                break
        assert len(passed) == 3
        for reply in passed:
            pings = [c for c in reply.calls if c.method == "POST" and "your turn" in str(c.json)]
            assert pings and all(c.via == "webhook" for c in pings), reply.calls
            assert not [c for c in reply.calls if c.via == "http"], reply.calls
    await bot.close()
