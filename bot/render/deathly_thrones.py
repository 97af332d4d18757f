"""Deathly Thrones at the table: the run panel (counters, step track, event, fight round)
and a fight-round panel for the cards just drawn."""

from __future__ import annotations

from bot.render.base import GameRenderer, RenderContext
from bot.render.panel import FIELD_VALUE_MAX, Panel, clip
from rules.core import Event, who
from rules.deathly_thrones.state import BattleDrawn, FightView, Round, RunView

ICONS = {"fight": "⚔️", "hurt": "☠️", "rest": "✚"}
WON_COLOUR = 0xC9A227
DEAD_COLOUR = 0x2B2B2B
BEHIND = 6
"""How many landed events the track lists behind the player."""


def counter(symbol: str, value: int) -> str:
    """A 0..9 counter as its value and a bar of nine pips."""
    return f"{symbol} **{value}** `{'▰' * value}{'▱' * (9 - value)}`"


def track(view: RunView) -> str:
    """The 40 steps on one line: ◆ landed, ▪ walked past, ● here, · ahead, ♛ the boss."""
    landed = {p.step for p in view.passed if p.landed}
    marks = []
    for n in range(1, view.length + 1):
        if n == view.position:
            marks.append("●")
        elif n <= view.position:
            marks.append("◆" if n in landed else "▪")
        else:
            marks.append("♛" if n == view.length else "·")
    return "`" + "".join(marks) + "`"


def round_line(r: Round, enemy: str) -> str:
    """One fight round: both cards, attack powers, hits, armor, damage and where it went."""
    head = (f"You **{r.your_card.rank}** + ♥{r.your_power - r.your_card.rank} = **{r.your_power}** · "
            f"{enemy} **{r.enemy_card.rank}** + ♥{r.enemy_power - r.enemy_card.rank} = **{r.enemy_power}**")
    if r.target is None:
        return f"{head}\n→ a tie: drawn again"
    victim = enemy if r.target == "enemy" else "you"
    if r.damage == 0:
        return f"{head}\n→ {_hits(r.hits)} on {victim}, all stopped by ♠{r.armor}"
    tail = f"\n→ {_hits(r.hits)} on {victim} − ♠{r.armor} armor = **{r.damage} damage**"
    if r.part is not None:
        symbol = "♥" if r.part == "health" else "♠"
        tail += f", {r.lost} off {symbol} {r.part}"
    return head + tail


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


class DeathlyThronesRenderer(GameRenderer[RunView]):
    game_id = "deathly-thrones"

    def table(self, view: RunView, ctx: RenderContext) -> list[Panel]:
        colour = self.game.colour
        if view.outcome == "won":
            colour = WON_COLOUR
        elif view.outcome == "dead":
            colour = DEAD_COLOUR
        panel = Panel(title=f"Deathly Thrones · {view.quest_name}", description=self._event_text(view),
                      colour=colour)
        panel.add("Character", f"{who(view.player)}\n{view.character_name}", inline=True)
        panel.add("Health", counter("♥", view.health), inline=True)
        panel.add("Armor", counter("♠", view.armor), inline=True)
        panel.add(f"Step {view.position} of {view.length}", self._track_text(view))
        stories = [p for p in view.passed if p.story]
        if stories:
            panel.add("Ξ Story", clip(f"*{stories[-1].story}*", FIELD_VALUE_MAX))
        if view.fight is not None:
            panel.add(self._fight_title(view.fight), self._fight_text(view, view.fight))
        drawn = " ".join(c.name for c in view.steps_drawn[-8:])
        panel.footer = (f"Step deck: {view.step_cards_left} left"
                        + (f" (drawn {drawn})" if drawn else "")
                        + f" · Battle deck: {view.battle_cards_left}, discard {view.battle_discard}")
        return [panel]

    def private(self, view: RunView, ctx: RenderContext) -> Panel:
        """Nothing is hidden in a solo run but the deck order: the player sees the table."""
        return self.table(view, ctx)[0]

    def events(self, events: list[Event], ctx: RenderContext) -> list[Panel]:
        """A fight-round panel when battle cards were drawn."""
        if not any(e.kind == "battle" for e in events):
            return []
        lines = [e.text if e.kind != "battle" else "🂠 " + e.text
                 for e in events if e.kind in ("battle", "damage", "reshuffle", "victory", "death", "throne")]
        rounds = [BattleDrawn.of(e).round for e in events if e.kind == BattleDrawn.kind]
        title = f"⚔️ Fight, round {rounds[-1]}" if len(rounds) == 1 else f"⚔️ Fight, rounds {rounds[0]}-{rounds[-1]}"
        colour = DEAD_COLOUR if any(e.kind == "death" for e in events) else self.game.colour
        return [Panel(title=title, description=clip("\n".join(lines), 4000), colour=colour)]

    # --- pieces ------------------------------------------------------------
    def _event_text(self, view: RunView) -> str:
        # the table's result panel says how the run ended ("wins", "dies on step"): the run's
        # panel does not say it a second time
        if view.outcome == "won":
            return f"👑 {view.throne}" if view.throne else "👑"
        if view.current is None:
            return f"Ξ *{view.intro}*\n\n**Draw a step card** to set out."
        ev = view.current
        lines = [f"**Step {ev.step} · {ICONS[ev.type]} {ev.name}**"]
        if ev.text:
            lines.append(ev.text)
        if view.outcome == "dead":  # the step it ended on, as it was; the result panel says the rest
            return "\n".join(lines)
        if view.phase in ("fight", "choose"):
            lines.append("**Draw battle cards** to fight." if view.phase == "fight"
                         else "**Choose** where the damage lands.")
        elif view.note:
            lines.append(f"*{view.note}*")
        if view.outcome is None and view.phase == "walk":
            lines.append("**Draw a step card** to go on.")
        return "\n".join(lines)

    def _track_text(self, view: RunView) -> str:
        lines = [track(view)]
        behind = [p for p in view.passed if p.landed][-BEHIND:]
        if behind:
            lines.append("Behind you: " + " · ".join(f"{p.step} {ICONS[p.type]} {p.name}" for p in behind))
        return clip("\n".join(lines), FIELD_VALUE_MAX)

    def _fight_title(self, f: FightView) -> str:
        state = "defeated" if f.health == 0 else f"round {f.rounds}" if f.rounds else "the fight begins"
        return f"⚔️ {f.enemy} · ♥ {f.health}/{f.start_health} ♠ {f.armor}/{f.start_armor} · {state}"

    def _fight_text(self, view: RunView, f: FightView) -> str:
        if f.last is None:
            return (f"You ♥{view.health} ♠{view.armor} against {f.enemy} ♥{f.health} ♠{f.armor}. "
                    "Each side adds a battle card to its health; the lower side is hit.")
        text = round_line(f.last, f.enemy)
        if f.choosing:
            whose = f"{f.enemy}'s" if f.last.target == "enemy" else "your"
            text += f"\n**Choose:** put the damage on {whose} health or armor."
        return clip(text, FIELD_VALUE_MAX)


RENDERER = DeathlyThronesRenderer
