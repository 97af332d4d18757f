"""The game interface's optional parts through Discord, with the Echo test game: opening events,
a simultaneous "ready" step, reactions out of turn (people and automatic players)."""

from __future__ import annotations

import pytest

from tests.bot.e2e import ALICE, BOB, CAROL, CHANNEL, START, Clock, make_bot, open_table
from tests.support.discord_harness import DiscordHarness

GAME = "test-echo"


@pytest.fixture
def db(tmp_path):
    return tmp_path / "pantheon.db"


async def _ready_all(h, table, users):
    for user in users:
        await h.click(table, h.find_button(table, "Ready"), user=user)


async def test_opening_events_reach_the_table_and_the_log(db):
    bot = make_bot(db, seed=5)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB])
        assert "Opening rolls:" in table.text()
        log = await h.slash("game log", user=ALICE, channel=CHANNEL)
        assert "Opening rolls:" in log.text()


async def test_everyone_ready_is_a_simultaneous_choice_in_any_order(db):
    bot = make_bot(db, seed=5)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB, CAROL])
        ready = h.find_button(table, "Ready")
        assert f"<@{ALICE}>" in table.content and f"<@{CAROL}>" in table.content
        await h.click(table, ready, user=CAROL)
        r = await h.click(table, h.find_button(table, "Ready"), user=CAROL)  # once is enough
        assert r.ephemeral
        await h.click(table, h.find_button(table, "Ready"), user=ALICE)
        await h.click(table, h.find_button(table, "Ready"), user=BOB)
        session = await bot.service.active_in_channel(CHANNEL)
        assert sorted(session.state().ready) == sorted(str(u) for u in (ALICE, BOB, CAROL))


async def test_a_reaction_out_of_turn_is_offered_and_taken_without_a_timer(db):
    clock = Clock(START)
    bot = make_bot(db, seed=5, clock=clock)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB], selects={"turn_timer": "300"})
        await _ready_all(h, table, (ALICE, BOB))
        session = await bot.service.active_in_channel(CHANNEL)
        game = session.game()
        mover = game.to_act(session.state())[0]
        other = BOB if mover == str(ALICE) else ALICE
        deadline = session.deadline
        clock.now += 10
        await h.click(table, h.find_button(table, "Add 1"), user=int(mover))
        session = await bot.service.active_in_channel(CHANNEL)
        assert game.may_act(session.state()) == [str(other)]
        # the table waits for the next player only, and offers the echo to the other
        assert f"<@{other}>" in table.content and f"<@{mover}>" not in table.content.split("\n")[0]
        assert "Echo" in [b["label"] for b in table.buttons()]
        r = await h.click(table, h.find_button(table, "Echo"), user=int(mover))
        assert r.ephemeral  # the mover may not echo their own add
        await h.click(table, h.find_button(table, "Echo"), user=other)
        session = await bot.service.active_in_channel(CHANNEL)
        assert session.state().scores[str(other)] == 1
        assert "echoes" in table.text()
        # the reaction did not restart or stop the required player's clock
        assert session.deadline == pytest.approx(deadline + 10)


async def test_automatic_players_react_too(db):
    bot = make_bot(db, seed=5)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE], bots=1)
        await h.click(table, h.find_button(table, "Ready"), user=ALICE)
        for _ in range(12):
            session = await bot.service.active_in_channel(CHANNEL)
            if session is None:
                break
            state = session.state()
            if session.game().to_act(state) == [str(ALICE)]:
                await h.click(table, h.find_button(table, "Add 2"), user=ALICE)
        log = await h.slash("game log", user=ALICE, channel=CHANNEL)
        assert "Automaton 1 echoes" in log.text()


async def _play_heroes(h, bot, users, channel=CHANNEL, choose: dict | None = None):
    reply = await h.slash("game new", user=users[0], channel=channel, options={"game": "test-heroes"})
    lobby = reply.message
    for user in users[1:]:
        await h.click(lobby, h.find_button(lobby, "Join"), user=user)
    for user, value in (choose or {}).items():
        menu = await h.click(lobby, h.find_button(lobby, "Choose hero"), user=user)
        assert menu.ephemeral
        select = menu.message.selects()[0]
        await h.select(menu.message, select["custom_id"], [value], user=user)
    await h.click(lobby, h.find_button(lobby, "Start"), user=users[0])
    session = await bot.service.latest_in_channel(channel)
    while session.status == "active":
        pid = session.game().to_act(session.state())[0]
        await h.click(lobby, h.find_button(lobby, "Fight"), user=int(pid))
        session = await bot.service.latest_in_channel(channel)
    return lobby, session


async def test_records_carry_over_between_sessions_and_restarts(db):
    bot = make_bot(db, seed=3)
    h = DiscordHarness(bot)
    await h.start()
    _, first = await _play_heroes(h, bot, [ALICE, BOB])
    rows = await bot.service.records_of(h.guild_id, ALICE, "test-heroes")
    assert [r.name for r in rows] == ["alice"] and rows[0].version == 1
    won = str(ALICE) in first.game().result(first.state()).winners
    xp_after_first = 1 + (2 if won else 0)
    assert f'"xp":{xp_after_first}' in rows[0].data
    await h.close()
    # a new process: the hero is still there and comes back by default
    bot2 = make_bot(db, seed=4)
    async with DiscordHarness(bot2, restart_of=h) as h2:
        table, second = await _play_heroes(h2, bot2, [ALICE, BOB])
        log = await h2.slash("game log", user=ALICE, channel=CHANNEL)
        level = 1 + xp_after_first // 3
        assert f"alice with alice (level {level})" in log.text()
        hero = second.state().heroes[str(ALICE)]
        assert hero.xp == xp_after_first and hero.games == 1
        rows = await bot2.service.records_of(h2.guild_id, ALICE, "test-heroes")
        assert rows[0].version == 2 and '"games":2' in rows[0].data


async def test_a_new_record_can_be_chosen_and_one_in_play_is_refused(db):
    bot = make_bot(db, seed=3)
    async with DiscordHarness(bot) as h:
        await _play_heroes(h, bot, [ALICE])
        # a second hero: "a new one" gets a fresh name
        await _play_heroes(h, bot, [ALICE], choose={ALICE: "»new"})
        names = sorted(r.name for r in await bot.service.records_of(h.guild_id, ALICE, "test-heroes"))
        assert names == ["alice", "alice 2"]
        # a hero seated at an open table cannot be brought to a second one
        lobby = (await h.slash("game new", user=ALICE, channel=CHANNEL,
                               options={"game": "test-heroes"})).message
        menu = await h.click(lobby, h.find_button(lobby, "Choose hero"), user=ALICE)
        await h.select(menu.message, menu.message.selects()[0]["custom_id"], ["alice"], user=ALICE)
        assert "alice" in lobby.text()
        other = (await h.slash("game new", user=ALICE, channel=2001,
                               options={"game": "test-heroes"})).message
        menu = await h.click(other, h.find_button(other, "Choose hero"), user=ALICE)
        r = await h.select(menu.message, menu.message.selects()[0]["custom_id"], ["alice"], user=ALICE)
        assert r.ephemeral and "already at another table" in r.text()
        # and someone else's hero is not yours to bring
        r = await bot.service.records_of(h.guild_id, BOB, "test-heroes")
        assert r == []


async def test_a_lobby_with_more_options_than_rows_offers_the_rest_to_the_host(db, monkeypatch):
    import rules
    from rules.core import OptionChoice, OptionSpec
    from tests.support.highcard import HighCard

    class ManyOptions(HighCard):
        id = "test-many-options"
        options = [OptionSpec(key=f"o{i}", label=f"Option {i}", default="a",
                              choices=[OptionChoice(value="a", label="A"), OptionChoice(value="b", label="B")])
                   for i in range(5)] + HighCard.options  # its deal reads "cards": a game that can start

    game = ManyOptions()
    monkeypatch.setitem(rules.GAMES, game.id, game)
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        lobby = (await h.slash("game new", user=ALICE, channel=CHANNEL, options={"game": game.id})).message
        rows = lobby.components
        assert len(rows) <= 5 and "More options" in [b["label"] for b in lobby.buttons()]
        shown = {s["custom_id"].rsplit(":", 1)[1] for s in lobby.selects()}
        r = await h.click(lobby, h.find_button(lobby, "More options"), user=BOB)
        assert r.ephemeral and "host" in r.text().lower()
        more = await h.click(lobby, h.find_button(lobby, "More options"), user=ALICE)
        assert more.ephemeral
        rest = {s["custom_id"].rsplit(":", 1)[1] for s in more.message.selects()}
        assert shown | rest == {f"o{i}" for i in range(5)} | {"cards", "turn_timer"} and not shown & rest
        last = next(s for s in more.message.selects() if s["custom_id"].endswith(":o4"))
        await h.select(more.message, last["custom_id"], ["b"], user=ALICE)
        session = await bot.service.active_in_channel(CHANNEL)
        assert session.options["o4"] == "b"
        assert "Option 4: **B**" in lobby.text()  # the lobby message shows it too


async def test_a_solo_lobby_has_no_join_or_add_bot(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        lobby = (await h.slash("game new", user=ALICE, channel=CHANNEL,
                               options={"game": "deathly-thrones"})).message
        labels = [b["label"] for b in lobby.buttons()]
        assert "Join" not in labels and "Add bot" not in labels and "Start" in labels


async def test_forged_record_choices_are_refused(db):
    """A record menu answer with too many, repeated or foreign names changes nothing."""
    bot = make_bot(db, seed=3)
    async with DiscordHarness(bot) as h:
        await _play_heroes(h, bot, [ALICE])
        await _play_heroes(h, bot, [ALICE], choose={ALICE: "»new"})
        lobby = (await h.slash("game new", user=ALICE, channel=CHANNEL,
                               options={"game": "test-heroes"})).message
        menu = await h.click(lobby, h.find_button(lobby, "Choose hero"), user=ALICE)
        cid = menu.message.selects()[0]["custom_id"]
        assert menu.message.selects()[0].get("max_values", 1) == 1
        for values, said in ([["alice", "alice 2"], "at most 1 hero"],
                             [["alice", "alice"], "Pick one of the options"],
                             [["x"] * 30, "Pick one of the options"],
                             [["bob's"], "no hero named"]):
            # a forged interaction: Discord's menu would not send these
            r = await h._interact(3, {"custom_id": cid, "component_type": 3, "values": values},
                                  user=ALICE, source=menu.message)
            assert r.ephemeral and said in r.text(), (values, r.text())
        session = await bot.service.active_in_channel(CHANNEL)
        assert session.seat_of_user(ALICE).record is None
