"""The game table through Discord, end to end: lobby, turns, private views, errors, restart."""

from __future__ import annotations

import pytest

from tests.bot.e2e import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    START,
    Clock,
    make_bot,
    open_table,
    play_auto_move,
)
from tests.support.discord_harness import DiscordHarness

GAME = "test-high-card"


@pytest.fixture
def db(tmp_path):
    return tmp_path / "pantheon.db"


async def test_lobby_to_result_with_dms_and_stats(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        reply = await h.slash("game new", user=ALICE, channel=CHANNEL, options={"game": GAME})
        assert reply.type == 4 and not reply.ephemeral
        lobby = reply.message
        assert "High Card" in lobby.text() and "alice" in lobby.text()
        labels = [b["label"] for b in lobby.buttons()]
        assert labels == ["Join", "Leave", "Add bot", "Start", "Cancel"]
        join = await h.click(lobby, h.find_button(lobby, "Join"), user=BOB)
        assert join.type == 7 and "bob" in lobby.text()
        await h.select(lobby, next(s["custom_id"] for s in lobby.selects() if s["custom_id"].endswith(":cards")),
                       ["1"], user=ALICE)
        start = await h.click(lobby, h.find_button(lobby, "Start"), user=ALICE)
        assert start.type == 7
        table = lobby  # the lobby message becomes the table
        assert "to act" in table.content and f"<@{ALICE}>" in table.content
        assert [b["label"] for b in table.buttons()][-1] == "My hand"
        # each player got a private view by DM with their own card
        for user in (ALICE, BOB):
            dms = h.dms_to(user)
            assert len(dms) == 1
            assert "High Card" in dms[0].text() and ("your move" in dms[0].text()) == (user == ALICE)
        alice_dm = h.dms_to(ALICE)[0]
        play = next(s for s in alice_dm.selects())
        assert play["options"][0]["label"].startswith("Play")
        # the table never shows the hand: private actions are only in the DM
        assert "Play " not in str(table.components)
        bob_first_dm = h.dms_to(BOB)[0]
        r = await h.select(alice_dm, play["custom_id"], [play["options"][0]["value"]], user=ALICE)
        assert r.type == 7  # the DM is edited in place, as the response to the click
        # bob's turn has come: his view is sent anew (a DM notifies, an edit does not), the old one deleted
        assert bob_first_dm.deleted and len(h.dms_to(BOB)) == 1 and h.dms_to(BOB)[0] is not bob_first_dm
        assert "your move" in h.dms_to(BOB)[0].content
        assert table.edits >= 2 and f"<@{BOB}>" in table.content  # the table was edited, not re-posted
        assert len(h.messages_in(CHANNEL)) == 1
        log = await h.slash("game log", user=CAROL, channel=CHANNEL)
        assert log.ephemeral and "alice plays" in log.text()
        bob_dm = h.dms_to(BOB)[0]
        play = next(s for s in bob_dm.selects())
        await h.select(bob_dm, play["custom_id"], [play["options"][0]["value"]], user=BOB)
        assert "game over" in table.text().lower()
        assert [b["label"] for b in table.buttons()] == ["Play again"]  # nothing else to press
        assert "is over" in h.dms_to(ALICE)[0].content and h.dms_to(ALICE)[0].components == []
        log = await h.slash("game log", user=CAROL, channel=CHANNEL)
        assert log.ephemeral and "bob plays" in log.text()  # the log of a finished game
        stats = await h.slash("game stats", user=CAROL, channel=CHANNEL)
        assert "won" in stats.text() and ("alice" in stats.text() and "bob" in stats.text())


async def test_wrong_player_and_stale_clicks_change_nothing(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB])
        session = await bot.service.active_in_channel(CHANNEL)
        cheer = h.find_button(table, "Cheer")
        # carol is not seated; bob is seated but it is alice's turn
        for user, words in ((CAROL, "not playing"), (BOB, "turn")):
            r = await h.click(table, cheer, user=user)
            assert r.ephemeral and words in r.text().lower()
        assert (await bot.service.get(session.id)).version == session.version
        # alice cheers (a modal), which moves the state on
        modal = await h.click(table, cheer, user=ALICE)
        assert modal.type == 9
        await h.submit_modal(modal, {"line": "Go team"}, user=ALICE)
        assert "Go team" in table.text()
        after = await bot.service.get(session.id)
        assert after.version == session.version + 1
        # a control rendered before the cheer is spent, though alice's choices read the same:
        # her own move makes her older controls out of date (a double click moves once); the
        # controls she sees were re-rendered at the new version
        old_dm = h.dms_to(ALICE)[0]
        assert old_dm.selects() and all(f":{after.version}:" in s["custom_id"] for s in old_dm.selects())
        stale_id = f"pa:{session.id}:{session.version}:cheer"
        from tests.support.discord_harness import FakeMessage
        stale_msg = FakeMessage(id=987_654_322, channel_id=CHANNEL, components=[
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "Cheer", "custom_id": stale_id}]}],
            guild_id=h.guild_id)
        r = await h.click(stale_msg, stale_id, user=ALICE)
        assert r.ephemeral and "out of date" in r.text().lower()
        assert (await bot.service.get(session.id)).version == after.version
        # the control at the new version opens the cheer's form
        fresh_id = f"pa:{session.id}:{after.version}:cheer"
        fresh_msg = FakeMessage(id=987_654_323, channel_id=CHANNEL, components=[
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "Cheer", "custom_id": fresh_id}]}],
            guild_id=h.guild_id)
        r = await h.click(fresh_msg, fresh_id, user=ALICE)
        assert r.type == 9


async def test_clicks_are_routed_by_custom_id_and_discord_py_keeps_no_view(db):
    """Every button and menu reaches the controller through `on_interaction` by its custom id,
    answered once; discord.py keeps no view of any message (no memory per message, and no
    rebuilding of the clicked message's view to find the item); a component whose id is not
    Pantheon's (an older version's) gets a clear answer."""
    from tests.support.discord_harness import FakeMessage

    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        await open_table(h, GAME, [ALICE, BOB])
        session = await bot.service.active_in_channel(CHANNEL)
        for _ in range(6):
            reply = await play_auto_move(h, bot)
            answers = [c for c in reply.calls if c.path.endswith("/callback")]
            followups = [c for c in reply.calls if c.method == "POST" and c.path.startswith("/webhooks/")]
            assert len(answers) == 1 and not followups, reply.calls  # answered once, by one handler
        assert (await bot.service.get(session.id)).version >= session.version + 6
        store = bot._connection._view_store
        assert not store._views and not store._synced_message_views and not store._dynamic_items
        foreign = FakeMessage(id=434343, channel_id=CHANNEL, guild_id=h.guild_id, components=[
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": "other:1"}]}])
        r = await h.click(foreign, "other:1", user=ALICE)
        assert r.ephemeral and "damaged" in r.text()


async def test_malformed_custom_id_gets_a_clear_answer(db):
    from tests.support.discord_harness import FakeMessage

    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        await open_table(h, GAME, [ALICE, BOB])
        bad = FakeMessage(id=424242, channel_id=CHANNEL, guild_id=h.guild_id, components=[
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "?", "custom_id": "pa:12:x:<>"}]}])
        r = await h.click(bad, "pa:12:x:<>", user=ALICE)
        assert r.ephemeral and "damaged" in r.text()


async def test_dm_refused_falls_back_to_my_hand(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        h.block_dms(BOB)
        table = await open_table(h, GAME, [ALICE, BOB])
        assert h.dms_to(BOB) == []
        assert any(c.status == 403 for c in h.calls)
        assert "bob" in table.content and "My hand" in table.content
        hand = await h.click(table, h.find_button(table, "My hand"), user=BOB)
        assert hand.ephemeral and hand.type == 4 and "waiting" in hand.text()
        assert hand.components == []  # not bob's turn: nothing to press yet
        # /game hand works too, at any time
        again = await h.slash("game hand", user=BOB, channel=CHANNEL)
        assert again.ephemeral and "waiting" in again.text()
        # playing from the ephemeral view edits it and the table
        await play_auto_move(h, bot)  # alice plays (from her DM)
        hand = await h.click(table, h.find_button(table, "My hand"), user=BOB)
        select = hand.message.selects()[0]
        r = await h.select(hand.message, select["custom_id"], [select["options"][0]["value"]], user=BOB)
        assert r.type == 7 and r.ephemeral is not None
        assert "bob plays" in table.text().lower()


async def test_restart_keeps_the_game_and_old_buttons_work(db):
    bot = make_bot(db)
    h = DiscordHarness(bot)
    await h.start()
    table = await open_table(h, GAME, [ALICE, BOB])
    session = await bot.service.active_in_channel(CHANNEL)
    cheer = h.find_button(table, "Cheer")
    await h.close()
    # a new process: new bot, same database file, the same Discord
    bot2 = make_bot(db)
    async with DiscordHarness(bot2, restart_of=h) as h2:
        modal = await h2.click(table, cheer, user=ALICE)
        assert modal.type == 9
        await h2.submit_modal(modal, {"line": "Still here"}, user=ALICE)
        assert "Still here" in table.text()
        assert (await bot2.service.get(session.id)).version == session.version + 1
        # and the DM buttons from before the restart
        dm = h2.dms_to(ALICE)[0]
        select = dm.selects()[0]
        r = await h2.select(dm, select["custom_id"], [select["options"][0]["value"]], user=ALICE)
        assert r.type == 7 and f"<@{BOB}>" in table.content


async def test_bad_input_is_explained(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        r = await h.slash("game new", user=ALICE, channel=CHANNEL, options={"game": "chess-boxing"})
        assert r.ephemeral and "Unknown game" in r.text()
        r = await h.slash("game new", user=ALICE, channel=CHANNEL, options={"game": GAME, "options": "cards"})
        assert r.ephemeral and "key=value" in r.text()
        r = await h.slash("game new", user=ALICE, channel=CHANNEL, options={"game": GAME, "options": "cards=9"})
        assert r.ephemeral and "not a choice" in r.text()
        lobby = (await h.slash("game new", user=ALICE, channel=CHANNEL, options={"game": GAME})).message
        r = await h.slash("game new", user=BOB, channel=CHANNEL, options={"game": GAME})
        assert r.ephemeral and "already" in r.text()
        r = await h.click(lobby, h.find_button(lobby, "Join"), user=ALICE)
        assert r.ephemeral and "already" in r.text().lower()
        r = await h.click(lobby, h.find_button(lobby, "Start"), user=BOB)
        assert r.ephemeral and "host" in r.text().lower()
        for user in (BOB, CAROL, 1004):
            await h.click(lobby, h.find_button(lobby, "Join"), user=user)
        r = await h.click(lobby, h.find_button(lobby, "Add bot"), user=ALICE)
        assert r.ephemeral and "full" in r.text().lower()
        r = await h.slash("game status", user=CAROL, channel=2001)
        assert r.ephemeral and "No game" in r.text()
        r = await h.slash("game end", user=BOB, channel=CHANNEL)
        assert r.ephemeral and "host" in r.text().lower()
        r = await h.slash("game end", user=ALICE, channel=CHANNEL)
        assert not r.ephemeral and "ended" in r.text()
        assert lobby.buttons() == []


async def test_too_few_players_cannot_start(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        reply = await h.slash("game new", user=ALICE, channel=CHANNEL, options={"game": "gods-of-magic"})
        r = await h.click(reply.message, h.find_button(reply.message, "Start"), user=ALICE)
        assert r.ephemeral and "at least 2" in r.text()


async def test_status_reposts_and_rules_page(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB])
        r = await h.slash("game status", user=CAROL, channel=CHANNEL)
        assert r.type == 4 and not r.ephemeral and "to act" in r.content
        assert table.buttons() == [] and "moved" in table.content
        session = await bot.service.active_in_channel(CHANNEL)
        assert session.table_message_id == r.message.id
        # the new table works
        await play_auto_move(h, bot)
        assert r.message.edits >= 1
        rules_reply = await h.slash("game rules", user=CAROL, channel=CHANNEL, options={"game": "gods-of-magic"})
        assert rules_reply.ephemeral and "Page 1 of" in rules_reply.text()
        def disabled(label: str) -> bool:
            return next(b for b in rules_reply.message.buttons() if b.get("label") == label).get("disabled", False)

        assert disabled("« Previous") and not disabled("Next »")
        nxt = h.find_button(rules_reply.message, "Next »")
        page2 = await h.click(rules_reply.message, nxt, user=CAROL)
        assert "Page 2 of" in page2.text() and len(page2.calls) == 1  # answered once, in place
        assert not disabled("« Previous")
        back = await h.click(rules_reply.message, h.find_button(rules_reply.message, "« Previous"), user=CAROL)
        assert "Page 1 of" in back.text()
    # the pages turn after a restart too (their buttons carry the game and the page)
    async with DiscordHarness(make_bot(db)) as h:
        from tests.support.discord_harness import FakeMessage

        old = FakeMessage(id=515151, channel_id=CHANNEL, guild_id=h.guild_id, components=[
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "Next »", "custom_id": nxt}]}])
        page = await h.click(old, nxt, user=CAROL)
        assert "Page 2 of" in page.text()
        forged = "pg:no-such-game:1"
        bad = FakeMessage(id=515152, channel_id=CHANNEL, guild_id=h.guild_id, components=[
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": forged}]}])
        r = await h.click(bad, forged, user=CAROL)
        assert r.ephemeral and "damaged" in r.text()


async def test_leave_gives_seat_to_automatic_player_and_end_needs_rights(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB, CAROL])
        r = await h.slash("game leave", user=ALICE, channel=CHANNEL)
        assert r.ephemeral and "automatic player" in r.text()
        session = await bot.service.active_in_channel(CHANNEL)
        assert session.seat_of_user(ALICE).auto
        # the automatic player moved for alice already: it is bob's turn
        assert f"<@{BOB}>" in table.content
        r = await h.slash("game back", user=ALICE, channel=CHANNEL)
        assert r.ephemeral and "yours again" in r.text()
        assert not (await bot.service.active_in_channel(CHANNEL)).seat_of_user(ALICE).auto
        r = await h.slash("game back", user=ALICE, channel=CHANNEL)
        assert r.ephemeral and "already playing" in r.text()
        r = await h.slash("game end", user=CAROL, channel=CHANNEL)
        assert r.ephemeral
        r = await h.slash("game end", user=CAROL, channel=CHANNEL, permissions=1 << 4)  # Manage Channels
        assert not r.ephemeral and "ended" in r.text()


async def test_turn_timer_reminds_then_plays_for_the_idle_player(db):
    clock = Clock(START)
    bot = make_bot(db, clock=clock)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB], selects={"turn_timer": "300"})
        session = await bot.service.active_in_channel(CHANNEL)
        assert session.deadline == pytest.approx(clock.now + 300)
        await bot.controller.tick()
        assert len(h.messages_in(CHANNEL)) == 1  # nothing due yet
        clock.now += 240
        await bot.controller.tick()
        reminder = h.messages_in(CHANNEL)[-1]
        assert f"<@{ALICE}>" in reminder.content and "ends" in reminder.content
        await bot.controller.tick()
        assert len(h.messages_in(CHANNEL)) == 2  # reminded once only
        clock.now += 61
        await bot.controller.tick()
        assert "time ran out" in table.text().lower() and "automatic player takes the turn" in table.text().lower()
        assert f"<@{BOB}>" in table.content
        # a restart does not forget the deadline
        after = await bot.service.active_in_channel(CHANNEL)
        assert after.deadline == pytest.approx(clock.now + 300)


async def test_a_seven_day_timer_reminds_each_day_in_one_message_then_shortly_before_the_end(db):
    clock = Clock(START)
    bot = make_bot(db, clock=clock)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB], selects={"turn_timer": "604800"})
        session = await bot.service.active_in_channel(CHANNEL)
        assert session.deadline == pytest.approx(START + 7 * 86400)
        times = []
        while clock.now < START + 8 * 86400:  # every half hour for a week, every 5 minutes at its end
            clock.now += 1800 if clock.now < START + 7 * 86400 - 7200 else 300
            before = len(h._created)
            await bot.controller.tick()
            made = [m for m in h._created[before:] if m.channel_id == CHANNEL and "your turn in" in m.content]
            times += [clock.now - START] * len(made)
            if (await bot.service.get(session.id)).status != "active" or "time ran out" in table.text().lower():
                break
        # a day after the turn began, each day after, and 5 minutes before the end
        assert times == [86400.0 * d for d in range(1, 7)] + [7 * 86400.0 - 300], times
        reminders = [m for m in h.messages_in(CHANNEL) if "your turn in" in m.content]
        assert len(reminders) == 1  # each replaced the one before
        assert "time ran out" in table.text().lower()


async def test_roll_command(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        r = await h.slash("roll", user=ALICE, channel=CHANNEL, options={"dice": "4d6kh3+1"})
        assert r.type == 4 and not r.ephemeral and "4d6kh3 + 1 →" in r.text()
        r = await h.slash("roll", user=ALICE, channel=CHANNEL, options={"dice": "lots"})
        assert r.ephemeral and "can't read" in r.text()
        # Avrae's dice: rerolls, annotations, a note and advantage, every die shown
        r = await h.slash("roll", user=ALICE, channel=CHANNEL,
                          options={"dice": "1d20+5 [to hit] + 4d6ro<3 [<@1004>] sneak @everyone adv"})
        text = r.text()
        assert not r.ephemeral and "2d20kh1 + 5 [to hit] + 4d6ro<3" in text and "(advantage)" in text
        assert "sneak" in text and "@everyone" not in text and "[<@1004>]" not in text
        assert text.count("~~") >= 2  # the die advantage dropped


async def test_game_autocomplete_lists_games(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        choices = await h.autocomplete("game new", user=ALICE, channel=CHANNEL, options={"game": "magic"},
                                       focused="game")
        assert [c["value"] for c in choices] == ["gods-of-magic"]


@pytest.mark.parametrize("status,code", [(429, 0), (403, 50013), (500, 0)])
async def test_a_failed_table_edit_never_loses_the_move(db, status, code):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB])
        session = await bot.service.active_in_channel(CHANNEL)
        dm = h.dms_to(ALICE)[0]
        select = dm.selects()[0]
        # the move is made from the DM; the table edit fails: through the Start click's token,
        # then the bot's own REST PATCH
        h.fail_next("PATCH", r"/webhooks/\d+/[^/]+/messages/@original$", status, code)
        h.fail_next("PATCH", rf"/channels/{CHANNEL}/messages/{table.id}", status, code)
        with h.allow_errors():
            r = await h.select(dm, select["custom_id"], [select["options"][0]["value"]], user=ALICE)
        assert r.type == 7
        assert f"<@{ALICE}>" in table.content  # the table could not be edited...
        after = await bot.service.get(session.id)
        assert after.version > session.version  # ...but the move is committed
        status_reply = await h.slash("game status", user=BOB, channel=CHANNEL)
        assert f"<@{BOB}>" in status_reply.content and "alice plays" not in status_reply.content


async def test_a_deleted_table_message_is_posted_again(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB])
        h.fail_next("PATCH", r"/webhooks/\d+/[^/]+/messages/@original$", 404, 10008)
        h.fail_next("PATCH", rf"/channels/{CHANNEL}/messages/{table.id}", 404, 10008)
        dm = h.dms_to(ALICE)[0]
        select = dm.selects()[0]
        await h.select(dm, select["custom_id"], [select["options"][0]["value"]], user=ALICE)
        newest = h.messages_in(CHANNEL)[-1]
        assert newest.id != table.id and f"<@{BOB}>" in newest.content
        session = await bot.service.active_in_channel(CHANNEL)
        assert session.table_message_id == newest.id


async def test_finished_game_clicks_and_host_autoplay(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB], selects={"cards": "1"})
        r = await h.slash("game autoplay", user=BOB, channel=CHANNEL, options={"player": ALICE})
        assert r.ephemeral and "host" in r.text().lower()
        r = await h.slash("game autoplay", user=ALICE, channel=CHANNEL, options={"player": BOB})
        assert r.ephemeral and "automatic player" in r.text()
        old_cheer = h.find_button(table, "Cheer")
        from copy import deepcopy
        snapshot = deepcopy(table.components)
        await play_auto_move(h, bot)  # alice plays; bob's seat is automatic and finishes the game
        assert "game over" in table.text().lower()
        from tests.support.discord_harness import FakeMessage
        old = FakeMessage(id=987_654_321, channel_id=CHANNEL, guild_id=h.guild_id, components=snapshot)
        r = await h.click(old, old_cheer, user=ALICE)
        assert r.ephemeral and "finished" in r.text().lower()


async def test_a_table_in_a_thread_and_one_per_channel(db):
    bot = make_bot(db)
    async with DiscordHarness(bot, thread_ids=(2500,)) as h:
        thread_table = await open_table(h, GAME, [ALICE, BOB], channel=2500)
        assert "to act" in thread_table.content
        # the parent channel is free for its own game
        other = await open_table(h, GAME, [CAROL], channel=CHANNEL)
        assert "to act" in other.content
        assert (await bot.service.active_in_channel(2500)).id != (await bot.service.active_in_channel(CHANNEL)).id


async def test_game_hand_from_a_dm(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        await open_table(h, GAME, [ALICE, BOB])
        r = await h.slash("game hand", user=ALICE, guild=False)
        assert r.ephemeral and "your move" in r.text()
        r = await h.slash("game hand", user=CAROL, guild=False)
        assert r.ephemeral and "not playing any game" in r.text()
        r = await h.slash("game new", user=CAROL, guild=False, options={"game": GAME})
        assert r.ephemeral and "server channel" in r.text()


def _slow_moves(bot, monkeypatch) -> None:
    """From now on a move takes longer than the response budget (made tiny)."""
    import asyncio

    from bot import controller

    monkeypatch.setattr(controller, "RESPONSE_BUDGET", 0.01)
    act = bot.service.act

    async def slow_act(*args, **kwargs):
        await asyncio.sleep(0.1)
        return await act(*args, **kwargs)

    monkeypatch.setattr(bot.service, "act", slow_act)


async def test_a_slow_move_is_deferred_then_answered_and_a_quick_one_is_not(db, monkeypatch):
    """Work past the response budget gets a deferral (Discord would otherwise fail the click
    after 3 s), and the answer then edits the response; a quick move is answered directly."""
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB])
        quick = await play_auto_move(h, bot)
        assert quick.type == 7  # the table updated by the response itself
        _slow_moves(bot, monkeypatch)
        before = await bot.service.active_in_channel(CHANNEL)
        slow = await play_auto_move(h, bot)
        assert slow.type == 6  # deferred (an update of the clicked message to come)
        edits = [c for c in slow.calls if c.via == "webhook" and c.method == "PATCH"
                 and c.path.endswith(f"/{slow.token}/messages/@original")]
        assert len(edits) == 1  # the answer, as an edit of the deferred response
        after = await bot.service.active_in_channel(CHANNEL)
        assert after.version > before.version
        assert f":{after.version}:" in str(table.components)  # the table shows the new version


async def test_a_failed_deferral_still_publishes_the_committed_move(db, monkeypatch):
    """Discord refuses the deferral of a slow move: the move is committed and published all the
    same (the next player's DM and the table show it), nothing is lost."""
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB])
        _slow_moves(bot, monkeypatch)
        before = await bot.service.active_in_channel(CHANNEL)
        h.fail_next("POST", r"/interactions/\d+/[^/]+/callback", 500)
        with h.allow_errors():
            await play_auto_move(h, bot)
        after = await bot.service.active_in_channel(CHANNEL)
        assert after.version > before.version
        assert f":{after.version}:" in str(table.components)  # the table was brought up to date


async def test_a_failed_answer_to_a_move_on_the_table_still_shows_the_move(db):
    """Discord refuses the response that would edit the table: the move is committed, and
    publishing edits the table all the same."""
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB])
        before = await bot.service.active_in_channel(CHANNEL)
        h.fail_next("POST", r"/interactions/\d+/[^/]+/callback", 500)
        with h.allow_errors():
            reply = await play_auto_move(h, bot)
        after = await bot.service.active_in_channel(CHANNEL)
        assert after.version > before.version
        assert [c.method for c in reply.calls if "/callback" in c.path] == ["POST"]  # the refused one
        assert f":{after.version}:" in str(table.components)  # published through another edit
