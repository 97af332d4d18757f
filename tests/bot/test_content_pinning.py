"""A running game keeps the content it started with: states name a content version, the
bot keeps every version it used, and a restart (or a changed pack) brings it back."""

from __future__ import annotations

import pytest

from rules.gods_of_magic import content as gom_content
from tests.bot.e2e import ALICE, BOB, CHANNEL, make_bot, open_table, play_auto_move
from tests.support.discord_harness import DiscordHarness


@pytest.fixture
def db(tmp_path):
    return tmp_path / "pantheon.db"


def _forget(version: str) -> None:
    """What a new process knows: none of the versions it has not loaded itself."""
    gom_content.DECKS._versions.pop(version, None)
    gom_content.DECKS._current.clear()
    gom_content._by_id.pop(version, None)


async def test_a_state_names_its_deck_instead_of_copying_it(db):
    bot = make_bot(db, seed=2)
    async with DiscordHarness(bot) as h:
        await open_table(h, "gods-of-magic", [ALICE, BOB])
        session = await bot.service.active_in_channel(CHANNEL)
        state = session.state()
        assert len(state.cards) == 200  # the whole deck is there to read ...
        assert len(session.state_json) < 4000  # ... but not copied into the stored state
        assert '"content":"' + state.content + '"' in session.state_json
        assert await bot.store.get_content("gods-of-magic", state.content) is not None


async def test_after_a_restart_the_game_reads_its_deck_from_the_database(db):
    bot = make_bot(db, seed=2)
    h = DiscordHarness(bot)
    await h.start()
    await open_table(h, "gods-of-magic", [ALICE, BOB])
    session = await bot.service.active_in_channel(CHANNEL)
    version = session.state().content
    await h.close()
    _forget(version)  # a new process whose pack changed: this deck is not in its files
    try:
        bot2 = make_bot(db, seed=2)
        async with DiscordHarness(bot2, restart_of=h) as h2:
            again = await bot2.service.active_in_channel(CHANNEL)
            assert gom_content.DECKS.knows(version)  # brought back from the database
            assert len(again.state().cards) == 200
            for _ in range(5):  # and the game goes on
                await play_auto_move(h2, bot2)
            assert (await bot2.service.get(session.id)).version > session.version
    finally:
        gom_content.DECKS.current()


async def test_a_game_whose_deck_is_lost_says_so(db):
    bot = make_bot(db, seed=2)
    async with DiscordHarness(bot) as h:
        await open_table(h, "gods-of-magic", [ALICE, BOB])
        session = await bot.service.active_in_channel(CHANNEL)
        version = session.state().content
        await bot.store._write("DELETE FROM contents")
        _forget(version)
        try:
            r = await h.slash("game status", user=ALICE, channel=CHANNEL)
            assert r.ephemeral and "no longer known" in r.text()
        finally:
            gom_content.DECKS.restore(version, gom_content.Deck(cards=gom_content.load_deck()).model_dump_json())


def test_a_state_saved_with_its_whole_catalogue_still_loads():
    from rules import get_game

    game = get_game("gods-of-magic")
    state = game.setup(["a", "b"], {}, 3)
    old = state.model_dump(mode="json")
    del old["content"]
    old["cards"] = {c.id: c.model_dump(mode="json") for c in state.cards.values()}
    loaded = type(state).model_validate(old)
    assert loaded.content == state.content and loaded.cards == state.cards
