"""Small drawing helpers shared by the renderers that make pictures (Pillow)."""

from __future__ import annotations

import io
import struct
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


_fonts = threading.local()


def font(size: int) -> Font:
    """Pillow's own scalable font (no font file needed on the machine), loaded once per size and
    thread: a font keeps the glyphs it measured and drew (three times faster text), and FreeType
    lets one thread at a time use a font."""
    sizes: dict[int, Font] | None = getattr(_fonts, "sizes", None)
    if sizes is None:
        sizes = _fonts.sizes = {}
    found = sizes.get(size)
    if found is None:
        found = sizes[size] = ImageFont.load_default(size=size)
    return found


FONTS = Path(__file__).parent / "fonts"
"""The fonts the project ships (each with its licence beside it)."""


def shipped_font(name: str, size: int) -> ImageFont.FreeTypeFont:
    """The font file `name` of `FONTS` at `size`, loaded once per size and thread (as `font`)."""
    files: dict[tuple[str, int], ImageFont.FreeTypeFont] | None = getattr(_fonts, "files", None)
    if files is None:
        files = _fonts.files = {}
    found = files.get((name, size))
    if found is None:
        found = files[name, size] = ImageFont.truetype(str(FONTS / name), size)
    return found


def rgb(colour: str) -> tuple[int, int, int]:
    """`#rrggbb` as a tuple."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return r, g, b


def ink(background: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white text, whichever reads better on `background`."""
    r, g, b = background
    return (0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


def centred(draw: ImageDraw.ImageDraw, cx: float, cy: float, text: str, face: ImageFont.BaseImageFont,
            fill: tuple[int, int, int]) -> None:
    """`text` centred on (cx, cy)."""
    box = draw.textbbox((0, 0), text, font=face)
    draw.text((cx - (box[2] - box[0]) / 2 - box[0], cy - (box[3] - box[1]) / 2 - box[1]), text,
              font=face, fill=fill)


def png(image: Image.Image) -> bytes:
    """The picture as optimised PNG bytes (slow: for pictures made once)."""
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def palette_png(image: Image.Image, colours: int = 128) -> bytes:
    """A drawing of flat colours and text reduced to a palette (a fast octree) as PNG bytes:
    many times faster to make than `png`, and smaller."""
    out = io.BytesIO()
    image.quantize(colours, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", compress_level=6)
    return out.getvalue()


def palette_of(image: Image.Image, extra: list[tuple[int, int, int]], colours: int = 64) -> Image.Image:
    """A palette image of `colours` for pictures like `image`: the `extra` colours (highlights
    drawn later), then `image`'s most used ones (its flat colours, then the commonest shades of
    its anti-aliased edges). An RGB picture's colours are (r, g, b) tuples."""
    chosen = list(dict.fromkeys(extra))[:colours]
    counted = image.getcolors(maxcolors=image.width * image.height) or []
    for _, colour in sorted(counted, key=lambda c: (-c[0], c[1])):
        if len(chosen) >= colours:
            break
        if isinstance(colour, tuple) and colour not in chosen:
            chosen.append((colour[0], colour[1], colour[2]))
    chosen += [chosen[-1]] * (256 - len(chosen))  # unused entries repeat the last colour
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for c in chosen for v in c])
    return palette


# --- a palette PNG made of separately compressed bands of rows --------------------------------
# Pillow compresses a picture as one stream. A board that changes in a few rows at a time is
# cheaper to encode as bands compressed each on their own (a full flush between them, so each
# band's bytes depend on its own rows only): a band that did not change keeps its bytes. Pillow
# cannot write such a file, hence the few lines of PNG below (the format: chunks with a CRC; one
# zlib stream of the rows, each row led by its filter byte, 0 here; an Adler-32 of the rows).
# The deflate is Intel's ISA-L (the `isal` package, zlib's interface): at its level 1 a band of the
# Terra Sancta board takes 13 µs against zlib's 33 µs at any level, and comes out 7% larger than
# zlib's level 3 (zlib-ng's level 1: 16 µs, 67% larger). Any deflate decoder reads it. Where ISA-L
# is not installed (pyproject installs it only on the processors it has wheels for), Python's own
# zlib does the same work with the same interface, slower.
try:
    from isal import isal_zlib as deflate
except ImportError:  # the tests draw with both (tests/bot/test_render_terra_sancta.py)
    import zlib as deflate  # type: ignore[no-redef]

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KB window, the fastest compression level
_ADLER_BASE = 65521


@dataclass(frozen=True)
class PackedRows:
    """A band of a palette picture's rows, compressed on its own (raw deflate ending on a byte
    boundary, no final block), with the Adler-32 and length of the rows as the PNG holds them."""

    packed: bytes
    adler: int
    size: int


def pack_rows(band: Image.Image, palette: Image.Image, level: int = 1) -> PackedRows:
    """`band` (RGB) reduced to `palette` and compressed as PNG rows."""
    reduced = band.quantize(palette=palette, dither=Image.Dither.NONE)
    raw, width = reduced.tobytes(), reduced.width
    return pack_filtered(b"".join(b"\0" + raw[y * width:(y + 1) * width] for y in range(reduced.height)), level)


def pack_filtered(rows: bytes, level: int = 1) -> PackedRows:
    """PNG rows (each led by its filter byte) compressed on their own (`level`: ISA-L's, 0-3, or
    zlib's, 0-9; 1 is the fast one in both)."""
    squeeze = deflate.compressobj(level, deflate.DEFLATED, -15)
    return PackedRows(squeeze.compress(rows) + squeeze.flush(deflate.Z_FULL_FLUSH), deflate.adler32(rows),
                      len(rows))


def adler32_combine(first: int, second: int, second_size: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's (zlib's adler32_combine)."""
    rem = second_size % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = rem * sum1 % _ADLER_BASE
    sum1 = (sum1 + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (sum2 + (first >> 16) + (second >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return sum1 | (sum2 << 16)


_FINAL_BLOCK = b"\x03\x00"
"""An empty last deflate block (fixed codes, only the end code): it closes the stream of bands."""


def rows_png(width: int, height: int, palette: Image.Image, bands: Sequence[PackedRows]) -> bytes:
    """The PNG of a palette picture whose rows, top to bottom, are `bands`."""
    assert sum(b.size for b in bands) == height * (width + 1), "the bands must cover every row"
    adler = 1  # of nothing
    for band in bands:
        adler = adler32_combine(adler, band.adler, band.size)
    stream = b"".join([_ZLIB_HEADER, *(b.packed for b in bands), _FINAL_BLOCK, struct.pack(">I", adler)])
    colours = bytes(palette.getpalette() or [])[:768]
    return b"".join([_PNG_SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", colours), _chunk(b"IDAT", stream), _chunk(b"IEND", b"")])


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", deflate.crc32(data, deflate.crc32(kind)))
