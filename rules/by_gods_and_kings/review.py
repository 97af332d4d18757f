"""Looking into an area before the party votes for it (the rulebook's areas that players may
"enter, review, or engage"): at a fork, a seat that has not voted may look into a way on; the
whole party reads what it holds. Nothing in the game changes (the seat still votes)."""

from __future__ import annotations

from rules.by_gods_and_kings.content import BattleStep, SaveStep
from rules.by_gods_and_kings.state import BgkState
from rules.core import Event
from rules.core.text import clip_words

REVIEW_MAX = 900
"""The most characters a look into an area reads out (one message of the log)."""


def review_text(s: BgkState, aid: str) -> str:
    """What the party learns by looking into an area before it votes: its description, the
    enemies (for this party's size) and NPCs of its battles, the kind of save each danger calls
    for, and its rests, in order; and where it leads. Neither a save's target nor its penalty
    nor the loot is told: they are only found inside."""
    cat = s.cat
    area = s.scenario_def.areas[aid]
    seen = []
    for step in area.steps:
        if isinstance(step, BattleStep):
            names = [cat.enemies[e.enemy].name for e in step.enemies if e.min_party <= len(s.party)]
            counted = {n: names.count(n) for n in names}
            foes = ", ".join(f"{n} ×{k}" if k > 1 else n for n, k in counted.items())
            allies = f" ({', '.join(cat.npcs[n].name for n in step.npcs)} on the party's side)" if step.npcs else ""
            seen.append(f"a fight: {foes}{allies}")
        elif isinstance(step, SaveStep):
            kind = step.save.capitalize()
            seen.append(f"a danger ({'an' if kind[0] in 'AEIOU' else 'a'} {kind} Save)")
        else:
            seen.append("a place to rest")
    beyond = ("the scenario ends there" if area.ending else
              "it leads on to " + ", ".join(s.scenario_def.areas[x].name for x in area.next))
    return f"**{area.name}**. {area.text} Inside: {'; then '.join(seen)}. And {beyond}.".replace("  ", " ")


def review(s: BgkState, seat: str, aid: str, events: list[Event]) -> None:
    """A seat looks into a way on before voting: the whole party reads what it sees. The state
    does not change (the seat still votes)."""
    events.append(Event(kind="review", text=clip_words(f"⟨{seat}⟩ looks ahead into {review_text(s, aid)}", REVIEW_MAX),
                        data={"seat": seat, "area": aid}))
