"""Custom ids of Pantheon's components. Each carries what a click needs after a restart.

    pa:<session>:<version>:<action key>   an action button on the public table
    ps:<session>:<version>:<group>:<page> an action select menu on the public table (values are
                                          action keys)
    pv:<session>:<version>:<seat>:<key>   an action button in a seat's private view (DM, ephemeral)
    pw:<session>:<version>:<seat>:<group>:<page>  a select menu in a seat's private view
    pm:<session>:<version>:<action key>   the modal asking for a line of text
    ph:<session>                          "My hand": the private view, ephemeral
    pl:<session>:<op>                     a lobby button (join, leave, bot, unbot, start, cancel, record,
                                          options, swap), "Play again" (again) on a finished table,
                                          "move for the players away" (cover) on a waiting one
    pr:<session>                          the menu of a person's records (characters ...), ephemeral
    po:<session>:<option key>             a lobby option select
    pg:<game>:<page>                      a page of `/game rules` (ephemeral; no session)
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
PRIVATE_ACTION = re.compile(
    rf"pv:{_INT}:(?P<ver>\d{{1,9}}):(?P<seat>\d{{1,2}}):(?P<key>[A-Za-z0-9_.:\-]{{1,64}})")
PRIVATE_SELECT = re.compile(
    rf"pw:{_INT}:(?P<ver>\d{{1,9}}):(?P<seat>\d{{1,2}}):(?P<group>\d{{1,2}}):(?P<page>\d{{1,3}})")
HAND = re.compile(rf"ph:{_INT}")
LOBBY = re.compile(rf"pl:{_INT}:(?P<op>join|leave|bot|unbot|start|cancel|record|options|swap|again|cover)")
RECORD = re.compile(rf"pr:{_INT}")
OPTION = re.compile(rf"po:{_INT}:(?P<key>[A-Za-z0-9_\-]{{1,40}})")
RULES_PAGE = re.compile(r"pg:(?P<game>[a-z0-9\-]{1,40}):(?P<page>\d{1,3})")

VALUE_MAX = 100
"""Discord's longest select option value; anything longer is forged."""
_PAGE_VALUE = re.compile(r"\d{1,3}")


class Parsed(BaseModel):
    kind: str
    session_id: int
    version: int | None = None
    key: str | None = None
    group: int | None = None
    page: int | None = None
    seat: int | None = None
    """The seat position whose private view carries this component; None: the public table."""


_PATTERNS = (("action", ACTION), ("select", SELECT), ("action", PRIVATE_ACTION),
             ("select", PRIVATE_SELECT), ("modal", MODAL), ("hand", HAND), ("lobby", LOBBY),
             ("option", OPTION), ("record", RECORD))


def parse(custom_id: object) -> Parsed | None:
    """The parts of a Pantheon custom id, or None when it is malformed (or not a string)."""
    if not isinstance(custom_id, str) or len(custom_id) > CUSTOM_ID_MAX:
        return None
    for kind, pattern in _PATTERNS:
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
                seat=int(d["seat"]) if d.get("seat") else None,
            )
    return None


def parse_rules_page(custom_id: object) -> tuple[str, int] | None:
    """The game and page index of a `/game rules` page button, or None if it is not one."""
    if not isinstance(custom_id, str) or len(custom_id) > CUSTOM_ID_MAX:
        return None
    m = RULES_PAGE.fullmatch(custom_id)
    return (m["game"], int(m["page"])) if m else None


def rules_page_id(game_id: str, page: int) -> str:
    return f"pg:{game_id}:{page}"


def select_value(values: object) -> tuple[str, str] | None:
    """The one value a select sent, as ("page", "<n>") for a page turn or ("action", key);
    None when the values are missing, not strings, too long, or a malformed page turn."""
    if not isinstance(values, list) or len(values) != 1 or not isinstance(values[0], str):
        return None
    value = values[0]
    if not value or len(value) > VALUE_MAX:
        return None
    if value.startswith(PAGE_PREFIX):
        number = value[len(PAGE_PREFIX):]
        return ("page", number) if _PAGE_VALUE.fullmatch(number) else None
    return "action", value


def select_values(values: object, most: int) -> list[str] | None:
    """The values a multi-choice select sent (1 to `most` distinct short strings), or None."""
    if not isinstance(values, list) or not 1 <= len(values) <= most:
        return None
    if not all(isinstance(v, str) and 0 < len(v) <= VALUE_MAX for v in values):
        return None
    if len(set(values)) != len(values):
        return None
    return list(values)


def action_id(sid: int, version: int, key: str, seat: int | None = None) -> str:
    """A button of the public table (seat None) or of that seat's private view."""
    if seat is None:
        return f"pa:{sid}:{version}:{key}"
    return f"pv:{sid}:{version}:{seat}:{key}"


def select_id(sid: int, version: int, group: int, page: int, seat: int | None = None) -> str:
    if seat is None:
        return f"ps:{sid}:{version}:{group}:{page}"
    return f"pw:{sid}:{version}:{seat}:{group}:{page}"


def modal_id(sid: int, version: int, key: str) -> str:
    return f"pm:{sid}:{version}:{key}"


def hand_id(sid: int) -> str:
    return f"ph:{sid}"


def lobby_id(sid: int, op: str) -> str:
    return f"pl:{sid}:{op}"


def record_id(sid: int) -> str:
    return f"pr:{sid}"


def option_id(sid: int, key: str) -> str:
    return f"po:{sid}:{key}"
