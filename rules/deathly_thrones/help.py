"""The rules of Deathly Thrones, told in the project's own words, for `/game rules`."""

from __future__ import annotations

from rules.core import RulesPage
from rules.deathly_thrones.content import characters, quests


def pages() -> list[RulesPage]:
    chars = "\n".join(f"- **{c.name}**: ♥ {c.health} health, ♠ {c.armor} armor. {c.blurb}"
                      for c in characters().values())
    qs = "\n".join(f"- **{q.name}** (`{q.id}`)" for q in quests().values())
    return [
        RulesPage(title="Deathly Thrones: the run", body=(
            "A game for one player, watched by anyone in the channel. You pick a character and a "
            "quest, then walk a path of 40 steps towards a throne guarded by a boss.\n\n"
            "**The cards.** One deck is split four ways: your health (hearts) and armor (spades) "
            "counters, each between 0 and 9; a battle deck of the clubs and diamonds from 1 to 9; "
            "and a step deck of the sixteen 10s and face cards.\n\n"
            "**Walking.** Press *Draw a step card*: a 10 moves you 1 step, a Jack 2, a Queen 3, a "
            "King 4. The sixteen cards add up to 40 exactly, so the last one always brings you to "
            "the boss. Story lines (Ξ) on the steps you reach or walk past are told as you go; "
            "only the step you land on is played:\n"
            "- ⚔ **fight**: an enemy with its own health and armor;\n"
            "- ☠ **hurt**: a trap, a curse, a fall: you lose health or armor;\n"
            "- ✚ **rest**: you recover health or armor.\n\n"
            "Counters never go above 9 or below 0. Health 0 ends the run.\n\n"
            f"**Characters**\n{chars}\n\n**Quests**\n{qs}"
        )),
        RulesPage(title="Deathly Thrones: fighting", body=(
            "Health is also strength. Each round, press *Draw battle cards*: the first card is "
            "yours, the second the enemy's. Each side adds its card to its current health; that "
            "is its attack power.\n\n"
            "- The side with the lower power is hit: the difference is the number of **hits**.\n"
            "- The target's armor is taken off the hits; what is left is the **damage**.\n"
            "- The damage goes either on health or on armor, never split. You choose, for the "
            "enemy as well as for yourself. If it is more than the counter holds, the counter "
            "stops at 0 and the rest is lost. With no armor left, damage goes on health (a "
            "house rule: the rulebook leaves it open, and an empty armor counter would otherwise "
            "soak a hit for free).\n"
            "- Equal powers: the round is drawn again at once. Damage of 0: nothing happens.\n\n"
            "The fight goes on until one side has no health. Beat the enemy and you gain its "
            "reward (an item adding armor, a potion adding health ...). When the battle deck runs "
            "out, its discard pile is shuffled into a new one.\n\n"
            "**Example.** The Hero (♥ 3, ♠ 5) against a skeleton (♥ 2, ♠ 1) draws 8 and 3: "
            "powers 11 and 5, so the skeleton takes 6 hits, 5 damage after its armor. On its "
            "health it dies; on its armor, the armor is gone and the fight goes on.\n\n"
            "Breaking armor makes every later hit count more; losing health makes you weaker. "
            "Choose with care."
        )),
    ]
