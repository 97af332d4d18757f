"""Checks every end-to-end test can run over what the bot sent: who a message pings, and
whether anything hidden reached someone who may not see it."""

from __future__ import annotations

import json
import re

from tests.support.discord_harness import DiscordHarness, FakeMessage, RestCall

_USER_MENTION = re.compile(r"<@!?(\d{1,20})>")
_ROLE_MENTION = re.compile(r"<@&(\d{1,20})>")


def _message_bodies(call: RestCall) -> list[dict]:
    """The message bodies a REST call sends (an interaction callback wraps its in `data`)."""
    body = call.json
    if not isinstance(body, dict):
        return []
    if call.path.endswith("/callback"):
        data = body.get("data")
        return [data] if isinstance(data, dict) and body.get("type") in (4, 7) else []
    if call.method in ("POST", "PATCH") and ("/messages" in call.path or "/webhooks/" in call.path):
        return [body]
    return []


def pings(body: dict) -> tuple[set[int], bool]:
    """(users pinged, whether @everyone/@here or a role is pinged) by one message body, by
    Discord's rules: a mention in the content pings only when `allowed_mentions` allows it
    (no `allowed_mentions` at all allows every mention)."""
    content = body.get("content") or ""
    allowed = body.get("allowed_mentions")
    users = {int(u) for u in _USER_MENTION.findall(content)}
    roles = bool(_ROLE_MENTION.search(content))
    everyone = "@everyone" in content or "@here" in content
    if allowed is None:
        return users, roles or everyone
    parse = set(allowed.get("parse") or [])
    if "users" not in parse:
        users &= {int(u) for u in allowed.get("users") or []}
    wide = (everyone and "everyone" in parse) or (roles and ("roles" in parse or bool(allowed.get("roles"))))
    return users, wide


def unintended_pings(h: DiscordHarness, intended: set[int], since: int = 0) -> list[str]:
    """Every message sent since call number `since` that pings anyone outside `intended`, or
    @everyone, @here or a role."""
    problems = []
    for call in h.calls[since:]:
        for body in _message_bodies(call):
            users, wide = pings(body)
            if wide or users - intended:
                problems.append(f"{call.method} {call.path} pings {sorted(users - intended)} "
                                f"wide={wide}: {(body.get('content') or '')[:120]!r}")
    return problems


def message_text_all(message: FakeMessage) -> str:
    """Everything a Discord client receives of a message: text, embeds, component labels,
    option values and descriptions, custom ids."""
    return json.dumps({"content": message.content, "embeds": message.embeds,
                       "components": message.components}, ensure_ascii=False)


def leaks(text: str, secrets: dict[str, str]) -> list[str]:
    """The secret names (id -> a regex-safe token) that occur in `text` as whole tokens."""
    out = []
    for name, token in secrets.items():
        if re.search(rf"(?<![A-Za-z0-9]){re.escape(token)}(?![A-Za-z0-9])", text):
            out.append(name)
    return out


def seen_by(h: DiscordHarness, user: int | None, channel: int) -> list[FakeMessage]:
    """The messages `user` can read now: the channel's public messages, plus (for a user) their
    DMs and the ephemeral answers to them. `user` None: a watcher of the channel."""
    public = [m for m in h.messages_in(channel) if not m.ephemeral and not m.deleted]
    if user is None:
        return public
    return public + [m for m in h.dms_to(user) if not m.deleted] + h.ephemerals_to(user)



def hand_tokens(session, holder: str) -> dict[str, str]:
    """What names the cards `holder` keeps hidden (their hand, and a card they picked from it and
    not yet placed), as name -> token to look for, for the games that have hands."""
    state = session.state()
    if session.game_id == "gods-of-magic":
        cards = list(state.hands.get(holder, []))
        if holder == state.player:
            cards += [c for c in state.pending if state.locate(c) is None and c not in cards]
        return {c: c for c in cards}
    if hasattr(state, "hands"):
        return {c.name: c.name for c in state.hands.get(holder, [])}
    return {}


def hand_leaks(h: DiscordHarness, session, channel: int) -> list[str]:
    """Cards of a hand found in a message someone else can read: the channel's messages (every
    hand), and each player's DMs and ephemeral answers (every other player's hand)."""
    found = []
    seats = [s for s in session.seats]
    everyone: dict[str, str] = {}
    for seat in seats:
        everyone.update(hand_tokens(session, seat.player_id))
    for message in seen_by(h, None, channel):
        for name in leaks(message_text_all(message), everyone):
            found.append(f"table message {message.id} shows {name}")
    for seat in seats:
        if seat.user_id is None:
            continue
        others: dict[str, str] = {}
        for other in seats:
            if other.player_id != seat.player_id:
                others.update(hand_tokens(session, other.player_id))
        private = [m for m in seen_by(h, seat.user_id, channel) if m.channel_id != channel or m.ephemeral]
        for message in private:
            for name in leaks(message_text_all(message), others):
                found.append(f"{seat.name}'s message {message.id} shows {name}")
    return found
