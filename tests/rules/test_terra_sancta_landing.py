"""Terra Sancta: where a melee attacker ends when its target survives.

The attacker leaves its square for a free square of the path it took (a slider: any of them, the
player's choice; a knight: backing along its L, the first free one); it stays where it was only when
the path has no free square. A Bot's shot is not a wound landing: the shooter stays."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction, Rng
from rules.core.state import independent_copy
from rules.terra_sancta import GAME
from rules.terra_sancta.movegen import landing_squares, piece_moves
from rules.terra_sancta.pieces import Piece
from tests.rules.test_terra_sancta import F, play, position, sq


def attack(s, frm: str, to: str, via: str | None = None):
    sheet = F[s.factions[s.board[sq(frm)].owner]]
    return next(m for m in piece_moves(s.board, sq(frm), sheet)
                if m.kind == "attack" and m.to == sq(to) and (via is None or m.via == sq(via)))


def test_slider_with_one_free_square_must_take_it():
    s = position({"f4": ("a", "R"), "f6": ("b", "R"), "g1": ("a", "K"), "f12": ("b", "K")})
    assert landing_squares(s.board, attack(s, "f4", "f6")) == [sq("f5")]
    s.rng.script(5)
    s, events = play(s, "move.piece:f4", "move.act:at.f6")
    # a single choice is made for the player: no landing step, the start square is left
    assert s.stage == "select" and s.turn_player == "b"
    assert sq("f4") not in s.board and s.board[sq("f5")] == Piece("a", "R", 16)
    assert s.board[sq("f6")].hp == 11 and s.last_attack.landed == sq("f5")
    assert any(e.kind == "land" and e.data == {"square": "f5"} for e in events)


def test_slider_with_several_free_squares_is_not_offered_its_start():
    s = position({"e5": ("a", "B"), "h8": ("b", "Q"), "g1": ("a", "K"), "f12": ("b", "K")})
    assert landing_squares(s.board, attack(s, "e5", "h8")) == [sq("f6"), sq("g7")]
    s.rng.script(3)
    s, _ = play(s, "move.piece:e5", "move.act:at.h8")
    assert s.stage == "land" and s.landing == [sq("f6"), sq("g7")]
    assert [a.key for a in GAME.legal_actions(s, "a")] == ["land.square:f6", "land.square:g7"]
    with pytest.raises(IllegalAction):
        GAME.apply(s, "a", "land.square:e5")
    s, _ = play(s, "land.square:g7")
    assert s.board[sq("g7")].kind == "B" and sq("e5") not in s.board


def test_slider_hitting_an_adjacent_piece_stays():
    s = position({"f5": ("a", "Q"), "f6": ("b", "R"), "g1": ("a", "K"), "f12": ("b", "K")})
    assert landing_squares(s.board, attack(s, "f5", "f6")) == [sq("f5")]
    s.rng.script(4)
    s, events = play(s, "move.piece:f5", "move.act:at.f6")
    assert s.board[sq("f5")].kind == "Q" and s.board[sq("f6")].hp == 12 and s.turn_player == "b"
    assert not any(e.kind == "land" for e in events)


def test_slider_whose_path_is_full_stays():
    s = position({"f4": ("a", "R"), "f7": ("b", "R"), "g1": ("a", "K"), "f12": ("b", "K")})
    move = attack(s, "f4", "f7")
    assert landing_squares(s.board, move) == [sq("f5"), sq("f6")]
    s.board[sq("f5")] = Piece("a", "P", 8)  # the path filled up behind it
    assert landing_squares(s.board, move) == [sq("f6")]
    s.board[sq("f6")] = Piece("b", "P", 8)
    assert landing_squares(s.board, move) == [sq("f4")]


def test_pawn_and_king_adjacent_attacks_stay():
    s = position({"f5": ("a", "P"), "g6": ("b", "Q"), "g1": ("a", "K"), "h2": ("b", "N"), "f12": ("b", "K")})
    assert landing_squares(s.board, attack(s, "f5", "g6")) == [sq("f5")]
    assert landing_squares(s.board, attack(s, "g1", "h2")) == [sq("g1")]
    s.rng.script(2)
    s, _ = play(s, "move.piece:g1", "move.act:at.h2")
    assert s.board[sq("g1")].kind == "K" and s.board[sq("h2")].hp == 14


@pytest.mark.parametrize("blocked,lands", [
    ((), "g7"),                # backs from g8 to g7
    (("g7",), "g6"),           # g7 taken: on to g6
    (("g6",), "g7"),           # the first free square backing from the target
    (("g6", "g7"), "f6"),      # the whole L is taken: it stays
])
def test_knight_backs_along_its_named_l(blocked, lands):
    pieces = {"f6": ("a", "N"), "g8": ("b", "R"), "g1": ("a", "K"), "f12": ("b", "K")}
    pieces |= {q: ("b", "P") for q in blocked}
    s = position(pieces)
    assert landing_squares(s.board, attack(s, "f6", "g8", via="g6")) == [sq(lands)]
    s.rng.script(6)
    s, _ = play(s, "move.piece:f6", "move.act:at.g8.g6")
    assert s.stage == "select" and s.board[sq(lands)].kind == "N" and s.board[sq("g8")].hp == 10
    assert (sq("f6") in s.board) == (lands == "f6")


def test_knight_other_l_lands_on_its_own_path():
    # via f8 the L crosses f7 then f8: backing from g8 it stops on f8, never on the other L's squares
    s = position({"f6": ("a", "N"), "g8": ("b", "R"), "g1": ("a", "K"), "f12": ("b", "K")})
    assert landing_squares(s.board, attack(s, "f6", "g8", via="f8")) == [sq("f8")]
    s.board[sq("f8")] = Piece("b", "P", 8)
    assert landing_squares(s.board, attack(s, "f6", "g8", via="f8")) == [sq("f7")]


def test_bots_melee_leaves_its_square_but_a_shot_stays():
    s = position({"f4": ("a", "R"), "f7": ("b", "B"), "g1": ("a", "K"), "f12": ("b", "K")},
                 factions=("bots", "grove"))
    other = independent_copy(s)  # the same position, for the shot
    s.rng.script(5)
    melee, _ = play(s, "move.piece:f4", "move.act:at.f7")
    assert melee.stage == "land" and melee.landing == [sq("f5"), sq("f6")]
    other.rng.script(5)
    shot, _ = play(other, "move.piece:f4", "move.act:sh.f7")
    assert shot.board[sq("f4")].kind == "R" and shot.board[sq("f7")].hp == 11 and shot.turn_player == "b"


def test_automatic_player_lands_on_the_safest_free_square():
    # after wounding the bishop on f8, f5 is in reach of the bishop on h7 and f6 of the rook on k6;
    # f7 is safe (the start f4 would be safe too, but it is no longer a choice)
    s = position({"f4": ("a", "R"), "f8": ("b", "B"), "h7": ("b", "B"), "k6": ("b", "R"),
                  "g1": ("a", "K"), "f12": ("b", "K")})
    s.rng.script(5)
    s, _ = play(s, "move.piece:f4", "move.act:at.f8")
    assert s.landing == [sq("f5"), sq("f6"), sq("f7")]
    assert GAME.auto_action(s, "a", Rng(seed=1)).key == "land.square:f7"
