"""An enemy's turn: the numbers 1-13 dealt among the party, the target card, the Field card,
then the blow (an ability when the Field's total reaches one of its thresholds, else a basic
attack of its Physical plus the card).

The numbers go to the living characters and NPCs in party order (characters first), in
consecutive runs as even as possible: with four, 1-4, 5-7, 8-10, 11-13. A taunted enemy skips
the target card and aims at its taunter. When the Field reaches several thresholds, the
highest one fires. A numbed enemy makes a basic attack and keeps its Field.
"""

from __future__ import annotations

from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.abilities import use
from rules.by_gods_and_kings.content import FoeAbility
from rules.by_gods_and_kings.cow import built
from rules.by_gods_and_kings.effects import AnyUnit, deal
from rules.by_gods_and_kings.events import TargetPicked, plain
from rules.by_gods_and_kings.state import BgkState, Foe, Intent, Npc
from rules.by_gods_and_kings.stats import stat
from rules.core import Event

PICK_NUMBERS = 13


def numbers(s: BgkState) -> list[tuple[str, int, int]]:
    """Who holds which numbers now: (unit id, lowest, highest) for each living ally."""
    allies = s.peek_allies()  # read: ids
    if not allies:
        return []
    base, extra = divmod(PICK_NUMBERS, len(allies))
    out, lo = [], 1
    for i, unit in enumerate(allies):
        count = base + (1 if i < extra else 0)
        out.append((unit.id, lo, lo + count - 1))
        lo += count
    return out


def holder(s: BgkState, number: int) -> str:
    for uid, lo, hi in numbers(s):
        if lo <= number <= hi:
            return uid
    raise AssertionError(f"nobody holds {number}")


def fighter_abilities(s: BgkState, unit: Foe | Npc) -> list[FoeAbility]:
    if isinstance(unit, Foe):
        return list(s.cat.enemies[unit.enemy].abilities)
    return list(s.cat.npcs[unit.npc].abilities)


def reached(s: BgkState, unit: Foe | Npc) -> int | None:
    """The ability (index) the unit's Field total fires: the highest threshold reached."""
    if unit.has("numb"):
        return None
    total = cards.total(unit.field)
    best: int | None = None
    abilities = fighter_abilities(s, unit)
    for i, ab in enumerate(abilities):
        if total >= ab.threshold and (best is None or ab.threshold > abilities[best].threshold):
            best = i
    return best


def announce(s: BgkState, foe: Foe, events: list[Event]) -> Intent:
    """Draw the target card (unless taunted) and the Field card; say what is coming."""
    taunt = foe.status("taunt")
    pick: str | None = None
    if taunt is not None and taunt.source is not None and s.peek(taunt.source).alive:
        target = taunt.source
        events.append(TargetPicked.told(
            f"{foe.name} is taunted and turns on {s.peek(target).name}.",
            foe=foe.id, card=None, number=None, target=target))
    else:
        pick = s.draw_card()
        if pick is not None:
            s.discard.append(pick)
            number = cards.pick(pick)
            target = holder(s, number)
            events.append(TargetPicked.told(
                f"{foe.name}'s target card is {cards.name(pick)} ({number}): it goes for {s.peek(target).name}.",
                foe=foe.id, card=pick, number=number, target=target))
        else:
            target = s.peek_allies()[0].id
            events.append(TargetPicked.told(
                f"No card is left to draw: {foe.name} goes for {s.peek(target).name}.",
                foe=foe.id, card=None, number=None, target=target))
    card = s.draw_card()
    if card is not None:
        foe.field.append(card)
    index = reached(s, foe)
    said = {"foe": foe.id, "target": target, "pick": pick, "card": card, "ability": index}
    intent = built(Intent, said, set(said))  # `Intent(**said)`: the values are of its fields' types
    total = cards.total(foe.field)
    put = f"puts {cards.name(card)} on its Field" if card else "draws nothing"
    if index is not None:
        ab = fighter_abilities(s, foe)[index]
        what = f"its Field reaches {total} (threshold {ab.threshold}): {ab.name} is coming"
    else:
        raw = stat(s, foe, "physical") + (cards.value(card) if card else 0)
        what = f"its Field holds {total}: a basic attack of {raw} is coming"
    events.append(plain("intent", f"{foe.name} {put}; {what}.", data=said))  # its dump: plain values
    return intent


def land(s: BgkState, intent: Intent, events: list[Event]) -> None:
    """The announced blow lands (if the enemy still stands and its target too)."""
    foe = s.unit(intent.foe)
    assert isinstance(foe, Foe)
    if not foe.alive:
        return
    target = s.unit(intent.target)
    if intent.ability is not None:
        ab = fighter_abilities(s, foe)[intent.ability]
        spent = cards.total(foe.field)
        s.discard.extend(foe.field)
        foe.field = []
        use(s, foe, ab, "threshold", intent.target if ab.target == "foe" else None, spent, events)
        return
    strike(s, foe, target, cards.value(intent.card) if intent.card else 0, events)


def strike(s: BgkState, unit: AnyUnit, target: AnyUnit, card_value: int, events: list[Event]) -> None:
    """An enemy's or NPC's basic attack: its Physical plus the card."""
    if not target.alive:
        events.append(Event(kind="miss", text=f"{unit.name}'s target has already fallen."))
        return
    if unit.miss:
        unit.miss = False
        events.append(Event(kind="miss", text=f"Blinded, {unit.name} misses {target.name}."))
        return
    deal(s, unit, target, stat(s, unit, "physical") + card_value, events, what="a basic attack")
