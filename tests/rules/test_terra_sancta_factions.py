"""Terra Sancta: every faction ability, that no ability ever touches a king, notation, playouts."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction, Rng
from rules.core.state import independent_copy
from rules.terra_sancta import GAME, policy
from rules.terra_sancta.board import square_name
from rules.terra_sancta.content import load_factions
from rules.terra_sancta.factions import ability_targets, lightning_damage, use_ability
from rules.terra_sancta.movegen import piece_moves
from rules.terra_sancta.notation import NotationError, completions, parse_line, play_line
from tests.rules.test_terra_sancta import play, position, sq

F = load_factions()


def test_at_least_four_factions_with_names_colours_and_abilities():
    assert {"bots", "darkness", "thunderbirds", "grove"} <= set(F)
    assert len({f.colour for f in F.values()}) == len(F)
    for f in F.values():
        assert f.name and f.ability.text and len(f.pieces) == 6


# --- Bots: ranged fire ----------------------------------------------------------------

def test_bots_shoot_along_clear_lines_within_range_never_at_kings():
    s = position({"f6": ("a", "R"), "f8": ("b", "P"), "h6": ("b", "R"), "i6": ("b", "P"), "c6": ("b", "N"),
                  "d8": ("b", "P"), "f3": ("b", "K"), "h9": ("b", "B"), "g1": ("a", "K")},
                 factions=("bots", "grove"))

    def shots():
        return sorted(square_name(m.to) for m in piece_moves(s.board, sq("f6"), F["bots"]) if m.kind == "shot")

    # in range 3 on clear lines; i6 hides behind h6; the king on f3 is never a target; h9 is not on a line
    assert shots() == ["c6", "d8", "f8", "h6"]
    s.board[sq("e7")] = s.board.pop(sq("c6"))  # adjacent: melee only, and it blocks d8
    assert shots() == ["f8", "h6"]
    # a drone shoots 2 squares; the Core (king) never shoots
    s.board[sq("f6")] = s.board[sq("f6")]._replace(kind="P")
    assert shots() == ["f8", "h6"]
    s.board[sq("f6")] = s.board[sq("f6")]._replace(kind="K")
    assert shots() == []


def test_bot_shot_leaves_the_shooter_in_place():
    s = position({"f4": ("a", "P"), "f6": ("b", "B"), "g1": ("a", "K"), "f12": ("b", "K")},
                 factions=("bots", "grove"))
    s.rng.script(6)
    s, events = play(s, "move.piece:f4", "move.act:sh.f6")
    assert s.board[sq("f4")].kind == "P" and s.board[sq("f6")].hp == 10
    shot = next(e for e in events if e.kind == "shot")
    assert shot.data["die"] == F["bots"].ability.pawn_shot_die and shot.data["roll"] == 6
    s.rng.script(10)
    s.turn_player, s.stage = "a", "select"
    s.board[sq("f5")] = s.board.pop(sq("f4"))._replace(kind="R")
    s.board[sq("f6")] = s.board[sq("f6")]._replace(hp=10)
    s.board[sq("f3")] = s.board.pop(sq("f5"))
    s, _ = play(s, "move.piece:f3", "move.act:sh.f6")
    assert sq("f6") not in s.board and s.board[sq("f3")].kind == "R"  # killed, shooter stays


# --- Children of Darkness: life drain --------------------------------------------------

def test_darkness_drain_heals_the_attacker_but_never_the_king():
    s = position({"f6": ("a", "Q", 5), "f9": ("b", "R"), "g1": ("a", "K", 4), "g2": ("b", "P"),
                  "f12": ("b", "K")}, factions=("darkness", "grove"))
    s.rng.script(7)
    s, events = play(s, "move.piece:f6", "move.act:at.f9", "land.square:f8")
    assert s.board[sq("f8")].hp == 5 + 7 * F["darkness"].ability.drain_percent // 100
    assert any(e.kind == "ability" and e.data["ability"] == "drain" for e in events)
    s.turn_player, s.stage = "a", "select"
    s.rng.script(3)
    s, events = play(s, "move.piece:g1", "move.act:at.g2")
    assert s.board[sq("g1")].hp == 4 and not any(e.kind == "ability" for e in events)
    GAME.check_invariants(s)


def test_darkness_shades_step_diagonally_but_attack_only_diagonally():
    s = position({"f6": ("a", "P"), "f7": ("b", "P")}, factions=("darkness", "grove"))
    moves = piece_moves(s.board, sq("f6"), F["darkness"])
    assert len([m for m in moves if m.kind == "move"]) == 7 and not [m for m in moves if m.kind == "attack"]


# --- Thunderbirds: lightning -------------------------------------------------------------

def test_lightning_table_covers_the_die():
    sheet = F["thunderbirds"]
    damages = [lightning_damage(sheet, v) for v in range(1, sheet.ability.die + 1)]
    assert damages == [0] * 11 + [1] * 4 + [2]


def test_lightning_after_the_move_targets_enemies_but_never_kings():
    s = position({"f5": ("a", "P"), "g1": ("a", "K"), "f12": ("b", "K"), "h9": ("b", "P", 1),
                  "e10": ("b", "R")}, factions=("thunderbirds", "grove"))
    s, _ = play(s, "move.piece:f5", "move.act:mv.f6")
    assert s.stage == "ability" and s.turn_player == "a"
    keys = [a.key for a in GAME.legal_actions(s, "a")]
    assert keys == ["bolt.target:h9", "bolt.target:e10", "skip"]  # f12 (the king) is not offered
    s.rng.script(16)
    s, events = play(s, "bolt.target:h9")
    assert sq("h9") not in s.board and s.turn_player == "b"
    strike = next(e for e in events if e.kind == "ability")
    assert strike.data == {"ability": "lightning", "square": "h9", "die": 16, "roll": 16, "damage": 1,
                           "killed": True}
    assert [d.why for d in s.dice if d.player == "a"] == ["lightning"]


def test_lightning_can_be_skipped():
    s = position({"f5": ("a", "P"), "g1": ("a", "K"), "f12": ("b", "K"), "e10": ("b", "R")},
                 factions=("thunderbirds", "grove"))
    s, _ = play(s, "move.piece:f5", "move.act:mv.f6", "skip")
    assert s.turn_player == "b" and s.board[sq("e10")].hp == 16


# --- Grove: regrowth ---------------------------------------------------------------------

def test_regrowth_heals_a_wounded_piece_but_not_the_king():
    s = position({"f5": ("a", "P"), "e1": ("a", "R", 3), "g1": ("a", "K", 2), "h2": ("a", "N"),
                  "f12": ("b", "K")}, factions=("grove", "bots"))
    s, _ = play(s, "move.piece:f5", "move.act:mv.f6")
    assert [a.key for a in GAME.legal_actions(s, "a")] == ["heal.target:e1", "skip"]
    s.rng.script(8)
    s, _ = play(s, "heal.target:e1")
    assert s.board[sq("e1")].hp == 11 and s.board[sq("g1")].hp == 2


def test_regrowth_is_skipped_when_nothing_is_wounded():
    s = position({"f5": ("a", "P"), "g1": ("a", "K", 2), "f12": ("b", "K")}, factions=("grove", "bots"))
    s, _ = play(s, "move.piece:f5", "move.act:mv.f6")
    assert s.turn_player == "b"


def test_elder_oaks_slide_at_most_four():
    s = position({"e1": ("a", "R")}, factions=("grove", "bots"))
    assert max(int(square_name(m.to)[1:]) for m in piece_moves(s.board, sq("e1"), F["grove"])) == 5


# --- no ability ever touches a king ----------------------------------------------------------

@pytest.mark.parametrize("faction", ["thunderbirds", "grove"])
def test_abilities_refuse_a_king(faction):
    s = position({"f6": ("a", "K", 3), "f12": ("b", "K", 3), "f5": ("a", "P", 1), "f11": ("b", "P", 1)},
                 factions=(faction, "bots"))
    sheet = F[faction]
    assert not {sq("f6"), sq("f12")} & set(ability_targets(s, "a", sheet))
    copy = independent_copy(s)
    with pytest.raises(IllegalAction):
        use_ability(copy, "a", sheet, sq("f12" if faction == "thunderbirds" else "f6"), [])
    assert copy.king_touched_by_ability == 1
    with pytest.raises(AssertionError):
        GAME.check_invariants(copy)
    GAME.check_invariants(s)


# --- notation for /move ----------------------------------------------------------------------

def test_parse_line_moves_attacks_knight_paths_and_shots():
    s = position({"f6": ("a", "N"), "g8": ("b", "P"), "g1": ("a", "K"), "f12": ("b", "K"), "e4": ("a", "P"),
                  "e6": ("b", "P")}, factions=("grove", "bots"))
    assert parse_line(GAME, s, "a", "e4 e5") == ["move.piece:e4", "move.act:mv.e5"]
    assert parse_line(GAME, s, "a", "F6-d5") == ["move.piece:f6", "move.act:mv.d5"]
    with pytest.raises(IllegalAction, match="via"):
        parse_line(GAME, s, "a", "f6xg8")
    assert parse_line(GAME, s, "a", "f6xg8 via g6") == ["move.piece:f6", "move.act:at.g8.g6"]
    assert parse_line(GAME, s, "a", "f6 g8/f8") == ["move.piece:f6", "move.act:at.g8.f8"]
    with pytest.raises(NotationError):
        parse_line(GAME, s, "a", "hello")
    with pytest.raises(IllegalAction, match="no piece"):
        parse_line(GAME, s, "a", "e6 e5")
    with pytest.raises(IllegalAction, match="cannot"):
        parse_line(GAME, s, "a", "e4 e7")
    s2, _ = play(s, "move.piece:e4")
    assert parse_line(GAME, s2, "a", "f6 d5") == ["move.back", "move.piece:f6", "move.act:mv.d5"]
    assert parse_line(GAME, s2, "a", "e4 e5") == ["move.act:mv.e5"]
    out = play_line(GAME, s, "a", "e4 e5")
    assert out.state.board[sq("e5")].kind == "P" and out.state.turn_player == "b"


def test_shot_notation_and_completions():
    s = position({"f4": ("a", "P"), "f6": ("b", "B"), "g1": ("a", "K"), "f12": ("b", "K")},
                 factions=("bots", "grove"))
    assert parse_line(GAME, s, "a", "f4*f6") == ["move.piece:f4", "move.act:sh.f6"]
    assert parse_line(GAME, s, "a", "f4 f6") == ["move.piece:f4", "move.act:sh.f6"]
    got = completions(GAME, s, "a", "f4")
    assert "f4*f6" in got and "f4 f5" in got and all(c.startswith("f4") for c in got)
    assert len(completions(GAME, s, "a", "")) <= 25
    assert completions(GAME, s, "b", "") == []


# --- random playouts ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("seed", range(6))
def test_automatic_playouts_end_and_keep_invariants(players, seed):
    names = [f"p{i}" for i in range(players)]
    s = GAME.setup(names, {"factions": "random"}, seed=100 + seed)
    rng = Rng(seed=seed)
    for _ in range(GAME.max_steps):
        GAME.check_invariants(s)
        if GAME.result(s):
            break
        player = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, player)
        action = GAME.auto_action(s, player, rng) if rng.randint(0, 4) else rng.choice(legal)
        s = GAME.apply(s, player, action.key).state
    result = GAME.result(s)
    assert result is not None
    assert set(result.tags) == {f"{p}.faction" for p in names}


def test_automatic_player_kills_the_king_when_it_can():
    s = position({"f6": ("a", "Q"), "f10": ("b", "K", 2), "h6": ("b", "R", 1), "g1": ("a", "K")},
                 factions=("grove", "bots"))
    action = GAME.auto_action(s, "a", Rng(seed=1))
    assert action.key == "move.piece:f6"
    s, _ = play(s, "move.piece:f6")
    assert GAME.auto_action(s, "a", Rng(seed=1)).key == "move.act:at.f10"


def test_automatic_player_saves_its_king():
    # b's rook threatens a's wounded king on g1 along the first rank; a's knight can hit the rook
    s = position({"g1": ("a", "K", 3), "e1": ("b", "R", 2), "f3": ("a", "N"), "f12": ("b", "K"),
                  "h9": ("b", "P")}, factions=("grove", "bots"))
    s2, _ = play(s, GAME.auto_action(s, "a", Rng(seed=1)).key)
    key = GAME.auto_action(s2, "a", Rng(seed=1)).key
    kind, to = key.removeprefix("move.act:").split(".")[:2]
    # the king flees, or an attack goes at the rook on e1
    assert (kind == "mv" and s2.selected == sq("g1")) or (kind == "at" and to == "e1")


def test_automatic_player_uses_its_ability():
    s = position({"f5": ("a", "P"), "g1": ("a", "K"), "f12": ("b", "K"), "h9": ("b", "P", 1),
                  "e10": ("b", "R")}, factions=("thunderbirds", "grove"))
    s, _ = play(s, "move.piece:f5", "move.act:mv.f6")
    assert GAME.auto_action(s, "a", Rng(seed=1)).key == "bolt.target:h9"


def test_automatic_player_strikes_the_leading_enemy_with_two_or_more_enemies():
    # c's army is the strongest: lightning goes to c's rook rather than to b's equal rook
    pieces = {"f5": ("a", "P"), "g1": ("a", "K"), "f12": ("b", "K"), "e3": ("b", "R"),
              "a6": ("c", "K"), "h10": ("c", "R"), "b7": ("c", "P"), "b8": ("c", "P"), "l7": ("d", "K")}
    s = position(pieces, factions=("thunderbirds", "grove", "darkness", "bots"), players=("a", "b", "c", "d"))
    s, _ = play(s, "move.piece:f5", "move.act:mv.f6")
    assert policy.leading_enemy(s, "a") == "c"
    assert GAME.auto_action(s, "a", Rng(seed=1)).key == "bolt.target:h10"
    # with one enemy there is no leader: the first of two equal rooks
    s = position({k: v for k, v in pieces.items() if v[0] in "ab"} | {"h10": ("b", "R")},
                 factions=("thunderbirds", "grove"))
    s, _ = play(s, "move.piece:f5", "move.act:mv.f6")
    assert policy.leading_enemy(s, "a") is None
    assert GAME.auto_action(s, "a", Rng(seed=1)).key == "bolt.target:e3"


def test_a_running_game_keeps_its_faction_sheets_when_the_pack_changes(tmp_path):
    from rules import get_game
    from rules.core.content import SHIPPED, set_content_dir
    from rules.terra_sancta.content import load_factions

    game = get_game("terra-sancta")
    state = game.setup(["a", "b"], {"seat_factions": "bots,grove"}, 3)
    before = game.sheet(state, "a")
    pack = tmp_path / "pack" / "terra-sancta" / "factions"
    pack.mkdir(parents=True)
    text = (SHIPPED / "terra-sancta" / "factions" / "bots.yaml").read_text(encoding="utf-8")
    (pack / "bots.yaml").write_text(text.replace(f"name: {before.name}", "name: The Clockworks", 1),
                                    encoding="utf-8")
    set_content_dir(tmp_path / "pack")
    try:
        assert load_factions()["bots"].name == "The Clockworks"  # the pack is read when set
        assert game.sheet(state, "a") == before  # the running game keeps its sheets
        fresh = game.setup(["a", "b"], {"seat_factions": "bots,grove"}, 3)
        assert game.sheet(fresh, "a").name == "The Clockworks" and fresh.content != state.content
    finally:
        set_content_dir(None)
