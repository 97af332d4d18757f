"""A click's answer is rendered while its move is being made durable (the service's
`while_committing`, bot/controller.py `_early_answer`): the same answer as one rendered after
the commit, without rendering it twice."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot import controller as controller_module
from bot.app import build_bot
from bot.config import Settings
from bot.sessions import SessionService
from bot.store import Store
from tests.bot.e2e import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    START,
    auto_choice,
    make_bot,
    open_table,
    play_auto_move,
)
from tests.support.clock import Clock
from tests.support.discord_harness import DiscordHarness, Reply

GAMES = [
    ("deathly-thrones", [ALICE], {"character": "dwarf", "quest": "iron-throne"}),  # the table answers
    ("gods-of-magic", [ALICE, BOB], {}),  # hands in DMs: private answers too
]


Body = tuple[str, Any, Any]


def _body(reply: Reply) -> Body:
    """The click's interaction response: its route, its JSON and its files."""
    return next((c.path.split("/")[-1], c.json, c.files) for c in reply.calls if c.via == "webhook")


@dataclass
class _Answers:
    bodies: list[Body] = field(default_factory=list)
    after: int = 0
    """How many answers were rendered after their commit (`_answer_payload`)."""
    from_ephemeral: int = 0
    """How many moves were clicked on an ephemeral message (answered by editing it)."""
    on_my_hand: int = 0
    """How many of them on the **My hand** view opened just before."""


async def _answers(bot, game: str, players: list[int], selects: dict[str, str], moves: int, *,
                   closed_dms: bool = False, my_hand: bool = False) -> _Answers:
    """The body of every click's interaction response along `moves` automatic moves, and how
    many of those answers were rendered after their commit. `closed_dms`: every player's DMs are
    closed (their hands are ephemeral messages); `my_hand`: before each move the player to act
    presses the table's **My hand** (an ephemeral view, which the move is then clicked on)."""
    out = _Answers()
    real = controller_module.Controller._answer_payload

    async def rendered_after(self, *args, **kwargs):
        out.after += 1
        return await real(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(controller_module.Controller, "_answer_payload", rendered_after)
        async with DiscordHarness(bot) as h:
            if closed_dms:
                for user in players:
                    h.block_dms(user)
            tbl = await open_table(h, game, players, selects=selects)
            for _ in range(moves):
                hand: Reply | None = None
                if my_hand:
                    choice = await auto_choice(h, bot, CHANNEL)
                    if choice is None:
                        break
                    hand = await h.click(tbl, h.find_button(tbl, "My hand"), user=choice[1].user_id)
                    assert hand.ephemeral
                reply = await play_auto_move(h, bot, CHANNEL)
                if reply is None:
                    break
                assert reply.source is not None
                out.from_ephemeral += reply.source.ephemeral
                out.on_my_hand += hand is not None and reply.source is hand.message
                out.bodies.append(_body(reply))
    return out


@pytest.mark.parametrize(("game", "players", "selects"), GAMES, ids=[g[0] for g in GAMES])
async def test_the_answer_rendered_during_the_commit_is_the_one_rendered_after_it(tmp_path, game, players,
                                                                                 selects):
    early = await _answers(make_bot(tmp_path / "early.db", seed=5), game, players, selects, 14)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(controller_module.Controller, "_early_answer", lambda *args: None)
        late = await _answers(make_bot(tmp_path / "late.db", seed=5), game, players, selects, 14)
    assert len(early.bodies) >= 10
    assert early.bodies == late.bodies  # the same table, hand and controls, click after click
    assert late.after == len(late.bodies)  # without it, every answer is rendered after its commit
    assert early.after == 0  # with it, none is: nothing rendered twice


def _pg_bot(url: str):
    """`make_bot(seed=5)`, on a PostgreSQL database."""
    settings = Settings(database_url=url, discord_token="test", timer_poll_seconds=1)
    return build_bot(settings, clock=Clock(START), seed_source=lambda: 5, run_timers=False)


@pytest.mark.parametrize(("game", "players", "selects"), GAMES, ids=[g[0] for g in GAMES])
async def test_on_postgresql_the_answer_rendered_during_the_commit_is_the_one_rendered_after_it(
        tmp_path, postgres_server, game, players, selects):
    """PostgreSQL's store hands the early work to the loop while it awaits COMMIT (not from a
    writer thread, as SQLite's): the answers are the same, rendered once; and they are the
    answers the bot gives on SQLite."""
    early = await _answers(_pg_bot(await postgres_server.new_database()), game, players, selects, 14)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(controller_module.Controller, "_early_answer", lambda *args: None)
        late = await _answers(_pg_bot(await postgres_server.new_database()), game, players, selects, 14)
    on_sqlite = await _answers(make_bot(tmp_path / "s.db", seed=5), game, players, selects, 14)
    assert len(early.bodies) == 14
    assert early.bodies == late.bodies
    assert late.after == len(late.bodies)
    assert early.after == 0
    assert early.bodies == on_sqlite.bodies


PRIVATE = [("closed-dms", True, False), ("my-hand", False, True)]


@pytest.mark.parametrize(("closed_dms", "my_hand"), [p[1:] for p in PRIVATE], ids=[p[0] for p in PRIVATE])
async def test_an_ephemeral_private_answer_rendered_during_the_commit_is_the_one_rendered_after_it(
        tmp_path, closed_dms, my_hand):
    """A move clicked on an ephemeral message (the hand of a player whose DMs are closed, or the
    **My hand** view) is answered with that player's private view, editing the ephemeral
    message: rendered while the move is written, the same as rendered after it."""
    audiences: list[tuple[str | None, str | None]] = []  # (the clicker's player, the early answer's audience)
    real_early = controller_module.Controller._early_answer

    def early_answer(self, interaction, parsed, early, session, events):
        real_early(self, interaction, parsed, early, session, events)
        seat = session.seat_of_user(interaction.user.id)
        audiences.append((seat.player_id if seat else None, early[0][2] if early else None))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(controller_module.Controller, "_early_answer", early_answer)
        early = await _answers(make_bot(tmp_path / "early.db", seed=5), "gods-of-magic", [ALICE, BOB], {}, 14,
                               closed_dms=closed_dms, my_hand=my_hand)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(controller_module.Controller, "_early_answer", lambda *args: None)
        late = await _answers(make_bot(tmp_path / "late.db", seed=5), "gods-of-magic", [ALICE, BOB], {}, 14,
                              closed_dms=closed_dms, my_hand=my_hand)
    assert len(early.bodies) == 14
    assert early.from_ephemeral == late.from_ephemeral == 14  # every move clicked on an ephemeral message
    assert early.on_my_hand == late.on_my_hand == (14 if my_hand else 0)
    assert len(audiences) == 14
    assert all(clicker is not None and audience == clicker for clicker, audience in audiences)  # private
    assert all(route == "callback" and body["type"] == 7 for route, body, _ in early.bodies)  # edits it
    assert early.bodies == late.bodies
    assert late.after == 14
    assert early.after == 0


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


# --- a move tried again after its compare-and-set lost ---------------------------------------------
# Echo (tests/support/echo.py) for three: everyone presses Ready (at the same time, so another
# player's Ready leaves your button current), then they take turns adding 1 or 2 to a count.
# Carol's Ready is clicked first, so this process keeps the session it saved: the next click
# starts from that copy (`get_current`), and a write by another process since makes its first
# compare-and-set fail and the service try the move again on what was written (`act`).

@dataclass
class _Retried:
    body: Body | None
    table: str
    """The table message as the click's answer left it."""
    buttons: list[tuple[str, str]]
    version: int
    """The session's version as stored after the click."""
    saves: list[bool] = field(default_factory=list)
    """What each compare-and-set of the click answered."""
    early: list[tuple[int, str]] = field(default_factory=list)
    """(version, text) of every answer rendered during a commit of the click, in order."""
    after: int = 0


async def _retried_click(db: Path, case: str, *, early: bool, lost_work: bool) -> _Retried:
    """One click whose first compare-and-set is lost, answered. `case`: "rival" - Bob presses
    Ready after another process wrote Alice's Ready (his first try, on the copy, loses to it);
    "later" - the player to act adds 1 and the first try is lost with nothing written by anyone
    (the second, on the session read again, commits the same version a minute later).
    `early`: False renders every answer after its commit (`_early_answer` does nothing).
    `lost_work`: the store ran the early work of the try it lost, and that work ends last,
    after the retried try's (the store's contract rules both out; `_act` must not trust it)."""
    clock = Clock(START)
    bot = make_bot(db, clock=clock, seed=5)
    out = _Retried(body=None, table="", buttons=[], version=0)
    async with DiscordHarness(bot) as h:
        tbl = await open_table(h, "test-echo", [ALICE, BOB, CAROL])
        await h.click(tbl, h.find_button(tbl, "Ready"), user=CAROL)
        session = await bot.service.active_in_channel(CHANNEL)
        assert session is not None
        if case == "rival":
            other = SessionService(await Store.open(db), clock=clock, seed_source=lambda: 5)  # another process
            try:
                await other.act(session.id, ALICE, "ready", version=session.version)
            finally:
                await other.store.close()
            user, label = BOB, "Ready"
        else:
            for u in (ALICE, BOB):
                await h.click(tbl, h.find_button(tbl, "Ready"), user=u)
            session = await bot.service.get(session.id)
            seat = session.seat(session.game().to_act(session.state())[0])
            assert seat is not None and seat.user_id is not None
            user, label = seat.user_id, "Add 1"

        store = bot.service.store
        real_save = store.save
        lost: list[Callable[[], None]] = []  # the early work of the lost try

        async def save(s, expected, *, on_commit=None, **kwargs):
            first = not out.saves
            if first and lost_work and on_commit is not None:  # kept, to run last
                lost.append(on_commit)
                on_commit = None
            if first and case == "later":  # lost with nothing written; the retry comes a minute later
                ok = False
                clock.now += 60
            else:
                ok = await real_save(s, expected, on_commit=on_commit, **kwargs)
            out.saves.append(ok)
            if not first:
                for work in lost:
                    work()
            return ok

        real_early = controller_module.Controller._early_answer

        def early_answer(self, interaction, parsed, answer, s, events):
            if early:
                real_early(self, interaction, parsed, answer, s, events)
                if answer and answer[-1][0] is s:  # what this call rendered
                    out.early.append((answer[-1][1], answer[-1][3].text()))

        real_after = controller_module.Controller._answer_payload

        async def rendered_after(self, *args, **kwargs):
            out.after += 1
            return await real_after(self, *args, **kwargs)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(store, "save", save)
            patch.setattr(controller_module.Controller, "_early_answer", early_answer)
            patch.setattr(controller_module.Controller, "_answer_payload", rendered_after)
            reply = await h.click(tbl, h.find_button(tbl, label), user=user)
        assert reply.message is tbl and not reply.ephemeral
        out.body, out.table = _body(reply), tbl.text()
        out.buttons = [(b["label"], b["custom_id"]) for b in tbl.buttons()]
        out.version = (await bot.service.get(session.id)).version
    return out


def _ready_list(text: str) -> list[str]:
    """The "ready" players the Echo table shows."""
    state = json.loads(text[text.index("```") + 3:text.rindex("```")])
    return state["ready"]


async def test_a_move_retried_after_a_lost_race_is_answered_early_for_the_session_it_committed(tmp_path):
    """Another process wrote first: the click's first compare-and-set loses (no early work for
    it), the move is made again on what was written, and the answer, rendered once while that
    try is committed, shows it: Alice's Ready too, and the turn controls of the new version."""
    early = await _retried_click(tmp_path / "early.db", "rival", early=True, lost_work=False)
    late = await _retried_click(tmp_path / "late.db", "rival", early=False, lost_work=False)
    for run in (early, late):
        assert run.saves == [False, True]
        assert _ready_list(run.table) == ["1003", "1001", "1002"]  # Carol, Alice (elsewhere), Bob
        assert [label for label, _ in run.buttons] == ["Add 1", "Add 2"]
        assert all(f":{run.version}:" in cid for _, cid in run.buttons)
    assert [v for v, _ in early.early] == [early.version]  # rendered once, for the committed try
    assert early.after == 0 and late.after == 1
    assert early.body == late.body


RETRIES = ["rival", "later"]


@pytest.mark.parametrize("case", RETRIES)
async def test_an_answer_rendered_early_for_a_try_that_did_not_commit_is_never_sent(tmp_path, case):
    """`_act` sends the early answer only when it was rendered for the very session committed,
    at its version, for the same audience. Here the early work of the lost try (rendered on the
    session as it was before the rival's write, or for the same version a minute earlier) is the
    last to end: the click is still answered with the session committed, rendered after."""
    early = await _retried_click(tmp_path / "early.db", case, early=True, lost_work=True)
    late = await _retried_click(tmp_path / "late.db", case, early=False, lost_work=True)
    assert early.saves == late.saves == [False, True]
    assert len(early.early) == 2  # the retried try's answer, then the lost try's
    (kept_version, kept_text), (stale_version, stale_text) = early.early
    assert kept_version == early.version
    # the click's answer shows the session committed, not the one the lost try rendered
    if case == "rival":
        assert stale_version == early.version - 1  # before the rival's write
        assert _ready_list(stale_text) == ["1003", "1002"]
        assert _ready_list(early.table) == ["1003", "1001", "1002"]
        assert [label for label, _ in early.buttons] == ["Add 1", "Add 2"]
        assert all(f":{early.version}:" in cid for _, cid in early.buttons)
    else:
        assert stale_version == early.version  # only the session object tells the two apart
        assert f"<t:{int(START) + 300}:R>" in stale_text and f"<t:{int(START) + 360}:R>" in kept_text
        assert f"<t:{int(START) + 360}:R>" in early.table and f"<t:{int(START) + 300}:R>" not in early.table
    assert early.body == late.body  # byte for byte the answer rendered after the commit
    assert late.after == 1
