"""Whole games of the real games through Discord (the offline harness)."""

from __future__ import annotations

import pytest

from rules.gods_of_magic.undo import before_objection
from tests.bot.e2e import ALICE, BOB, CAROL, CHANNEL, make_bot, open_table, play_auto_move
from tests.support.discord_harness import DiscordHarness
from tests.support.guards import hand_leaks, unintended_pings


@pytest.fixture
def db(tmp_path):
    return tmp_path / "pantheon.db"


async def _play_out(h, bot, limit: int) -> int:
    """Play to the end through Discord; after every move, no message anyone can read shows a
    card from someone else's hand, and nobody outside the game is ever pinged."""
    moves = 0
    while await play_auto_move(h, bot) is not None:
        moves += 1
        assert moves < limit, "the game did not end"
        session = await bot.service.latest_in_channel(CHANNEL)
        if session.status == "active":
            assert hand_leaks(h, session, CHANNEL) == []
    session = await bot.service.latest_in_channel(CHANNEL)
    assert unintended_pings(h, {s.user_id for s in session.seats if s.user_id}) == []
    return moves


async def test_gods_of_magic_whole_game_through_discord(db):
    bot = make_bot(db, seed=11)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "gods-of-magic", [ALICE, BOB], options="target=100")
        # hands are private: each player has a DM; the table shows domains and the deck count
        assert h.dms_to(ALICE) and h.dms_to(BOB)
        session = await bot.service.active_in_channel(CHANNEL)
        game, state = session.game(), session.state()
        alice_hand = game.view(state, str(ALICE)).model_dump_json()
        assert "hand" in alice_hand
        moves = await _play_out(h, bot, 3000)
        assert moves > 10
        assert "game over" in table.text().lower()
        assert [b["label"] for b in table.buttons()] == ["Play again"] and table.selects() == []
        assert len(h.messages_in(CHANNEL)) == 1  # one table, edited in place all game long
        # every DM was edited in place too (one DM message per player)
        assert len(h.dms_to(ALICE)) == 1 and len(h.dms_to(BOB)) == 1
        stats = await h.slash("game stats", user=CAROL, channel=CHANNEL, options={"game": "gods-of-magic"})
        assert "Gods of Magic" in stats.text() and "won of 1" in stats.text()


async def test_gods_of_magic_three_players_one_with_closed_dms_never_sees_another_hand(db):
    """A whole 3-player game where Carol plays from ephemeral views: after every move, the
    table, every DM and every ephemeral view is scanned for the cards in other hands."""
    bot = make_bot(db, seed=23)
    async with DiscordHarness(bot) as h:
        h.block_dms(CAROL)
        await open_table(h, "gods-of-magic", [ALICE, BOB, CAROL], options="target=100")
        assert h.dms_to(CAROL) == []
        moves = await _play_out(h, bot, 4000)
        assert moves > 10
        assert h.ephemerals_to(CAROL), "Carol played from ephemeral views"


async def test_gods_of_magic_dice_embed_and_storytelling_modal(db):
    bot = make_bot(db, seed=3)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "gods-of-magic", [ALICE, BOB], options="storytelling=on")
        saw_modal = saw_dice = False
        for _ in range(60):
            reply = await play_auto_move(h, bot, story="The elves dance on the volcano.")
            if reply is None:
                break
            saw_modal = saw_modal or "The elves dance on the volcano." in table.text()
            saw_dice = saw_dice or any("d10" in (e.get("title") or "") + (e.get("description") or "")
                                       for e in table.embeds)
            if saw_modal and saw_dice:
                break
        assert saw_modal, "a realm change asked for a line and posted it with the move"
        assert saw_dice, "the d10 result has its own embed"


async def test_deathly_thrones_whole_run_and_stats(db):
    bot = make_bot(db, seed=5)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "deathly-thrones", [ALICE],
                                 selects={"character": "dwarf", "quest": "iron-throne"})
        assert "Dwarf" in table.text() and "Iron Throne" in table.text()
        assert h.dms_to(ALICE) == []  # nothing hidden in a solo run: no DM copies of the table
        step = h.find_button(table, "Draw a step card")
        r = await h.click(table, step, user=BOB)  # a watcher cannot play the run
        assert r.ephemeral
        moves = await _play_out(h, bot, 3000)
        assert moves >= 10
        assert "game over" in table.text().lower()
        stats = await h.slash("game stats", user=ALICE, channel=CHANNEL, options={"game": "deathly-thrones"})
        text = stats.text()
        assert "alice" in text
        final = await bot.service.latest_in_channel(CHANNEL)
        won = int(bool(final.game().result(final.state()).winners))  # the run's own outcome
        assert f"quest iron-throne {won}/1" in text
        assert f"character dwarf {won}/1" in text


async def test_gods_of_magic_strict_storytelling_objection_through_buttons(db):
    bot = make_bot(db, seed=8)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "gods-of-magic", [ALICE, BOB, CAROL], options="storytelling=strict")
        for _ in range(80):
            session = await bot.service.active_in_channel(CHANNEL)
            if session.state().objection is not None:
                break
            await play_auto_move(h, bot, story="A dull line.")
        else:
            pytest.fail("no realm change happened")
        state = session.state()
        mover = state.objection.mover
        before = before_objection(state)
        assert "A dull line." in table.text()
        objectors = [u for u in (ALICE, BOB, CAROL) if str(u) != mover]
        # the mover cannot object to their own line
        r = await h.click(table, h.find_button(table, "Object to this story"), user=int(mover))
        assert r.ephemeral
        for user in objectors:
            await h.click(table, h.find_button(table, "Object to this story"), user=user)
        after = (await bot.service.active_in_channel(CHANNEL)).state()
        assert after.objection is None
        assert after.domains == before.domains  # the move was undone
        assert f"<@{mover}>" in table.content  # and the mover chooses again
        # the objection window has its own short deadline
        assert session.deadline is not None


async def test_simultaneous_setup_clicks_on_views_still_current_for_each_player(db):
    """Gods of Magic's setup waits for everyone at once. A view rendered before another
    player's move still means the same for its owner: the click is applied, in any order. A
    view whose choices changed (its owner placed a card since) is refused."""
    from copy import deepcopy

    from tests.support.discord_harness import FakeMessage

    bot = make_bot(db, seed=4)
    async with DiscordHarness(bot) as h:
        await open_table(h, "gods-of-magic", [ALICE, BOB, CAROL])
        snapshots = {}
        for user in (ALICE, BOB, CAROL):
            dm = h.dms_to(user)[0]
            snapshots[user] = FakeMessage(id=dm.id + 1_000_000 + user, channel_id=dm.channel_id,
                                          components=deepcopy(dm.components))

        def first_choice(user):
            menu = snapshots[user].selects()[0]
            return menu["custom_id"], [menu["options"][0]["value"]]

        start = await bot.service.active_in_channel(CHANNEL)
        for user in (CAROL, ALICE, BOB):  # each clicks the view rendered before the others moved
            cid, values = first_choice(user)
            reply = await h.select(snapshots[user], cid, values, user=user)
            assert reply.type == 7, reply.text()
        after = await bot.service.active_in_channel(CHANNEL)
        assert after.version == start.version + 3
        placed = after.state().setup_played
        assert all(placed[str(u)] == 1 for u in (ALICE, BOB, CAROL))
        # Bob's first view no longer means the same for him (that card is placed): refused
        cid, values = first_choice(BOB)
        again = FakeMessage(id=snapshots[BOB].id + 1, channel_id=snapshots[BOB].channel_id,
                            components=deepcopy(snapshots[BOB].components))
        reply = await h.select(again, cid, values, user=BOB)
        assert reply.ephemeral and "out of date" in reply.text()
        assert (await bot.service.active_in_channel(CHANNEL)).version == after.version


async def test_guilty_gods_alone_against_the_automatic_player_to_the_end(db):
    bot = make_bot(db, seed=9)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "guilty-gods", [ALICE], bots=1)
        assert h.dms_to(ALICE)  # a hand is private: it comes by DM
        moves = await _play_out(h, bot, 3000)
        assert moves > 5
        assert "game over" in table.text().lower()
        stats = await h.slash("game stats", user=ALICE, channel=CHANNEL, options={"game": "guilty-gods"})
        assert "Guilty Gods" in stats.text() and "of 1" in stats.text()


async def test_guilty_gods_two_people_one_with_closed_dms(db):
    bot = make_bot(db, seed=4)
    async with DiscordHarness(bot) as h:
        h.block_dms(BOB)
        table = await open_table(h, "guilty-gods", [ALICE, BOB])
        moves = await _play_out(h, bot, 4000)
        assert moves > 5 and "game over" in table.text().lower()
        assert h.ephemerals_to(BOB), "Bob played from ephemeral views"


async def test_by_gods_and_kings_one_person_runs_several_characters_beside_another(db):
    """A party of four: Alice and Bob each control two characters; the whole scenario is
    played through Discord (enemy turns, reactions, camp between battles) to its end."""
    bot = make_bot(db, seed=6)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "by-gods-and-kings", [ALICE, BOB], options="party=4")
        session = await bot.service.active_in_channel(CHANNEL)
        view = session.game().view(session.state(), str(ALICE))
        assert len(view.controlled) == 2
        assert "Party" in table.text() and all(f"**{h.name}**" in table.text() for h in session.state().party)
        moves = await _play_out(h, bot, 5000)
        assert moves > 20
        assert "game over" in table.text().lower()
