"""Options made once: the options a step offers (a foe to aim at, how an ability is aimed) are
the same for the same value and label at every move, and an Option is frozen, so one made
before is handed out again instead of being made anew (a dataclass made with keywords costs
several times a lookup)."""

from __future__ import annotations

from functools import lru_cache

from rules.core.steps import Option


@lru_cache(maxsize=8192)
def option(value: str, label: str) -> Option:
    """`Option(value=value, label=label)`, made once per value and label."""
    return Option(value=value, label=label)
