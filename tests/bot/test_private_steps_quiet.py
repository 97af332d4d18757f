"""A private step tells nobody else anything (issue 28 item 5).

A step is private when the rules say so: the player's own private action, none of its events
public, and nothing another viewer sees changed by it (the table's view and controls, the other
players' views). Such a step made through
Discord (a card picked in a DM) must change nothing anyone else can see: no REST call except the
clicker's own interaction and DM, every message others can read (the table, the other players'
DMs and ephemerals, in every channel) exactly as it was, edits counted too (an edit of the same
text still shows "(edited)"), and `/game log` reading the same to a spectator.

Whole games of the games with private steps are played by people only, with a turn timer
(the table shows the deadline), in three stretches: one process; then a restart (a new process
on the same database and the same Discord, which never drew the table); then two processes at
once on that database, taking the clicks in turn, each knowing only what it drew itself.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from bot import table
from bot.app import build_bot
from bot.config import Settings
from rules.core import Rng
from tests.bot.e2e import ALICE, BOB, CAROL, CHANNEL, START, component_for, make_bot, open_table
from tests.support.clock import Clock
from tests.support.discord_harness import DEFAULT_MEMBERS, DiscordHarness, FakeMessage

SPECTATOR = 1009
# game, people, lobby options, seed
GAMES = [
    ("gods-of-magic", [ALICE, BOB, CAROL], "target=100,turn_timer=86400", 11, 3),
    ("guilty-gods", [ALICE, BOB], "turn_timer=86400", 4, 3),
    # its private steps (the card spent on an ability chosen at the table, or taking the choice
    # back) change what the table offers that player: none is quiet, so what is checked here is
    # that the table always shows the session as it is
    ("by-gods-and-kings", [ALICE, BOB], "party=2,attempts=1,turn_timer=86400", 6, 0),
]
RESTART_AT, TWO_AT = 30, 60  # steps before the restart, and before the second process joins
MOST_STEPS = 140


def _message(m: FakeMessage) -> tuple:
    files = [(name, hashlib.blake2b(blob, digest_size=8).hexdigest()) for _, name, blob in m.files]
    return (m.id, m.channel_id, m.deleted, m.edits, m.content, json.dumps(m.embeds, sort_keys=True),
            json.dumps(m.components, sort_keys=True), files)


def _others_see(h: DiscordHarness, clicker: int, users: list[int]) -> list[tuple]:
    """Everything anyone but `clicker` can read: every guild channel, the others' DMs and their
    ephemeral answers."""
    seen = []
    for channel in h.channel_ids:
        seen += [("channel", channel, _message(m)) for m in h._channels.get(channel, []) if not m.ephemeral]
    for user in users:
        if user == clicker:
            continue
        dm = h._dm_channels.get(user)
        if dm is not None:
            seen += [("dm", user, _message(m)) for m in h._channels.get(dm, [])]
        seen += [("ephemeral", user, _message(m)) for m in h._ephemerals.get(user, [])]
    return seen


def _to_clicker(h: DiscordHarness, call, user: int) -> bool:
    """The call reaches only `user`: their DM channel, or an interaction of theirs in it (its
    answer, or an edit of its message through its token)."""
    dm = h.dm_channel_id(user)
    if call.path.startswith(f"/channels/{dm}/"):
        return True
    parts = call.path.split("/")
    token = parts[3] if call.path.startswith("/interactions/") or call.path.startswith("/webhooks/") else None
    record = h._interactions.get(token) if token else None
    return record is not None and record.user_id == user and (
        record.channel_id == dm or (record.source is not None and record.source.ephemeral))


async def _table_is_current(h: DiscordHarness, bot, sid: int, where: str) -> None:
    """The table message shows the session as it is now (a step that changed what the table
    shows was not left out)."""
    session = await bot.service.get(sid)
    want = await table.render_table(session)
    shown = h.message(session.table_message_id)
    embeds, _ = want.parts()
    assert shown.content == want.content, f"{where}: the table reads {shown.content!r}"
    assert shown.embeds == [e.to_dict() for e in embeds], f"{where}: the table shows an older state"
    wanted = want.view.to_components() if want.view is not None else []
    assert _shape(shown.components) == _shape(wanted), f"{where}: the table has other controls"


def _quiet_by_the_rules(session, pid: str, key: str) -> bool:
    """The rules' own answer: a private action whose events nobody else may see and which
    changes no other viewer's view, nobody's turn and nothing the table offers."""
    game, state = session.game(), session.state()
    action = next((a for a in session.legal_actions(pid) if a.key == key), None)
    if action is None or not action.private:
        return False
    outcome = game.apply(state, pid, key)
    if any(e.visible_for(None) for e in outcome.events):
        return False
    if game.to_act(outcome.state) != game.to_act(state) or game.result(outcome.state) is not None:
        return False
    viewers = [None] + [s.player_id for s in session.seats if s.player_id != pid]
    if any(game.view(outcome.state, v) != game.view(state, v) for v in viewers):
        return False
    # nor what the table offers anybody (its buttons, for the players who may act, are seen by all)
    acting = set(game.acting(state)) | set(game.acting(outcome.state))
    return all([a for a in game.legal_actions(outcome.state, p) if not a.private]
               == [a for a in session.legal_actions(p) if not a.private] for p in acting)


def _choice(session, step: int):
    """(person's seat, action key) to play: a private action when the person has one (several
    of them in turn, so hands are built card by card), else the automatic player's choice."""
    game, state = session.game(), session.state()
    people = [p for p in game.to_act(state) if not session.seat(p).auto]
    pid = people[step % len(people)]
    rng = Rng(seed=session.version * 7 + step)
    private = [a for a in session.legal_actions(pid) if a.private]
    if private and step % 3 != 2:
        backs = [a for a in private if a.key.endswith(".back")]  # a step taken back (By Gods and Kings)
        return session.seat(pid), (backs[0] if backs and step % 2 else rng.choice(private)).key
    return session.seat(pid), game.auto_action(state, pid, rng).key


async def _log(h: DiscordHarness) -> str:
    reply = await h.slash("game log", user=SPECTATOR, channel=CHANNEL)
    return reply.content + json.dumps(reply.embeds, sort_keys=True)


async def _drained(*pairs) -> None:
    for h, bot in pairs:
        await h.settle()
        await bot.controller.edits.drain()


def _shape(components: list[dict]) -> list[dict]:
    """Components without the version in their custom ids (older table controls still work)."""
    return json.loads(re.sub(r'"(p[aspvwm]):(\d+):\d+:', r'"\1:\2:*:', json.dumps(components)))


def _bot(db, seed: int):
    """The bot on a SQLite file (a path) or a PostgreSQL database (a URL)."""
    if isinstance(db, str):
        settings = Settings(database_url=db, discord_token="test", timer_poll_seconds=1)
        return build_bot(settings, clock=Clock(START), seed_source=lambda: seed, run_timers=False)
    return make_bot(db, seed=seed)


@pytest.mark.parametrize(("game", "people", "options", "seed", "wanted"), GAMES, ids=[g[0] for g in GAMES])
async def test_a_private_step_changes_nothing_anyone_else_can_see(tmp_path, game, people, options, seed, wanted):
    await _play(tmp_path / "pantheon.db", game, people, options, seed, wanted)


async def test_two_processes_on_postgresql_tell_nothing_of_a_private_step(postgres_url):
    await _play(postgres_url, *GAMES[0])


async def _play(db, game: str, people: list[int], options: str | None, seed: int, wanted: int) -> None:
    """`wanted`: the private steps each stretch must have checked, at least."""
    bot = _bot(db, seed)
    h = DiscordHarness(bot, members={**DEFAULT_MEMBERS, SPECTATOR: "watcher"})
    await h.start()
    running = [(h, bot)]
    quiet = {"one process": 0, "after the restart": 0, "two processes": 0}
    first_after_restart: str | None = None
    try:
        await open_table(h, game, people, options=options)
        sid = (await bot.service.active_in_channel(CHANNEL)).id
        stretch = "one process"
        for step in range(MOST_STEPS):
            if step == RESTART_AT:  # a new process, the same database and Discord
                await h.close()
                bot = _bot(db, seed)
                h = DiscordHarness(bot, restart_of=h)
                await h.start()
                running, stretch = [(h, bot)], "after the restart"
            if step == TWO_AT:  # a second process beside it
                other = _bot(db, seed)
                h2 = DiscordHarness(other, restart_of=h)
                await h2.start()
                running, stretch = [(h, bot), (h2, other)], "two processes"
            here_h, here_bot = running[step % len(running)]
            session = await here_bot.service.get(sid)
            if session.status != "active":
                break
            seat, key = _choice(session, step)
            if step % 4 == 1 and session.game().has_private_view:  # from "My hand" this time
                await here_h.slash("game hand", user=seat.user_id, channel=CHANNEL)
            where = here_h.dms_to(seat.user_id) + here_h.ephemerals_to(seat.user_id)
            found = component_for(where, sid, session.version, key, oldest=seat.actions_version)
            if found is None:
                found = component_for(here_h.messages_in(CHANNEL), sid, session.version, key,
                                      oldest=seat.table_version)
            assert found is not None, f"step {step}: no control offers {key} to {seat.player_id}"
            message, cid, values = found
            silent = _quiet_by_the_rules(session, seat.player_id, key) and (message.ephemeral or message.channel_id != CHANNEL)
            if silent:
                log_before = await _log(here_h)
                seen_before = _others_see(here_h, seat.user_id, [*people, SPECTATOR])
                calls_before = [len(x.calls) for x, _ in running]
            reply = await (here_h.click(message, cid, user=seat.user_id) if values is None
                           else here_h.select(message, cid, values, user=seat.user_id))
            if reply.type == 9:
                reply = await here_h.submit_modal(reply, {"line": "A line."}, user=seat.user_id)
            await _drained(*running)
            after = await here_bot.service.get(sid)
            assert after.version > session.version, f"step {step}: {key} was not applied: {reply.content}"
            await _table_is_current(here_h, here_bot, sid, f"{stretch}, step {step} ({game}, {key})")
            if not silent:
                continue
            for (x, _), start in zip(running, calls_before, strict=True):
                told = [c for c in x.calls[start:] if not _to_clicker(x, c, seat.user_id)]
                assert told == [], f"{stretch}, step {step} ({game}, {key}): a private step made {told}"
            assert _others_see(here_h, seat.user_id, [*people, SPECTATOR]) == seen_before, \
                f"{stretch}, step {step} ({game}, {key}): a private step changed what others see"
            assert await _log(here_h) == log_before, f"{stretch}, step {step}: the log told a private step"
            quiet[stretch] += 1
            if stretch == "after the restart" and first_after_restart is None:
                first_after_restart = key
        assert all(n >= wanted for n in quiet.values()), quiet
        assert first_after_restart is not None or not wanted
        assert sum(quiet.values()) >= 1 or not wanted, quiet  # at least one private step was checked
        # nor later: the log numbers no steps (a gap in the numbers would count the hidden ones)
        assert re.search(r"`\s*\d+`", await _log(h)) is None
    finally:
        for x, _ in reversed(running):
            await x.close()
