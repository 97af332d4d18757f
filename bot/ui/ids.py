"""Custom ids of Pantheon's components. Each carries what a click needs after a restart.

    pa:<session>:<version>:<action key>   an action button
    ps:<session>:<version>:<group>:<page> an action select menu (values are action keys)
    pm:<session>:<version>:<action key>   the modal asking for a line of text
    ph:<session>                          "My hand": the private view, ephemeral
    pl:<session>:<op>                     a lobby button (join, leave, bot, start, cancel)
    po:<session>:<option key>             a lobby option select
"""

from __future__ import annotations

import re

from pydantic import BaseModel

CUSTOM_ID_MAX = 100
PAGE_PREFIX = "»page:"

_INT = r"(?P<sid>\d{1,18})"
ACTION = re.compile(rf"pa:{_INT}:(?P<ver>\d{{1,9}}):(?P<key>[A-Za-z0-9_.:\-]{{1,64}})")
SELECT = re.compile(rf"ps:{_INT}:(?P<ver>\d{{1,9}}):(?P<group>\d{{1,2}}):(?P<page>\d{{1,3}})")
MODAL = re.compile(rf"pm:{_INT}:(?P<ver>\d{{1,9}}):(?P<key>[A-Za-z0-9_.:\-]{{1,64}})")
HAND = re.compile(rf"ph:{_INT}")
LOBBY = re.compile(rf"pl:{_INT}:(?P<op>join|leave|bot|start|cancel)")
OPTION = re.compile(rf"po:{_INT}:(?P<key>[A-Za-z0-9_\-]{{1,40}})")

# Loose templates route every Pantheon custom id to its item; the strict patterns above decide
# whether it is well formed, so a malformed one gets a clear answer instead of silence.
LOOSE = {p: re.compile(rf"{p}:.*", re.DOTALL) for p in ("pa", "ps", "pm", "ph", "pl", "po")}


class Parsed(BaseModel):
    kind: str
    session_id: int
    version: int | None = None
    key: str | None = None
    group: int | None = None
    page: int | None = None


def parse(custom_id: str) -> Parsed | None:
    """The parts of a Pantheon custom id, or None when it is malformed."""
    for kind, pattern in (("action", ACTION), ("select", SELECT), ("modal", MODAL), ("hand", HAND),
                          ("lobby", LOBBY), ("option", OPTION)):
        m = pattern.fullmatch(custom_id)
        if m:
            d = m.groupdict()
            return Parsed(
                kind=kind,
                session_id=int(d["sid"]),
                version=int(d["ver"]) if d.get("ver") else None,
                key=d.get("key") or d.get("op"),
                group=int(d["group"]) if d.get("group") else None,
                page=int(d["page"]) if d.get("page") else None,
            )
    return None


def action_id(sid: int, version: int, key: str) -> str:
    return f"pa:{sid}:{version}:{key}"


def select_id(sid: int, version: int, group: int, page: int) -> str:
    return f"ps:{sid}:{version}:{group}:{page}"


def modal_id(sid: int, version: int, key: str) -> str:
    return f"pm:{sid}:{version}:{key}"


def hand_id(sid: int) -> str:
    return f"ph:{sid}"


def lobby_id(sid: int, op: str) -> str:
    return f"pl:{sid}:{op}"


def option_id(sid: int, key: str) -> str:
    return f"po:{sid}:{key}"
