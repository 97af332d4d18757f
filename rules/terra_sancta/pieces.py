"""Piece kinds, their health and attack dice, and the piece value kept on the board."""

from __future__ import annotations

from typing import Literal, NamedTuple

PieceKind = Literal["pawn", "knight", "bishop", "rook", "champion", "king"]
"""The key of a piece kind in a faction file."""

KINDS = ("P", "N", "B", "R", "Q", "K")
KIND_NAMES = {"P": "Pawn", "N": "Knight", "B": "Bishop", "R": "Rook", "Q": "Champion", "K": "King"}
KIND_KEYS: dict[str, PieceKind] = {"P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "champion", "K": "king"}
"""The key of each kind in a faction file."""

SMALL_HEALTH = 8
LARGE_HEALTH = 16


def max_health(kind: str) -> int:
    """Pawns are small (8 health), every other piece is large (16)."""
    return SMALL_HEALTH if kind == "P" else LARGE_HEALTH


def attack_die(kind: str) -> int:
    """A small piece attacks with a d8, a large one with a d16."""
    return 8 if kind == "P" else 16


class Piece(NamedTuple):
    """One piece on the board (immutable: a change is a new Piece)."""

    owner: str
    """The player id of the faction it belongs to."""
    kind: str
    """P, N, B, R, Q (champion) or K."""
    hp: int
    """Current health, 1..max_health(kind)."""

    @property
    def max_hp(self) -> int:
        return max_health(self.kind)

    @property
    def wounded(self) -> bool:
        return self.hp < max_health(self.kind)
