"""Guilty Gods at the table: both gods (Gnosis, seals, summoners), the attack and the defense
face to face as a picture and in words, and each player's hand in their private view."""

from __future__ import annotations

from functools import partial

from bot.kept import Kept
from bot.render.base import GameRenderer, RenderContext
from bot.render.gg_combat import draw_combat, lineup
from bot.render.panel import DESCRIPTION_MAX, FIELD_VALUE_MAX, Panel, clip
from rules.core import who
from rules.guilty_gods.content import SPHERE_LEGEND, CreatureDef, SupportSkill, marks
from rules.guilty_gods.view import GgView, MoveView, SeatView

LEGEND = (f"Spheres: {SPHERE_LEGEND} (always written in the order in which they meet an "
          "attack). ◆ is a Divine Seal. Slots: left | right as printed; a defense card lies "
          "turned round on the table, so there its left slot is on the right. L is the level.")
"""How to read the hand, in the private view."""


def _seals(n: int) -> str:
    return "free" if n == 0 else f"{n} ◆"


def support_text(sup: SupportSkill) -> str:
    """A support skill's scope, cost and condition in words."""
    where = "under one card" if sup.scope == "individual" else "beside the whole move"
    cost = "◆ equal to the supported card's level" if sup.cost == "N" else _seals(int(sup.cost))
    if sup.automatic:
        return f"support {where}, automatic ({cost} when played): {sup.text()}"
    return f"support {where} ({cost} if it succeeds): {sup.text()}"


def creature_line(card: CreatureDef) -> str:
    """What a card is: name, kind, level, spheres, slots, seal, then its skills with their costs."""
    seal = " · lit seal" if card.seal else ""
    line = (f"**{card.name}** · {card.kind} L{card.level} · {card.sphere_marks} · "
            f"slots {card.left.text} | {card.right.text}{seal}")
    if card.skill is not None and not card.skill.effect.is_empty():
        line += f"\n  own skill ({_seals(card.skill.cost)} if it succeeds): {card.skill.effect.describe()}"
    if not card.support.effect.is_empty():
        line += f"\n  {support_text(card.support)}"
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
        line = f"{p.facing + 1}. {p.card.name} [{marks(p.spheres)}]"
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
            skills = "; ".join(view.combat.skills) or "none yet"
            panel.add("Combat", f"**{view.combat.damage} damage** so far ({view.combat.raw} through the "
                                f"spheres)\nskills activated: {clip(skills, 700)}")
        picture = combat_picture(view)
        if picture is not None and view.attack is not None:
            panel.image_png = picture
            panel.image_name = "combat.png"
            panel.text_art_of = partial(lineup, view.attack, view.defense)  # the local table's
        panel.footer = f"Turn {view.turn}" + (" · the first turn: no summoner power" if view.first_turn else "")
        return [panel]

    def private(self, view: GgView, ctx: RenderContext) -> Panel:
        hand = view.hand or []
        lines = [creature_line(c) for c in hand]
        desc = "\n".join(lines) or "Your hand is empty."
        panel = Panel(title=f"Your hand ({len(hand)} card{'s' * (len(hand) != 1)})", description=clip(desc, DESCRIPTION_MAX),
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
        if hand:
            panel.add("Reading the cards", LEGEND)
        panel.footer = clip(view.prompt, 2000)
        return panel


RENDERER = GuiltyGodsRenderer
