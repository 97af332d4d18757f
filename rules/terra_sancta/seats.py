"""What the automatic player reads of a player on every turn and that stays the same all game:
the player's faction sheet, what the move generator makes of it, how far each of its kinds
reaches, and each enemy's kept threat (`threats.EnemyThreat`).

All of it follows from the version of the faction sheets (`TSState.content`), the player and
every player's faction, so it is kept under those and looked up once a turn instead of being
gathered piece by piece. A state saved before the sheets were pinned (no version) reads the
files each time, so its seat is never kept. The seats are dropped all at once when there are
`LIMIT` of them, so memory stays bounded. They are kept per thread (see `_KeptSeats`).
"""

from __future__ import annotations

import threading
from typing import NamedTuple

from rules.terra_sancta.content import FactionSheet, factions_of
from rules.terra_sancta.movegen import _Hooks, hooks
from rules.terra_sancta.pieces import KINDS
from rules.terra_sancta.state import TSState
from rules.terra_sancta.threats import EnemyThreat, enemy_threats

LIMIT = 256
"""Kept seats (over every game, per thread) after which they are all dropped."""


class Seat(NamedTuple):
    sheet: FactionSheet
    hooks: _Hooks
    """`movegen.hooks(sheet)`."""
    reach: dict[str, int]
    """kind -> how far a piece of that kind reaches (11: the whole board)."""
    enemies: tuple[tuple[str, EnemyThreat], ...]
    """`threats.enemy_threats` of the player."""


def reach_limits(sheet: FactionSheet) -> dict[str, int]:
    """kind -> how far a piece of that kind reaches (11: the whole board)."""
    return {k: sheet.piece(k).range or 11 for k in KINDS}


class _KeptSeats(threading.local):
    """The kept seats of one thread: a seat holds its enemies' `EnemyThreat`s, which the game
    asking brings up to date in place, so games played at once in two threads share none."""

    def __init__(self) -> None:
        self.seats: dict[tuple[str, str, tuple[tuple[str, str], ...]], Seat] = {}


_KEPT = _KeptSeats()


def kept_seats() -> dict[tuple[str, str, tuple[tuple[str, str], ...]], Seat]:
    """This thread's kept seats."""
    return _KEPT.seats


def seat(s: TSState, player: str) -> Seat:
    """The `Seat` of `player` in the game of `s` (`made_seat`, kept in this thread)."""
    if not s.content:
        return made_seat(s, player)
    kept = _KEPT.seats
    key = (s.content, player, tuple(s.factions.items()))
    found = kept.get(key)
    if found is None:
        if len(kept) >= LIMIT:
            kept.clear()
        found = kept[key] = made_seat(s, player)
    return found


def made_seat(s: TSState, player: str) -> Seat:
    """The `Seat` of `player` in the game of `s`, made anew."""
    sheet = factions_of(s.content)[s.factions[player]]
    return Seat(sheet, hooks(sheet), reach_limits(sheet), tuple(enemy_threats(s, player)))


def forget() -> None:
    """Drop this thread's kept seats."""
    _KEPT.seats.clear()
