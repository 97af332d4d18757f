"""The fifth round of speed work on Terra Sancta, continued: a kept enemy piece looked up again
only when a square its targets depend on changed (sight.examined, threats.EnemyThreat), and what
the automatic player reads of a player all game long kept per seat (seats.py). Each test
compares the shortcut with the long way and fails if they differ."""

from __future__ import annotations

from rules.core import Rng
from rules.terra_sancta import GAME as TS
from rules.terra_sancta import seats, threats
from rules.terra_sancta.board import PLAYABLE
from rules.terra_sancta.content import factions_of
from rules.terra_sancta.movegen import STEPS_DIAGONAL, hooks, shot_lines, targets_with
from rules.terra_sancta.pieces import Piece
from rules.terra_sancta.sight import BIT, examined
from rules.terra_sancta.state import TSState
from tests.support.playout import automatic_positions


def _positions() -> list[TSState]:
    return [s for players in (4, 2)
            for s in automatic_positions(TS, players, range(2), 10_000, {"factions": "random"}, 25)
            if s.stage != "faction"]


_POSITIONS = _positions()
"""Positions of whole games in the order they were played, with every faction."""


def _targets(board: dict[int, Piece], sq: int, sheet) -> frozenset[int]:
    """What the piece on `sq` threatens, the long way (as `policy.threat_map` counts it)."""
    if board[sq].kind == "P":
        shots = shot_lines(board, sq, sheet) if hooks(sheet).ranged else []
        return frozenset(STEPS_DIAGONAL[sq]) | {to for to, _ in shots}
    return frozenset(targets_with(board, sq, sheet, hooks(sheet)))


def test_a_piece_threatens_the_same_whatever_stands_outside_what_it_examined():
    """Every piece of many positions: emptying, filling (with a piece of its owner's, another
    player's, a king) or changing any square it did not examine leaves its targets as they were;
    so does a change of its own health."""
    rng = Rng(seed=3)
    checked = 0
    for s in _POSITIONS[::40]:
        for sq, piece in s.board.items():
            sheet = factions_of(s.content)[s.factions[piece.owner]]
            depends = examined(s.board, sq, piece.kind, sheet, hooks(sheet))
            assert depends & BIT[sq]
            before = _targets(s.board, sq, sheet)
            other = next(p for p in s.alive if p != piece.owner)
            outside = [q for q in sorted(PLAYABLE) if not depends & BIT[q]]
            for q in rng.shuffled(outside)[:12]:
                for there in (None, Piece(piece.owner, "R", 16), Piece(other, "N", 16), Piece(other, "K", 16)):
                    board = dict(s.board)
                    if there is None:
                        board.pop(q, None)
                    else:
                        board[q] = there
                    assert _targets(board, sq, sheet) == before, (sq, piece, q, there)
                    checked += 1
            hurt = dict(s.board)
            hurt[sq] = piece._replace(hp=1)
            assert _targets(hurt, sq, sheet) == before
    assert checked > 20_000


def test_a_slider_examines_its_lines_up_to_the_first_piece_only():
    """A rook on an empty line examines it to the edge; a piece on the line ends what it
    examines there (the blocker included)."""
    sheet = next(f for f in factions_of(_POSITIONS[0].content).values() if not hooks(f).ranged
                 and f.piece("R").range is None)
    rook, blocker, beyond = 5 * 12 + 4, 5 * 12 + 7, 5 * 12 + 9  # e6, h6, j6
    alone = {rook: Piece("x", "R", 16)}
    blocked = {**alone, blocker: Piece("y", "P", 8)}
    assert examined(alone, rook, "R", sheet, hooks(sheet)) & BIT[beyond]
    found = examined(blocked, rook, "R", sheet, hooks(sheet))
    assert found & BIT[blocker] and not found & BIT[beyond]


def test_kept_enemy_threats_are_right_when_a_piece_is_swapped_for_another_kind():
    """The masks cannot tell a piece from another of its owner's (one leaves a square, another
    comes): the kept kind can."""
    sheet = next(iter(factions_of(_POSITIONS[0].content).values()))
    kept = threats.EnemyThreat(threats.sheet_sight(sheet))
    here, king = 5 * 12 + 5, 5 * 12 + 0
    for kind in ("N", "R", "B", "Q", "P", "N"):
        board = {here: Piece("x", kind, 16 if kind != "P" else 8), king: Piece("x", "K", 16)}
        masks = threats.board_masks(board)
        expected = sum(threats.sheet_sight(sheet).piece_targets(board, q, p, masks).weight for q, p in board.items())
        assert kept.update(board, masks.taken, masks.owners["x"], masks.kings) == expected


def test_a_kept_seat_is_the_one_made_anew():
    seats.forget()
    checked = 0
    for s in _POSITIONS[::25]:
        for player in s.alive:
            kept, made = seats.seat(s, player), seats.made_seat(s, player)
            assert kept.sheet is made.sheet is factions_of(s.content)[s.factions[player]]
            assert kept.hooks == made.hooks == hooks(kept.sheet)
            assert kept.reach == made.reach == {k: kept.sheet.piece(k).range or 11 for k in kept.reach}
            assert [owner for owner, _ in kept.enemies] == [p for p in s.factions if p != player]
            assert [e.sight.sheet for _, e in kept.enemies] == [factions_of(s.content)[s.factions[p]]
                                                                for p in s.factions if p != player]
            checked += 1
    assert checked > 100 and 0 < len(seats.kept_seats()) <= seats.LIMIT


def test_a_seat_of_a_state_saved_before_pinning_is_not_kept():
    s = _POSITIONS[0].model_copy(update={"content": ""})
    seats.forget()
    assert seats.seat(s, s.alive[0]).sheet.id == s.factions[s.alive[0]]
    assert seats.kept_seats() == {}
