"""By Gods and Kings at the table: the enemies (HP bars, statuses, Field totals against their
thresholds), the party (HP, statuses, hand and Field, face up), the turn order and, before an
enemy's turn, the numbers 1-13 each character holds."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.kept import Kept
from bot.render.base import GameRenderer, RenderContext
from bot.render.drawing import centred, font, palette_png
from bot.render.panel import DESCRIPTION_MAX, FIELD_VALUE_MAX, Panel, clip
from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.view import BgkView, UnitView

STATUS_MARK = {"bleed": "🩸", "poison": "☠", "burn": "🔥", "petrify": "🪨", "freeze": "❄",
               "choke": "💨", "stun": "💫", "paralyze": "⚡", "sleep": "💤", "blind": "🙈",
               "numb": "🧊", "taunt": "📣"}
BAR = 10


def hp_bar(hp: int, max_hp: int) -> str:
    full = 0 if max_hp <= 0 else round(BAR * max(hp, 0) / max_hp)
    return "█" * full + "░" * (BAR - full) + f" {hp}/{max_hp}"


def statuses(unit: UnitView) -> str:
    marks = [f"{STATUS_MARK.get(x.kind, '•')}{x.kind}"
             + (f" {x.amount}" if x.amount else "") + f" ({x.turns})" for x in unit.statuses]
    return " ".join(marks)


def unit_text(unit: UnitView, acting: bool) -> str:
    lines = [("▶ " if acting else "") + hp_bar(unit.hp, unit.max_hp)]
    stats = f"DEF {unit.defense} · Phys {unit.physical} · Mag {unit.magic} · SPD {unit.spd}"
    if unit.shield:
        stats += f" · shield {unit.shield}"
    lines.append(stats)
    if unit.statuses:
        lines.append(statuses(unit))
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
            lines.append(f"enemy targets: {lo}-{hi}" if lo != hi else f"enemy targets: {lo}")
    return "\n".join(lines)


def order_strip(view: BgkView) -> str:
    names = {u.id: u.name for u in [*view.party, *view.foes, *view.npcs]}
    return " → ".join(f"**{names.get(x, x)}**" if x == view.actor else names.get(x, x)
                      for x in view.order)


def map_text(view: BgkView) -> str:
    """The prompt, the scenario's objective and the way taken so far."""
    lines = [view.prompt]
    if view.objective:
        lines.append(f"**Objective**: {view.objective}")
    if len(view.visited) > 1:
        lines.append("The way so far: " + " → ".join(view.visited))
    return "\n".join(lines)


def routes_text(view: BgkView, ctx: RenderContext) -> str:
    """Each way on, and who voted for it."""
    out = []
    for r in view.routes:
        who = ", ".join(ctx.names.get(p, p) for p in r.votes)
        out.append(f"➡ **{r.name}**" + (f": {who}" if who else ""))
    return "\n".join(out)


UNIT_W, UNIT_H, GAP, MARGIN, CARD_W, CARD_H = 150, 150, 10, 14, 30, 42
SUIT_LETTER = {"h": "H", "d": "D", "c": "C", "s": "S"}
"""Pillow's built-in font has no suit symbols: the picture spells the suit's letter."""


def _draw_card_face(d: ImageDraw.ImageDraw, x: int, y: int, code: str) -> None:
    name = cards.name(code)
    rank, suit = name[:-1], cards.suit(code)
    d.rounded_rectangle([x, y, x + CARD_W, y + CARD_H], radius=4, fill=(255, 255, 255),
                        outline=(60, 60, 60), width=1)
    colour = (190, 30, 30) if suit in ("h", "d") else (20, 20, 20)
    centred(d, x + CARD_W / 2, y + 14, rank, font(13), colour)
    centred(d, x + CARD_W / 2, y + 30, SUIT_LETTER.get(suit, suit), font(11), colour)


def _draw_unit(d: ImageDraw.ImageDraw, x: int, y: int, unit: UnitView, acting: bool) -> None:
    fallen = unit.hp <= 0
    bg = (235, 235, 235) if fallen else ((252, 232, 228) if unit.kind == "enemy" else (228, 240, 250))
    d.rounded_rectangle([x, y, x + UNIT_W, y + UNIT_H], radius=8, fill=bg,
                        outline=(230, 170, 0) if acting else (90, 90, 90), width=4 if acting else 2)
    centred(d, x + UNIT_W / 2, y + 14, unit.name[:20], font(13), (20, 20, 20))
    # the HP bar
    left, right, top = x + 10, x + UNIT_W - 10, y + 28
    d.rectangle([left, top, right, top + 10], fill=(200, 200, 200))
    share = 0 if unit.max_hp <= 0 else max(unit.hp, 0) / unit.max_hp
    colour = (60, 170, 80) if share > 0.5 else (230, 160, 0) if share > 0.25 else (200, 40, 40)
    if share > 0:
        d.rectangle([left, top, left + (right - left) * share, top + 10], fill=colour)
    centred(d, x + UNIT_W / 2, top + 20, f"{max(unit.hp, 0)}/{unit.max_hp} HP", font(11), (40, 40, 40))
    if unit.statuses:
        marks = " ".join(f"{x.kind[:4]}{x.turns}" for x in unit.statuses[:4])
        centred(d, x + UNIT_W / 2, top + 34, marks, font(10), (120, 40, 120))
    # the Field as card faces, and its total (against the thresholds for an enemy)
    for i, code in enumerate(unit.field[:3]):
        _draw_card_face(d, x + 10 + i * (CARD_W + 6), y + UNIT_H - CARD_H - 22, code)
    total = f"Field {unit.field_total}"
    if unit.kind == "enemy" and unit.abilities:
        total += " / " + ", ".join(a.split(":")[0] for a in unit.abilities)
    centred(d, x + UNIT_W / 2, y + UNIT_H - 11, total, font(11), (40, 40, 40))
    if unit.numbers:  # right of the third card, against the card's right edge
        lo, hi = unit.numbers
        text = f"{lo}-{hi}" if lo != hi else str(lo)
        box = d.textbbox((0, 0), text, font=font(11))
        d.text((x + UNIT_W - 6 - (box[2] - box[0]) - box[0], y + UNIT_H - CARD_H - 18), text,
               font=font(11), fill=(30, 90, 160))


BATTLEFIELDS: Kept[bytes] = Kept()
"""Battlefield pictures kept by the units they show (and whose turn it is)."""


def battlefield_picture(view: BgkView) -> bytes | None:
    """The table's picture of the battle, if anyone is on the field (kept in `BATTLEFIELDS`)."""
    if not (view.foes or view.party):
        return None
    key = view.model_dump_json(include={"foes", "party", "npcs", "actor"})
    return BATTLEFIELDS.get(key, lambda: draw_battlefield(view))


def draw_battlefield(view: BgkView) -> bytes:
    """The enemies above, the party (and NPCs) below: HP bars, statuses, Fields as card faces."""
    top_row = view.foes
    bottom_row = [*view.party, *view.npcs]
    columns = max(len(top_row), len(bottom_row), 1)
    width = 2 * MARGIN + columns * UNIT_W + (columns - 1) * GAP
    height = 2 * MARGIN + (2 * UNIT_H + GAP if top_row else UNIT_H)
    image = Image.new("RGB", (width, height), (244, 241, 234))
    d = ImageDraw.Draw(image)
    rows = [top_row, bottom_row] if top_row else [bottom_row]
    for r, row in enumerate(rows):
        for i, unit in enumerate(row):
            _draw_unit(d, MARGIN + i * (UNIT_W + GAP), MARGIN + r * (UNIT_H + GAP), unit,
                       unit.id == view.actor)
    return palette_png(image)


class ByGodsAndKingsRenderer(GameRenderer[BgkView]):
    draws_pictures = True

    def table(self, view: BgkView, ctx: RenderContext) -> list[Panel]:
        where = f"{view.area} · " if view.area and view.area != view.scenario else ""
        head = (f"{view.scenario} · {where}{view.step_name} ({view.step}/{view.steps})"
                f" · attempt {view.attempt}/{view.attempts}")
        panel = Panel(title=clip(head, 256), description=clip(map_text(view), DESCRIPTION_MAX),
                      colour=self.game.colour)
        if view.routes:
            panel.add("Where next?", clip(routes_text(view, ctx), FIELD_VALUE_MAX))
        if view.order:
            panel.add(f"Round {view.round}: turn order", clip(order_strip(view), FIELD_VALUE_MAX))
        for foe in view.foes:
            title = f"👹 {foe.name}" + (f" ({foe.rank})" if foe.rank else "")
            panel.add(title, clip(unit_text(foe, foe.id == view.actor), FIELD_VALUE_MAX), inline=True)
        for hero in view.party:
            title = f"🛡 {hero.name}" + (f" · {ctx.names.get(hero.seat, hero.seat)}" if hero.seat else "")
            panel.add(title, clip(unit_text(hero, hero.id == view.actor), FIELD_VALUE_MAX), inline=True)
        for npc in view.npcs:
            panel.add(f"🤝 {npc.name}", clip(unit_text(npc, npc.id == view.actor), FIELD_VALUE_MAX),
                      inline=True)
        if view.intent:
            panel.add("The enemy's move", clip(view.intent, FIELD_VALUE_MAX))
        if view.stash:
            panel.add("Loot to share", clip(", ".join(view.stash), FIELD_VALUE_MAX))
        panel.footer = f"draw pile {view.deck_count} · discard {view.discard_count}"
        picture = battlefield_picture(view)
        if picture is not None:
            panel.image_png = picture
            panel.image_name = "battlefield.png"
        return [panel]

    def private(self, view: BgkView, ctx: RenderContext) -> Panel:
        mine = [u for u in view.party if u.id in view.controlled]
        panel = Panel(title=f"Your characters ({len(mine)})",
                      description=clip(view.prompt, DESCRIPTION_MAX), colour=self.game.colour)
        for hero in mine:
            panel.add(hero.name, clip(unit_text(hero, hero.id == view.actor), FIELD_VALUE_MAX))
        return panel


RENDERER = ByGodsAndKingsRenderer
