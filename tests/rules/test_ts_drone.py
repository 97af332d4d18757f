"""Terra Sancta, the Bots' Ranged fire at close range (issue 29, item 12).

A shot is the rulebook's "attack from a distance": it needs at least one square between the
shooter and its target. So a Drone shoots exactly 2 squares away and a larger Bot 2 or 3 squares
away, and a piece right next to a Bot is fought in melee only, where the Bot's own move reaches
it (a Drone: diagonally). The Bots' sheet said "up to 2 squares away", which read as if a Drone
could shoot its neighbour; it now says what the move generator does, and these tests hold the
two to each other. (Allowing point-blank shots was tried and measured: content/README.md.)
"""

from __future__ import annotations

import re

import pytest

from rules.core import IllegalAction
from rules.terra_sancta import GAME, policy
from rules.terra_sancta.board import offset, square_name
from rules.terra_sancta.content import load_factions
from rules.terra_sancta.movegen import piece_moves
from rules.terra_sancta.notation import parse_line
from rules.terra_sancta.sight import board_masks, sheet_sight
from tests.rules.test_terra_sancta import play, position, sq

F = load_factions()
BOTS = F["bots"]


def offered(s, frm: str, to: str) -> list[str]:
    """The kinds of act the piece on `frm` is offered against the square `to`, sorted."""
    sheet = F[s.factions[s.board[sq(frm)].owner]]
    return sorted(m.kind for m in piece_moves(s.board, sq(frm), sheet) if square_name(m.to) == to)


def facing(enemy: str, kind: str = "P", shooter: str = "P", at: str = "f6"):
    """A Bot `shooter` on `at` (a Drone on f6 unless told) and one enemy `kind` on `enemy`."""
    return position({at: ("a", shooter), enemy: ("b", kind), "g1": ("a", "K"), "f12": ("b", "K")},
                    factions=("bots", "grove"))


@pytest.mark.parametrize("enemy", ["f7", "f5", "e6", "g6"])
def test_a_drone_orthogonally_next_to_an_enemy_can_neither_shoot_nor_attack_it(enemy):
    assert offered(facing(enemy), "f6", enemy) == []


@pytest.mark.parametrize("enemy", ["e7", "g7", "e5", "g5"])
def test_a_drone_diagonally_next_to_an_enemy_attacks_it_in_melee_only(enemy):
    assert offered(facing(enemy), "f6", enemy) == ["attack"]


@pytest.mark.parametrize(("enemy", "kinds"), [
    ("f8", ["shot"]), ("d6", ["shot"]), ("h8", ["shot"]), ("h4", ["shot"]),  # 2 away, both ways
    ("f9", []), ("c6", []),                                                     # 3 away: out of reach
    ("g8", []),                                                                 # not on a line
])
def test_a_drone_shoots_exactly_two_squares_away(enemy, kinds):
    assert offered(facing(enemy), "f6", enemy) == kinds


def test_a_piece_between_blocks_the_shot_and_a_king_is_never_shot():
    s = position({"f6": ("a", "P"), "f7": ("a", "P"), "f8": ("b", "P"), "g1": ("a", "K"), "f12": ("b", "K")},
                 factions=("bots", "grove"))
    assert offered(s, "f6", "f8") == []
    assert offered(facing("f8", kind="K"), "f6", "f8") == []


@pytest.mark.parametrize(("shooter", "enemy", "kinds"), [
    ("N", "f7", []), ("N", "g7", []),               # a Walker's L never reaches a neighbour
    ("B", "f7", []), ("B", "g7", ["attack"]),       # a Turret slides diagonally
    ("R", "g7", []), ("R", "f7", ["attack"]),       # a Tank slides orthogonally
    ("Q", "f7", ["attack"]), ("Q", "g7", ["attack"]),
    ("N", "f8", ["shot"]), ("B", "f9", ["shot"]), ("R", "h8", ["shot"]), ("N", "f9", ["shot"]),
    ("N", "f10", []),                               # 4 away: out of reach
    ("B", "h8", ["attack", "shot"]),                # two squares along its own slide: either
])
def test_larger_bots_shoot_two_or_three_squares_away_never_a_neighbour(shooter, enemy, kinds):
    assert offered(facing(enemy, shooter=shooter), "f6", enemy) == kinds


def test_the_sheet_says_what_the_rule_does():
    """The distances and dice written on the Bots' sheet are the ones the move generator uses:
    a shot at each written distance and at no other, for a Drone and for every larger Bot."""
    text = " ".join(BOTS.ability.text.split())
    drone_words = re.search(r"a Drone exactly (\d+) squares away", text)
    large_words = re.search(r"a larger Bot (\d+) or (\d+) squares away", text)
    assert drone_words is not None and large_words is not None, text
    drone = int(drone_words.group(1))
    low, high = map(int, large_words.groups())
    assert "a piece right next to a Bot cannot be shot" in text
    assert f"d{BOTS.ability.pawn_shot_die} for a Drone" in text
    assert f"d{BOTS.ability.large_shot_die} for a larger Bot" in text
    for shooter, reach in (("P", {drone}), ("N", {low, high}), ("B", {low, high}), ("R", {low, high}),
                           ("Q", {low, high})):
        for at, (df, dr) in (("f6", (0, 1)), ("e1", (1, 1))):  # a line north, a diagonal north-east
            shot_at = set()
            for distance in range(1, 6):
                target = offset(sq(at), df * distance, dr * distance)
                assert target is not None
                enemy = square_name(target)
                if "shot" in offered(facing(enemy, shooter=shooter, at=at), at, enemy):
                    shot_at.add(distance)
            assert shot_at == reach, (shooter, at)


def test_the_table_offers_and_marks_only_what_the_rule_gives():
    """A Drone with an enemy beside it (f7) and one diagonally next to it (g7): its menu and the
    board's target marks hold the melee attack on g7 and nothing on f7; typing a shot at either
    is refused."""
    s = position({"f6": ("a", "P"), "f7": ("b", "B"), "g7": ("b", "B"), "g1": ("a", "K"), "f12": ("b", "K")},
                 factions=("bots", "grove"))
    chosen, _ = play(s, "move.piece:f6")
    acts = {a.key: a.label for a in GAME.legal_actions(chosen, "a")}
    assert sorted(k for k in acts if ".f7" in k or ".g7" in k) == ["move.act:at.g7"]
    assert acts["move.act:at.g7"].startswith("Attack")
    assert GAME.view(chosen, "a").targets == ["g7"]
    for typed in ("f6*f7", "f6*g7", "f6xf7"):
        with pytest.raises(IllegalAction, match="cannot do"):
            parse_line(GAME, s, "a", typed)
    assert parse_line(GAME, s, "a", "f6xg7") == ["move.piece:f6", "move.act:at.g7"]


def test_the_automatic_player_reads_the_same_reach():
    """Its threat map and its kept sights count a Drone's diagonal neighbours and the squares 2
    away on its lines, never its orthogonal neighbours; and it takes a shot that may kill."""
    s = position({"f6": ("a", "P"), "f7": ("b", "B", 3), "f8": ("b", "B", 2), "g7": ("b", "P"),
                  "g1": ("a", "K"), "f12": ("b", "K")}, factions=("bots", "grove"))
    _, reach = policy.threat_map(s, "b")
    assert sq("f6") not in reach.get(sq("f7"), set()) and sq("f6") in reach[sq("g7")]
    found = sheet_sight(BOTS).piece_targets(s.board, sq("f6"), s.board[sq("f6")], board_masks(s.board))
    assert sq("f7") not in found.squares and sq("g7") in found.squares
    del s.board[sq("f7")], s.board[sq("g7")]
    move = policy.top_move(s, "a")
    assert move is not None and (move.kind, square_name(move.frm), square_name(move.to)) == ("shot", "f6", "f8")
