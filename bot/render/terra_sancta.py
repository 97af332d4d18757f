"""Terra Sancta at the table: the board as a PNG (Pillow, drawn in code) and the dice of the turn."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache, partial

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.kept import Kept
from bot.render.base import GameRenderer, RenderContext
from bot.render.drawing import (
    PackedRows,
    centred,
    font,
    pack_filtered,
    pack_rows,
    palette_of,
    rgb,
    rows_png,
    shipped_font,
)
from bot.render.panel import Panel
from rules.core import Event, who
from rules.terra_sancta.board import (
    CROWN,
    FILES,
    PLAYABLE,
    SIDE_NAMES,
    SIZE,
    TERRA_SANCTA,
    parse_square,
)
from rules.terra_sancta.pieces import KIND_NAMES
from rules.terra_sancta.state import TSView

CELL = 44
MARGIN = 20
BOARD_PX = CELL * SIZE + 2 * MARGIN

LIGHT, DARK = (236, 226, 200), (196, 178, 140)
WATER_LIGHT, WATER_DARK = (160, 200, 226), (120, 170, 208)
MOVE_COLOUR = (255, 200, 0)
ATTACK_COLOUR = (220, 30, 30)
SELECT_COLOUR = (40, 200, 80)
TARGET_COLOUR = (255, 120, 0)
"""What the selected piece may attack: orange, told apart from the selection's green."""

DOT_RIM = (10, 70, 30)
PIECE_INK = (20, 20, 20)
OUTLINES = {"move": (MOVE_COLOUR, 4), "attack": (ATTACK_COLOUR, 4), "selected": (SELECT_COLOUR, 5),
            "target": (TARGET_COLOUR, 4)}
"""The square marks drawn as an outline: colour and width (see `paint_board`), at least 2.8
pixels wide when a phone shows the board 400 pixels wide."""
DOTS = {"landing": 9, "destination": 8}
"""The square marks drawn as a dot (green with a dark rim, seen on every square): its radius."""

WHY = {"start": "start roll", "attack": "attack", "shot": "shot", "lightning": "lightning",
       "regrowth": "regrowth", "poison": "poison"}


@lru_cache(maxsize=SIZE * SIZE)
def _square(name: str) -> int:
    """The square of a name the rules gave the view (each of the board's names parsed once)."""
    return parse_square(name)


def _corner(sq: int) -> tuple[int, int]:
    """Top-left pixel of a square (rank 1 at the bottom)."""
    return MARGIN + sq % SIZE * CELL, MARGIN + (SIZE - 1 - sq // SIZE) * CELL


@lru_cache(maxsize=SIZE * SIZE)
def _xy(name: str) -> tuple[int, int]:
    """Top-left pixel of a named square."""
    return _corner(_square(name))


Position = tuple
"""Everything the board picture shows (see `position`): equal positions draw the same picture."""

BOARD_CACHE = 256
"""Board pictures kept (about 16 KB each), most recently used first: every busy table's current
position, so a board drawn ahead is still there when its move's answer is rendered."""
BOARDS: Kept[bytes] = Kept(BOARD_CACHE)


def position(view: TSView) -> Position:
    """What the board picture depends on: the pieces, their colours, the highlights (the piece
    selected among them) and the sides in play (their crowns)."""
    return (tuple((p.square, p.owner, p.kind, p.hp, p.max_hp) for p in view.pieces),
            tuple(sorted(view.faction_colours.items())), tuple(view.last_move or ()),
            tuple(view.last_attack or ()), view.selected, tuple(view.landing), _sides(view),
            tuple(view.destinations), tuple(view.targets))


def _sides(view: TSView) -> tuple[str, ...]:
    """The sides seated in this game: only their crowns are drawn (2 players: no empty crowns)."""
    return tuple(sorted(set(view.sides.values())))


def draw_board(view: TSView) -> bytes:
    """The board as PNG bytes, drawn and encoded once per position (kept in `BOARDS`, shared by
    every table; a position already being drawn, ahead while its move was saved, is waited for)."""
    return BOARDS.get(position(view), lambda: _encode(view))


BANDS = [(0, MARGIN), *((MARGIN + i * CELL, MARGIN + (i + 1) * CELL) for i in range(SIZE)),
         (BOARD_PX - MARGIN, BOARD_PX)]
"""The board's rows in bands (top margin, each rank from the top, bottom margin), compressed
each on its own: a move redraws the two or three ranks it touched and keeps the others' bytes.
A rank's band is its empty look with its squares' tiles pasted on (see `_pack_band`), the
attack line's pieces included; the margins never change."""
BAND_CACHE = 4096
"""Compressed bands kept (about a kilobyte each), most recently used first."""
PACKED_BANDS: Kept[PackedRows] = Kept(BAND_CACHE)


def band_contents(view: TSView) -> list[tuple]:
    """What each band of `BANDS` shows beyond the empty board of its sides: on every square of
    its rank, what is drawn there in drawing order (highlights, the last attack's line where it
    crosses the square, then the piece). Equal contents draw equal rows."""
    marks: dict[int, list[object]] = {}

    def mark(names: Iterable[str], what: object) -> None:
        for name in names:
            marks.setdefault(_square(name), []).append(what)

    mark(view.last_move or (), "move")
    if view.last_attack:
        frm, target, landed = view.last_attack
        mark(sorted({frm, target, landed}), "attack")
        ends = _square(frm), _square(target)
        for sq in _line_masks(*ends):
            marks.setdefault(sq, []).append(("line", *ends, sq))
    mark([view.selected] if view.selected else (), "selected")
    mark(view.landing, "landing")
    mark(view.destinations, "destination")
    mark(view.targets, "target")
    for p in view.pieces:
        wounded = p.hp < p.max_hp
        mark([p.square], (p.kind, view.faction_colours.get(p.owner, FALLBACK_COLOUR),
                          p.hp if wounded else 0, p.max_hp if wounded else 0))
    out: list[tuple] = [("top",)]
    for i in range(SIZE):
        rank = SIZE - 1 - i
        out.append((rank, tuple((sq, tuple(marks[sq])) for sq in range(rank * SIZE, (rank + 1) * SIZE)
                                if sq in marks)))
    out.append(("bottom",))
    return out


LINE_WIDTH = 5
"""The attack line's width in pixels."""


def _line_ends(frm: int, target: int) -> tuple[float, float, float, float]:
    """The attack line from square to square: centre to centre, in board pixels."""
    (x1, y1), (x2, y2) = _corner(frm), _corner(target)
    return x1 + CELL / 2, y1 + CELL / 2, x2 + CELL / 2, y2 + CELL / 2


LINE_CACHE = 256
"""Attack lines whose pieces are kept, more than a game draws: about 2 KB a square crossed (a
short attack 5-10 KB, the longest line 34 squares, 65 KB; 256 of the longest measured 17 MB)."""


@lru_cache(maxsize=LINE_CACHE)
def _line_masks(frm: int, target: int) -> dict[int, Image.Image]:
    """Per square the attack line from `frm` to `target` crosses, the line's pixels there (a mask,
    255 on the line): the line is drawn once on the whole board and cut into squares, so a tile
    pasting the line's colour through its mask shows exactly what the whole board shows there
    (Pillow does not draw a wide line moved by whole pixels to the same pixels moved). Only the
    squares near the line are cut (see `_near_line`)."""
    mask = _line_mask(frm, target)
    out = {}
    for sq in _near_line(*_line_ends(frm, target)):
        x, y = _corner(sq)
        piece = mask.crop((x, y, x + CELL, y + CELL))
        if piece.getbbox() is not None:
            out[sq] = piece
    return out


def _line_mask(frm: int, target: int) -> Image.Image:
    """The attack line from `frm` to `target` on the whole board: a mask, 255 on the line. Both the
    tiles (`_line_masks`) and `paint_board` take the line's pixels from it."""
    mask = Image.new("L", (BOARD_PX, BOARD_PX), 0)
    ImageDraw.Draw(mask).line(_line_ends(frm, target), fill=255, width=LINE_WIDTH)
    return mask


def _near_line(x1: float, y1: float, x2: float, y2: float) -> list[int]:
    """The squares within a few pixels of the segment from (x1, y1) to (x2, y2), rank by rank: in
    each rank, the files the segment spans between the rank's top and bottom edges (widened by
    more than the line's width)."""
    near = LINE_WIDTH + 2
    out: list[int] = []
    for rank in range(SIZE):
        top = _corner(rank * SIZE)[1]
        low, high = top - near, top + CELL + near
        if y1 == y2:
            if not low <= y1 <= high:
                continue
            span = (x1, x2)
        else:
            t1, t2 = sorted(((low - y1) / (y2 - y1), (high - y1) / (y2 - y1)))
            t1, t2 = max(t1, 0.0), min(t2, 1.0)
            if t1 > t2:
                continue
            span = (x1 + (x2 - x1) * t1, x1 + (x2 - x1) * t2)
        first = max(0, int((min(span) - near - MARGIN) // CELL))
        last = min(SIZE - 1, int((max(span) + near - MARGIN) // CELL))
        out += range(rank * SIZE + first, rank * SIZE + last + 1)
    return sorted(out)


def _encode(view: TSView) -> bytes:
    """The board's PNG from its bands: those already compressed for another position are
    reused; only new bands are made and compressed."""
    palette_key = _palette_key(view)
    palette = _palette(view)
    bands = [PACKED_BANDS.get((palette_key, content), partial(_pack_band, view, i, content, palette_key, palette))
             for i, content in enumerate(band_contents(view))]
    return rows_png(BOARD_PX, BOARD_PX, palette, bands)


def _pack_band(view: TSView, i: int, content: tuple, palette_key: tuple,
               palette: Image.Image) -> PackedRows:
    """Band `i` compressed. A rank is its empty look (see `_empty_rank`) with the tiles of its
    squares that show something pasted on (see `_tile`); the margins are painted whole (once per
    palette)."""
    if i in (0, len(BANDS) - 1):
        return pack_rows(paint_board(view, BANDS[i]), palette)
    looks = _square_looks(palette_key[1])
    band = _empty_rank(palette_key, i).copy()
    rows = band.im
    for sq, marks in content[1]:
        x = 1 + MARGIN + sq % SIZE * CELL
        rows.paste(_tile(palette_key, (looks[sq], marks)).im, (x, 0, x + CELL, CELL))
    return pack_filtered(band.tobytes())


@lru_cache(maxsize=4 * SIZE)
def _empty_rank(palette_key: tuple, i: int) -> Image.Image:
    """Band `i` of the empty board reduced to the palette of `palette_key`, as the rows a PNG
    holds: one column wider, the first column all 0 (each row's filter byte: none)."""
    top, bottom = BANDS[i]
    reduced = _background(palette_key[1]).crop((0, top, BOARD_PX, bottom)).quantize(
        palette=_palette_of(palette_key), dither=Image.Dither.NONE)
    rows = Image.new("P", (BOARD_PX + 1, bottom - top), 0)
    rows.paste(reduced, (1, 0))
    return rows


TILE_CACHE = 4096
"""Tiles kept (about 4 KB each with their palette: 4,096 measured 25 MB with the pieces' pictures),
least recently used forgotten first; a game of one colour set meets about a thousand."""


@lru_cache(maxsize=TILE_CACHE)
def _tile(palette_key: tuple, what: tuple) -> Image.Image:
    """A square of a rank's band reduced to the palette of `palette_key`: a square's look (see
    `_square_looks`) with what is drawn on it. Each pixel is reduced on its own (no dithering), so
    tiles pasted on the empty rank are the band reduced whole."""
    picture = _paint_square(palette_key[1], what[0], what[1])
    return picture.quantize(palette=_palette_of(palette_key), dither=Image.Dither.NONE)


@lru_cache(maxsize=8)
def _square_looks(sides: tuple[str, ...]) -> tuple[int, ...]:
    """Per square, the first square whose pixels on the empty board are the same: squares that
    look alike share their tiles."""
    background, seen, out = _background(sides), dict[bytes, int](), []
    for sq in range(SIZE * SIZE):
        x, y = _corner(sq)
        out.append(seen.setdefault(background.crop((x, y, x + CELL, y + CELL)).tobytes(), sq))
    return tuple(out)


def _paint_square(sides: tuple[str, ...], sq: int, marks: tuple) -> Image.Image:
    """One square of the board (its empty look, at `sq`) with `marks` drawn on it in order, as
    `paint_board` draws them there."""
    x, y = _corner(sq)
    img = _background(sides).crop((x, y, x + CELL, y + CELL))
    d = ImageDraw.Draw(img)
    for mark in marks:
        if isinstance(mark, str):
            _draw_mark(d, 0, 0, mark)
        elif mark[0] == "line":  # the attack line's piece: ("line", from, to, this square)
            img.paste(ATTACK_COLOUR, (0, 0), _line_masks(mark[1], mark[2])[mark[3]])
        else:  # a piece: (kind, colour, hp, max hp), hp 0 when whole
            sprite = _piece(*mark)
            img.paste(sprite, (0, 0), sprite)
    return img


def _draw_mark(d: ImageDraw.ImageDraw, x: int, y: int, mark: str) -> None:
    """A square mark (an outline or a dot, see `OUTLINES` and `DOTS`) on the square whose
    top-left pixel is (x, y)."""
    if mark in OUTLINES:
        colour, width = OUTLINES[mark]
        d.rectangle([x + 1, y + 1, x + CELL - 2, y + CELL - 2], outline=colour, width=width)
    else:
        radius = DOTS[mark]
        d.ellipse([x + CELL / 2 - radius, y + CELL / 2 - radius, x + CELL / 2 + radius, y + CELL / 2 + radius],
                  fill=SELECT_COLOUR, outline=DOT_RIM, width=2)


FALLBACK_COLOUR = "#888888"
"""A piece whose owner has no faction colour (not seen in play)."""
HEALTH_COLOURS = [(60, 200, 60), (230, 170, 0), (220, 40, 40)]
HEALTH_INK = {(60, 200, 60): (0, 0, 0), (230, 170, 0): (0, 0, 0), (220, 40, 40): (255, 255, 255)}
"""The digits' colour on each badge colour: the one of black and white with the higher contrast."""
FIXED_COLOURS = [MOVE_COLOUR, ATTACK_COLOUR, SELECT_COLOUR, TARGET_COLOUR, DOT_RIM, *HEALTH_COLOURS, PIECE_INK,
                 (255, 255, 255), (0, 0, 0)]
"""Colours a board may show that its first picture may lack (highlights, health badges, ink)."""
PALETTES: Kept[Image.Image] = Kept(BOARD_CACHE)


def _palette_key(view: TSView) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The colours a board of this view may show and the sides whose crowns it draws."""
    return tuple(sorted(set(view.faction_colours.values()) | {FALLBACK_COLOUR})), _sides(view)


def _palette(view: TSView) -> Image.Image:
    """The palette of every board with these sides and faction colours, worked out once from a
    swatch of what such a board can show (the empty board, every piece of every colour in play,
    whole and wounded, the highlight colours): reducing a picture to a known palette is many
    times faster than finding one, and the same position always gives the same picture."""
    return _palette_of(_palette_key(view))


def _palette_of(key: tuple[tuple[str, ...], tuple[str, ...]]) -> Image.Image:
    """`_palette` by its key (`_palette_key`)."""
    return PALETTES.get(key, lambda: _work_out_palette(*key))


def _work_out_palette(colours: tuple[str, ...], sides: tuple[str, ...]) -> Image.Image:
    wounds = ((0, 0), (3, 16), (6, 16), (11, 16))  # whole; badges in red, amber and green
    played = [c for c in colours if c != FALLBACK_COLOUR]  # (its flat colour is kept all the same)
    pieces: list[tuple[str, str, int, int, tuple[int, int, int] | str]]  # kind, colour, hp, max hp, square
    pieces = [(kind, colour, hp, max_hp, LIGHT) for colour in played for kind in SOLID for hp, max_hp in wounds]
    pieces += [(kind, colour, 0, 0, square) for colour in played for kind in SOLID
               for square in (DARK, WATER_LIGHT, WATER_DARK)]  # a piece's edges on every square
    pieces += [(kind, colour, 0, 0, mark) for colour in played for kind in SOLID for mark in OUTLINES]
    per_row = BOARD_PX // CELL
    rows = -(-len(pieces) // per_row)
    swatch = Image.new("RGB", (BOARD_PX, BOARD_PX + rows * CELL), LIGHT)
    swatch.paste(_background(sides), (0, 0))
    draw = ImageDraw.Draw(swatch)
    for i, (kind, colour, hp, max_hp, square) in enumerate(pieces):
        sprite = _piece(kind, colour, hp, max_hp)
        x, y = i % per_row * CELL, BOARD_PX + i // per_row * CELL
        if isinstance(square, str):  # a piece's edges over an outline (a target's, the selection's)
            _draw_mark(draw, x, y, square)
        else:
            swatch.paste(square, (x, y, x + CELL, y + CELL))
        swatch.paste(sprite, (x, y), sprite)
    return palette_of(swatch, FIXED_COLOURS + [rgb(c) for c in colours], colours=128)


@lru_cache(maxsize=4)
def _background(sides: tuple[str, ...] = tuple(CROWN)) -> Image.Image:
    """The empty board (squares, Terra Sancta, the crowns of the sides in play, coordinates),
    drawn once per set of sides."""
    img = Image.new("RGB", (BOARD_PX, BOARD_PX), (58, 46, 36))
    d = ImageDraw.Draw(img)
    coord = font(COORD_FONT)
    for sq in range(SIZE * SIZE):
        f, r = sq % SIZE, sq // SIZE
        x, y = _corner(sq)
        if sq not in PLAYABLE:
            continue
        dark = (f + r) % 2 == 0
        fill = (WATER_DARK if dark else WATER_LIGHT) if sq in TERRA_SANCTA else (DARK if dark else LIGHT)
        d.rectangle([x, y, x + CELL - 1, y + CELL - 1], fill=fill)
    for side, sq in CROWN.items():
        if side not in sides:
            continue
        x, y = _corner(sq)
        d.polygon([(x + 3, y + 12), (x + 3, y + 3), (x + 7, y + 8), (x + 10, y + 2), (x + 13, y + 8),
                   (x + 17, y + 3), (x + 17, y + 12)], fill=(212, 160, 0), outline=(90, 60, 0))
    for i in range(SIZE):
        file_x = MARGIN + i * CELL + CELL / 2
        rank_y = MARGIN + (SIZE - 1 - i) * CELL + CELL / 2
        for cx, cy, text in ((file_x, MARGIN / 2, FILES[i]), (file_x, BOARD_PX - MARGIN / 2, FILES[i]),
                             (MARGIN / 2, rank_y, str(i + 1)), (BOARD_PX - MARGIN / 2, rank_y, str(i + 1))):
            centred(d, cx, cy, text, coord, (240, 230, 210))
    return img


def paint_board(view: TSView, rows: tuple[int, int] = (0, BOARD_PX)) -> Image.Image:
    """The board picture, or the band of its `rows` (top included, bottom not): the empty board,
    then the last move and attack, the piece chosen, the landing squares, the pieces and their
    wounds. A band is painted exactly as those rows of the whole board (what lies outside it is
    skipped or clipped)."""
    top, bottom = rows
    img = _background(_sides(view)).crop((0, top, BOARD_PX, bottom))
    d = ImageDraw.Draw(img)

    def at(name: str) -> tuple[int, int] | None:
        """The square's corner in the band, or None if the square lies outside it."""
        x, y = _xy(name)
        return (x, y - top) if y + CELL > top and y < bottom else None

    def mark(names: Iterable[str], what: str) -> None:
        for name in names:
            corner = at(name)
            if corner is not None:
                _draw_mark(d, *corner, what)

    mark(view.last_move or (), "move")
    if view.last_attack:
        frm, target, landed = view.last_attack
        mark({frm, target, landed}, "attack")
        line = _line_mask(_square(frm), _square(target)).crop((0, top, BOARD_PX, bottom))
        img.paste(ATTACK_COLOUR, (0, 0), line)
    mark([view.selected] if view.selected else (), "selected")
    mark(view.landing, "landing")
    mark(view.destinations, "destination")  # where the selected piece may go: a dot
    mark(view.targets, "target")  # what it may attack: a ring around the piece

    for p in view.pieces:
        corner = at(p.square)
        if corner is None:
            continue
        wounded = p.hp < p.max_hp
        sprite = _piece(p.kind, view.faction_colours.get(p.owner, FALLBACK_COLOUR),
                        p.hp if wounded else 0, p.max_hp if wounded else 0)
        img.paste(sprite, corner, sprite)
    return img


PIECE_FONT_FILE = "DejaVuSans-Bold-Pieces.ttf"
"""The shipped font the pieces and their health are drawn with: the chess symbols and digits of
DejaVu Sans Bold (bot/render/fonts/, its licence beside it)."""
SOLID = {"P": "\u265f", "N": "\u265e", "B": "\u265d", "R": "\u265c", "Q": "\u265b", "K": "\u265a"}
"""Each kind's filled chess symbol (the champion is the queen): the piece's colour, and the lines
left open inside it its ink."""
LINES = {"P": "\u2659", "N": "\u2658", "B": "\u2657", "R": "\u2656", "Q": "\u2655", "K": "\u2654"}
"""Each kind's outlined chess symbol: with the filled one, the piece's whole shape."""
BADGE = (CELL - 20, 0, CELL - 1, 13)
"""A wounded piece's health badge (left, top, right, bottom, within its square): the top right
corner, which no piece's shape reaches (see `fit_glyph`)."""
BADGE_GAP = 1
"""Pixels kept free between a badge and its piece's shape."""
HP_FONT = 13
COORD_FONT = 15
PIECE_MAX = 42
"""The largest type size of a piece: its shape about 31 pixels tall on a 44-pixel square, 22 when
a phone shows the board 400 pixels wide."""


SUPER = 4
"""Pieces are drawn this many times larger, then reduced: smooth edges for the ink around them."""


def _glyph(kind: str, size: int, cx: int, lines: bool = False, scale: int = 1) -> Image.Image:
    """The mask (255 inside) of a kind's symbol at type `size`, centred on column `cx` of a
    square, standing on its bottom edge (all `scale` times larger)."""
    mask = Image.new("L", (CELL * scale, CELL * scale), 0)
    ImageDraw.Draw(mask).text((cx * scale, (CELL - 3) * scale), (LINES if lines else SOLID)[kind],
                              font=shipped_font(PIECE_FONT_FILE, size * scale), fill=255, anchor="ms")
    return mask


def _badge_zone() -> Image.Image:
    """The badge and the gap around it, as a mask."""
    zone = Image.new("L", (CELL, CELL), 0)
    left, top, right, bottom = BADGE
    ImageDraw.Draw(zone).rectangle((left - BADGE_GAP, top, right, bottom + BADGE_GAP), fill=255)
    return zone


GLYPH_PLACES = {"P": (42, 18), "N": (42, 20), "B": (42, 18), "R": (34, 20), "Q": (36, 14), "K": (42, 18)}
"""(type size, centre column) of each kind's symbol: what `fit_glyph` finds (a test checks it),
written down so that no process spends a tenth of a second finding it again."""


def fit_glyph(kind: str) -> tuple[int, int]:
    """(type size, centre column) of a kind's symbol: the largest size up to `PIECE_MAX` whose
    shape with its rim of ink (a pixel wider), centred a little left of the square's middle,
    stays inside the square and clear of the badge corner, so a health badge never covers a
    piece."""
    zone = _badge_zone()
    for size in range(PIECE_MAX, 20, -1):
        for cx in (CELL // 2 - 2, CELL // 2 - 4, CELL // 2 - 6, CELL // 2 - 8):  # near the middle
            shape = ImageChops.lighter(_glyph(kind, size, cx), _glyph(kind, size, cx, lines=True))
            shape = shape.filter(ImageFilter.MaxFilter(3))
            box = shape.getbbox()
            if box is None or box[0] < 1 or box[1] < 1:
                continue
            if ImageChops.multiply(shape, zone).getbbox() is None:
                return size, cx
    raise AssertionError(f"no size of piece {kind} fits its square")  # pragma: no cover - sizes are fixed


@lru_cache(maxsize=len(SOLID))
def _piece_masks(kind: str) -> tuple[Image.Image, Image.Image]:
    """A kind's body (its whole shape and a pixel's rim around it) and ink (that rim and the lines
    the filled symbol leaves open inside) masks, drawn `SUPER` times larger and reduced."""
    size, cx = GLYPH_PLACES[kind]
    solid, lines = _glyph(kind, size, cx, scale=SUPER), _glyph(kind, size, cx, lines=True, scale=SUPER)
    inside = ImageChops.lighter(_filled(kind, size, cx).resize(solid.size, Image.Resampling.NEAREST),
                                ImageChops.lighter(solid, lines).point(_SOLID))
    body = inside
    for _ in range(SUPER):  # a rim one pixel wide (four 3x3 filters: a 9x9 one, ten times faster)
        body = body.filter(ImageFilter.MaxFilter(3))
    inked = ImageChops.lighter(ImageChops.subtract(inside, solid), ImageChops.subtract(body, inside))
    return body.reduce(SUPER).point(_LEVELS), inked.reduce(SUPER).point(_LEVELS)


_SOLID = [255 if v >= 96 else 0 for v in range(256)]
"""A glyph's mask made solid: what is mostly covered counts as covered."""


def _filled(kind: str, size: int, cx: int) -> Image.Image:
    """The shape of a kind's symbol with its holes (the filled symbol's open lines) filled, a
    pixel inside its outline: found at the square's size (filling is slow on larger masks)."""
    shape = ImageChops.lighter(_glyph(kind, size, cx), _glyph(kind, size, cx, lines=True)).point(_SOLID)
    ImageDraw.floodfill(shape, (0, 0), 128)  # the outside of the shape
    return shape.point(lambda v: 0 if v == 128 else 255).filter(ImageFilter.MinFilter(3))


_LEVELS = [min(255, round(v / 128) * 128) for v in range(256)]
"""A mask's values rounded to three levels (none, half, all): a piece's edges then take few
shades, all of which the board's palette holds (see `_work_out_palette`; with five levels, a
board showed shades that Pillow's mapping to the palette took to colours 20 levels off)."""


def _health_colour(hp: int, max_hp: int) -> tuple[int, int, int]:
    """A health badge's colour: green above half the health, amber above a quarter, then red."""
    share = hp / max_hp
    return HEALTH_COLOURS[0] if share > 0.5 else HEALTH_COLOURS[1] if share > 0.25 else HEALTH_COLOURS[2]


@lru_cache(maxsize=1024)
def _piece(kind: str, colour_hex: str, hp: int, max_hp: int) -> Image.Image:
    """One piece on a transparent square, drawn once per kind, colour and wound (hp 0: not
    wounded): its chess shape in the faction's colour, outlined and lined in dark ink, and a wounded piece's
    health in a badge coloured by what is left (green, amber, red) in the corner it keeps free."""
    img = Image.new("RGBA", (CELL, CELL), (0, 0, 0, 0))
    body, lines = _piece_masks(kind)
    img.paste((*rgb(colour_hex), 255), (0, 0), body)
    img.paste((*PIECE_INK, 255), (0, 0), lines)
    if max_hp > 0:
        d = ImageDraw.Draw(img)
        fill = _health_colour(hp, max_hp)
        d.rounded_rectangle(BADGE, radius=4, fill=fill, outline=PIECE_INK, width=1)
        left, top, right, bottom = BADGE
        d.text(((left + right + 1) / 2, (top + bottom + 1) / 2), str(hp), font=shipped_font(PIECE_FONT_FILE, HP_FONT),
               fill=HEALTH_INK[fill], anchor="mm")
    return img


def text_board(view: TSView) -> str:
    """The board in characters for the terminal: a piece is its letter and its player's seat
    number (lower case for pawns), `~` is Terra Sancta, `.` an empty square."""
    seat = {p: str(i + 1) for i, p in enumerate(view.players)}
    at = {p.square: (p.kind.lower() if p.kind == "P" else p.kind) + seat.get(p.owner, "?") for p in view.pieces}
    rows = []
    for r in range(SIZE - 1, -1, -1):
        cells = []
        for f in range(SIZE):
            sq = r * SIZE + f
            name = f"{FILES[f]}{r + 1}"
            if sq not in PLAYABLE:
                cells.append("  ")
            else:
                cells.append(at.get(name, "~ " if sq in TERRA_SANCTA else ". "))
        rows.append(f"{r + 1:>2} " + " ".join(cells))
    rows.append("   " + " ".join(f"{c} " for c in FILES))
    legend = ", ".join(f"{seat[p]} = {who(p)}" for p in view.players)
    wounded = [f"{p.kind.lower() if p.kind == 'P' else p.kind}{seat.get(p.owner, '?')} {p.square} "
               f"{p.hp}/{p.max_hp}" for p in view.pieces if p.hp < p.max_hp]
    text = "\n".join(rows) + f"\n   ({legend})"
    return text + (f"\n   Wounded: {', '.join(wounded)}" if wounded else "")


COLOUR_KEYS = {"🔴": (221, 46, 68), "🟠": (244, 144, 12), "🟡": (253, 203, 88), "🟢": (120, 177, 89),
               "🔵": (85, 172, 238), "🟣": (170, 142, 214), "🟤": (193, 105, 79), "⚫": (49, 55, 61),
               "⚪": (230, 231, 232)}
"""Discord's coloured circles, for a faction's colour in a text field (embeds draw no colour)."""


@lru_cache(maxsize=256)
def colour_key(hex_colour: str) -> str:
    """The coloured circle nearest a faction's colour (worked out once per colour: a table
    shows its factions' at every render)."""
    r, g, b = rgb(hex_colour)
    return min(COLOUR_KEYS, key=lambda k: sum((a - c) ** 2 for a, c in zip(COLOUR_KEYS[k], (r, g, b),
                                                                              strict=True)))


def dice_lines(view: TSView) -> list[str]:
    """Every die of the last turn and of the turn in progress, oldest first."""
    return [f"T{r.turn} {who(r.player)}: d{r.sides} = **{r.value}** ({WHY.get(r.why, r.why)})" for r in view.dice]


def _prompt(view: TSView) -> str:
    p = view.turn_player
    if view.stage == "over":
        return f"{who(view.winner)} is the last king standing!" if view.winner else "The game ended in a draw."
    assert p is not None, "the rules name a turn player at every stage but 'over'"
    if view.stage == "faction":
        return f"{who(p)}: choose a faction."
    text = {
        "select": "choose a piece to move or attack with (or `/move b3 c5`).",
        "act": f"choose a move or attack for {view.selected}.",
        "land": "the target survived: choose where to land.",
        "ability": "use your faction's extra action, or skip.",
    }[view.stage]
    return f"Turn {view.turn}: {who(p)}, {text}"


class TerraSanctaRenderer(GameRenderer[TSView]):
    draws_pictures = True
    game_id = "terra-sancta"

    def table(self, view: TSView, ctx: RenderContext) -> list[Panel]:
        panel = Panel(title="Terra Sancta", description=_prompt(view), colour=self.game.colour)
        for p in view.players:
            if p not in view.factions:
                panel.add(f"{SIDE_NAMES[view.sides[p]].title()}", f"{who(p)}: choosing…", inline=True)
                continue
            mine = [x for x in view.pieces if x.owner == p]
            king = next((x for x in mine if x.kind == "K"), None)
            status = (f"{len(mine)} pieces, king {king.hp}/{king.max_hp}" if king else "fallen")
            marker = "▶ " if p == view.turn_player else ""
            key = colour_key(view.faction_colours.get(p, "#888888"))
            panel.add(f"{key} {marker}{view.faction_names[p]} ({SIDE_NAMES[view.sides[p]]})",
                      f"{who(p)}: {status}", inline=True)
        if view.last_attack_text:
            panel.add("Last attack", view.last_attack_text)
        lines = dice_lines(view)
        if lines:
            panel.add("Dice", "\n".join(lines[-12:]))
        if view.stage != "faction" and view.stage != "over":
            panel.footer = f"Turns without damage: {view.quiet_turns} (draw at 60)"
        if view.pieces:
            panel.image_png = draw_board(view)
            panel.image_name = "terra-sancta.png"
            panel.text_art_of = partial(text_board, view)  # the local table's; Discord shows the picture
        return [panel]

    def draw_ahead(self, view: TSView) -> bool:
        if view.pieces:
            draw_board(view)
        return True

    def private(self, view: TSView, ctx: RenderContext) -> Panel:
        me = view.viewer
        panel = Panel(title="Terra Sancta: your pieces", colour=self.game.colour,
                      description=_prompt(view) if me == view.turn_player else "Nothing is hidden in this game.")
        mine = [p for p in view.pieces if p.owner == me]
        if mine and me is not None:  # `me` owns them: never None then
            rows = [f"{KIND_NAMES[p.kind]} {p.square}: {p.name} {p.hp}/{p.max_hp}" for p in mine]
            panel.add(view.faction_names.get(me, "Your faction"), "\n".join(rows)[:1024])
        if view.landing:
            panel.add("Landing squares", ", ".join(view.landing))
        return panel

    def events(self, events: list[Event], ctx: RenderContext) -> list[Panel]:
        lines = [e.text for e in events if e.kind in (
            "attack", "shot", "ability", "poison", "dice_rolled", "land", "eliminated", "game_over")]
        if not lines:
            return []
        title = "Attack" if any(e.kind in ("attack", "shot") for e in events) else "Dice"
        return [Panel(title=title, description="\n".join(lines)[:4000], colour=0xC53030)]


RENDERER = TerraSanctaRenderer
