"""Which of the last move and the last attack the board highlights: only the one made last, only
while it is the move just made, and a mark saved without its turn never outlives newer ones."""

from __future__ import annotations

from rules.terra_sancta import GAME
from rules.terra_sancta.game import _just_made
from rules.terra_sancta.state import Mark


def _state(turn: int, moved: Mark | None, attacked: Mark | None):
    s = GAME.setup(["a", "b"], {}, 1)
    return s.model_copy(update={"turn": turn, "last_move": moved, "last_attack": attacked})


def test_the_newer_mark_alone_while_it_is_the_move_just_made():
    move, attack = Mark(frm=1, to=2, turn=7), Mark(frm=3, to=4, turn=6)
    assert _just_made(_state(8, move, attack)) == (move, None)
    assert _just_made(_state(7, None, attack)) == (None, attack)


def test_nothing_after_a_pass():
    attack = Mark(frm=3, to=4, turn=6)
    assert _just_made(_state(7, None, attack)) == (None, attack)  # the turn after it
    assert _just_made(_state(8, None, attack)) == (None, None)  # a turn passed without a move


def test_a_mark_saved_without_its_turn_is_older_than_any_new_one():
    old_attack = Mark(frm=3, to=4)  # saved before marks kept their turn
    move = Mark(frm=1, to=2, turn=20)
    assert _just_made(_state(20, move, old_attack)) == (move, None)
    assert _just_made(_state(20, Mark(frm=1, to=2), old_attack)) == (Mark(frm=1, to=2), old_attack)
