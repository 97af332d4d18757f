"""A click's answer is rendered while its move is being made durable (the service's
`while_committing`, bot/controller.py `_early_answer`): the same answer as one rendered after
the commit, without rendering it twice."""

from __future__ import annotations

import pytest

from bot import controller as controller_module
from tests.bot.e2e import ALICE, BOB, CHANNEL, make_bot, open_table, play_auto_move
from tests.support.discord_harness import DiscordHarness

GAMES = [
    ("deathly-thrones", [ALICE], {"character": "dwarf", "quest": "iron-throne"}),  # the table answers
    ("gods-of-magic", [ALICE, BOB], {}),  # hands in DMs: private answers too
]


async def _answers(tmp_path, name: str, game: str, players: list[int], selects: dict[str, str],
                   moves: int) -> tuple[list[object], int]:
    """The body of every click's interaction response along `moves` automatic moves, and how
    many of those answers were rendered after their commit."""
    bot = make_bot(tmp_path / f"{name}.db", seed=5)
    after: list[int] = []
    real = controller_module.Controller._answer_payload

    async def rendered_after(self, *args, **kwargs):
        after.append(1)
        return await real(self, *args, **kwargs)

    bodies: list[object] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(controller_module.Controller, "_answer_payload", rendered_after)
        async with DiscordHarness(bot) as h:
            await open_table(h, game, players, selects=selects)
            for _ in range(moves):
                reply = await play_auto_move(h, bot, CHANNEL)
                if reply is None:
                    break
                bodies.append(next((c.path.split("/")[-1], c.json, c.files) for c in reply.calls if c.via == "webhook"))
    return bodies, len(after)


@pytest.mark.parametrize(("game", "players", "selects"), GAMES, ids=[g[0] for g in GAMES])
async def test_the_answer_rendered_during_the_commit_is_the_one_rendered_after_it(tmp_path, game, players,
                                                                                 selects):
    early, rendered_after = await _answers(tmp_path, "early", game, players, selects, 14)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(controller_module.Controller, "_early_answer", lambda *args: None)
        late, all_after = await _answers(tmp_path, "late", game, players, selects, 14)
    assert len(early) >= 10
    assert early == late  # the same table, hand and controls, click after click
    assert all_after == len(late)  # without it, every answer is rendered after its commit
    assert rendered_after == 0  # with it, none is: nothing rendered twice


async def test_an_answer_that_fails_early_is_rendered_after_the_commit(tmp_path, monkeypatch):
    """A render that fails while the move is written is not the click's failure: the answer is
    rendered again once the move is committed (where any error is reported as before)."""
    from bot import table

    real = table.table_payload
    failed: list[int] = []

    def first_fails(*args, **kwargs):
        if not failed:
            failed.append(1)
            raise RuntimeError("a passing failure")
        return real(*args, **kwargs)

    bot = make_bot(tmp_path / "t.db", seed=5)
    async with DiscordHarness(bot) as h:
        tbl = await open_table(h, "deathly-thrones", [ALICE], selects={"character": "dwarf", "quest": "iron-throne"})
        before = tbl.text()
        monkeypatch.setattr(table, "table_payload", first_fails)
        reply = await h.click(tbl, h.find_button(tbl, "Draw a step card"), user=ALICE)
        assert failed == [1]
        assert not reply.ephemeral and tbl.text() != before  # the table shows the move
