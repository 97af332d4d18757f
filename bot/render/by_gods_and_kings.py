"""By Gods and Kings at the table: the enemies (HP bars, statuses, Field totals against their
thresholds), the party (HP, statuses, hand and Field, face up), the turn order and, before an
enemy's turn, the numbers 1-13 each character holds."""

from __future__ import annotations

from bot.render.base import GameRenderer, RenderContext
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


class ByGodsAndKingsRenderer(GameRenderer[BgkView]):
    def table(self, view: BgkView, ctx: RenderContext) -> list[Panel]:
        head = (f"{view.scenario} · {view.step_name} ({view.step}/{view.steps})"
                f" · attempt {view.attempt}/{view.attempts}")
        panel = Panel(title=clip(head, 256), description=clip(view.prompt, DESCRIPTION_MAX),
                      colour=self.game.colour)
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
        return [panel]

    def private(self, view: BgkView, ctx: RenderContext) -> Panel:
        mine = [u for u in view.party if u.id in view.controlled]
        panel = Panel(title=f"Your characters ({len(mine)})",
                      description=clip(view.prompt, DESCRIPTION_MAX), colour=self.game.colour)
        for hero in mine:
            panel.add(hero.name, clip(unit_text(hero, hero.id == view.actor), FIELD_VALUE_MAX))
        return panel


RENDERER = ByGodsAndKingsRenderer
