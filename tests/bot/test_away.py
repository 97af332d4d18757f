"""Games over days (issue 31 goal 3): `/game away` puts a person's seats on hold in every game
(no automatic player, no reminders, the table says so); past the time limit the others are
asked whether the automatic player should move for them; `/game back` ends it."""

from __future__ import annotations

import pytest

from bot.cogs.game import away_until
from bot.sessions import ServiceError
from tests.bot.e2e import (
    ALICE,
    BOB,
    CHANNEL,
    OTHER_CHANNEL,
    START,
    Clock,
    make_bot,
    open_table,
    tick_for,
)
from tests.support.discord_harness import DiscordHarness

GAME = "test-high-card"


async def test_away_holds_the_table_then_the_others_may_hand_the_seat_over(tmp_path):
    clock = Clock(START)
    bot = make_bot(tmp_path / "p.db", clock=clock)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB], selects={"turn_timer": "3600"})
        other = await open_table(h, GAME, [BOB, ALICE], channel=OTHER_CHANNEL, selects={"turn_timer": "3600"})
        reply = await h.slash("game away", user=ALICE, guild=False, options={"until": "3"})  # in a DM
        assert reply.ephemeral and "2 tables wait for you" in reply.text()
        assert "💤 alice is away until" in table.content and "the table waits" in table.content
        assert "💤 alice is away until" in other.content and "turn ends" in other.content  # bob's turn there
        sid = (await bot.service.active_in_channel(CHANNEL)).id
        version = (await bot.service.get(sid)).version
        await tick_for(bot, clock, 3600 + 600)  # past the limit
        reminders = [m for m in h.messages_in(CHANNEL) if "your turn in" in m.content]
        assert reminders == []  # nobody away is reminded
        session = await bot.service.get(sid)
        assert session.seat_of_user(ALICE).auto is False and session.seat_of_user(ALICE).overdue
        assert session.version == version + 1  # the ask was recorded, no move was made for her
        assert "past the time limit" in table.content
        assert session.deadline == START + 3 * 86400  # it waits until the day she named
        cover = h.find_button(table, "Let the automatic player move for them")
        refused = await h.click(table, cover, user=ALICE)
        assert refused.ephemeral and "Only the other players" in refused.text()
        await tick_for(bot, clock, 7200)  # the table keeps waiting, asking once
        assert (await bot.service.get(sid)).version == version + 1
        done = await h.click(table, cover, user=BOB)
        assert done.ephemeral and "moves for them" in done.text()
        session = await bot.service.get(sid)
        assert session.seat_of_user(ALICE).auto and session.version > version + 2  # and it moved
        assert "Let the automatic player" not in str(table.components)
        # back: away ends in every game, and her seat here is hers again
        back = await h.slash("game back", user=ALICE, channel=CHANNEL)
        assert back.ephemeral and "Welcome back: your turns are timed again at 2 tables" in back.text()
        session = await bot.service.get(sid)
        seat = session.seat_of_user(ALICE)
        assert not seat.auto and seat.away_until is None and not seat.overdue
        there = await bot.service.active_in_channel(OTHER_CHANNEL)
        assert there.seat_of_user(ALICE).away_until is None
        assert "away" not in other.content


async def test_a_game_with_a_player_away_times_the_others_as_before(tmp_path):
    """Bob is away, Alice is to act: her timer runs, she is reminded and then played for."""
    clock = Clock(START)
    bot = make_bot(tmp_path / "p.db", clock=clock)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB], selects={"turn_timer": "3600"})
        await h.slash("game away", user=BOB, channel=CHANNEL)
        assert "💤 bob is away until they are back" in table.content and "turn ends" in table.content
        await tick_for(bot, clock, 3600 + 300)
        assert any("your turn in" in m.content and f"<@{ALICE}>" in m.content for m in h._created)
        assert "time ran out for alice" in table.text().lower()


async def test_back_when_not_away_says_so(tmp_path):
    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot) as h:
        await open_table(h, GAME, [ALICE, BOB])
        reply = await h.slash("game back", user=ALICE, channel=CHANNEL)
        assert reply.ephemeral and "you are not away" in reply.text()


def test_away_dates_are_read_strictly():
    now = START
    assert away_until(None, now) is None and away_until("  ", now) is None
    assert away_until("3", now) == now + 3 * 86400
    assert away_until("2027-01-20", now) == 1_800_403_200.0  # 2027-01-20 00:00 UTC
    for bad, said in (("tomorrow", "not a day"), ("²", "not a day"), ("2027-13-01", "not a day"),
                      ("0", "come already"), ("2020-01-01", "come already"), ("61", "at most 60 days"),
                      ("9" * 30, "at most 60 days")):
        with pytest.raises(ServiceError, match=said):
            away_until(bad, now)
