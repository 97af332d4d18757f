"""The fourth round of speed work on Terra Sancta: each enemy's threat kept from one call of
`threat_table` to the next and brought up to date (threats.EnemyThreat), and the automatic
player making the chosen piece's or act's action itself instead of looking its key up again
(policy.choose). Each test compares the shortcut with the long way and fails if it gives another
answer."""

from __future__ import annotations

from rules.core import Rng
from rules.terra_sancta import GAME as TS
from rules.terra_sancta import threats
from rules.terra_sancta.board import SQUARES, square
from rules.terra_sancta.content import factions_of
from rules.terra_sancta.pieces import Piece
from rules.terra_sancta.policy import threat_map
from rules.terra_sancta.sight import board_masks, sheet_sight
from rules.terra_sancta.state import TSState
from rules.terra_sancta.threats import EnemyThreat, threat_table
from tests.support.playout import automatic_positions


def _positions(players: int, seeds: range, random_share: int) -> list[TSState]:
    return [s for s in automatic_positions(TS, players, seeds, 10_000, {"factions": "random"}, random_share)
            if s.stage != "faction"]


_POSITIONS = _positions(4, range(2), 25) + _positions(2, range(2), 25)
"""Positions of whole games in the order they were played, with every faction."""


# --- each enemy's threat kept and brought up to date ------------------------------------------


def _check_threats(positions: list[TSState]) -> int:
    """Compare `threat_table` with the long way (`policy.threat_map`) for every player of each
    position, in the order given; the number of tables compared."""
    checked = 0
    for s in positions:
        masks = board_masks(s.board)
        for player in s.alive:
            threat, reach = threat_map(s, player)
            king = next(q for q, p in s.board.items() if p.owner == player and p.kind == "K")
            table, attackers = threat_table(s, player, king, masks)
            assert table == [threat.get(q, 0.0) for q in SQUARES]
            assert attackers == reach.get(king, set())
            checked += 1
    return checked


def test_kept_enemy_threats_are_right_in_the_order_of_play():
    threats.forget_enemies()
    assert _check_threats(_POSITIONS) > 1000


def test_kept_enemy_threats_are_right_on_boards_in_any_order():
    """Each kept enemy is brought up to date from whatever board it saw last: another game,
    another number of players, a position far earlier or later."""
    shuffled = list(_POSITIONS)
    Rng(seed=7).shuffle(shuffled)
    assert _check_threats(shuffled) > 1000
    assert _check_threats(shuffled[::-1][:300]) > 300


def test_kept_enemy_threats_look_up_only_the_pieces_that_changed(monkeypatch):
    """In the order of play most pieces are neither moved nor see a changed square."""
    threats.forget_enemies()
    looked_up: list[int] = []
    add = EnemyThreat._add

    def counted(self: EnemyThreat, board: dict[int, Piece], sq: int, *masks: int) -> None:
        looked_up.append(sq)
        add(self, board, sq, *masks)

    monkeypatch.setattr(EnemyThreat, "_add", counted)
    visited = 0
    for s in _POSITIONS[:600]:
        if s.turn_player is None:
            continue
        threat_table(s, s.turn_player, None, board_masks(s.board))
        visited += sum(p.owner != s.turn_player for p in s.board.values())
    assert visited > 10_000 and 0 < len(looked_up) < visited * 0.3


def _sheet():
    return next(iter(factions_of(_POSITIONS[0].content).values()))


def _weight_the_long_way(board: dict[int, Piece], owner: str) -> int:
    seen = sheet_sight(_sheet())
    masks = board_masks(board)
    return sum(seen.piece_targets(board, sq, p, masks).weight for sq, p in board.items() if p.owner == owner)


def _update(kept: EnemyThreat, board: dict[int, Piece], owner: str) -> int:
    taken, kings, owners = board_masks(board)
    return kept.update(board, taken, owners.get(owner, 0), kings)


def test_a_kept_enemy_sees_another_piece_on_a_square_with_the_same_masks():
    """Boards whose masks (taken, each owner's, kings) are the same but with another piece on
    one square (a knight, a rook, a wounded rook, a bishop): the piece is looked up again, as
    the masks alone could not tell."""
    kept = EnemyThreat(sheet_sight(_sheet()))
    here, king, other = square(5, 5), square(5, 0), square(9, 6)
    for piece in (Piece("x", "N", 16), Piece("x", "R", 16), Piece("x", "R", 9), Piece("x", "B", 16)):
        board = {here: piece, king: Piece("x", "K", 16), other: Piece("y", "P", 8)}
        assert _update(kept, board, "x") == _weight_the_long_way(board, "x")


def test_a_kept_enemy_follows_moves_captures_and_lost_pieces():
    kept = EnemyThreat(sheet_sight(_sheet()))
    rook, king, queen = Piece("x", "R", 16), Piece("x", "K", 16), Piece("y", "Q", 16)
    boards = [
        {square(4, 4): rook, square(5, 0): king, square(4, 9): Piece("y", "P", 8)},
        {square(4, 9): rook, square(5, 0): king},  # the rook takes the pawn
        {square(4, 9): queen, square(5, 0): king},  # and is taken
        {square(4, 9): queen, square(5, 1): king, square(6, 6): rook},  # a rook is back, the king moves
        {square(5, 1): king},
        {},
    ]
    for board in boards:
        assert _update(kept, board, "x") == _weight_the_long_way(board, "x")
    assert kept.pieces == {}


# --- the automatic player's action made, not looked up ---------------------------------------


def test_the_automatic_player_makes_the_action_find_action_finds():
    """The automatic player makes the chosen piece's or act's action itself (the move comes from
    the move generator): it is the action `find_action` finds for its key, and one on offer."""
    pieces = acts = 0
    for s in _POSITIONS:
        p = s.turn_player
        if s.stage != "select" or p is None:
            continue
        action = TS.auto_action(s, p, Rng(seed=1))
        assert action == TS.find_action(s, p, action.key)
        assert action in TS.legal_actions(s, p)
        if s.building is None:
            pieces += 1
        else:
            acts += 1
    assert pieces > 300 and acts > 300
