"""Gods of Magic at the table: the domains embed, the hand panel, and the Magic Table roll."""

from __future__ import annotations

from bot.render.base import GameRenderer, RenderContext
from bot.render.panel import DESCRIPTION_MAX, FIELD_VALUE_MAX, Panel
from rules.core import Event, who
from rules.core.text import count, escape_markdown
from rules.gods_of_magic.content import CardDef, Suit
from rules.gods_of_magic.state import Imagined, MagicRoll
from rules.gods_of_magic.view import GomView, RealmView

EMBED_TOTAL = 5800
"""Discord refuses embeds over 6,000 characters in all: the table keeps under this."""

FACES = {1: "1️⃣", 2: "2️⃣", 3: "3️⃣", 4: "4️⃣", 5: "5️⃣", 6: "6️⃣", 7: "7️⃣", 8: "8️⃣", 9: "9️⃣", 10: "🔟"}
PHASES = {"setup": "Setup", "discard": "Draw phase (discarding)", "play": "Play phase", "roll": "Dice phase",
          "magic": "Dice phase (Magic Table)", "owner_draw": "Dice phase (Destruction)", "over": "Game over"}


def card_text(c: CardDef) -> str:
    return f"{c.suit.mark} {c.name} {c.vp}"


def realm_head(r: RealmView) -> str:
    marks = ""
    if r.complete:
        marks += " ✅ complete"
    if r.imagination:
        marks += " 💭 imagination"
    return f"**Realm {r.number}** · {r.value} VP{marks}"


def realm_lines(r: RealmView, detail: int) -> str:
    """detail 2: every card with its Descriptors; 1: card names only; 0: a count."""
    if detail == 0:
        n = sum(1 + len(p.descriptors) for p in r.cards)
        return f"{realm_head(r)} · {n} cards"
    parts = []
    for p in r.cards:
        if detail == 2:
            text = card_text(p.card)
            if p.descriptors:
                text += " (" + ", ".join(card_text(d) for d in p.descriptors) + ")"
        else:
            text = p.card.suit.letter + ":" + p.card.name + "".join("+" + d.name for d in p.descriptors)
        parts.append(text)
    return f"{realm_head(r)}\n" + " · ".join(parts)


def domain_text(realms: list[RealmView], budget: int) -> str:
    if not realms:
        return "*No realm yet.*"
    for detail in (2, 1, 0):
        text = "\n".join(realm_lines(r, detail) for r in realms)
        if len(text) <= budget:
            return text
    total = sum(r.value for r in realms)
    text = f"{len(realms)} realms · {total} VP now · {sum(r.complete for r in realms)} complete"
    return text[:budget]


class GodsOfMagicRenderer(GameRenderer[GomView]):
    game_id = "gods-of-magic"

    def table(self, view: GomView, ctx: RenderContext) -> list[Panel]:
        lines = [f"**{PHASES.get(view.phase, view.phase)}**"
                 + (f" · turn {view.turn} · {who(view.current)}'s turn" if view.current else ""),
                 view.prompt]
        if view.dice is not None:
            lines.append(f"🎲 Last roll: {who(view.dice.player)} {view.dice.face} → **{view.dice.name}**")
        if view.pending_public:
            lines.append("🎯 Chosen: " + ", ".join(card_text(c) for c in view.pending_public))
        if view.objection is not None:
            o = view.objection
            lines.append(f"📜 {who(o.mover)}: “{escape_markdown(o.text)}” · objections {o.objections}, "
                         f"let stand {o.stands} of {len(o.voters)}")
        top = f" (top: {card_text(view.discard_top)})" if view.discard_top else ""
        lines.append(f"🂠 Deck {view.deck_count} · discard {view.discard_count}{top}"
                     + (" · already reshuffled once" if view.reshuffled else ""))
        lines.append(f"🏆 First to {view.target} VP · storytelling {view.storytelling}")
        ranking = sorted(view.seats, key=lambda s: -s.score)
        lines.append("**Scores**: " + " · ".join(f"{who(s.player)} {s.score}" for s in ranking))
        if view.winners:
            lines.append("👑 Winner: " + " and ".join(who(w) for w in view.winners))
        description = "\n".join(lines)[:DESCRIPTION_MAX]
        panel = Panel(title="Gods of Magic", description=description, colour=self.game.colour)
        seats = view.seats[:25]
        budget = max(120, min(FIELD_VALUE_MAX, (EMBED_TOTAL - len(description) - 100) // max(1, len(seats)) - 60))
        for s in seats:
            arrow = "▶ " if s.player == view.current else ""
            done = " ✔" if view.phase == "setup" and s.setup_done else ""
            panel.add(f"{arrow}{who(s.player)} · {s.score} VP · ✋ {s.hand_size}{done}",
                      domain_text(s.realms, budget))
        panel.footer = "🏰 Location ⚡ Action 🐉 Entity ✨ Descriptor 🔮 Object · ✅ complete (+10) · 💭 no Location"
        return [panel]

    def private(self, view: GomView, ctx: RenderContext) -> Panel:
        hand = view.hand or []
        order = list(Suit)
        cards = sorted(hand, key=lambda c: (order.index(c.suit), -c.vp, c.name))
        lines = [card_text(c) for c in cards] or ["*Your hand is empty.*"]
        desc = "\n".join(lines)
        if view.pending_private:
            desc += "\n\n🎯 Chosen: " + ", ".join(card_text(c) for c in view.pending_private)
        if view.viewer in view.to_act:
            desc += f"\n\n{view.prompt}"
        return Panel(title=f"Your hand ({count(len(hand), 'card')})", description=desc[:DESCRIPTION_MAX],
                     colour=self.game.colour)

    def events(self, events: list[Event], ctx: RenderContext) -> list[Panel]:
        """A dice panel per roll or Imagination; a rule's text is told once per move (two rolls
        of one move that land on the same face, or an Imagination and the roll it makes)."""
        from rules.gods_of_magic.state import MAGIC_NAMES, MAGIC_TEXT

        out = []
        told: set[str] = set()

        def rule(text: str) -> str:
            if text in told:
                return ""
            told.add(text)
            return "\n" + text

        for e in events:
            if e.kind == MagicRoll.kind:
                roll = MagicRoll.of(e)
                out.append(Panel(
                    title=f"🎲 {FACES.get(roll.face, roll.face)}  {roll.name}",
                    description=f"{who(roll.player)} rolls **{roll.face}** on the Magic Table.{rule(roll.effect)}",
                    colour=self.game.colour))
            elif e.kind == Imagined.kind:
                imagined = Imagined.of(e)
                n = imagined.result
                out.append(Panel(title=f"💭 Imagination → {MAGIC_NAMES[n]}",
                                 description=f"{who(imagined.player)} imagines {MAGIC_NAMES[n]}.{rule(MAGIC_TEXT[n])}",
                                 colour=self.game.colour))
        return out


RENDERER = GodsOfMagicRenderer
