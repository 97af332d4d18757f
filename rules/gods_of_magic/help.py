"""`/game rules` for Gods of Magic, in the project's own words."""

from __future__ import annotations

from rules.core import RulesPage
from rules.gods_of_magic.state import MAGIC_NAMES, MAGIC_TEXT


def rules_pages() -> list[RulesPage]:
    table = "\n".join(f"**{n}. {MAGIC_NAMES[n]}**: {MAGIC_TEXT[n]}" for n in range(1, 11))
    return [
        RulesPage(title="Gods of Magic: the idea", body=(
            "Each player plays a god. All the gods draw from one deck of 200 cards in five suits of 40 "
            "(🏰 Location, ⚡ Action, 🐉 Entity, ✨ Descriptor, 🔮 Object), every card worth 1 to 10 Victory "
            "Points. On your own side of the table, your **domain**, you lay cards out in **realms** and say "
            "what goes on in them.\n\n"
            "• Every realm is founded on a Location; a lone Location is already a realm, and a realm may "
            "hold any mix of cards, several Locations too. If the dice strip a realm of all its Locations "
            "it becomes a **realm of imagination**, worth nothing until a Location is added to it again.\n"
            "• A realm with a card of each of the five suits is **complete**: it is worth 10 points more "
            "every time it scores.\n"
            "• A ✨ Descriptor is tucked under one card of a realm and shares its fate: it goes along when "
            "that card moves and is discarded when that card is.\n\n"
            "**Winning**: each Visitation adds the value of every god's realms to their score. Reach 200 VP "
            "(100 in the short game) and you win; if more than one god gets there in the same turn, the "
            "higher score takes it.")),
        RulesPage(title="Setup and a turn", body=(
            "**Setup**: the deck is shuffled and each god gets 10 cards. Everyone at once may place up to 3 "
            "of them (a new realm always starts with a Location), then presses *Done*. The d10 decides who "
            "begins: highest roll, ties roll again.\n\n"
            "**A turn** has three phases:\n"
            "1. **Draw**: take a card. Holding more than 10 afterwards, you choose what to discard.\n"
            "2. **Play**: add a card from your hand to a realm of yours, or found a new realm with a "
            "Location. (With nothing playable you pass.)\n"
            "3. **Dice**: roll the d10 and carry out the Magic Table result.")),
        RulesPage(title="The Magic Table", body=table + (
            "\n\nA result whose choice has no possible target is offered as *Pass* with the reason; a pass "
            "that would tell what your hand holds is shown only to you, and Alteration always offers "
            "*Play no Descriptor*. An Alteration in a realm of imagination scores nothing. "
            "Transformation keeps the Descriptors of a replaced card (they now describe the new one); "
            "Recombination allows a dozen free moves, then only moves that restore your hand size. "
            "An Evocation card that fits nowhere stays in your hand.")),
        RulesPage(title="Storytelling and house rules", body=(
            "**Storytelling** (lobby option): *off* — a line of story is welcome but optional; *on* — every "
            "move that changes a realm asks for a line, posted with the move; *strict* — the line is "
            "required and the other gods have 60 seconds to object. If most of them object, the move is "
            "undone (the table returns exactly to the moment before it) and that god must pick something "
            "else. Placing the starting cards needs no story.\n\n"
            "**Our rules where the rulebook is silent**:\n"
            "• **Exact tie**: gods tied on the highest score when the game ends share the victory.\n"
            "• **Exhausted deck**: the first time the deck runs out, the discard pile is shuffled into a new "
            "deck. The next time a card cannot be drawn, the gods hold a last Visitation (everyone scores "
            "once more; when it is a Visitation's own draw that fails, that Visitation is the last one) "
            "and the game ends: the highest score wins, even below the target.\n"
            "• Alteration points count as scored at once; the win check comes at the end of the turn.\n"
            "• Destruction: the owner of the destroyed card chooses whether to draw.\n\n"
            "**Variants**: the 100-point short game (lobby option); a server's content pack may add or "
            "remove cards (`content/gods-of-magic/extra/*.yaml`).")),
    ]
