"""Guilty Gods' combat picture: the attack and the defense face to face, as the rulebook lays
them top to top.

The attack cards form the upper row with their spheres on their lower edge, the defense cards
the lower row with their spheres on their upper edge, so the spheres meet in the middle. Both
rows read from the attacker's left to right; every card has the same four sphere places (P M S D,
the order in which an attack card prints them and in which a turned-round defense card shows
them), so each defense sphere stands right under the attack sphere it stops. An attack sphere
that gets through is marked by a red wedge in the gap; a stopped one is drawn pale, and so is a
defense sphere that meets nothing. Between joined cards each card's touching slot is shown as the
rules count it (a defense card turned round: its printed right slot on the west), so the two
numbers at a join add up to what the join costs.

The picture is sized for a phone: at most `WIDTH` pixels wide with no text under 18 pixels, so
text stays above 11 pixels when Discord shows it 400 pixels wide; a move of more than
`MAX_COLUMNS` cards wraps onto bands. Without a defense only the attack row is drawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.drawing import Font, font, palette_png
from rules.guilty_gods.content import SPHERES, Slot
from rules.guilty_gods.view import MoveView, PlacedView

WIDTH = 654
"""The widest picture: 18-pixel text is 11 pixels tall when it is shown 400 pixels wide."""
MAX_COLUMNS = 5
MARGIN, GAP, MID, PAD = 12, 10, 16, 6
MAX_CARD_W = 195
NAME, TEXT = 20, 18

SPHERE_COLOURS = {"physical": (200, 70, 50), "magical": (60, 110, 210),
                  "supernatural": (140, 70, 190), "divine": (205, 160, 20)}
SPHERE_LETTER = {"physical": "P", "magical": "M", "supernatural": "S", "divine": "D"}
BACKGROUND = (245, 243, 238)
ATTACK_BG, DEFENSE_BG = (250, 234, 222), (226, 237, 250)
INK, SOFT, RED, GREEN, GOLD = (25, 25, 25), (95, 95, 95), (195, 30, 30), (30, 135, 60), (190, 140, 0)
SLOT_FREE, SLOT_COST, SLOT_OPENED, SLOT_CLOSED = (40, 140, 60), (185, 120, 0), (130, 70, 190), (150, 150, 150)


def _pale(colour: tuple[int, int, int], card: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = colour
    return (int(r * 0.35 + card[0] * 0.65), int(g * 0.35 + card[1] * 0.65), int(b * 0.35 + card[2] * 0.65))


def wrap(text: str, face: Font, width: float, lines: int) -> list[str]:
    """`text` in at most `lines` lines of at most `width` pixels (the last one cut with …)."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and face.getlength(line + " " + words[0]) <= width:
            line += " " + words.pop(0)
        out.append(line)
    if words or (out and face.getlength(out[-1]) > width):
        last = " ".join([out[-1], *words]) if out else " ".join(words)
        while last and face.getlength(last + "…") > width:
            last = last[:-1]
        out[-1] = last.rstrip() + "…"
    return out


@dataclass
class Face:
    """What one card shows, measured: its text lines and the state of its four sphere places."""

    placed: PlacedView
    name: list[str]
    support: list[str]
    result: tuple[str, tuple[int, int, int]] | None
    spheres: list[str | None]
    """Per place (P M S D): 'full', 'pale' or None (the card has no sphere there)."""
    through: list[bool]
    """Attack cards: per place, the sphere gets through (a red wedge under it)."""


def _faces(attack: MoveView, defense: MoveView | None, decided: bool, width: int) -> tuple[list[Face], list[Face]]:
    name_face, text_face = font(NAME), font(TEXT)
    inner = width - 2 * PAD
    facing = {p.facing: p for p in defense.row} if defense is not None else {}
    by_place = {p.facing: p for p in attack.row}
    top: list[Face] = []
    for p in attack.row:
        other = facing.get(p.facing)
        mine = set(p.spheres)
        theirs = set(other.spheres) if other is not None else set()
        full = ["full" if s in mine and (not decided or s not in theirs) else "pale" if s in mine else None
                for s in SPHERES]
        through = [decided and s in mine and s not in theirs for s in SPHERES]
        result = None
        if decided and p.damage is not None:
            result = (f"{p.damage} through", RED) if p.damage else ("stopped", GREEN)
        top.append(Face(p, wrap(p.card.name, name_face, inner, 2), _support(p, text_face, inner), result,
                        full, through))
    bottom: list[Face] = []
    for p in defense.row if defense is not None else []:
        target = by_place.get(p.facing)
        theirs = set(target.spheres) if target is not None else set()
        mine = set(p.spheres)
        full = ["full" if s in theirs else "pale" for s in SPHERES]
        spheres = [f if s in mine else None for s, f in zip(SPHERES, full, strict=True)]
        result = None
        if decided and p.stopped is not None:
            met = len(theirs & mine)
            result = ("stops it", GREEN) if p.stopped else (f"stops {met} of {len(theirs)}", SOFT)
        bottom.append(Face(p, wrap(p.card.name, name_face, inner, 2), _support(p, text_face, inner), result,
                           spheres, [False] * 4))
    return top, bottom


def _support(p: PlacedView, face: Font, width: float) -> list[str]:
    return wrap(f"+ {p.support.name}", face, width, 2) if p.support is not None else []


def _row_height(faces: list[Face], cell: int) -> int:
    names = max((len(f.name) for f in faces), default=1)
    supports = max((len(f.support) for f in faces), default=0)
    results = 1 if any(f.result for f in faces) else 0
    return 2 * PAD + names * (NAME + 3) + (TEXT + 8) + (supports + results) * (TEXT + 4) + cell + 8


def _slot_tab(d: ImageDraw.ImageDraw, x: float, y: float, slot: Slot, opened: bool, east: bool) -> None:
    """A slot as the rules count it, on a card's edge at (x, y): +n, 0, or a closed bar."""
    face = font(TEXT)
    text = "" if not slot.open else f"+{slot.cost}" if slot.cost else "0"
    colour = SLOT_CLOSED if not slot.open else SLOT_OPENED if opened else SLOT_COST if slot.cost else SLOT_FREE
    w = max(24, int(face.getlength(text)) + 8)
    x0 = x - w if east else x
    d.rounded_rectangle([x0, y, x0 + w, y + TEXT + 4], radius=5, fill=colour)
    if slot.open:
        d.text((x0 + w / 2, y + (TEXT + 4) / 2), text, font=face, fill=(255, 255, 255), anchor="mm")
    else:
        d.line([x0 + 6, y + (TEXT + 4) / 2, x0 + w - 6, y + (TEXT + 4) / 2], fill=(255, 255, 255), width=3)


_SPHERES: dict[tuple[int, str, str | None, tuple[int, int, int], bool], Image.Image] = {}
"""Sphere stamps by (size, sphere, state, card colour, added by a support): drawn once, pasted
(a letter drawn anew is most of a picture's text). Stamps are never changed once made."""


def _stamp(cell: int, sphere: str, state: str | None, bg: tuple[int, int, int], added: bool) -> Image.Image:
    key = (cell, sphere, state, bg, added)
    found = _SPHERES.get(key)
    if found is None:
        found = Image.new("RGB", (cell + 1, cell + 1), bg)
        d = ImageDraw.Draw(found)
        box = (0, 0, cell, cell)
        if state is None:
            d.ellipse(box, outline=(190, 190, 190), width=2)
        else:
            colour = SPHERE_COLOURS[sphere] if state == "full" else _pale(SPHERE_COLOURS[sphere], bg)
            d.ellipse(box, fill=colour, outline=(255, 255, 255) if added else None, width=3 if added else 1)
            d.text((cell / 2, cell / 2), SPHERE_LETTER[sphere], font=font(TEXT),
                   fill=(255, 255, 255) if state == "full" else (110, 110, 110), anchor="mm")
        _SPHERES[key] = found
    return found


def _spheres(image: Image.Image, x: int, y: int, width: int, cell: int, f: Face,
             bg: tuple[int, int, int]) -> None:
    step = (width - 2 * PAD) / 4
    added = set(f.placed.spheres) - set(f.placed.card.spheres)
    for i, (sphere, state) in enumerate(zip(SPHERES, f.spheres, strict=True)):
        cx = x + PAD + step * (i + 0.5)
        image.paste(_stamp(cell, sphere, state, bg, state is not None and sphere in added),
                    (round(cx - cell / 2), y))


def _card(image: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, width: int, height: int, cell: int, f: Face,
          upper: bool) -> None:
    """One card; `upper`: an attack card, its spheres on its lower edge (face to face)."""
    p = f.placed
    bg = ATTACK_BG if p.card.kind == "attack" else DEFENSE_BG
    outline = INK
    if f.result is not None:
        outline = f.result[1] if f.result[1] != SOFT else INK
    d.rounded_rectangle([x, y, x + width, y + height], radius=10, fill=bg, outline=outline,
                        width=4 if f.result is not None and outline != INK else 2)
    sphere_y = y + height - PAD - cell - 2 if upper else y + PAD + 2
    _spheres(image, x, sphere_y, width, cell, f, bg)
    name_face, text_face = font(NAME), font(TEXT)
    cx = x + width / 2
    ty = y + PAD if upper else y + PAD + cell + 8
    if not upper and f.result is not None:
        d.text((cx, ty), f.result[0], font=text_face, fill=f.result[1], anchor="ma")
        ty += TEXT + 4
    for line in f.name:
        d.text((cx, ty), line, font=name_face, fill=INK, anchor="ma", stroke_width=0)
        ty += NAME + 3
    # the level and the seal between the two slots
    ty += 2
    level = f"L{p.card.level}"
    lw = text_face.getlength(level)
    seal = 14 if p.card.seal else 0
    lx = cx - (lw + seal) / 2
    d.text((lx, ty), level, font=text_face, fill=SOFT)
    if p.card.seal:
        sx, sy = lx + lw + 9, ty + TEXT / 2 + 1
        d.polygon([(sx, sy - 7), (sx + 6, sy), (sx, sy + 7), (sx - 6, sy)], fill=GOLD)
    _slot_tab(d, x - GAP // 2 + 1, ty - 2, p.west, p.west_opened, east=False)
    _slot_tab(d, x + width + GAP // 2 - 1, ty - 2, p.east, p.east_opened, east=True)
    ty += TEXT + 8
    for line in f.support:
        d.text((cx, ty), line, font=text_face, fill=SOFT, anchor="ma")
        ty += TEXT + 4
    if upper and f.result is not None:
        d.text((cx, ty), f.result[0], font=text_face, fill=f.result[1], anchor="ma")


def _wedge(d: ImageDraw.ImageDraw, cx: float, top: float, size: float) -> None:
    d.polygon([(cx - size / 2, top), (cx + size / 2, top), (cx, top + size * 0.9)], fill=RED)


def _captions(attack: MoveView, defense: MoveView | None, decided: bool, width: int) -> tuple[list[str], list[str]]:
    face = font(TEXT)
    room = width - 2 * MARGIN
    head = "Attack"
    if decided:
        total = sum(p.damage or 0 for p in attack.row)
        head += f" · {total} through"
    if attack.group is not None:
        head += f" · group support {attack.group.name}"
    if defense is None:
        foot = "No defense: every sphere goes through" if decided else "No defense yet"
    else:
        foot = "Defense" + (f" · group support {defense.group.name}" if defense.group is not None else "")
    return wrap(head, face, room, 3), wrap(foot, face, room, 3)


LINE = TEXT + 6
"""A caption line's height."""


@dataclass
class Plan:
    """Where everything of one combat picture goes (pixels)."""

    width: int
    height: int
    columns: int
    card_w: int
    cell: int
    """A sphere's diameter."""
    top: list[Face]
    bottom: list[Face]
    top_h: int
    bottom_h: int
    head: list[str]
    foot: list[str]
    band_top: list[int]
    decided: bool

    def card_at(self, place: int, upper: bool) -> tuple[int, int]:
        """The top left corner of the attack card (`upper`) at or the defense card facing
        attack position `place`."""
        band, column = divmod(place, self.columns)
        y = self.band_top[band] + (0 if upper else self.top_h + MID)
        return MARGIN + column * (self.card_w + GAP), y

    def sphere_at(self, place: int, upper: bool, k: int) -> tuple[float, float]:
        """The centre of sphere place `k` (0-3: P M S D) of that card."""
        x, y = self.card_at(place, upper)
        step = (self.card_w - 2 * PAD) / 4
        top = y + self.top_h - PAD - self.cell - 2 if upper else y + PAD + 2
        return round(x + PAD + step * (k + 0.5) - self.cell / 2) + self.cell / 2, top + self.cell / 2


def plan(attack: MoveView, defense: MoveView | None) -> Plan:
    decided = any(p.damage is not None for p in attack.row)
    count = max([p.facing + 1 for p in attack.row] + [p.facing + 1 for p in (defense.row if defense else [])])
    bands = math.ceil(count / MAX_COLUMNS)
    columns = math.ceil(count / bands)
    card_w = min(MAX_CARD_W, (WIDTH - 2 * MARGIN - (columns - 1) * GAP) // columns)
    width = 2 * MARGIN + columns * card_w + (columns - 1) * GAP
    cell = int(min(34, (card_w - 2 * PAD) / 4 - 3))
    top, bottom = _faces(attack, defense, decided, card_w)
    head, foot = _captions(attack, defense, decided, width)
    top_h, bottom_h = _row_height(top, cell), _row_height(bottom, cell)
    band_h = top_h + (MID + bottom_h if defense is not None else MID)
    first = MARGIN + len(head) * LINE
    band_top = [first + b * (band_h + MID) for b in range(bands)]
    height = band_top[-1] + band_h + len(foot) * LINE + MARGIN
    return Plan(width, height, columns, card_w, cell, top, bottom, top_h, bottom_h, head, foot, band_top,
                decided)


def draw_combat(attack: MoveView, defense: MoveView | None) -> bytes:
    """The combat as a palette PNG: the attack above, the defense below, face to face."""
    return palette_png(draw(plan(attack, defense), defense is not None))


def draw(pl: Plan, defended: bool) -> Image.Image:
    image = Image.new("RGB", (pl.width, pl.height), BACKGROUND)
    d = ImageDraw.Draw(image)
    face = font(TEXT)
    y = MARGIN
    for text in pl.head:
        d.text((MARGIN, y), text, font=face, fill=INK)
        y += LINE
    for f in pl.top:
        x, by = pl.card_at(f.placed.facing, upper=True)
        _card(image, d, x, by, pl.card_w, pl.top_h, pl.cell, f, upper=True)
        for k, through in enumerate(f.through):
            if through:
                cx, _ = pl.sphere_at(f.placed.facing, True, k)
                _wedge(d, cx, by + pl.top_h + 1, min(MID - 2, pl.cell * 0.6))
    for f in pl.bottom:
        x, by = pl.card_at(f.placed.facing, upper=False)
        _card(image, d, x, by, pl.card_w, pl.bottom_h, pl.cell, f, upper=False)
    y = pl.height - MARGIN - len(pl.foot) * LINE
    for text in pl.foot:
        d.text((MARGIN, y), text, font=face, fill=SOFT if not defended and not pl.decided else INK)
        y += LINE
    return image


def lineup(attack: MoveView, defense: MoveView | None) -> str:
    """The spheres face to face in plain text (the local table's drawing), one line per place:
    the attack card's four places, the defense card's, what got through."""
    facing = {p.facing: p for p in defense.row} if defense is not None else {}

    def places(p: PlacedView | None) -> str:
        return " ".join(SPHERE_LETTER[s] if p is not None and s in p.spheres else "." for s in SPHERES)

    lines = ["   attack      defense"]
    for p in attack.row:
        other = facing.get(p.facing)
        result = "" if p.damage is None else f"   {p.damage} through" if p.damage else "   stopped"
        lines.append(f"{p.facing + 1}. {places(p)}  | {places(other) if other else 'no card'}{result}")
    return "\n".join(lines)
