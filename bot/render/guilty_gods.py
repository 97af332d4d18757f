"""Guilty Gods at the table: both gods (Gnosis, seals, summoners), the attack and the defense
face to face as a picture and in words, and each player's hand in their private view."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.kept import Kept
from bot.render.base import GameRenderer, RenderContext
from bot.render.drawing import centred, font, palette_png
from bot.render.panel import DESCRIPTION_MAX, FIELD_VALUE_MAX, Panel, clip
from rules.core import who
from rules.guilty_gods.content import CreatureDef
from rules.guilty_gods.view import GgView, MoveView, PlacedView, SeatView

SPHERE_COLOURS = {"physical": (200, 70, 50), "magical": (60, 110, 210),
                  "supernatural": (140, 70, 190), "divine": (225, 180, 40)}
SPHERE_LETTER = {"physical": "P", "magical": "M", "supernatural": "S", "divine": "D"}
CARD_W, CARD_H, GAP, MARGIN = 132, 176, 14, 18
ATTACK_BG, DEFENSE_BG = (250, 236, 228), (228, 238, 250)


def creature_line(card: CreatureDef) -> str:
    """One line that says what a card is: name, kind, spheres, slots, seal, level, skills."""
    slots = f"◀{card.left.text} ▶{card.right.text}"
    seal = " ✦seal" if card.seal else ""
    line = f"**{card.name}** · {card.kind} · {card.sphere_marks} · L{card.level} · {slots}{seal}"
    if card.skill is not None and not card.skill.effect.is_empty():
        line += f"\n  skill ({card.skill.cost} ◆): {card.skill.effect.describe()}"
    sup = card.support
    if not sup.effect.is_empty():
        cost = "auto" if sup.automatic else f"{sup.cost} ◆"
        line += f"\n  support, {sup.scope} ({cost}): {sup.effect.describe()}"
    return line


def seat_text(seat: SeatView) -> str:
    summoners = ", ".join(f"**{s.name}**" if s.id == seat.active_summoner else s.name
                          for s in seat.summoners)
    mark = " ⚔ initiative" if seat.initiative else ""
    return (f"{seat.deck_name}{mark}\n♥ Gnosis **{seat.gnosis}** · ◆ seals **{seat.seals}** · "
            f"hand {seat.hand_count} · deck {seat.deck_count}\nsummoners: {summoners}")


def move_text(move: MoveView) -> str:
    lines = []
    for p in move.row:
        spheres = "".join(SPHERE_LETTER[s] for s in p.spheres)
        line = f"{p.facing + 1}. {p.card.name} [{spheres}]"
        if p.support is not None:
            line += f" + {p.support.name}"
        if p.damage is not None:
            line += f" → {p.damage} through"
        if p.stopped is not None:
            line += " → stopped it" if p.stopped else " → let some through"
        lines.append(line)
    if move.group is not None:
        lines.append(f"group support: {move.group.name}")
    if move.chain:
        lines.append("chain of actions")
    lines.append(f"cost: {move.cost} ◆")
    return "\n".join(lines)


def _draw_card(d: ImageDraw.ImageDraw, x: int, y: int, placed: PlacedView,
               blocked: set[str] | None = None) -> None:
    """One card face; `blocked`: the attack spheres its facing defense card stops (drawn
    crossed out), so the picture shows sphere by sphere what got through."""
    card = placed.card
    bg = ATTACK_BG if card.kind == "attack" else DEFENSE_BG
    outline = (30, 30, 30)
    if placed.stopped is True:
        outline = (40, 160, 70)
    elif placed.damage:
        outline = (200, 30, 30)
    d.rounded_rectangle([x, y, x + CARD_W, y + CARD_H], radius=10, fill=bg, outline=outline, width=4)
    title = card.name if len(card.name) <= 16 else card.name[:15] + "…"
    centred(d, x + CARD_W / 2, y + 16, title, font(13), (20, 20, 20))
    centred(d, x + CARD_W / 2, y + 33, f"{card.kind} · level {card.level}", font(11), (70, 70, 70))
    # the spheres, one box per sphere place, in the card's printed order
    box = (CARD_W - 20) // 4
    for i, sphere in enumerate(placed.spheres):
        sx = x + 10 + i * box
        stopped = blocked is not None and sphere in blocked
        fill = (190, 190, 190) if stopped else SPHERE_COLOURS[sphere]
        top, bottom = y + 48, y + 48 + box - 4
        d.rectangle([sx + 2, top, sx + box - 2, bottom], fill=fill)
        centred(d, sx + box / 2, (top + bottom) / 2, SPHERE_LETTER[sphere], font(14), (255, 255, 255))
        if stopped:
            d.line([sx + 2, top, sx + box - 2, bottom], fill=(90, 90, 90), width=2)
    # the slots on both sides
    small = font(11)
    for slot, right in ((card.left, False), (card.right, True)):
        colour = (40, 140, 60) if slot.open else (150, 150, 150)
        text = f"slot {slot.text}"
        width = int(d.textbbox((0, 0), text, font=small)[2])
        sx = x + CARD_W - 8 - width if right else x + 8
        d.text((sx, y + CARD_H - 62 + (14 if right else 0)), text, font=small, fill=colour)
    if card.seal:
        centred(d, x + CARD_W / 2, y + CARD_H - 30, "DIVINE SEAL", font(11), (190, 140, 0))
    if placed.support is not None:
        centred(d, x + CARD_W / 2, y + CARD_H - 16, f"+ {placed.support.name[:18]}", font(11), (60, 60, 60))
    if placed.damage is not None:
        centred(d, x + CARD_W / 2, y + 100, f"{placed.damage} through", font(14), (180, 20, 20))
    if placed.stopped is not None:
        text, colour = ("stopped", (30, 130, 50)) if placed.stopped else ("passed", (180, 20, 20))
        centred(d, x + CARD_W / 2, y + 100, text, font(14), colour)


COMBATS: Kept[bytes] = Kept()
"""Combat pictures kept by the moves they show: a table edited again (a cheer, a timer, the
picture drawn ahead while the move was saved) does not draw it again."""


def combat_picture(view: GgView) -> bytes | None:
    """The table's picture of the combat under way, if any (kept in `COMBATS`)."""
    attack, defense = view.attack, view.defense
    if attack is None:
        return None
    key = (attack.model_dump_json(), defense.model_dump_json() if defense else None)
    return COMBATS.get(key, lambda: draw_combat(attack, defense))


def draw_combat(attack: MoveView, defense: MoveView | None) -> bytes:
    """The attack's cards above, the defense's below, each facing the card it meets."""
    width_cards = max(len(attack.row), max((p.facing + 1 for p in defense.row), default=0)
                      if defense else 0)
    width = 2 * MARGIN + width_cards * CARD_W + (width_cards - 1) * GAP
    height = 2 * MARGIN + 2 * CARD_H + 40
    image = Image.new("RGB", (max(width, 200), height), (245, 243, 238))
    d = ImageDraw.Draw(image)
    facing = {p.facing: set(p.spheres) for p in (defense.row if defense else [])}
    for p in attack.row:
        _draw_card(d, MARGIN + p.facing * (CARD_W + GAP), MARGIN, p,
                   blocked=facing.get(p.facing, set()) if defense else None)
    centred(d, image.width / 2, MARGIN + CARD_H + 20, "vs" if defense else "no defense", font(14),
            (90, 90, 90))
    for p in defense.row if defense else []:
        _draw_card(d, MARGIN + p.facing * (CARD_W + GAP), MARGIN + CARD_H + 40, p)
    return palette_png(image)


class GuiltyGodsRenderer(GameRenderer[GgView]):
    draws_pictures = True

    def table(self, view: GgView, ctx: RenderContext) -> list[Panel]:
        panel = Panel(title="Guilty Gods", description=clip(view.prompt, DESCRIPTION_MAX),
                      colour=self.game.colour)
        for seat in view.seats:
            panel.add(f"{who(seat.player)}", clip(seat_text(seat), FIELD_VALUE_MAX), inline=True)
        if view.attack is not None:
            panel.add(f"Attack by {who(view.attack.player)}", clip(move_text(view.attack), FIELD_VALUE_MAX))
        if view.defense is not None:
            panel.add(f"Defense by {who(view.defense.player)}", clip(move_text(view.defense), FIELD_VALUE_MAX))
        if view.combat is not None:
            fired = ", ".join(view.combat.fired) or "none"
            panel.add("Combat", f"damage **{view.combat.damage}** (through the spheres {view.combat.raw}); "
                                f"skills fired: {clip(fired, 600)}")
        picture = combat_picture(view)
        if picture is not None:
            panel.image_png = picture
            panel.image_name = "combat.png"
        panel.footer = f"Turn {view.turn}" + (" · the first turn: no summoner power" if view.first_turn else "")
        return [panel]

    def private(self, view: GgView, ctx: RenderContext) -> Panel:
        hand = view.hand or []
        lines = [creature_line(c) for c in hand]
        desc = "\n".join(lines) or "Your hand is empty."
        panel = Panel(title=f"Your hand ({len(hand)} cards)", description=clip(desc, DESCRIPTION_MAX),
                      colour=self.game.colour)
        mine = next((s for s in view.seats if s.player == view.viewer), None)
        if mine is not None:
            panel.add("You", clip(seat_text(mine), FIELD_VALUE_MAX))
        if view.draft is not None:
            panel.add("The move you are building", clip(move_text(view.draft), FIELD_VALUE_MAX))
        if view.picking is not None:
            panel.add("Card picked", clip(creature_line(view.picking), FIELD_VALUE_MAX))
        if view.free_seals is not None:
            panel.add("Seals still free", f"{view.free_seals} ◆")
        panel.footer = clip(view.prompt, 2000)
        return panel


RENDERER = GuiltyGodsRenderer
