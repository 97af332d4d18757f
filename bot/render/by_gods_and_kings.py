"""By Gods and Kings at the table, made to be read at a glance on a phone: whose turn and what
they may do (the description), one short line per unit (name, HP, a status or two), and a
picture of the battle with the details (HP bars, statuses with their turns, each Field as card
faces with its total against an enemy's thresholds, the numbers 1-13 each character holds).
A character's hand, gear and stats are in its player's private view."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, partial

from PIL import Image, ImageDraw

from bot.kept import Kept
from bot.render.base import GameRenderer, RenderContext
from bot.render.drawing import centred, font, pack_filtered, palette_of, rows_png
from bot.render.panel import DESCRIPTION_MAX, FIELD_VALUE_MAX, Panel, clip
from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.effects_model import STATUS_TEXT
from rules.by_gods_and_kings.view import BgkView, StatusView, UnitView

STATUS_MARK = {"bleed": "🩸", "poison": "☠", "burn": "🔥", "petrify": "🪨", "freeze": "❄",
               "choke": "💨", "stun": "💫", "paralyze": "⚡", "sleep": "💤", "blind": "🙈",
               "numb": "🧊", "taunt": "📣"}
BAR = 10
LINE_STATUSES = 2
"""Statuses named on a unit's line of the table (the picture and the private view show all)."""


def hp_bar(hp: int, max_hp: int) -> str:
    full = 0 if max_hp <= 0 else round(BAR * max(hp, 0) / max_hp)
    return "█" * full + "░" * (BAR - full) + f" {hp}/{max_hp}"


def turns(n: int) -> str:
    return f"{n} turn{'s' * (n != 1)}"


def status_text(x: StatusView, long: bool = True) -> str:
    """A status in words: `🩸bleed 3 (2 turns)`; short: `🩸bleed 3`."""
    text = f"{STATUS_MARK.get(x.kind, '•')}{x.kind}" + (f" {x.amount}" if x.amount else "")
    return text + (f" ({turns(x.turns)})" if long else "")


def statuses(unit: UnitView) -> str:
    return " ".join(status_text(x) for x in unit.statuses)


def explained(x: StatusView) -> str:
    """A status with what it does: `🔥burn: DEF lowered by 3 (2 turns)`."""
    what = STATUS_TEXT.get(x.kind)  # type: ignore[call-overload]
    if what is None:
        return status_text(x)
    return f"{STATUS_MARK.get(x.kind, '•')}{x.kind}: {what.format(amount=x.amount)} ({turns(x.turns)})"


def unit_line(unit: UnitView, acting: bool, ctx: RenderContext) -> str:
    """A unit's one line on the table: its name (and rank or player), HP, a status or two."""
    parts = [("▶ " if acting else "") + f"**{unit.name}**"]
    if unit.rank:
        parts.append(unit.rank)
    if unit.seat:
        parts[0] += f" ({ctx.names.get(unit.seat, unit.seat)})"
    if unit.hp <= 0:
        return " · ".join([*parts, "fallen"])
    parts.append(f"{unit.hp}/{unit.max_hp} HP")
    shown = unit.statuses[:LINE_STATUSES]
    parts += [status_text(x, long=False) for x in shown]
    if len(unit.statuses) > len(shown):
        parts.append(f"+{len(unit.statuses) - len(shown)} more")
    if unit.held:
        parts.append(f"{unit.held} held ready")
    return " · ".join(parts)


def unit_text(unit: UnitView, acting: bool) -> str:
    """All of a unit: what its player's private view shows of each of their characters."""
    lines = [("▶ " if acting else "") + hp_bar(unit.hp, unit.max_hp)]
    stats = f"DEF {unit.defense} · Phys {unit.physical} · Mag {unit.magic} · SPD {unit.spd}"
    if unit.shield:
        stats += f" · shield {unit.shield}"
    lines.append(stats)
    lines += [explained(x) for x in unit.statuses]
    if unit.kind == "enemy":
        lines.append(f"Field {cards.names(unit.field) or '—'} = **{unit.field_total}**"
                     + (f" · fires at {', '.join(unit.abilities)}" if unit.abilities else ""))
    else:
        if unit.hand is not None:
            lines.append(f"hand {cards.names(unit.hand) or '—'}")
        field = f"Field {cards.names(unit.field) or '—'}"
        if unit.hands:
            field += f" ({', '.join(unit.hands)})"
        lines.append(field)
        if unit.weapon or unit.shards:
            lines.append(", ".join(x for x in [unit.weapon or "", *unit.shards] if x))
        if unit.held:
            lines.append(f"holding {unit.held} ready")
        if unit.numbers:
            lo, hi = unit.numbers
            lines.append(f"enemy targets: {lo}-{hi}" if lo != hi else f"enemy target: {lo}")
    return "\n".join(lines)


def order_strip(view: BgkView) -> str:
    """The round's order, the fallen left out, the acting unit in bold."""
    units = {u.id: u for u in [*view.party, *view.foes, *view.npcs]}
    return " → ".join(f"**{units[x].name}**" if x == view.actor else units[x].name
                      for x in view.order if x in units and (units[x].hp > 0 or x == view.actor))


def battlefield_text(view: BgkView) -> str:
    """What the picture shows, as lines of text for the local table (the terminal shows no
    picture): each unit's statuses with their turns, its Field and total, an enemy's thresholds,
    a character's hands and the numbers it holds."""
    lines = []
    for unit in [*view.foes, *view.party, *view.npcs]:
        if unit.hp <= 0:
            continue
        parts = [f"Field {cards.names(unit.field) or '—'} = {unit.field_total}"]
        if unit.abilities:
            parts.append("fires at " + ", ".join(unit.abilities))
        if unit.hands:
            parts.append(", ".join(unit.hands))
        if unit.numbers:
            lo, hi = unit.numbers
            parts.append(f"enemy targets {lo}-{hi}" if lo != hi else f"enemy target {lo}")
        if unit.statuses:
            parts.append(statuses(unit))
        lines.append(f"{unit.name}: " + " · ".join(parts))
    return "\n".join(lines)


def title(view: BgkView) -> str:
    """The scenario, the place (when it is not the scenario's own name) and the step (its name
    when it is not the place's, its number when the place has several)."""
    parts = [view.scenario]
    if view.area and view.area != view.scenario:
        parts.append(view.area)
    if view.step_name and view.step_name not in parts:
        parts.append(view.step_name)
    head = " · ".join(x for x in parts if x)
    if view.step_name and view.steps > 1:
        head += f" ({min(view.step + 1, view.steps)}/{view.steps})"
    return head


def description(view: BgkView) -> str:
    """What is asked now; in battle the round's order and the enemy's announced blow; in camp and
    at a fork the objective (and there the way taken so far)."""
    lines = [view.prompt] if view.prompt else []
    if view.intent:
        if view.phase == "enemy":  # the prompt names it
            lines[0] = f"⚔ {view.prompt}"
        else:
            lines.append(f"⚔ {view.intent}.")
    if view.order:
        lines.append(f"Round {view.round}: {order_strip(view)}")
    elif view.objective and view.phase in ("route", "camp"):  # entering the first place tells it
        lines.append(f"**Objective**: {view.objective}")
    if view.routes and len(view.visited) > 1:
        lines.append("The way so far: " + " → ".join(view.visited))
    return "\n".join(lines)


def routes_text(view: BgkView, ctx: RenderContext) -> str:
    """Each way on, what the map shows of it (a place to rest; the places beyond it, or that the
    scenario ends there), and who voted for it."""
    out = []
    for r in view.routes:
        known = ["a place to rest"] if r.rest else []
        known.append("the last place" if r.ends else "then " + " or ".join(r.leads_to) if r.leads_to else "")
        who = ", ".join(ctx.names.get(p, p) for p in r.votes)
        out.append(f"➡ **{r.name}**" + (f": {', '.join(x for x in known if x)}" if any(known) else "")
                   + (f" · voted by {who}" if who else ""))
    return "\n".join(out)


# --- the picture -------------------------------------------------------------------------------
WIDTH, MARGIN, GAP, COLUMNS = 400, 6, 6, 2
"""The picture is 400 px wide, as a phone's screen, with text of 14 px (16 for names and totals,
13 for an enemy's rank); in an embed a phone shows it narrower (about 270 px: 9-11 px text)."""
CELL_W = (WIDTH - 2 * MARGIN - (COLUMNS - 1) * GAP) // COLUMNS
CELL_H, CARD_W, CARD_H, SPLIT = 102, 23, 36, 8
SMALL, BIG, TAG = 14, 16, 13
SUIT_LETTER = {"h": "H", "d": "D", "c": "C", "s": "S"}
"""Pillow's built-in font has no suit symbols: the picture spells the suit's letter."""

Colour = tuple[int, int, int]
BACKGROUND, ENEMY, FRIEND, FALLEN = (244, 241, 234), (252, 232, 228), (228, 240, 250), (232, 232, 232)
EDGE, ACTING, INK, SOFT_INK, GREY_INK = (120, 120, 120), (225, 160, 0), (20, 20, 20), (40, 40, 40), (60, 60, 60)
RED, RANK_INK, STATUS_INK, HANDS_INK, NUMBERS_INK = (190, 30, 30), (110, 60, 60), (120, 40, 120), (30, 110, 50), (30, 90, 160)
BAR_EMPTY, HP_HIGH, HP_MID, HP_LOW, CARD = (200, 200, 200), (60, 170, 80), (230, 160, 0), (200, 40, 40), (255, 255, 255)
COLOURS: list[Colour] = [BACKGROUND, ENEMY, FRIEND, FALLEN, EDGE, ACTING, INK, SOFT_INK, GREY_INK, RED,
                         RANK_INK, STATUS_INK, HANDS_INK, NUMBERS_INK, BAR_EMPTY, HP_HIGH, HP_MID, HP_LOW, CARD]
"""Every flat colour of the picture, first in its palette (BACKGROUND is entry 0)."""


@dataclass(frozen=True, slots=True)
class Shown:
    """What the picture shows of one unit: its key in `BATTLEFIELDS` is made of these alone, so a
    picture is drawn again only when something it shows changed."""

    name: str
    enemy: bool
    acting: bool
    hp: int
    max_hp: int
    tag: str
    """An enemy's rank."""
    statuses: tuple[str, ...]
    field: tuple[str, ...]
    total: int
    thresholds: tuple[int, ...]
    hands: str
    numbers: str


def shown(unit: UnitView, actor: str | None) -> Shown:
    thresholds = tuple(int(a.split(":")[0]) for a in unit.abilities if a.split(":")[0].isdigit())
    lo, hi = unit.numbers or (0, 0)
    return Shown(name=unit.name, enemy=unit.kind == "enemy", acting=unit.id == actor,
                 hp=unit.hp, max_hp=unit.max_hp, tag=unit.rank or "",
                 statuses=tuple(f"{x.kind}{f' {x.amount}' if x.amount else ''} ({x.turns}t)"
                                for x in unit.statuses),
                 field=tuple(unit.field[:3]), total=unit.field_total,
                 thresholds=thresholds if unit.kind == "enemy" else (),
                 hands=", ".join(unit.hands),
                 numbers="" if unit.numbers is None else f"targets {lo}-{hi}" if lo != hi else f"target {lo}")


Key = tuple[tuple[Shown, ...], tuple[Shown, ...]]


def picture_key(view: BgkView) -> Key | None:
    """What the battlefield picture shows: the enemies standing, then the party and its NPCs
    standing (the fallen are on the table's lines); None out of battle (no enemy standing)."""
    foes = tuple(shown(u, view.actor) for u in view.foes if u.hp > 0)
    if not foes:
        return None
    return foes, tuple(shown(u, view.actor) for u in [*view.party, *view.npcs] if u.hp > 0)


BATTLEFIELDS: Kept[bytes] = Kept()
"""Battlefield pictures kept by what they show (`picture_key`)."""
CELLS: Kept[Image.Image] = Kept(size=256)
"""Each unit's drawing, reduced to the palette, by what it shows (whose turn it is aside: that
outline is drawn over it): a new picture draws only the units that changed and pastes the others."""


def battlefield_picture(view: BgkView) -> bytes | None:
    """The table's picture of the battle, if there is one (kept in `BATTLEFIELDS`)."""
    key = picture_key(view)
    if key is None:
        return None
    return BATTLEFIELDS.get(key, lambda: draw_battlefield(*key))


def _rows(n: int) -> int:
    return -(-n // COLUMNS)


def picture_height(foes: int, friends: int) -> int:
    rows = _rows(foes) + _rows(friends)
    return 2 * MARGIN + rows * CELL_H + (rows - 1) * GAP + (SPLIT if foes and friends else 0)


def draw_battlefield(foes: tuple[Shown, ...], friends: tuple[Shown, ...]) -> bytes:
    """The enemies above, the party (and NPCs) below, two to a row; the acting unit outlined.
    Made of the units' kept drawings in the fixed palette, so no colour is reduced here."""
    height = picture_height(len(foes), len(friends))
    image = Image.new("P", (WIDTH, height), 0)
    d = ImageDraw.Draw(image)
    y = MARGIN
    for group in (foes, friends):
        for i, unit in enumerate(group):
            x, top = MARGIN + i % COLUMNS * (CELL_W + GAP), y + i // COLUMNS * (CELL_H + GAP)
            still = replace(unit, acting=False)
            image.paste(CELLS.get(still, partial(_cell, still)), (x, top))
            if unit.acting:
                d.rounded_rectangle([x, top, x + CELL_W, top + CELL_H], radius=6,
                                    outline=COLOURS.index(ACTING), width=3)
        if group:
            y += _rows(len(group)) * (CELL_H + GAP) - GAP + SPLIT
    raw = image.tobytes()
    rows = b"".join(b"\0" + raw[r * WIDTH:(r + 1) * WIDTH] for r in range(height))
    return rows_png(WIDTH, height, _palette(), [pack_filtered(rows, level=3)])


def _cell(unit: Shown) -> Image.Image:
    image = Image.new("RGB", (CELL_W + 1, CELL_H + 1), BACKGROUND)
    _draw_unit(ImageDraw.Draw(image), 0, 0, unit)
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


@cache
def _palette() -> Image.Image:
    """The picture's palette: its flat colours, then the shades of their anti-aliased text (from
    sample units drawn with each colour of text)."""
    sample = Image.new("RGB", (CELL_W + 1, 3 * (CELL_H + 1)), BACKGROUND)
    d = ImageDraw.Draw(sample)
    statuses = ("bleed 3 (2t)", "poison 2 (1t)")
    _draw_unit(d, 0, 0, Shown("Kobold Shaman", True, False, 30, 150, "mini boss", statuses,
                              ("5h", "9s", "Kd"), 27, (14, 20), "", ""))
    _draw_unit(d, 0, CELL_H + 1, Shown("Wilma", False, False, 80, 100, "", statuses,
                                       ("10d", "7c", "Qd"), 22, (), "Flush", "targets 11-13"))
    _draw_unit(d, 0, 2 * (CELL_H + 1), Shown("Gilbert", False, False, 0, 95, "", (), ("3h",), 3, (), "", ""))
    return palette_of(sample, COLOURS, colours=128)


def _text(d: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int,
          fill: Colour, right: bool = False) -> float:
    """Text with its top-left (or top-right) corner at (x, y); its width."""
    face = font(size)
    box = d.textbbox((0, 0), text, font=face)
    width = box[2] - box[0]
    d.text(((x - width if right else x) - box[0], y - box[1]), text, font=face, fill=fill)
    return width


def _fit(d: ImageDraw.ImageDraw, text: str, size: int, room: float) -> str:
    """`text` cut at a word so that it fits `room` pixels (with an ellipsis when cut)."""
    face = font(size)
    if d.textlength(text, font=face) <= room:
        return text
    words = text.split(" ")
    while len(words) > 1:
        words.pop()
        cut = " ".join(words) + "…"
        if d.textlength(cut, font=face) <= room:
            return cut
    return text[: max(1, int(room // (size * 0.6)))] + "…"


def _fit_items(d: ImageDraw.ImageDraw, items: list[str], size: int, room: float) -> str:
    """As many of `items` as fit `room` pixels, joined, and how many more there are."""
    face = font(size)
    for n in range(len(items), 0, -1):
        text = " · ".join(items[:n]) + (f" +{len(items) - n}" if n < len(items) else "")
        if d.textlength(text, font=face) <= room:
            return text
    return _fit(d, items[0], size, room) if items else ""


def _draw_card_face(d: ImageDraw.ImageDraw, x: float, y: float, code: str) -> None:
    name = cards.name(code)
    rank, suit = name[:-1], cards.suit(code)
    d.rounded_rectangle([x, y, x + CARD_W, y + CARD_H], radius=3, fill=CARD, outline=GREY_INK, width=1)
    colour = RED if suit in ("h", "d") else INK
    centred(d, x + CARD_W / 2, y + 11, rank, font(BIG if len(rank) == 1 else SMALL), colour)
    centred(d, x + CARD_W / 2, y + 27, SUIT_LETTER.get(suit, suit), font(SMALL), colour)


def _draw_unit(d: ImageDraw.ImageDraw, x: float, y: float, unit: Shown) -> None:
    """One unit's cell: its name and rank (an enemy) or the hands its Field holds (a character),
    the HP bar, the statuses, the Field's cards and total, an enemy's thresholds (red once one is
    reached) or the numbers a character holds for the enemies' target cards."""
    fallen = unit.hp <= 0
    d.rounded_rectangle([x, y, x + CELL_W, y + CELL_H], radius=6,
                        fill=FALLEN if fallen else ENEMY if unit.enemy else FRIEND, outline=EDGE, width=1)
    left, right = x + 8, x + CELL_W - 8
    corner, ink = (unit.tag, RANK_INK) if unit.tag else (unit.hands, HANDS_INK)
    # the name first: the corner gets the room left, at least 40 px (a rank that does not fit is
    # left out: the table's line says it; the hands are cut)
    room = max(40.0, right - left - d.textlength(unit.name, font=font(BIG)) - 6)
    if unit.tag and d.textlength(corner, font=font(TAG)) > room:
        corner = ""
    corner_w = _text(d, right, y + 8, _fit(d, corner, TAG, room), TAG, ink, right=True) + 6 if corner else 0
    _text(d, left, y + 6, _fit(d, unit.name, BIG, right - left - corner_w), BIG, INK)
    # the HP bar and the HP
    top, bar_right = y + 28, right - 64
    d.rectangle([left, top, bar_right, top + 10], fill=BAR_EMPTY)
    share = 0 if unit.max_hp <= 0 else max(unit.hp, 0) / unit.max_hp
    if share > 0:
        d.rectangle([left, top, left + (bar_right - left) * share, top + 10],
                    fill=HP_HIGH if share > 0.5 else HP_MID if share > 0.25 else HP_LOW)
    _text(d, right, top - 2, "fallen" if fallen else f"{unit.hp}/{unit.max_hp}", SMALL, SOFT_INK, right=True)
    if unit.statuses:
        _text(d, left, y + 44, _fit_items(d, list(unit.statuses), SMALL, right - left), SMALL, STATUS_INK)
    # the Field as card faces, and its total (against the thresholds for an enemy)
    cy = y + CELL_H - CARD_H - 6
    for i, code in enumerate(unit.field):
        _draw_card_face(d, left + i * (CARD_W + 2), cy, code)
    tx = left + 3 * (CARD_W + 2) + 4
    _text(d, tx, cy, f"= {unit.total}", BIG, INK)
    if unit.thresholds:
        reached = any(unit.total >= t for t in unit.thresholds)
        text = "fires " + " ".join(str(t) for t in unit.thresholds)
        _text(d, tx, cy + 21, _fit(d, text, SMALL, right - tx), SMALL, RED if reached else GREY_INK)
    elif unit.numbers:
        _text(d, tx, cy + 21, unit.numbers, SMALL, NUMBERS_INK)


class ByGodsAndKingsRenderer(GameRenderer[BgkView]):
    draws_pictures = True

    def table(self, view: BgkView, ctx: RenderContext) -> list[Panel]:
        panel = Panel(title=clip(title(view), 256), description=clip(description(view), DESCRIPTION_MAX),
                      colour=self.game.colour)
        if view.routes:
            panel.add("Where next?", clip(routes_text(view, ctx), FIELD_VALUE_MAX))
        if view.foes:
            standing = [u for u in view.foes if u.hp > 0]
            lines = [unit_line(u, u.id == view.actor, ctx) for u in standing]
            fallen = [u.name for u in view.foes if u.hp <= 0]
            if fallen:
                lines.append("Fallen: " + ", ".join(fallen))
            panel.add(f"Enemies ({len(standing)} standing)" if fallen else f"Enemies ({len(standing)})",
                      clip("\n".join(lines), FIELD_VALUE_MAX))
        panel.add("Party", clip("\n".join(
            [unit_line(u, u.id == view.actor, ctx) for u in view.party]
            + ["🤝 " + unit_line(u, u.id == view.actor, ctx) for u in view.npcs]), FIELD_VALUE_MAX))
        if view.stash:
            panel.add("Loot to share", clip(", ".join(view.stash), FIELD_VALUE_MAX))
        foot = [f"attempt {view.attempt} of {view.attempts}"] if view.attempts > 1 else []
        if view.foes:
            foot.append(f"draw pile {view.deck_count} · discard {view.discard_count}")
        panel.footer = " · ".join(foot)
        picture = battlefield_picture(view)
        if picture is not None:
            panel.image_png = picture
            panel.image_name = "battlefield.png"
            panel.text_art_of = lambda: battlefield_text(view)
        return [panel]

    def private(self, view: BgkView, ctx: RenderContext) -> Panel:
        mine = [u for u in view.party if u.id in view.controlled]
        head = "Your character" if len(mine) == 1 else f"Your characters ({len(mine)})"
        panel = Panel(title=head, description=clip(view.prompt, DESCRIPTION_MAX), colour=self.game.colour)
        for hero in mine:
            panel.add(hero.name, clip(unit_text(hero, hero.id == view.actor), FIELD_VALUE_MAX))
        return panel


RENDERER = ByGodsAndKingsRenderer
