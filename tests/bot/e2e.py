"""Shared helpers for end-to-end tests: the real bot on a temporary SQLite file,
driven through the offline Discord harness."""

from __future__ import annotations

from pathlib import Path

from bot.app import build_bot
from bot.config import Settings
from bot.ui import ids
from rules.core import Rng
from tests.support.clock import Clock
from tests.support.discord_harness import DiscordHarness, FakeMessage

ALICE, BOB, CAROL, DAVE = 1001, 1002, 1003, 1004
CHANNEL, OTHER_CHANNEL = 2000, 2001


START = 1_800_000_000.0  # a plausible "now" for the e2e clock


def make_bot(db: Path, clock: Clock | None = None, seed: int = 7):
    settings = Settings(database_path=db, discord_token="test", timer_poll_seconds=1)
    return build_bot(settings, clock=clock or Clock(START), seed_source=lambda: seed, run_timers=False)


async def open_table(h: DiscordHarness, game: str, players: list[int], *, bots: int = 0,
                     options: str | None = None, channel: int = CHANNEL,
                     selects: dict[str, str] | None = None) -> FakeMessage:
    """/game new, everyone joins, the host sets options and starts; returns the table message."""
    opts = {"game": game}
    if options:
        opts["options"] = options
    reply = await h.slash("game new", user=players[0], channel=channel, options=opts)
    lobby = reply.message
    for user in players[1:]:
        await h.click(lobby, h.find_button(lobby, "Join"), user=user)
    for _ in range(bots):
        await h.click(lobby, h.find_button(lobby, "Add bot"), user=players[0])
    for key, value in (selects or {}).items():
        select = next(s for s in lobby.selects() if s["custom_id"].endswith(f":{key}"))
        await h.select(lobby, select["custom_id"], [value], user=players[0])
    await h.click(lobby, h.find_button(lobby, "Start"), user=players[0])
    return lobby


def component_for(messages: list[FakeMessage], session_id: int, version: int, key: str,
                  oldest: int | None = None):
    """(message, custom_id, values) of the component offering action `key` now, or None.
    `oldest`: a control rendered at a version from `oldest` to `version` still works (the seat's
    choices have not changed since: the bot does not re-send a view that reads the same)."""
    low = version if oldest is None else oldest

    def current(v: int | None) -> bool:
        return v is not None and low <= v <= version

    for message in reversed(messages):
        for comp in message.buttons():
            cid = comp.get("custom_id", "")
            parsed = ids.parse(cid)
            if parsed and parsed.kind == "action" and parsed.session_id == session_id \
                    and current(parsed.version) and parsed.key == key:
                return message, cid, None
        for comp in message.selects():
            cid = comp.get("custom_id", "")
            parsed = ids.parse(cid)
            if parsed and parsed.kind == "select" and parsed.session_id == session_id \
                    and current(parsed.version):
                if any(o["value"] == key for o in comp.get("options", [])):
                    return message, cid, [key]
    return None


async def auto_choice(h: DiscordHarness, bot, channel: int = CHANNEL):
    """(session, seat, action, (message, custom_id, values) or None) for the move the automatic
    player would choose for the first person to act, and the component offering it in what that
    person sees (None: in a paged menu); None when no game is going on."""
    session = await bot.service.active_in_channel(channel)
    if session is None or session.status != "active":
        return None
    game, state = session.game(), session.state()
    pid = next(p for p in game.to_act(state) if not session.seat(p).auto)
    seat = session.seat(pid)
    action = game.auto_action(state, pid, Rng(seed=session.version))
    messages = h.messages_in(channel) + h.dms_to(seat.user_id) + h.ephemerals_to(seat.user_id)
    found = component_for(messages, session.id, session.version, action.key,
                          oldest=seat.actions_version)
    return session, seat, action, found


async def play_auto_move(h: DiscordHarness, bot, channel: int = CHANNEL, *, story: str = "A line."):
    """Let the automatic player choose for the person to act, and click it through Discord.
    Returns the reply, or None when the game is over."""
    choice = await auto_choice(h, bot, channel)
    if choice is None:
        return None
    session, seat, action, found = choice
    if found is None:
        # paged select: walk the pages of the private view
        hand = await h.slash("game hand", user=seat.user_id, channel=channel)
        found = await _walk_pages(h, hand.message, session, action.key, seat.user_id)
    assert found is not None, f"no component offers {action.key} ({action.label})"
    message, cid, values = found
    reply = await (h.click(message, cid, user=seat.user_id) if values is None
                   else h.select(message, cid, values, user=seat.user_id))
    if reply.type == 9:
        reply = await h.submit_modal(reply, {"line": story}, user=seat.user_id)
    return reply


async def _walk_pages(h, message, session, key, user):
    for _ in range(20):
        found = component_for([message], session.id, session.version, key,
                              oldest=session.seat_of_user(user).actions_version)
        if found:
            return found
        nxt = None
        for comp in message.selects():
            for o in comp.get("options", []):
                if o["label"].startswith("Next"):
                    nxt = (comp["custom_id"], o["value"])
        if nxt is None:
            return None
        await h.select(message, nxt[0], [nxt[1]], user=user)
    return None


async def tick_for(bot, clock: Clock, seconds: int, step: int = 300) -> None:
    """Move the clock on by `seconds`, letting the bot's timers run every `step` seconds."""
    for _ in range(seconds // step):
        clock.now += step
        await bot.controller.tick()
