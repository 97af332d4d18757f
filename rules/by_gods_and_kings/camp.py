"""Between battles: saves (a scene's danger), camp (loot, shards and equipment) and route votes.

**Saves**: each character called makes the save with its stat (Agility: SPD, Defensive: DEF,
Magical: Magic), adding the value of one Field card it sacrifices, or none. It passes when the
total reaches the target. A failed save's damage ignores DEF but never takes the last HP.

**Camp** (after every battle but the last): each seat claims loot for its characters, equips
or unequips shards (at most three), changes equipment, and says it is ready; when every seat is
ready the scenario goes on and unclaimed loot is lost. Taking off the shard that allows the off
hand, or wielding a two-handed weapon, puts what the off hand held back in the bag.

**Tasks between scenarios**: in the camp before setting out, each saved character may take one
task it has not done yet, for its reward (tasks.py, campaign.py).

**Route votes** (an area done with several ways on): every seat votes at once, one vote a seat;
when all have voted the area with the most votes wins, a tie going to the first seat (in seat
order) whose vote is among the tied areas. Before voting, a seat may look into a way on
(review.py): the whole party reads what it holds, but for the saves' targets and the loot.

**A failed save's path** (`SaveStep.fail_next`): the one character called fails, and the party
follows it into that area, the rest of the current one skipped.
"""

from __future__ import annotations

from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.content import MAX_EQUIPPED, SaveStep
from rules.by_gods_and_kings.effects import set_status
from rules.by_gods_and_kings.events import SaveMade
from rules.by_gods_and_kings.flow import begin_step, enter_area
from rules.by_gods_and_kings.gear import loadout_problem, off_kind
from rules.by_gods_and_kings.plans import made
from rules.by_gods_and_kings.review import review
from rules.by_gods_and_kings.state import BgkState, Hero
from rules.by_gods_and_kings.stats import max_hp, stat
from rules.by_gods_and_kings.tasks import take_task, task_actions
from rules.core import Action, Event

SAVE_STATS = {"agility": ("spd", "SPD"), "defensive": ("defense", "DEF"), "magical": ("magic", "Magic")}


# --- saves -------------------------------------------------------------------------------------
def save_step(s: BgkState) -> SaveStep:
    step = s.step_def
    assert isinstance(step, SaveStep)
    return step


def save_actions(s: BgkState, seat: str) -> list[Action]:
    step = save_step(s)
    field, short = SAVE_STATS[step.save]
    acts = []
    for uid in s.saving:
        hero = s.hero(uid)
        if hero.seat != seat:
            continue
        own = stat(s, hero, field)
        group = f"{hero.name}: {step.save.capitalize()} Save ({short} {own}, needs {step.target})"
        acts.append(Action(key=f"save:{uid}:risk", label=f"{hero.name}: take the risk ({own})",
                           group=group))
        for c in dict.fromkeys(hero.field):
            acts.append(Action(key=f"save:{uid}:{c}", group=group,
                               label=f"{hero.name}: sacrifice {cards.name(c)} ({own + cards.value(c)})"))
    return acts


def make_save(s: BgkState, uid: str, card: str | None, events: list[Event]) -> None:
    step = save_step(s)
    hero = s.hero(uid)
    field, short = SAVE_STATS[step.save]
    own = stat(s, hero, field)
    total = own + (cards.value(card) if card else 0)
    if card is not None:
        hero.field.remove(card)
        s.discard.append(card)
    passed = total >= step.target
    how = f"{short} {own} + {cards.name(card)}" if card else f"{short} {own}"
    outcome = step.pass_text if passed else step.fail_text
    events.append(SaveMade.told(
        f"{hero.name}'s {step.save.capitalize()} Save: {how} = {total} against {step.target}: "
        f"{'passed' if passed else 'failed'}. {outcome}".strip(),
        hero=uid, save=step.save, stat=own, card=card, total=total, target=step.target, passed=passed))
    if not passed:
        penalty(s, hero, step, events)
    s.saving = [u for u in s.saving if u != uid]  # a new list (copying._WHOLE); ids appear once
    if not passed and step.fail_next is not None:  # who: one, so the save is over
        to = s.scenario_def.areas[step.fail_next]
        events.append(Event(kind="path_opened", text=(
            f"{hero.name}'s failure opens another way, and the party follows: on into {to.name}."),
            data={"unit": uid, "area": step.fail_next}))
        enter_area(s, step.fail_next, events)
        begin_step(s, events)
    elif not s.saving:
        s.step += 1
        begin_step(s, events)


def penalty(s: BgkState, hero: Hero, step: SaveStep, events: list[Event]) -> None:
    if step.fail.damage:
        loss = min(step.fail.damage, hero.hp - 1)
        hero.hp -= loss
        events.append(Event(kind="save_damage", text=f"{hero.name} takes {loss} damage: {hero.hp} HP left.",
                            data={"unit": hero.id, "damage": loss}))
    for spec in step.fail.statuses:
        set_status(hero, spec, events)


# --- route votes ---------------------------------------------------------------------------------
def route_keys(s: BgkState) -> list[str]:
    """The keys of a seat's moves at a fork: a vote for each way on, in the map's order, then a
    look into each (`review`)."""
    ways = s.area_def.next
    return [*(f"route:{aid}" for aid in ways), *(f"review:{aid}" for aid in ways)]


def route_actions(s: BgkState, seat: str) -> list[Action]:
    """A seat's votes, then a look into each way on (`review`), until it has voted."""
    if seat in s.votes:
        return []
    areas = s.scenario_def.areas
    ways = s.area_def.next
    labels = [*(f"Go to {areas[aid].name}" for aid in ways), *(f"Look into {areas[aid].name} first" for aid in ways)]
    groups = ["Where next?"] * len(ways) + ["Look before choosing"] * len(ways)
    return [Action(key=key, label=label, group=group)
            for key, label, group in zip(route_keys(s), labels, groups, strict=True)]


def winning_route(s: BgkState) -> str:
    """The area with the most votes; a tie goes to the first seat's vote among the tied."""
    counts: dict[str, int] = {}
    for aid in s.votes.values():
        counts[aid] = counts.get(aid, 0) + 1
    top = max(counts.values())
    return next(s.votes[p] for p in s.players if p in s.votes and counts[s.votes[p]] == top)


def vote(s: BgkState, seat: str, aid: str, events: list[Event]) -> None:
    s.votes[seat] = aid
    events.append(Event(kind="vote", text=f"⟨{seat}⟩ votes for {s.scenario_def.areas[aid].name}.",
                        data={"seat": seat, "area": aid}))
    if set(s.votes) < set(s.players):
        return
    chosen = winning_route(s)
    tally = ", ".join(f"{s.scenario_def.areas[a].name} {n}" for a, n in _tally(s).items())
    events.append(Event(kind="route_chosen", text=(
        f"The party heads for {s.scenario_def.areas[chosen].name} ({tally})."),
        data={"area": chosen, "votes": dict(s.votes)}))
    enter_area(s, chosen, events)
    begin_step(s, events)


def _tally(s: BgkState) -> dict[str, int]:
    out: dict[str, int] = {}
    for aid in s.area_def.next:
        n = sum(1 for v in s.votes.values() if v == aid)
        if n:
            out[aid] = n
    return out


# --- camp ----------------------------------------------------------------------------------------
def _name(s: BgkState, thing: str) -> str:
    cat = s.cat
    return cat.items[thing].name if thing in cat.items else cat.shards[thing].name


def camp_actions(s: BgkState, seat: str) -> list[Action]:
    if seat in s.ready:
        return []
    cat = s.cat
    acts: list[Action] = []
    heroes = s.heroes_of(seat)
    for thing in dict.fromkeys(s.stash):
        for h in heroes:
            acts.append(made(f"claim:{thing}:{h.id}", f"Give {_name(s, thing)} to {h.name}",
                             group=f"Claim {_name(s, thing)}"))
    for h in heroes:
        group = f"{h.name}: shards and equipment"
        acts += task_actions(s, h, group)
        if len(h.equipped) < MAX_EQUIPPED:
            for sid in h.shards:
                if sid not in h.equipped:
                    acts.append(made(f"shard:{h.id}:{sid}", f"{h.name}: equip {cat.shards[sid].name}", group=group))
        for sid in h.equipped:
            acts.append(made(f"unshard:{h.id}:{sid}", f"{h.name}: unequip {cat.shards[sid].name}", group=group))
        for item in dict.fromkeys(h.bag):
            for verb, label in wear_choices(s, h, item):
                acts.append(made(f"{verb}:{h.id}:{item}", f"{h.name}: {label}", group=group))
        for slot in ("main", "off", "body", "head"):
            worn = getattr(h.loadout, slot)
            if worn is not None:
                acts.append(made(f"remove:{h.id}:{slot}", f"{h.name}: take off {cat.items[worn].name}", group=group))
    acts.append(made("ready", "Ready to go on", style="success"))
    return acts


def wear_choices(s: BgkState, hero: Hero, item: str) -> list[tuple[str, str]]:
    """(verb, label) for each way the character may put on a bag item now."""
    cat = s.cat
    it = cat.items[item]
    out = []
    if it.slot == "weapon":
        out.append(("wield", f"wield {it.name}"))
    if it.slot in ("body", "head"):
        out.append(("wear", f"wear {it.name}"))
    if off_kind(cat, item) is not None:
        trial = hero.loadout.model_copy(update={"off": item})
        if loadout_problem(cat, trial, hero.equipped) is None:
            out.append(("offhand", f"hold {it.name} in the off hand"))
    return out


def _swap(hero: Hero, slot: str, item: str | None) -> None:
    worn = getattr(hero.loadout, slot)
    bag = list(hero.bag)  # a new bag: a character's gear is replaced whole (state.GEAR)
    if worn is not None:
        bag.append(worn)
    if item is not None:
        bag.remove(item)
    hero.bag = bag
    hero.loadout = hero.loadout.model_copy(update={slot: item})


def _fix_offhand(s: BgkState, hero: Hero, events: list[Event]) -> None:
    off = hero.loadout.off
    if off is not None and loadout_problem(s.cat, hero.loadout, hero.equipped) is not None:
        _swap(hero, "off", None)
        events.append(Event(kind="gear", text=f"{hero.name} puts {s.cat.items[off].name} back in the bag."))


def camp_move(s: BgkState, seat: str, key: str, events: list[Event]) -> None:
    """A move between the steps of a scenario: in camp (claims, gear, tasks, ready), or a look
    into a way on at a fork (`review`, which game.py's moves hand here with the camp's)."""
    if key.startswith("review:"):
        review(s, seat, key.split(":", 1)[1], events)
        return
    if key == "ready":
        s.ready = [*s.ready, seat]  # a new list (copying._WHOLE)
        events.append(Event(kind="ready", text=f"{_seat_names(s, seat)} ready.", data={"seat": seat}))
        if set(s.ready) >= set(s.players):
            if s.stash:
                events.append(Event(kind="loot_lost", text=(
                    f"Unclaimed loot is left behind: {', '.join(_name(s, x) for x in s.stash)}.")))
            s.stash, s.ready = [], []
            begin_step(s, events)
        return
    verb, a, b = key.split(":")
    cat = s.cat
    if verb == "claim":
        hero = s.hero(b)
        stash = list(s.stash)  # a new list (copying._WHOLE)
        stash.remove(a)
        s.stash = stash
        if a in cat.shards:  # new lists: a character's gear is replaced whole (state.GEAR)
            hero.shards = [*hero.shards, a]
        else:
            hero.bag = [*hero.bag, a]
        events.append(Event(kind="claim", text=f"{hero.name} takes {_name(s, a)}."))
        return
    hero = s.hero(a)
    if verb == "task":
        take_task(s, hero, b, events)
        return
    if verb == "shard":
        hero.equipped = [*hero.equipped, b]  # a new list (state.GEAR)
        text = f"{hero.name} equips {cat.shards[b].name}."
    elif verb == "unshard":
        equipped = list(hero.equipped)
        equipped.remove(b)
        hero.equipped = equipped
        text = f"{hero.name} unequips {cat.shards[b].name}."
    elif verb == "remove":
        worn = getattr(hero.loadout, b)
        _swap(hero, b, None)
        text = f"{hero.name} takes off {cat.items[worn].name}."
    else:
        slot = {"wield": "main", "offhand": "off"}.get(verb) or cat.items[b].slot
        _swap(hero, slot, b)
        text = f"{hero.name} puts on {cat.items[b].name}."
    events.append(Event(kind="gear", text=text, data={"unit": hero.id}))
    _fix_offhand(s, hero, events)
    hero.hp = min(hero.hp, max_hp(s, hero))


def _seat_names(s: BgkState, seat: str) -> str:
    names = [h.name for h in s.party if h.seat == seat]
    return (" and ".join(names) + (" are" if len(names) > 1 else " is")) if names else "A seat is"

