"""`/game rules` for Guilty Gods, in the project's own words (summoners and cards from content)."""

from __future__ import annotations

from rules.core import RulesPage
from rules.guilty_gods.content import SPHERE_LEGEND, CreatureDef, DeckDef

OVERVIEW = (
    "Two gods duel with decks of 52 creature cards each: **Lilium**, nature and life, as ready to "
    "defend and recover as to strike, and **Umbra**, darkness and shadow, built for attacking in "
    "long combos. Each god starts with **10 Gnosis**; bring your rival's to 0, or leave them "
    "holding the initiative with no attack card and nothing left to draw, and you win.\n\n"
    "**Creatures** are attack cards (orange) or defense cards (blue). On top of each card sit up to "
    "four **spheres**: physical, magical, supernatural and divine. A defense card prints them in "
    "reverse order, so that when it is laid top to top against an attack card every sphere faces "
    "the same sphere. Each card also has a left and a right **combo slot** (closed, open, or open "
    "at a cost in seals), a **Divine Seal** that may be lit, a **level** (the higher, the rarer), "
    "often an **own skill**, and always a **support skill**.\n\n"
    "**Setup**: choose decks (the lobby option; or each god rolls a d10 and the higher picks). "
    "Both decks are shuffled and each god draws 7. A starting hand of seven attack cards, or "
    "seven defense cards, may be shown and drawn again; everyone then confirms their hand. Each "
    "god rolls a d10 (again on a tie): the higher decides who moves first. The three summoners "
    "of each deck lie face up for both to see.")

TURN = (
    "The initiative passes back and forth. When it is yours:\n"
    "1. **Choose a summoner** among your three (everyone sees which). Its powers last until your "
    "next initiative, so it also works while you defend. On the very first turn of the game no "
    "summoner power works.\n"
    "2. **Attack** with one card or a combo, or **renew**: discard your whole hand and draw 7, or "
    "keep one card and draw 6. Holding no attack card, you must renew.\n\n"
    "A hand emptied by an attack or a defense draws 7 at once, without spending the initiative.\n\n"
    "**Building a move** (in your private view), one choice at a time:\n"
    "• pick the first card (an attack card; a defender picks a defense card and the attack card "
    "it faces);\n"
    "• add cards: join one at the left or right end of the row, put one under a card as an "
    "individual support, or beside the move as a group support;\n"
    "• buy summoner powers (Chain of Actions; Combination shows up as a way to join through a "
    "closed slot);\n"
    "• *Undo* takes back the last card, then **confirm**.\n"
    "Every choice shows what it costs and the seals left; only what you can pay is offered. "
    "Nothing of a move being built is shown to the table until it is confirmed. The defender "
    "answers the same way, or **takes the hit**.")

COMBAT = (
    "**Combat**: each attack card faces at most one defense card. Every sphere of the attack "
    "card that its facing card does not have costs the defender 1 Gnosis; an attack card facing "
    "nothing deals all its spheres. A three-sphere attacker facing a card that blocks two of "
    "them deals 1.\n\n"
    "**Combos**: cards of one kind joined side by side through open slots; attack and defense "
    "cards never mix in one move. Joining two cards costs the seals of both touching slots "
    "(+1 and +2: 3 seals); a closed slot joins nothing. A combo may be as long as your cards and "
    "seals allow.\n\n"
    "**Defense combos** must be joined too: two defense cards that do not touch through open slots "
    "cannot both be played. The defender chooses where the combo sits, one defense card in front "
    "of each of some attack cards in a row; attack cards beyond its ends face nothing. A defense "
    "card sits turned round, so its printed left slot is on the attacker's right: two defense "
    "neighbours join through the left card's printed left slot and the right card's printed "
    "right slot (as the attacker sees them).")

SKILLS = (
    "**Supports**: any card may be played as a support in a move of its own kind. An "
    "*individual* support goes under one card and helps only that card; a *group* support lies "
    "beside the move and helps all of it; its extra damage or prevention counts once for the "
    "move, so +1 damage beside a three-card combo is 1 more in all, not 3. A support takes no "
    "part in the combat and never grants its seal. At most one support under each card, one "
    "group support per move.\n\n"
    "**Skills** cost the seals they state; N means the level of the supported card. They need a "
    "success: an attack card's skills fire if that card dealt at least 1 damage through the "
    "spheres; a defense card's if it stopped its facing card completely (even when the rest of "
    "the combo got through). A group support needs one such card in the move. *Automatic* "
    "supports need no success: they are paid as they are played and work at once (an extra "
    "sphere, open slots, damage or prevention). Each skill fires at most once per move, whatever "
    "the seals; a card's own skill and the support under it may both fire.\n\n"
    "Once the defense is set, the attacker chooses which skills to pay, then the defender; skills "
    "costing nothing fire by themselves.\n\n"
    "**Divine Seals** pay for combos, skills and summoner powers. A played card with a lit seal "
    "gives one at the **end** of the move, so it can never pay for its own skill or combo. Seals "
    "from skills and stolen seals come at the end of the move too. Seven is the most a god "
    "holds; more are lost.")

END = (
    "**The end**: a god at 0 Gnosis loses at once. Gnosis restored by skills comes back at the "
    "end of the turn (never above 10), too late for a god already at 0. A god who holds the "
    "initiative with no attack card in hand and an empty deck loses, whatever their Gnosis.\n\n"
    "**Our rules where the rulebook is silent**:\n"
    "• Defense combos face consecutive attack cards, and defense slots join turned round (see "
    "*Combat and combos*).\n"
    "• One individual support per card, one group support per move; a cost of N only on "
    "individual supports.\n"
    "• Skills are chosen after the combat is compared, the attacker first; free skills fire by "
    "themselves. Ophiel's extra point needs 1 damage through the spheres.\n"
    "• Chain of Actions and Combination are bought while building the move, with the seals held "
    "then. Combination opens one closed slot, once a move, in an attack or a defense.\n"
    "• Astraega's Protection: once per enemy attack, after the attacker's skills.\n"
    "• The first player's summoner starts working once the first turn is over; the second player "
    "has none until their first initiative.\n"
    "• A forced discard takes a card at random and shows it; cards thrown away when renewing or "
    "at Kairos's limit go face down. Drawing by a skill stops at 7 cards in hand.\n"
    "• Genma's seal is always taken. A deck that runs short draws what is left; it is never "
    "reshuffled.\n"
    "• A seven-of-a-kind starting hand may be drawn again as often as it comes.")


def _summoners(decks: dict[str, DeckDef]) -> str:
    lines = []
    for deck in decks.values():
        lines.append(f"**{deck.name}**")
        lines += [f"• **{x.name}**: {x.text}" for x in deck.summoners]
        lines.append("")
    lines.append("Powers with a cost are bought in your private view while you build a move "
                 "(Protection when you are attacked); the others work by themselves.")
    return "\n".join(lines)


def card_line(c: CreatureDef) -> str:
    seal = ", seal" if c.seal else ""
    own = f"; own: {c.skill.describe()}" if c.skill else ""
    return (f"• **{c.name}** ×{c.copies} — {c.kind} L{c.level} {c.sphere_marks}, slots "
            f"{c.left.text}|{c.right.text}{seal}{own}; support: {c.support.describe()}")


def _deck(deck: DeckDef) -> str:
    head = f"{deck.theme}\n(spheres: {SPHERE_LEGEND})\n"
    body = head + "\n".join(card_line(c) for c in deck.creatures)
    return body if len(body) <= 4000 else body[:3990] + "…"


def rules_pages(decks: dict[str, DeckDef]) -> list[RulesPage]:
    pages = [
        RulesPage(title="Guilty Gods: the duel", body=OVERVIEW),
        RulesPage(title="The initiative", body=TURN),
        RulesPage(title="Combat and combos", body=COMBAT),
        RulesPage(title="Supports, skills and seals", body=SKILLS),
        RulesPage(title="Summoners", body=_summoners(decks)),
        RulesPage(title="The end, and our rules", body=END),
    ]
    pages += [RulesPage(title=f"The {d.name} deck", body=_deck(d)) for d in decks.values()]
    return pages
