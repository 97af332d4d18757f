"""Terra Sancta's move menu says what each option does: which piece goes where, what it attacks
(the target's kind, square and its faction's name for it), with which die and the rolls that kill."""

from __future__ import annotations

from rules.core import Rng
from rules.terra_sancta import GAME
from tests.rules.test_terra_sancta import play, position


def _acts(s, piece: str):
    s, _ = play(s, f"move.piece:{piece}")
    return {a.key: a for a in GAME.legal_actions(s, s.turn_player) if a.key.startswith("move.act:")}


def test_a_plain_move_names_the_piece_and_both_squares():
    s = position({"f4": ("a", "N"), "g1": ("a", "K"), "f12": ("b", "K")})
    acts = _acts(s, "f4")
    labels = {a.label: a.description for a in acts.values()}
    assert labels["Knight f4 to e2"] == "Moves to an empty square, no attack"
    assert labels["Knight f4 to g6"] == "Moves to an empty square of Terra Sancta, no attack"
    assert all(a.description != "Move" for a in acts.values())


def test_a_plain_move_of_another_kind_between_the_same_squares_names_that_kind():
    """Plain moves' actions are kept per pair of squares and kind: a king and a champion stepping
    from f4 to f5 each read as themselves, whichever came first."""
    for kind, name, king in (("K", "King", "h1"), ("Q", "Champion", "g1"), ("K", "King", "h1")):
        pieces = {"f4": ("a", kind), "f12": ("b", "K")}
        if kind != "K":
            pieces[king] = ("a", "K")
        assert any(a.label == f"{name} f4 to f5" for a in _acts(position(pieces), "f4").values()), kind


def test_an_attack_names_its_target_and_says_which_rolls_kill():
    s = position({"f4": ("a", "R"), "f8": ("b", "R", 12), "e4": ("b", "P", 3), "g1": ("a", "K"), "f12": ("b", "K")})
    acts = _acts(s, "f4")
    rook = acts["move.act:at.f8"]
    assert rook.label == "Attack Rook f8 (Tank)"  # the Bots' rook
    assert rook.description == "Rook f4 attacks with a d16 against 12/16 health: kills on 12+ (5 in 16)"
    pawn = acts["move.act:at.e4"]
    assert pawn.label == "Attack Pawn e4 (Drone)"
    assert pawn.description == "Rook f4 attacks with a d16 against 3/8 health: kills on 3+ (14 in 16)"


def test_a_pawn_that_cannot_kill_says_so():
    s = position({"f4": ("a", "P"), "g5": ("b", "R", 12), "g1": ("a", "K"), "f12": ("b", "K")})
    attack = _acts(s, "f4")["move.act:at.g5"]
    assert attack.description == "Pawn f4 attacks with a d8 against 12/16 health: cannot kill it"


def test_a_knights_two_paths_to_one_target_read_apart():
    s = position({"f6": ("a", "N"), "f7": ("a", "P"), "g6": ("b", "P"), "g8": ("b", "P"), "g1": ("a", "K"),
                  "f12": ("b", "K")})
    attacks = [a for a in _acts(s, "f6").values() if a.label.startswith("Attack Pawn g8")]
    assert sorted(a.label for a in attacks) == ["Attack Pawn g8 (Drone) via f8", "Attack Pawn g8 (Drone) via g6"]
    assert all(" via " in a.description for a in attacks)


def test_a_shot_names_its_target_and_the_shooting_die():
    s = position({"f4": ("a", "P"), "f6": ("b", "B"), "g1": ("a", "K"), "f12": ("b", "K")}, factions=("bots", "grove"))
    shot = _acts(s, "f4")["move.act:sh.f6"]
    assert shot.label == "Shoot Bishop f6 (Dryad)"
    assert shot.description == "Pawn f4 shoots with a d6 against 16/16 health: cannot kill it"


def test_every_option_of_whole_games_fits_a_menu_and_reads_apart():
    """Over whole automatic games: every move option's words fit Discord's 100 characters, no two
    options of one menu read alike, and none says only "Move"."""
    for players, seed in ((2, 3), (4, 8)):
        s = GAME.setup([f"p{i}" for i in range(players)], {"factions": "random"}, seed=seed)
        chooser = Rng(seed=seed)
        for _ in range(300):
            if GAME.result(s):
                break
            p = GAME.to_act(s)[0]
            acts = [a for a in GAME.legal_actions(s, p) if a.key.startswith("move.act:")]
            for a in acts:
                assert 0 < len(a.label) <= 100 and a.description and len(a.description) <= 100, a
                assert a.description != "Move"
            assert len({(a.label, a.description) for a in acts}) == len(acts)
            assert len({a.label for a in acts}) == len(acts), [a.label for a in acts]
            s = GAME.apply(s, p, GAME.auto_action(s, p, chooser).key).state
