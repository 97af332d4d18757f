"""The Terra Sancta renderer: the board PNG, the dice of the turn, the attack panel."""

from __future__ import annotations

import io

from PIL import Image

from bot.kept import Kept
from bot.render import RenderContext
from bot.render.terra_sancta import BOARD_PX, RENDERER, dice_lines, draw_board
from rules.core import Rng
from rules.terra_sancta import GAME


def _midgame(players: int = 4, steps: int = 120):
    s = GAME.setup([f"p{i}" for i in range(players)], {"factions": "random"}, seed=11)
    rng = Rng(seed=3)
    events = []
    for _ in range(steps):
        if GAME.result(s):
            break
        p = GAME.to_act(s)[0]
        out = GAME.apply(s, p, GAME.auto_action(s, p, rng).key)
        s, events = out.state, out.events
    return s, events


def test_table_has_a_small_readable_board_image_and_the_dice():
    s, _ = _midgame()
    view = GAME.view(s, None)
    panels = RENDERER(GAME).table(view, RenderContext())
    png = panels[0].image_png
    assert png and len(png) < 300_000
    img = Image.open(io.BytesIO(png))
    assert img.size == (BOARD_PX, BOARD_PX) and 500 <= BOARD_PX <= 700
    assert view.dice and any(f.name == "Dice" for f in panels[0].fields)
    assert len(dice_lines(view)) == len(view.dice)


def test_board_marks_the_last_move_and_attack():
    s, _ = _midgame()
    view = GAME.view(s, None)
    plain = view.model_copy(update={"last_move": None, "last_attack": None})
    assert draw_board(view) != draw_board(plain)


def test_wounded_pieces_get_a_health_bar():
    s = GAME.setup(["a", "b"], {"seat_factions": "grove,bots"}, seed=1)
    view = GAME.view(s, None)
    before = draw_board(view)
    view.pieces[0].hp = 3
    assert draw_board(view) != before


def test_events_panel_lists_the_attack_dice():
    s, _ = _midgame(2, 400)
    # find an attack event in a fresh short game
    s = GAME.setup(["a", "b"], {"seat_factions": "darkness,bots"}, seed=2)
    rng = Rng(seed=2)
    for _ in range(600):
        p = GAME.to_act(s)[0]
        out = GAME.apply(s, p, GAME.auto_action(s, p, rng).key)
        s = out.state
        if any(e.kind in ("attack", "shot") for e in out.events):
            panels = RENDERER(GAME).events(out.events, RenderContext())
            assert panels and "d" in panels[0].description and panels[0].title == "Attack"
            return
    raise AssertionError("no attack in 600 steps")


def test_private_panel_lists_own_pieces_and_faction_choice_has_no_image():
    s = GAME.setup(["a", "b"], {}, seed=1)
    panels = RENDERER(GAME).table(GAME.view(s, None), RenderContext())
    assert panels[0].image_png is None and "choose a faction" in panels[0].description
    s = GAME.setup(["a", "b"], {"seat_factions": "grove,bots"}, seed=1)
    panel = RENDERER(GAME).private(GAME.view(s, "a"), RenderContext())
    assert "Rook e1" in panel.fields[0].value and "Elder Oak" in panel.fields[0].value


def test_a_position_is_drawn_and_encoded_once(monkeypatch):
    from bot.render import terra_sancta as board

    monkeypatch.setattr(board, "BOARDS", Kept(board.BOARD_CACHE))
    monkeypatch.setattr(board, "PACKED_BANDS", Kept(board.BAND_CACHE))
    made = []
    make = board._pack_band
    monkeypatch.setattr(board, "_pack_band", lambda *a: made.append(1) or make(*a))
    s, _ = _midgame(2, 40)
    first = draw_board(GAME.view(s, None))
    again = draw_board(GAME.view(s, "p0"))  # another view of the same position
    assert again == first and len(made) == len(board.BANDS)
    p = GAME.to_act(s)[0]
    moved = GAME.apply(s, p, GAME.auto_action(s, p, Rng(seed=1)).key).state
    if GAME.view(moved, None).selected != GAME.view(s, None).selected:  # a new highlight: drawn anew
        assert draw_board(GAME.view(moved, None)) != first
        assert len(board.BANDS) < len(made) < 2 * len(board.BANDS)  # only its new bands


def test_the_board_is_a_small_palette_png():
    s, _ = _midgame(4, 60)
    png = draw_board(GAME.view(s, None))
    img = Image.open(io.BytesIO(png))
    assert img.mode == "P" and len(png) < 25_000


def test_each_faction_field_starts_with_its_colour():
    from bot.render.terra_sancta import COLOUR_KEYS

    s, _ = _midgame(4, 2)
    view = GAME.view(s, None)
    panel = RENDERER(GAME).table(view, RenderContext())[0]
    keys = [f.name.split(" ")[0] for f in panel.fields if f.name.split(" ")[0] in COLOUR_KEYS]
    assert len(keys) == 4 and len(set(keys)) == 4, [f.name for f in panel.fields]


def _pixel(png: bytes, square: str, dx: int, dy: int):
    from bot.render.terra_sancta import _xy

    x, y = _xy(square)
    return Image.open(io.BytesIO(png)).convert("RGB").getpixel((x + dx, y + dy))


def test_a_two_player_board_draws_no_crowns_for_the_empty_sides():
    from rules.terra_sancta.board import CROWN, square_name

    s = GAME.setup(["a", "b"], {"seat_factions": "grove,bots"}, seed=1)
    view = GAME.view(s, None)
    png = draw_board(view)
    seated = set(view.sides.values())
    gold = (212, 160, 0)
    for side, sq in CROWN.items():
        name = square_name(sq)
        shown = _pixel(png, name, 10, 6)
        near_gold = sum(abs(a - b) for a, b in zip(shown, gold, strict=True)) < 60
        assert near_gold == (side in seated), (side, shown)  # the king stands below the crown's tips


def test_the_selected_piece_is_part_of_the_cached_picture():
    s = GAME.setup(["a", "b"], {"seat_factions": "grove,bots"}, seed=1)
    view = GAME.view(s, None)
    piece = next(p.square for p in view.pieces if p.kind == "P")
    assert draw_board(view.model_copy(update={"selected": piece})) != draw_board(view)


def test_the_terminal_board_lists_wounded_pieces():
    from bot.render.terra_sancta import text_board

    s = GAME.setup(["a", "b"], {"seat_factions": "grove,bots"}, seed=1)
    view = GAME.view(s, None)
    assert "Wounded" not in text_board(view)
    king = next(p for p in view.pieces if p.kind == "K")
    king.hp = 5
    assert f"Wounded: K1 {king.square} 5/{king.max_hp}" in text_board(view) or \
        f"Wounded: K2 {king.square} 5/{king.max_hp}" in text_board(view)


def test_a_selected_piece_shows_its_destinations_as_dots():
    import io

    from PIL import Image

    from bot.render.terra_sancta import CELL, SELECT_COLOUR, _xy
    from rules.terra_sancta.movegen import piece_moves
    from rules.terra_sancta.notation import square_name

    s = GAME.setup(["a", "b"], {"seat_factions": "grove,bots"}, seed=1)
    while s.stage != "select":
        p = GAME.to_act(s)[0]
        s = GAME.apply(s, p, GAME.legal_actions(s, p)[0].key).state
    player = GAME.to_act(s)[0]
    assert GAME.view(s, None).destinations == []  # nothing selected: no dots
    pick = next(a for a in GAME.legal_actions(s, player) if a.label.startswith("Pawn"))
    s = GAME.apply(s, player, pick.key).state
    view = GAME.view(s, None)
    moves = piece_moves(s.board, s.selected, GAME.sheet(s, player))
    assert view.destinations == sorted({square_name(m.to) for m in moves if m.kind == "move"})
    assert view.destinations
    img = Image.open(io.BytesIO(draw_board(view))).convert("RGB")
    for name in view.destinations:
        x, y = _xy(name)
        r, g, b = img.getpixel((x + CELL // 2, y + CELL // 2))
        assert abs(r - SELECT_COLOUR[0]) + abs(g - SELECT_COLOUR[1]) + abs(b - SELECT_COLOUR[2]) < 60, name
    plain = view.model_copy(update={"destinations": [], "targets": []})
    assert draw_board(plain) != draw_board(view)


def test_pieces_badges_and_marks_stay_legible_when_a_phone_shows_the_board_400_pixels_wide():
    """Discord shows the board about 400 px wide on a phone: there every piece's shape is at least
    16 px tall, a health badge's digits at least 6.5 px, a move dot at least 5 px across its
    radius and every outline at least 2.5 px wide (the first board's 3-px outlines and 5-px dots
    came out 2 and 3.5 px)."""
    from bot.render import terra_sancta as board

    scale = 400 / BOARD_PX
    for kind in board.SOLID:
        body, _ = board._piece_masks(kind)
        left, top, right, bottom = body.getbbox()
        assert (bottom - top) * scale >= 16 and (right - left) * scale >= 11, kind
    left, top, right, bottom = board.BADGE
    assert board.HEALTH_INK[board._health_colour(12, 16)] == (0, 0, 0)  # dark digits on a green badge
    inside = board._piece("R", "#3a86c8", 12, 16).crop((left + 2, top + 2, right - 1, bottom - 1))
    box = inside.convert("L").point(lambda v: 255 if v < 80 else 0).getbbox()  # the digits' ink
    assert box is not None and (box[3] - box[1]) * scale >= 6.5
    assert min(board.DOTS.values()) * scale >= 5
    assert min(width for _, width in board.OUTLINES.values()) * scale >= 2.5
    assert board.LINE_WIDTH * scale >= 3


def test_boards_of_one_colour_set_share_a_palette_worked_out_once(monkeypatch):
    """Reducing a board to a known palette is many times faster than finding one: the palette
    is worked out for the first board of a game's colours, and shows every flat colour (within
    the few levels Pillow's mapping to a palette may be off)."""
    from bot.render import terra_sancta as board

    monkeypatch.setattr(board, "BOARDS", Kept(board.BOARD_CACHE))
    monkeypatch.setattr(board, "PALETTES", Kept(board.BOARD_CACHE))
    made, real = [], board.palette_of
    monkeypatch.setattr(board, "palette_of", lambda *a, **k: made.append(1) or real(*a, **k))
    s, _ = _midgame(4, 30)
    chooser = Rng(seed=4)
    for _ in range(12):
        view = GAME.view(s, None)
        png = draw_board(view)
        shown = Image.open(io.BytesIO(png)).convert("RGB")
        painted = board.paint_board(view)
        flat = {c for n, c in painted.getcolors(maxcolors=1 << 20) if n >= 40}  # not edge shades
        seen = {c for _, c in shown.getcolors(maxcolors=1 << 20)}
        for colour in flat:
            assert any(max(abs(a - b) for a, b in zip(colour, c, strict=True)) <= 3 for c in seen), colour
        p = GAME.to_act(s)[0]
        s = GAME.apply(s, p, GAME.auto_action(s, p, chooser).key).state
    assert len(made) == 1


def test_a_piece_is_drawn_once_per_kind_colour_and_wound(monkeypatch):
    from bot.render import terra_sancta as board

    board._piece.cache_clear()
    s, _ = _midgame(4, 60)
    board.paint_board(GAME.view(s, None))
    drawn = board._piece.cache_info().misses
    kinds = {(p.kind, p.owner, p.hp if p.hp < p.max_hp else 0) for p in GAME.view(s, None).pieces}
    assert drawn == len(kinds) < len(GAME.view(s, None).pieces)
    board.paint_board(GAME.view(s, None))
    assert board._piece.cache_info().misses == drawn


def test_a_position_gives_the_same_picture_whichever_board_came_first(monkeypatch):
    """The palette depends on the game's colours only, not on the first board drawn with them:
    after a restart (or in another process) an unchanged table reads the same and is not edited."""
    from bot.render import terra_sancta as board

    early, _ = _midgame(4, 5)
    late, _ = _midgame(4, 80)
    pictures = []
    for first in (early, late):
        monkeypatch.setattr(board, "BOARDS", Kept(board.BOARD_CACHE))
        monkeypatch.setattr(board, "PALETTES", Kept(board.BOARD_CACHE))
        draw_board(GAME.view(first, None))
        pictures.append(draw_board(GAME.view(late, None)))
    assert pictures[0] == pictures[1]


def test_a_new_position_compresses_only_the_bands_it_changed_and_shows_exactly_its_board(monkeypatch):
    """The board is compressed in bands of rows; a band whose contents were seen before keeps its
    bytes. Whatever came before, the picture decodes to exactly the painted board reduced to the
    palette (a band's contents must name everything drawn in it), and a move touches few bands."""
    from bot.render import terra_sancta as board

    monkeypatch.setattr(board, "BOARDS", Kept(board.BOARD_CACHE))
    monkeypatch.setattr(board, "PACKED_BANDS", Kept(board.BAND_CACHE))
    packed, pack = [], board._pack_band
    monkeypatch.setattr(board, "_pack_band", lambda *a: packed.append(1) or pack(*a))
    fresh = []
    for players, seed in ((2, 5), (4, 6)):
        s = GAME.setup([f"p{i}" for i in range(players)], {"factions": "random"}, seed=seed)
        chooser = Rng(seed=seed)
        for _ in range(70):
            if GAME.result(s):
                break
            view = GAME.view(s, None)
            before = len(packed)
            shown = Image.open(io.BytesIO(draw_board(view)))
            expected = board.paint_board(view).quantize(palette=board._palette(view), dither=Image.Dither.NONE)
            assert shown.mode == "P" and shown.size == expected.size
            assert shown.tobytes() == expected.tobytes()
            assert shown.getpalette()[:384] == expected.getpalette()[:384]
            fresh.append(len(packed) - before)
            p = GAME.to_act(s)[0]
            s = GAME.apply(s, p, GAME.auto_action(s, p, chooser).key).state
    later = sorted(fresh[5:])
    assert later[len(later) // 2] <= 4, fresh  # most positions compress a few of the 14 bands


def test_an_attack_line_is_drawn_from_tiles_exactly_as_on_the_whole_board():
    """A rank an attack line crosses is put together from tiles too, the line cut out of the whole
    board's drawing square by square (Pillow draws a wide line moved by whole pixels to other
    pixels, so a tile cannot draw its piece of the line itself): for lines in every direction and
    of every length, over pieces and marks, the picture is exactly the painted board."""
    from bot.render import terra_sancta as board
    from rules.terra_sancta.board import PLAYABLE, square_name

    s, _ = _midgame(4, 60)
    view = GAME.view(s, None)
    palette = board._palette(view)
    occupied = sorted(board._square(p.square) for p in view.pieces)
    origins = [min(PLAYABLE), max(PLAYABLE), occupied[0], occupied[len(occupied) // 2], 6 * 12 + 5]
    checked = 0
    for frm in origins:
        for target in sorted(PLAYABLE):
            if target == frm or (target + frm) % 2:  # half the board from each origin
                continue
            names = [square_name(frm), square_name(target), square_name(target)]
            attacked = view.model_copy(update={"last_attack": names})
            shown = Image.open(io.BytesIO(draw_board(attacked)))
            expected = board.paint_board(attacked).quantize(palette=palette, dither=Image.Dither.NONE)
            assert shown.tobytes() == expected.tobytes(), names
            checked += 1
    assert checked > 150


def test_a_band_png_is_a_png():
    import zlib

    from bot.render.drawing import adler32_combine, pack_rows, rows_png

    picture = Image.new("RGB", (30, 20), (10, 200, 30))
    picture.paste((250, 0, 0), (5, 5, 25, 12))
    palette = picture.quantize(4)
    bands = [pack_rows(picture.crop((0, top, 30, bottom)), palette) for top, bottom in ((0, 7), (7, 8), (8, 20))]
    decoded = Image.open(io.BytesIO(rows_png(30, 20, palette, bands)))
    assert decoded.convert("RGB").tobytes() == picture.tobytes()
    one, two = b"some rows" * 999, b"more" * 12345
    assert adler32_combine(zlib.adler32(one), zlib.adler32(two), len(two)) == zlib.adler32(one + two)


def test_a_picture_being_drawn_is_waited_for_not_drawn_twice():
    """Two threads ask for one key: one draws, the other waits and takes its picture; if the
    drawing fails, a waiter draws it itself (nobody waits forever)."""
    import threading

    kept: Kept[bytes] = Kept(4)
    started, release, drawn = threading.Event(), threading.Event(), []

    def slow() -> bytes:
        drawn.append(1)
        started.set()
        release.wait(5)
        return b"board"

    got: list[bytes] = []
    first = threading.Thread(target=lambda: got.append(kept.get("k", slow)))
    first.start()
    started.wait(5)
    second = threading.Thread(target=lambda: got.append(kept.get("k", slow)))
    second.start()
    second.join(0.2)
    assert second.is_alive()  # waiting, not drawing
    release.set()
    first.join(5)
    second.join(5)
    assert got == [b"board", b"board"] and drawn == [1]

    def broken() -> bytes:
        started.set()
        release.wait(5)
        raise RuntimeError("no ink")

    started.clear()
    release.clear()
    failed: list[BaseException] = []

    def first_try() -> None:
        try:
            kept.get("j", broken)
        except RuntimeError as exc:
            failed.append(exc)

    one = threading.Thread(target=first_try)
    one.start()
    started.wait(5)
    other = threading.Thread(target=lambda: got.append(kept.get("j", lambda: b"redrawn")))
    other.start()
    release.set()
    one.join(5)
    other.join(5)
    assert failed and got[-1] == b"redrawn"


def test_without_isal_the_board_is_compressed_by_zlib_and_shows_the_same_picture(monkeypatch):
    """ISA-L is installed only where it has wheels; elsewhere `bot.render.drawing` imports Python's
    zlib under the same name, and every board decodes to the very same pixels and palette."""
    import importlib
    import sys
    import zlib

    from bot.render import drawing
    from bot.render import terra_sancta as board

    s, _ = _midgame(4, 40)
    views = [GAME.view(s, None)]
    for _ in range(6):
        p = GAME.to_act(s)[0]
        s = GAME.apply(s, p, GAME.auto_action(s, p, Rng(seed=3)).key).state
        views.append(GAME.view(s, None))
    with_isal = [draw_board(v) for v in views]
    assert drawing.deflate.__name__ == "isal.isal_zlib"
    try:
        monkeypatch.setitem(sys.modules, "isal", None)  # `import isal` now fails
        importlib.reload(drawing)
        assert drawing.deflate is zlib
        monkeypatch.setattr(board, "BOARDS", Kept(board.BOARD_CACHE))
        monkeypatch.setattr(board, "PACKED_BANDS", Kept(board.BAND_CACHE))
        with_zlib = [draw_board(v) for v in views]
    finally:
        monkeypatch.undo()
        importlib.reload(drawing)
    assert drawing.deflate.__name__ == "isal.isal_zlib"
    assert with_zlib != with_isal  # another compressor made them
    for a, b in zip(with_isal, with_zlib, strict=True):
        first, second = Image.open(io.BytesIO(a)), Image.open(io.BytesIO(b))
        assert first.tobytes() == second.tobytes() and first.getpalette() == second.getpalette()


def test_what_a_selected_piece_may_attack_is_ringed_apart_from_the_selection():
    """The selection is green, the pieces it may attack orange: among several attackable pieces
    a player still sees which one they picked."""
    from bot.render.terra_sancta import CELL, SELECT_COLOUR, TARGET_COLOUR, _xy

    s = GAME.setup(["a", "b"], {"seat_factions": "grove,bots"}, seed=1)
    while s.stage != "select":
        p = GAME.to_act(s)[0]
        s = GAME.apply(s, p, GAME.legal_actions(s, p)[0].key).state
    view = GAME.view(s, None)
    picked, target = view.pieces[0].square, view.pieces[-1].square
    marked = view.model_copy(update={"selected": picked, "targets": [target]})
    img = Image.open(io.BytesIO(draw_board(marked))).convert("RGB")
    rings = []
    for square, colour in ((picked, SELECT_COLOUR), (target, TARGET_COLOUR)):
        x, y = _xy(square)
        rings.append(img.getpixel((x + CELL // 2, y + 3)))  # the ring's top edge
        assert rings[-1] == colour, square
    r, g, b = (abs(p - q) for p, q in zip(*rings, strict=True))
    assert r + g + b > 150  # told apart at a glance
