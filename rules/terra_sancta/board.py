"""The 12x12 board: squares, names "a1".."l12", the four sides, Terra Sancta and the crown squares.

A square is an int 0..143: `rank * 12 + file`, file 0 = "a", rank 0 = "1". South sits at the
bottom (ranks 1-4, files e-h), west at the left, north at the top, east at the right; each side's
4x4 starting square is the south one turned around the centre. Terra Sancta is the centre 4x4
(e5-h8). The four 4x4 corners (a1-d4 and the like) are not part of the board: the board is a cross,
so that no king stands on an open diagonal to its neighbour's back row.
"""

from __future__ import annotations

SIZE = 12
FILES = "abcdefghijkl"
SQUARES = range(SIZE * SIZE)

SIDES = ("S", "W", "N", "E")
"""Clockwise seen from above, south at the bottom."""
SIDE_NAMES = {"S": "south", "W": "west", "N": "north", "E": "east"}

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ALL_DIRECTIONS = ORTHOGONAL + DIAGONAL
KNIGHT_JUMPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


class SquareError(ValueError):
    """A square name that is malformed or off the board."""


def square(file: int, rank: int) -> int:
    return rank * SIZE + file


def on_board(file: int, rank: int) -> bool:
    """Inside the 12x12 square and outside the four cut corners."""
    return 0 <= file < SIZE and 0 <= rank < SIZE and (4 <= file < 8 or 4 <= rank < 8)


PLAYABLE = frozenset(square(f, r) for r in range(SIZE) for f in range(SIZE) if on_board(f, r))
"""The 80 squares of the cross."""


def offset(sq: int, df: int, dr: int) -> int | None:
    """The square `df` files and `dr` ranks away, or None off the board."""
    f, r = sq % SIZE + df, sq // SIZE + dr
    return r * SIZE + f if on_board(f, r) else None


SQUARE_NAMES = [f"{FILES[s % SIZE]}{s // SIZE + 1}" for s in SQUARES]
_BY_NAME = {n: i for i, n in enumerate(SQUARE_NAMES)}


def square_name(sq: int) -> str:
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> int:
    """'b3' -> its square; raises SquareError for anything else."""
    sq = _BY_NAME.get(name.strip().lower())
    if sq is None:
        raise SquareError(f"`{name}` is not a square: use a file a-l and a rank 1-12, like `e3`.")
    if sq not in PLAYABLE:
        raise SquareError(f"`{name}` is in a cut corner, not on the board.")
    return sq


def chebyshev(a: int, b: int) -> int:
    return max(abs(a % SIZE - b % SIZE), abs(a // SIZE - b // SIZE))


def _rotate(file: int, rank: int, side: str) -> tuple[int, int]:
    """South's local coordinates turned to another side (a quarter turn clockwise per side)."""
    for _ in range(SIDES.index(side)):
        file, rank = rank, SIZE - 1 - file
    return file, rank


# South's starting square, back row first (rank 1), files e-h. Others are this turned.
SOUTH_LAYOUT = (
    ("R", "Q", "K", "R"),
    ("N", "B", "B", "N"),
    ("P", "P", "P", "P"),
    ("P", "P", "P", "P"),
)


def start_layout(side: str) -> dict[int, str]:
    """square -> piece kind at the start, for one side."""
    out = {}
    for row, kinds in enumerate(SOUTH_LAYOUT):
        for col, kind in enumerate(kinds):
            f, r = _rotate(4 + col, row, side)
            out[square(f, r)] = kind
    return out


CROWN = {side: next(sq for sq, k in start_layout(side).items() if k == "K") for side in SIDES}
"""The crown square of each side, where its king starts."""

HOME = {side: frozenset(start_layout(side)) for side in SIDES}
"""Each side's 4x4 starting square."""

TERRA_SANCTA = frozenset(square(f, r) for f in range(4, 8) for r in range(4, 8))
"""The centre 4x4, e5-h8."""

FORWARD = {"S": (0, 1), "W": (1, 0), "N": (0, -1), "E": (-1, 0)}
"""The direction each side's pawns face (towards the centre)."""
