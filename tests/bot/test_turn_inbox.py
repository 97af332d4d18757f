"""`/game turns` (issue 31 goal 4): the tables where a person must move, in every channel and
server the bot keeps, the longest waiting first, with a link to each table; in a DM too."""

from __future__ import annotations

from tests.bot.e2e import (
    ALICE,
    BOB,
    CHANNEL,
    OTHER_CHANNEL,
    START,
    Clock,
    make_bot,
    open_table,
    play_auto_move,
)
from tests.support.discord_harness import DiscordHarness

GAME = "test-high-card"


async def test_the_inbox_lists_the_tables_waiting_for_you_oldest_first(tmp_path):
    clock = Clock(START)
    bot = make_bot(tmp_path / "p.db", clock=clock)
    async with DiscordHarness(bot) as h:
        empty = await h.slash("game turns", user=ALICE, channel=CHANNEL)
        assert empty.ephemeral and "No table is waiting for you" in empty.text()
        first = await open_table(h, GAME, [ALICE, BOB], channel=CHANNEL)  # alice moves first
        clock.now += 3600
        second = await open_table(h, GAME, [BOB, ALICE], channel=OTHER_CHANNEL)  # bob moves first
        reply = await h.slash("game turns", user=ALICE, guild=False)  # asked in a DM with the bot
        text = reply.text()
        assert reply.ephemeral and "Your turns (1)" in text
        assert f"/channels/{h.guild_id}/{CHANNEL}/{first.id}" in str(reply.embeds)
        assert f"<t:{int(START)}:R>" in text
        clock.now += 60
        await play_auto_move(h, bot, OTHER_CHANNEL)  # bob moves: now alice is to act there too
        reply = await h.slash("game turns", user=ALICE, channel=CHANNEL)
        embeds = str(reply.embeds)
        assert "Your turns (2)" in reply.text()
        assert embeds.index(f"/{CHANNEL}/{first.id}") < embeds.index(f"/{OTHER_CHANNEL}/{second.id}")
        assert f"<t:{int(START) + 3660}:R>" in reply.text()
        bob = await h.slash("game turns", user=BOB, channel=CHANNEL)
        assert "No table is waiting for you" in bob.text()
