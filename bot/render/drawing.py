"""Small drawing helpers shared by the renderers that make pictures (Pillow)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def font(size: int) -> Font:
    """Pillow's own scalable font (no font file needed on the machine)."""
    return ImageFont.load_default(size=size)


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
    """The picture as optimised PNG bytes."""
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def palette_png(image: Image.Image, colours: int = 64, palette: Image.Image | None = None) -> bytes:
    """The picture reduced to a palette as PNG bytes: for drawings of a few flat colours (a
    board), about half the size of `png` and many times faster to make (no `optimize` pass), and
    still sharp. The palette is `palette`'s when given (a picture's colours worked out once and
    reused for every picture of the same colours: `palette_of`), else `colours` found by a fast
    octree."""
    out = io.BytesIO()
    reduced = image.quantize(palette=palette, dither=Image.Dither.NONE) if palette is not None \
        else image.quantize(colours, method=Image.Quantize.FASTOCTREE)
    reduced.save(out, format="PNG", compress_level=3)
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
