"""Terra Sancta: move generation (perft-style counts), combat, landing, deaths, poison, set-up."""

from __future__ import annotations

import json

import pytest

from rules.core import IllegalAction
from rules.core.steps import Building
from rules.terra_sancta import GAME, plans
from rules.terra_sancta.board import (
    CROWN,
    PLAYABLE,
    TERRA_SANCTA,
    SquareError,
    parse_square,
    square_name,
)
from rules.terra_sancta.content import load_factions
from rules.terra_sancta.movegen import landing_squares, legal_moves, piece_moves
from rules.terra_sancta.pieces import Piece, max_health
from rules.terra_sancta.state import TSState

F = load_factions()


def sq(name: str) -> int:
    return parse_square(name)


def position(pieces: dict[str, tuple[str, str] | tuple[str, str, int]], factions=("grove", "bots", "darkness",
             "thunderbirds"), players=("a", "b"), turn: str = "a") -> TSState:
    """A hand-built position: square -> (owner, kind[, hp]); every owner needs a king unless noted.
    Tests decide the dice with `s.rng.script(5, 12)`: the next rolls are 5 then 12 (then the seeded
    dice again), checked against each die; the script travels with the states `apply` returns."""
    s = GAME.setup(list(players), {"seat_factions": ",".join(factions[: len(players)])}, seed=1)
    s.board = {sq(k): Piece(v[0], v[1], v[2] if len(v) > 2 else max_health(v[1])) for k, v in pieces.items()}
    s.alive = list(players)
    s.turn_player = turn
    s.stage = "select"
    s.dice = []
    return s


def play(s: TSState, *keys: str, player: str | None = None) -> tuple[TSState, list]:
    events = []
    for key in keys:
        out = GAME.apply(s, player or s.turn_player, key)
        s, events = out.state, events + out.events
    return s, events


# --- the board ---------------------------------------------------------------------

def test_board_is_a_cross_with_terra_sancta_and_crowns():
    assert len(PLAYABLE) == 80
    assert {square_name(q) for q in CROWN.values()} == {"g1", "a6", "f12", "l7"}
    assert len(TERRA_SANCTA) == 16 and sq("e5") in TERRA_SANCTA and sq("h8") in TERRA_SANCTA
    with pytest.raises(SquareError):
        parse_square("b2")  # a cut corner
    with pytest.raises(SquareError):
        parse_square("m3")


def test_start_layout_two_and_four_players():
    s = GAME.setup(["a", "b", "c", "d"], {"factions": "random"}, seed=5)
    assert len(s.board) == 64
    kinds = {p: sorted(x.kind for x in s.board.values() if x.owner == p) for p in s.players}
    assert all(k == sorted("PPPPPPPPNNBBRRQK") for k in kinds.values())
    assert s.board[sq("g1")].kind == "K" and s.board[sq("f1")].kind == "Q"
    assert s.board[sq("e1")].kind == s.board[sq("h1")].kind == "R"
    assert s.board[sq("e2")].kind == "N" and s.board[sq("f2")].kind == "B"
    assert all(s.board[sq(f"{f}{r}")].kind == "P" for f in "efgh" for r in (3, 4))
    assert s.board[sq("a6")].kind == "K" and s.board[sq("f12")].kind == "K" and s.board[sq("l7")].kind == "K"
    two = GAME.setup(["a", "b"], {"factions": "random"}, seed=5)
    assert {two.board[sq("g1")].owner, two.board[sq("f12")].owner} == {"a", "b"}
    assert set(two.sides.values()) == {"S", "N"}


def test_three_players_are_refused():
    with pytest.raises(IllegalAction):
        GAME.setup(["a", "b", "c"], {}, seed=1)
    with pytest.raises(IllegalAction):
        GAME.check_players(3)
    GAME.check_players(2)
    GAME.check_players(4)


# --- move generation: perft-style counts -------------------------------------------

@pytest.mark.parametrize("kind,faction,count", [
    ("P", "grove", 4), ("P", "darkness", 8),      # Shades may also step diagonally
    ("N", "grove", 8), ("B", "grove", 7),          # f6 diagonals are cut by the corners
    ("R", "grove", 16), ("R", "bots", 22),         # Elder Oaks slide at most 4
    ("Q", "darkness", 29), ("Q", "thunderbirds", 27), ("Q", "bots", 29), ("K", "grove", 8),
])
def test_alone_on_f6(kind, faction, count):
    board = {sq("f6"): Piece("a", kind, max_health(kind))}
    moves = piece_moves(board, sq("f6"), F[faction])
    assert len(moves) == count and all(m.kind == "move" for m in moves)


def test_opening_position_counts():
    s = GAME.setup(["a", "b"], {"seat_factions": "grove,thunderbirds"}, seed=1)
    # only the four front pawns can step out; everything else is boxed in by its own army
    assert len(legal_moves(s.board, "a", F["grove"])) == 4
    assert len(legal_moves(s.board, "b", F["thunderbirds"])) == 4
    s4 = GAME.setup(["a", "b", "c", "d"], {"seat_factions": "grove,thunderbirds,darkness,bots"}, seed=1)
    # with four, neighbouring armies touch at the corners of their squares: pawns meet diagonally
    assert len(legal_moves(s4.board, "c", F["darkness"])) == 4 + 6 + 2  # Shades: diagonal steps too
    bots = [(m.kind, square_name(m.frm), square_name(m.to)) for m in legal_moves(s4.board, "d", F["bots"])
            if m.kind != "move"]
    assert bots == [("attack", "i5", "h4"), ("shot", "i6", "g4"), ("shot", "i7", "g9"), ("attack", "i8", "h9")]


def test_pawn_moves_orthogonally_and_attacks_diagonally():
    s = position({"f6": ("a", "P"), "f7": ("b", "P"), "g7": ("b", "P"), "e5": ("b", "N"), "g5": ("a", "P")})
    moves = piece_moves(s.board, sq("f6"), F["grove"])
    got = sorted((m.kind, square_name(m.to)) for m in moves)
    # f7 blocked (pawns do not attack straight), g5 own piece, backwards f5 is fine
    assert got == [("attack", "e5"), ("attack", "g7"), ("move", "e6"), ("move", "f5"), ("move", "g6")]


def test_sliders_are_blocked_and_attack_the_first_enemy_only():
    s = position({"f6": ("a", "R"), "f8": ("b", "P"), "f10": ("b", "K"), "d6": ("a", "P"), "f3": ("b", "B")})
    moves = piece_moves(s.board, sq("f6"), F["grove"])
    attacks = sorted(square_name(m.to) for m in moves if m.kind == "attack")
    assert attacks == ["f3", "f8"]  # f10 hides behind f8
    assert sq("c6") not in {m.to for m in moves}  # behind its own pawn on d6
    assert len(moves) == 2 + 1 + 3 + 4  # f7,xf8 | e6 | f5,f4,xf3 | g6..j6 (Elder Oaks: range 4)


def test_knight_jumps_and_names_its_two_paths():
    s = position({"f6": ("a", "N"), "f7": ("a", "P"), "g6": ("b", "P"), "g8": ("b", "P"), "e4": ("a", "P")})
    moves = piece_moves(s.board, sq("f6"), F["grove"])
    attacks = [m for m in moves if m.kind == "attack"]
    # g8 is reached via f8 (long leg first: f7, f8) or via g6 (short leg first: g6, g7)
    assert sorted(square_name(m.via) for m in attacks) == ["f8", "g6"]
    assert sq("e4") not in {m.to for m in moves}  # own piece
    assert len(moves) == 6 + 2  # jumps over f7 and g6; e4 is its own; g8 twice (two paths)
    via_g6 = next(m for m in attacks if m.via == sq("g6"))
    assert landing_squares(s.board, via_g6) == [sq("g7")]  # back along the L: g7 free
    s.board[sq("g7")] = Piece("a", "P", 8)
    assert landing_squares(s.board, via_g6) == [sq("f6")]  # g7, g6 taken: back to the start


def test_knight_path_must_stay_on_the_board():
    s = position({"e4": ("a", "N"), "c5": ("b", "P")})
    paths = [square_name(m.via) for m in piece_moves(s.board, sq("e4"), F["grove"]) if m.to == sq("c5")]
    assert paths == ["e5"]  # e4 -> c5 long leg first would cross d4, a cut corner


# --- combat, landing, deaths --------------------------------------------------------

def test_kill_takes_the_square():
    s = position({"f4": ("a", "R"), "f8": ("b", "P"), "g1": ("a", "K"), "f12": ("b", "K")})
    s.rng.script(8)
    s, events = play(s, "move.piece:f4", "move.act:at.f8")
    assert s.board[sq("f8")] == Piece("a", "R", 16) and sq("f4") not in s.board
    assert any(e.kind == "attack" and e.data["roll"] == 8 and e.data["killed"] for e in events)
    assert s.turn_player == "b" and s.last_attack.killed


def test_wound_lets_the_player_choose_the_landing():
    s = position({"f4": ("a", "R"), "f8": ("b", "R"), "g1": ("a", "K"), "f12": ("b", "K")})
    s.rng.script(5)
    s, _ = play(s, "move.piece:f4", "move.act:at.f8")
    assert s.stage == "land" and s.board[sq("f8")].hp == 11
    labels = [a.label for a in GAME.legal_actions(s, "a")]
    assert labels == ["Land on f5", "Land on f6", "Land on f7"]  # not its start: the path has room
    with pytest.raises(IllegalAction):
        GAME.apply(s, "a", "land.square:f4")
    s, _ = play(s, "land.square:f6")
    assert s.board[sq("f6")].kind == "R" and sq("f4") not in s.board and s.turn_player == "b"
    assert s.last_attack.landed == sq("f6")


def test_adjacent_wound_stays_in_place():
    s = position({"f5": ("a", "P"), "g6": ("b", "Q"), "g1": ("a", "K"), "f12": ("b", "K")})
    s.rng.script(6)
    s, _ = play(s, "move.piece:f5", "move.act:at.g6")
    assert s.board[sq("f5")].kind == "P" and s.board[sq("g6")].hp == 10 and s.stage == "select"


def test_pawns_roll_d8_others_d16():
    s = position({"f5": ("a", "P"), "g6": ("b", "Q"), "g1": ("a", "K"), "f12": ("b", "K")})
    s.rng.script(8)
    _, events = play(s, "move.piece:f5", "move.act:at.g6")
    assert next(e for e in events if e.kind == "attack").data["die"] == 8
    s = position({"f5": ("a", "B"), "g6": ("b", "Q"), "g1": ("a", "K"), "f12": ("b", "K")})
    s.rng.script(16)
    _, events = play(s, "move.piece:f5", "move.act:at.g6")
    assert next(e for e in events if e.kind == "attack").data == {
        "from": "f5", "to": "g6", "die": 16, "roll": 16, "damage": 16, "killed": True}


def test_a_kings_death_removes_its_faction():
    s = position({"f6": ("a", "Q"), "f9": ("b", "K", 3), "e9": ("b", "P"), "e11": ("b", "R"),
                  "g1": ("a", "K"), "a6": ("c", "K"), "a7": ("c", "R"), "l7": ("d", "K")},
                 players=("a", "b", "c", "d"))
    s.rng.script(3)
    s, events = play(s, "move.piece:f6", "move.act:at.f9")
    assert not [p for p in s.board.values() if p.owner == "b"]
    assert s.alive == ["a", "c", "d"] and s.board[sq("f9")].owner == "a"
    assert [e.kind for e in events][:2] == ["attack", "eliminated"]
    assert GAME.result(s) is None and s.turn_player == "c"
    GAME.check_invariants(s)


def test_last_king_standing_wins_and_result_tags():
    s = position({"f10": ("a", "P"), "g11": ("b", "K", 2), "g1": ("a", "K")})
    s.rng.script(2)
    s, _ = play(s, "move.piece:f10", "move.act:at.g11")
    result = GAME.result(s)
    assert result.winners == ["a"] and result.tags == {"a.faction": "grove", "b.faction": "bots"}
    assert GAME.to_act(s) == [] and GAME.legal_actions(s, "a") == []


def test_kings_only_poison():
    s = position({"f6": ("a", "K", 5), "h9": ("b", "K", 1)})
    s.rng.script(3)  # odd: 1 health
    s, events = play(s, "move.piece:f6", "move.act:mv.f7")
    # b's turn starts with the poison roll, the d16 is odd: loses 1 and dies; a wins
    assert any(e.kind == "poison" and e.data["loss"] == 1 and e.data["killed"] for e in events)
    assert GAME.result(s).winners == ["a"]
    s = position({"f6": ("a", "K", 5), "h9": ("b", "K", 9)})
    s.rng.script(4)  # even: 2 health
    s, events = play(s, "move.piece:f6", "move.act:mv.f7")
    assert s.board[sq("h9")].hp == 7 and s.turn_player == "b" and s.stage == "select"
    assert [d.why for d in s.dice] == ["poison"]


def test_draw_after_quiet_turns():
    s = position({"f6": ("a", "K"), "h9": ("b", "K"), "e5": ("a", "P")})
    s.quiet_turns = 59
    s, events = play(s, "move.piece:e5", "move.act:mv.e4")
    assert s.draw and GAME.result(s).winners == [] and events[-1].kind == "game_over"


def test_back_and_pass():
    s = position({"f6": ("a", "K"), "h9": ("b", "K"), "e5": ("a", "P")})
    s, _ = play(s, "move.piece:e5")
    assert s.building == Building(verb="move", args={"piece": "e5"}) and s.selected == sq("e5")
    assert GAME.view(s, "a").stage == "act" and any(a.key == "move.back" for a in GAME.legal_actions(s, "a"))
    s, _ = play(s, "move.back")
    assert s.stage == "select" and s.selected is None and s.building is None
    with pytest.raises(IllegalAction):
        GAME.apply(s, "b", "move.piece:h9")  # not b's turn


def test_the_move_is_built_in_steps_with_structured_keys():
    s = position({"f4": ("a", "R"), "f8": ("b", "R"), "g1": ("a", "K"), "f12": ("b", "K")})
    first = GAME.legal_actions(s, "a")
    assert [a.key for a in first] == ["move.piece:g1", "move.piece:f4"]  # board order
    assert {a.group for a in first} == {"Choose a piece"}
    s, _ = play(s, "move.piece:f4")
    acts = GAME.legal_actions(s, "a")
    assert "move.act:at.f8" in [a.key for a in acts] and acts[-1].key == "move.back"
    attack = next(m for m in piece_moves(s.board, sq("f4"), F["grove"]) if m.kind == "attack")
    assert plans.whole_key(attack) == "move:f4:at.f8" and plans.MOVE.parse("move:f4:at.f8") == {
        "piece": "f4", "act": "at.f8"}
    GAME.check_invariants(s)
    broken = s.model_copy(update={"building": Building(verb="move", args={"piece": "f8"})})
    with pytest.raises(AssertionError):
        GAME.check_invariants(broken)  # not a piece of the player's


def test_a_state_saved_before_the_step_plans_loads_as_the_same_move():
    s = position({"f4": ("a", "R"), "f8": ("b", "R"), "g1": ("a", "K"), "f12": ("b", "K")})
    chosen, _ = play(s, "move.piece:f4")
    old = json.loads(GAME.dump_state(chosen))
    del old["building"]
    old |= {"stage": "act", "selected": sq("f4")}
    assert GAME.load_state(json.dumps(old)) == chosen
    s.rng.script(5)
    landing, _ = play(s, "move.piece:f4", "move.act:at.f8")
    old = json.loads(GAME.dump_state(landing)) | {"selected": sq("f4")}
    assert GAME.load_state(json.dumps(old)) == landing and landing.selected == sq("f4")


# --- setup, faction choice, start roll -------------------------------------------

def test_faction_choice_in_seat_order_then_start_roll():
    s = GAME.setup(["a", "b", "c", "d"], {}, seed=9)
    assert s.stage == "faction" and GAME.to_act(s) == ["a"]
    s, _ = play(s, "faction:bots")
    assert "faction:bots" not in {a.key for a in GAME.legal_actions(s, "b")}
    s, _ = play(s, "faction:grove")
    s, _ = play(s, "faction:darkness")
    s, events = play(s, "faction:thunderbirds")
    assert s.stage == "select" and len(s.board) == 64
    final = s.start_rolls[-1]
    assert len(final) >= 1 and s.order[0] == s.turn_player
    assert [e.kind for e in events].count("dice_rolled") == len(s.start_rolls)
    # clockwise from the starter
    i = s.players.index(s.order[0])
    assert s.order == s.players[i:] + s.players[:i]


def test_start_roll_ties_roll_again():
    seen_tie = False
    for seed in range(60):
        s = GAME.setup(["a", "b", "c", "d"], {"factions": "random"}, seed=seed)
        first = s.start_rolls[0]
        if first.count(max(first)) > 1:
            seen_tie = True
            assert len(s.start_rolls) > 1 and len(s.start_rolls[1]) == first.count(max(first))
        last = s.start_rolls[-1]
        assert last.count(max(last)) == 1
    assert seen_tie


def test_seat_factions_option_is_checked():
    with pytest.raises(IllegalAction):
        GAME.setup(["a", "b"], {"seat_factions": "bots,nobody"}, seed=1)
    with pytest.raises(IllegalAction):
        GAME.setup(["a", "b"], {"seat_factions": "bots,bots"}, seed=1)
    with pytest.raises(IllegalAction):
        GAME.setup(["a", "b"], {"factions": "maybe"}, seed=1)


def test_view_shows_everything_to_everyone():
    s = GAME.setup(["a", "b"], {"seat_factions": "bots,grove"}, seed=3)
    public, mine = GAME.view(s, None), GAME.view(s, "a")
    assert public.model_dump(exclude={"viewer"}) == mine.model_dump(exclude={"viewer"})
    assert len(public.pieces) == 32 and public.faction_names["a"] == "The Bots"
    assert GAME.seat_label(s, "b") == "The Grove"


def test_rules_pages_cover_every_faction():
    pages = GAME.rules_pages()
    assert all(len(p.body) <= 4000 for p in pages)
    for sheet in F.values():
        assert any(sheet.name in p.title for p in pages)


def test_the_opening_tells_the_factions_and_the_start_rolls():
    from rules import get_game

    game = get_game("terra-sancta")
    opening = game.start(["a", "b"], {"factions": "random"}, 5)
    kinds = [e.kind for e in opening.events]
    assert kinds[0] == "factions" and "dice_rolled" in kinds and kinds[-1] == "turn_order"
    assert opening.state == game.setup(["a", "b"], {"factions": "random"}, 5)
    rolls = [e for e in opening.events if e.kind == "dice_rolled"]
    assert [e.data["rolls"] for e in rolls] == opening.state.start_rolls
    # with factions to choose, nothing is rolled yet
    assert game.start(["a", "b"], {"factions": "choose"}, 5).events == []
