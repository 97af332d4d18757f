"""What a copy may not share with its original: every list, dict, set and model reachable from
a value (the speed tests check that hand-made copies share none of them)."""

from __future__ import annotations

from pydantic import BaseModel


def mutables(value: object, out: list[object] | None = None) -> list[object]:
    """The lists, dicts, sets and models reachable from `value` (itself included)."""
    found: list[object] = [] if out is None else out
    if isinstance(value, (list, dict, set, BaseModel)):
        found.append(value)
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else \
        value.__dict__.values() if isinstance(value, BaseModel) else ()
    for v in items:
        mutables(v, found)
    return found
