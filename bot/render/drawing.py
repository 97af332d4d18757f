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


def palette_png(image: Image.Image, colours: int = 64) -> bytes:
    """The picture reduced to a palette of `colours` (a fast octree) as PNG bytes: for drawings
    of a few flat colours (a board), about half the size of `png` and many times faster to make
    (no `optimize` pass), and still sharp."""
    out = io.BytesIO()
    image.quantize(colours, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", compress_level=6)
    return out.getvalue()
