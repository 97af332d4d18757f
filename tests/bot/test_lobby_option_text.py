"""The lobby's option menus say what each choice is (Discord: at most 100 characters a line)."""

from __future__ import annotations

from bot import table
from bot.config import Settings
from bot.sessions import SessionService
from bot.store import Store


async def test_deathly_thrones_characters_show_their_blurbs_where_they_are_chosen(tmp_path):
    from rules.deathly_thrones.content import characters

    store = await Store.open(Settings(database_path=tmp_path / "p.db", discord_token="").database)
    try:
        svc = SessionService(store)
        session = await svc.open_lobby(guild_id=5, channel_id=6, game_id="deathly-thrones", host_id=7,
                                       host_name="ada", options={})
        menus = table.option_menus(session)
        [menu] = [m for m in menus if m.custom_id.endswith(":character")]
        blurbs = {c.name: c.blurb for c in characters().values()}
        for option in menu.options:
            name = option.label.split(" (")[0]
            assert option.description and len(option.description) <= 100
            assert option.description.rstrip("…") in blurbs[name]
    finally:
        await store.close()
