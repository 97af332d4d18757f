"""By Gods and Kings characters through Discord: /character create, list, view and retire with
every wrong input; a party formed in the lobby from saved characters (one person bringing
two); a whole scenario played by automatic choices, interrupted by a restart and finished;
the characters kept with their experience and brought back to a second table."""

from __future__ import annotations

import json

import pytest

from tests.bot.e2e import ALICE, BOB, CHANNEL, make_bot, play_auto_move
from tests.support.discord_harness import CommandUnavailable, DiscordHarness

GAME = "by-gods-and-kings"


@pytest.fixture
def db(tmp_path):
    return tmp_path / "pantheon.db"


async def create(h, user, name, kit):
    return await h.slash("character create", user=user, channel=CHANNEL, options={"name": name, "kit": kit})


async def test_character_commands_and_their_errors(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        r = await h.slash("character list", user=ALICE, channel=CHANNEL)
        assert r.ephemeral and "no character here yet" in r.text()
        kits = await h.autocomplete("character create", user=ALICE, channel=CHANNEL,
                                    options={"name": "Ada", "kit": "hel"}, focused="kit")
        assert [c["value"] for c in kits] == ["helga"]
        r = await create(h, ALICE, "  Ada   Lovelace ", "helga")
        assert r.ephemeral and "**Ada Lovelace** is ready" in r.text()
        assert "Shard of Mercy: level 1, 0 experience (equipped)" in r.text()
        # wrong inputs: each one sentence, nothing created
        for name, kit, said in [("Ada Lovelace", "helga", "already have a character named Ada Lovelace"),
                                ("Bo", "nobody", "Pick a kit from the list"),
                                ("<@1002>", "helga", "letters, digits"),
                                ("x" * 41, "helga", "at most 40 characters"),
                                ("x" * 5000, "helga", "at most 40 characters"),
                                ("   ", "helga", "Give your character a name")]:
            r = await create(h, ALICE, name, kit)
            assert r.ephemeral and said in r.text(), (name, r.text())
        rows = await bot.service.records_of(h.guild_id, ALICE, GAME)
        assert [r.name for r in rows] == ["Ada Lovelace"]
        await create(h, ALICE, "Bo", "osric")
        r = await h.slash("character list", user=ALICE, channel=CHANNEL)
        assert "**Bo**" in r.text() and "**Ada Lovelace**" in r.text()
        names = await h.autocomplete("character view", user=ALICE, channel=CHANNEL,
                                     options={"name": "ada"}, focused="name")
        assert [c["value"] for c in names] == ["Ada Lovelace"]
        r = await h.slash("character view", user=ALICE, channel=CHANNEL, options={"name": "ada lovelace"})
        assert r.ephemeral and "Helga's kit" in r.text() and "Apprentice's Staff" in r.text()
        r = await h.slash("character view", user=ALICE, channel=CHANNEL,
                          options={"name": "Ada Lovelace", "share": True})
        assert not r.ephemeral
        r = await h.slash("character view", user=BOB, channel=CHANNEL, options={"name": "Ada Lovelace"})
        assert r.ephemeral and "no character named" in r.text()  # Alice's, not Bob's
        with pytest.raises(CommandUnavailable):  # characters belong to a server
            await h.slash("character view", user=ALICE, channel=CHANNEL, guild=False, options={"name": "Bo"})
        r = await h.slash("character retire", user=ALICE, channel=CHANNEL,
                          options={"name": "Bo", "confirm": "Ada"})
        assert "type its name again" in r.text()
        r = await h.slash("character retire", user=ALICE, channel=CHANNEL,
                          options={"name": "Bo", "confirm": "bo"})
        assert "retires" in r.text()
        assert [r.name for r in await bot.service.records_of(h.guild_id, ALICE, GAME)] == ["Ada Lovelace"]


async def _open_with_characters(h, choose: list[str]):
    """Alice opens a table, Bob joins, Alice brings `choose`; Bob brings nothing yet."""
    lobby = (await h.slash("game new", user=ALICE, channel=CHANNEL, options={"game": GAME})).message
    await h.click(lobby, h.find_button(lobby, "Join"), user=BOB)
    menu = await h.click(lobby, h.find_button(lobby, "Choose character"), user=ALICE)
    assert menu.ephemeral and "up to 8" in menu.text()
    select = menu.message.selects()[0]
    assert select["max_values"] == 3  # "a new one" and her two characters
    r = await h.select(menu.message, select["custom_id"], choose, user=ALICE)
    assert "You bring" in r.text()
    assert f"character: {', '.join(choose)}" in lobby.text()
    await h.click(lobby, h.find_button(lobby, "Start"), user=ALICE)
    return lobby


async def test_a_party_of_saved_characters_plays_a_scenario_across_a_restart_and_keeps_what_it_won(db):
    bot = make_bot(db, seed=5)
    h = DiscordHarness(bot)
    await h.start()
    await create(h, ALICE, "Ada", "gilbert")
    await create(h, ALICE, "Bo", "helga")
    table = await _open_with_characters(h, ["Ada", "Bo"])
    session = await bot.service.active_in_channel(CHANNEL)
    party = session.state().party
    assert [(x.name, x.record, x.seat) for x in party[:3]] == [
        ("Ada", "Ada", str(ALICE)), ("Bo", "Bo", str(ALICE)), ("bob", "bob", str(BOB))]
    assert party[3].record is None  # a hireling fills the party of four
    # another table cannot take Ada while she is at this one
    other = (await h.slash("game new", user=ALICE, channel=2001, options={"game": GAME})).message
    menu = await h.click(other, h.find_button(other, "Choose character"), user=ALICE)
    r = await h.select(menu.message, menu.message.selects()[0]["custom_id"], ["Ada"], user=ALICE)
    assert "already at another table" in r.text()
    await h.slash("game end", user=ALICE, channel=2001)
    for _ in range(40):  # part of the scenario, then the process stops
        assert await play_auto_move(h, bot) is not None
    await h.close()

    bot2 = make_bot(db, seed=5)
    async with DiscordHarness(bot2, restart_of=h) as h2:
        moves = 0
        while await play_auto_move(h2, bot2) is not None:
            moves += 1
            assert moves < 5000
        done = await bot2.service.latest_in_channel(CHANNEL)
        state = done.state()
        assert state.phase == "over" and "game over" in table.text().lower()
        rows = {r.name: r for r in await bot2.service.records_of(h2.guild_id, ALICE, GAME)}
        assert set(rows) == {"Ada", "Bo"}
        ada = json.loads(rows["Ada"].data)
        hero = state.party[0]
        assert ada["shard_xp"] == hero.shard_xp and ada["adventures"] == 1
        assert sum(ada["shard_xp"].values()) > 0 and set(ada["shard_xp"]) == set(hero.equipped)
        bob_rows = await bot2.service.records_of(h2.guild_id, BOB, GAME)
        assert [r.name for r in bob_rows] == ["bob"]
        assert json.loads(bob_rows[0].data)["kit"] == "pierre"  # the first kit nobody used
        # a second table: Bob's character comes back by default, with its experience
        lobby = (await h2.slash("game new", user=BOB, channel=CHANNEL, options={"game": GAME})).message
        assert "character: the latest" in lobby.text()
        await h2.click(lobby, h2.find_button(lobby, "Start"), user=BOB)
        again = (await bot2.service.active_in_channel(CHANNEL)).state()
        assert again.party[0].record == "bob"
        assert again.party[0].shard_xp == json.loads(bob_rows[0].data)["shard_xp"]
        assert again.party[0].adventures == 1
