"""The saved form of a state: what `dump_state` writes and how `load_state` reads it back.

A saved game is kept in the bot's database after every move, so it is written compactly
(version 2, marked `"v": 2`):

- fields at their default value are left out (an empty hand, no statuses, no shield ...);
- a unit's `id` is left out when it is its place in its list (`c0`, `c1` ... `e0` ... `n0`);
- `origin` (the party as it entered the scenario) keeps, for each character, only the fields
  in which it differs from the same character in `party` now with the battle's traces
  (`TRANSIENT`: Field, hand, statuses, shield ...) cleared;
- card lists (the piles, a hand, a Field) are one string of codes (`"Qs4s10d"`), a status is
  a list `[kind, amount, turns, source]`, a loadout a list `[main, off, body, head]` (trailing
  empty slots left out).

States written before (the plain pydantic dump, with every field) have no `"v"` and load as
they always did: `expand` only rewrites version 2.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.state import BgkState, Hero, Status

VERSION = 2
PILES = ("deck", "discard")
CARD_LISTS = ("hand", "field")
STATUS_FIELDS = ("kind", "amount", "turns", "source")
SLOTS = ("main", "off", "body", "head")
TRANSIENT = {name: Hero.model_fields[name].get_default(call_default_factory=True)
             for name in ("field", "statuses", "shield", "miss", "hand", "held")}
"""What a battle leaves on a character, at its value out of battle: the base an `origin`
entry is compared with."""
_CARD = re.compile(r"10[cdhs]|[A2-9JQK][cdhs]")


def _codes(codes: list[str]) -> str | list[str]:
    """Card codes as one string when every one is a valid code (else the list as it is)."""
    return "".join(codes) if all(cards.valid(c) for c in codes) else codes


def _pack_unit(unit: dict[str, Any], uid: str | None) -> dict[str, Any]:
    if uid is not None and unit.get("id") == uid:
        del unit["id"]
    for name in CARD_LISTS:
        if name in unit:
            unit[name] = _codes(unit[name])
    if "statuses" in unit:
        unit["statuses"] = [[st[f] if f in st else Status.model_fields[f].default for f in STATUS_FIELDS]
                            for st in unit["statuses"]]
    loadout = unit.get("loadout")
    if isinstance(loadout, dict):
        slots = [loadout.get(slot) for slot in SLOTS]
        while slots and slots[-1] is None:
            slots.pop()
        unit["loadout"] = slots
    return unit


def _unpack_unit(unit: dict[str, Any], uid: str | None) -> dict[str, Any]:
    unit = dict(unit)
    if uid is not None:
        unit.setdefault("id", uid)
    for name in CARD_LISTS:
        if isinstance(unit.get(name), str):
            unit[name] = _CARD.findall(unit[name])
    if "statuses" in unit:
        unit["statuses"] = [dict(zip(STATUS_FIELDS, st, strict=False)) if isinstance(st, list) else st
                            for st in unit["statuses"]]
    if isinstance(unit.get("loadout"), list):
        unit["loadout"] = dict(zip(SLOTS, unit["loadout"], strict=False))
    return unit


def dump(s: BgkState) -> str:
    """The state as compact JSON (version 2)."""
    data: dict[str, Any] = {"v": VERSION, **s.model_dump(mode="json", exclude_defaults=True)}
    if len(s.origin) == len(s.party):
        base = [{**h.model_dump(mode="json"), **TRANSIENT} for h in s.party]
        data["origin"] = [_pack_unit({k: v for k, v in h.model_dump(mode="json").items() if v != base[i][k]},
                                     None) for i, h in enumerate(s.origin)]
    else:
        data["origin_full"] = [_pack_unit(h, None) for h in data.pop("origin")]
    for pile in PILES:
        if pile in data:
            data[pile] = _codes(data[pile])
    data["party"] = [_pack_unit(h, f"c{i}") for i, h in enumerate(data["party"])]
    battle = data.get("battle")
    if battle is not None:
        battle["foes"] = [_pack_unit(f, f"e{i}") for i, f in enumerate(battle["foes"])]
        if "npcs" in battle:
            battle["npcs"] = [_pack_unit(n, f"n{i}") for i, n in enumerate(battle["npcs"])]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def expand(data: Any) -> Any:
    """A version 2 dump as the plain fields pydantic reads; anything else as it is."""
    if not isinstance(data, dict) or data.get("v") != VERSION:
        return data
    data = dict(data)
    del data["v"]
    party = data["party"] = [_unpack_unit(h, f"c{i}") for i, h in enumerate(data["party"])]
    if "origin_full" in data:
        data["origin"] = [_unpack_unit(h, None) for h in data.pop("origin_full")]
    else:
        data["origin"] = [{**party[i], **TRANSIENT, **_unpack_unit(diff, None)}
                          for i, diff in enumerate(data["origin"])]
    for pile in PILES:
        if isinstance(data.get(pile), str):
            data[pile] = _CARD.findall(data[pile])
    battle = data.get("battle")
    if battle is not None:
        battle = data["battle"] = dict(battle)
        battle["foes"] = [_unpack_unit(f, f"e{i}") for i, f in enumerate(battle["foes"])]
        battle["npcs"] = [_unpack_unit(n, f"n{i}") for i, n in enumerate(battle.get("npcs", []))]
    return data
