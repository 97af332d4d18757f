"""The Terra Sancta board's look: chess shapes in the factions' colours, health badges that never
cover a piece, and the last attack drawn only while it is the move just made."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageFilter

from bot.render import terra_sancta as board
from rules.core import Rng
from rules.terra_sancta import GAME
from rules.terra_sancta.state import Mark
from tests.rules.test_terra_sancta import position, sq

COLOURS = ("#7b3fa0", "#2f9e44", "#e0a100", "#3a86c8")
"""The shipped factions' colours."""


def _opaque(sprite: Image.Image) -> Image.Image:
    return sprite.getchannel("A").point(lambda v: 255 if v else 0)


def test_a_health_badge_never_covers_its_piece():
    """Whatever a wounded piece's kind, colour and health, the pixels its badge changes lie outside
    the piece's shape (the badge keeps a corner the shape never reaches, with a pixel between)."""
    for kind in board.SOLID:
        top = 8 if kind == "P" else 16
        for colour in COLOURS:
            whole = board._piece(kind, colour, 0, 0)
            shape = _opaque(whole)
            for hp in range(1, top):
                wounded = board._piece(kind, colour, hp, top)
                changed = ImageChops.difference(wounded, whole).convert("L").point(lambda v: 255 if v else 0)
                assert changed.getbbox() is not None, (kind, hp)  # a badge is drawn
                assert ImageChops.multiply(changed, shape).getbbox() is None, (kind, colour, hp)


def test_each_piece_is_placed_where_the_search_for_its_largest_size_finds():
    assert {kind: board.fit_glyph(kind) for kind in board.SOLID} == board.GLYPH_PLACES


def test_pieces_are_six_chess_shapes_filled_with_their_factions_colour():
    """Each kind has its own shape (no two alike: not letters in equal circles), standing on the
    square's bottom edge; a piece's commonest colour, a quarter of it or more, is its faction's
    exact colour, and its outline and inner lines are dark ink."""
    shapes = {kind: _opaque(board._piece(kind, COLOURS[0], 0, 0)) for kind in board.SOLID}
    for one in shapes:
        for other in shapes:
            if one < other:
                apart = ImageChops.difference(shapes[one], shapes[other]).histogram()[255]
                union = ImageChops.lighter(shapes[one], shapes[other]).histogram()[255]
                assert apart > 0.15 * union, (one, other)
    for kind in board.SOLID:
        for colour in COLOURS:
            sprite = board._piece(kind, colour, 0, 0)
            counted = {c: n for n, c in sprite.getcolors(1 << 12) or [] if c[3] == 255}
            opaque = sum(counted.values())
            filled = counted.get((*board.rgb(colour), 255), 0)
            assert filled == max(counted.values()) and filled > 0.25 * opaque, (kind, colour, filled, opaque)
            shape = sprite.getchannel("A").point(lambda v: 255 if v == 255 else 0)
            rim = ImageChops.subtract(shape, shape.filter(ImageFilter.MinFilter(3)))  # its solid edge
            grey = sprite.convert("L")
            fill = Image.new("RGB", (1, 1), board.rgb(colour)).convert("L").getpixel((0, 0))
            edge = sorted(grey.getpixel((x, y)) for y in range(board.CELL) for x in range(board.CELL)
                          if rim.getpixel((x, y)))
            assert edge[len(edge) * 3 // 4] < fill and edge[len(edge) // 2] <= (fill + board.PIECE_INK[0]) / 2, \
                (kind, colour)
            assert shape.getbbox()[3] >= board.CELL - 4, kind


def _attack_pixels(png: bytes) -> int:
    """How many pixels of the picture are the last attack's red."""
    colours = Image.open(io.BytesIO(png)).convert("RGB").getcolors(1 << 20) or []
    return sum(n for n, c in colours if c == board.ATTACK_COLOUR)


def test_the_board_marks_only_the_move_just_made():
    """After a plain move the board marks that move and no earlier attack; after an attack or a
    shot, that attack and no earlier move; after a pass, nothing. Choosing a piece changes no mark.
    The picture of a move made after an attack shows none of the attack's red."""
    drawn = 0
    for players, seed in ((2, 4), (4, 9)):
        s = GAME.setup([f"p{i}" for i in range(players)], {"factions": "random"}, seed=seed)
        chooser = Rng(seed=seed)
        attacked_before = False
        for _ in range(500):
            if GAME.result(s):
                break
            p = GAME.to_act(s)[0]
            before = GAME.view(s, None)
            out = GAME.apply(s, p, GAME.auto_action(s, p, chooser).key)
            s, kinds = out.state, {e.kind: e for e in out.events}
            view = GAME.view(s, None)
            if "move" in kinds:
                data = kinds["move"].data
                assert view.last_move == [data["from"], data["to"]] and view.last_attack is None
                if attacked_before and drawn < 6:
                    assert _attack_pixels(board.draw_board(view)) == 0
                    drawn += 1
                attacked_before = False
            elif "attack" in kinds or "shot" in kinds:
                data = (kinds.get("attack") or kinds["shot"]).data
                assert view.last_attack is not None and view.last_attack[:2] == [data["from"], data["to"]]
                assert view.last_move is None
                attacked_before = True
            elif "pass" in kinds:
                assert view.last_move is None and view.last_attack is None
            elif not out.events:  # a piece chosen, or the landing or extra action still to come
                assert (view.last_move, view.last_attack) == (before.last_move, before.last_attack)
    assert drawn == 6


def test_an_attack_shows_its_red_line_on_the_board():
    s = position({"f4": ("a", "R"), "f9": ("b", "R"), "g1": ("a", "K"), "f12": ("b", "K")})
    plain = GAME.view(s, None)
    s.last_attack = Mark(frm=sq("f4"), to=sq("f9"), landed=sq("f4"), damage=3, player="a", turn=s.turn)
    s.last_move = Mark(frm=sq("g2"), to=sq("g1"), player="a", turn=s.turn - 2)
    view = GAME.view(s, None)
    assert view.last_attack == ["f4", "f9", "f4"] and view.last_move is None
    assert _attack_pixels(board.draw_board(view)) > 100 and _attack_pixels(board.draw_board(plain)) == 0


def test_marks_saved_before_they_kept_their_turn_are_both_shown():
    """A state saved before the marks kept their turn cannot tell which came last: both are
    shown, as they were then."""
    s = position({"f4": ("a", "R"), "f9": ("b", "R"), "g1": ("a", "K"), "f12": ("b", "K")})
    s.turn = 30
    s.last_attack = Mark(frm=sq("f4"), to=sq("f9"), landed=sq("f4"), damage=3, player="a")
    s.last_move = Mark(frm=sq("f10"), to=sq("f9"), player="b")
    view = GAME.view(s, None)
    assert view.last_attack == ["f4", "f9", "f4"] and view.last_move == ["f10", "f9"]
    old = GAME.state_type.model_validate_json(s.model_dump_json().replace(',"turn":0', ""))
    assert old.last_attack is not None and old.last_attack.turn == 0


def test_the_pieces_font_ships_with_its_licence():
    """The font is a subset of DejaVu Sans Bold: its licence lies beside it and stays inside the
    font itself (its name table), so every copy, the wheel's too, carries it."""
    from bot.render.drawing import FONTS

    font = (FONTS / board.PIECE_FONT_FILE).read_bytes()
    licence = (FONTS / "LICENSE-DejaVu.txt").read_text()
    assert "Bitstream Vera Fonts Copyright" in licence and board.PIECE_FONT_FILE in licence
    assert "Permission is hereby granted".encode("utf-16-be") in font
