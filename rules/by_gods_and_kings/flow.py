"""How a scenario runs on: its map of areas and their steps, a battle's rounds and turns, the
end of a battle, a wipe.

**The map**: the party enters the scenario's `start` area and plays its steps in order. When an
area is done, a single way on is taken at once; several ways on call a route vote (camp.py); an
area with no way on ends the scenario with its last battle. A failed save may open another path
(`SaveStep.fail_next`): the rest of the area is skipped and the party goes into that area
(camp.make_save).

Each function changes the state in place (on the copy `apply` made) and runs the game on until
somebody has a decision to make.
"""

from __future__ import annotations

from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.abilities import release_alone
from rules.by_gods_and_kings.campaign import award_experience
from rules.by_gods_and_kings.content import BattleStep, RestStep, SaveStep
from rules.by_gods_and_kings.cow import changed
from rules.by_gods_and_kings.effects import AnyUnit, draw_up, heal, lose
from rules.by_gods_and_kings.enemy import announce, land
from rules.by_gods_and_kings.events import BattleEnded, TurnBegan, plain
from rules.by_gods_and_kings.reactions import any_reaction
from rules.by_gods_and_kings.state import Battle, BgkState, Foe, Hero, Npc, assign
from rules.by_gods_and_kings.stats import max_hp, stat
from rules.core import Event
from rules.core.state import independent_copy

SIDE_RANK = {"c": 0, "n": 1, "e": 2}
"""Ties on SPD: characters before NPCs before enemies."""


def attempts(s: BgkState) -> int:
    return int(s.options.get("attempts", "3"))


# --- scenario steps ------------------------------------------------------------------------
def begin_step(s: BgkState, events: list[Event]) -> None:
    """Play the scenario on from `s.step` of the current area until a decision is needed."""
    if s.step == 0 and not s.visited:
        enter_area(s, s.scenario_def.start, events)
    while True:
        if s.step >= len(s.area_def.steps):
            if not leave_area(s, events):
                return
            continue
        step = s.step_def
        if isinstance(step, BattleStep):
            begin_battle(s, events)
            return
        if isinstance(step, SaveStep):
            begin_save(s, step, events)
            if s.saving:
                return
        elif isinstance(step, RestStep):
            events.append(Event(kind="scene", text=f"**{step.name}**. {step.text}".strip()))
            for h in s.living_heroes():
                heal(s, h, step.heal, events)
        s.step += 1


def enter_area(s: BgkState, aid: str, events: list[Event]) -> None:
    """The party walks into an area: its text is read out (with the objective at the start)."""
    sc = s.scenario_def
    area = sc.areas[aid]
    s.area, s.step, s.votes = aid, 0, {}
    s.visited = [*s.visited, aid]  # a new list (copying._WHOLE)
    text = f"**{area.name}**. {area.text}".strip()
    if aid == sc.start and len(s.visited) == 1 and sc.objective:
        text += f"\nObjective: {sc.objective}"
    events.append(Event(kind="area", text=text, data={"area": aid}))


def leave_area(s: BgkState, events: list[Event]) -> bool:
    """The current area is done: the scenario is won (no way on), the party goes on (one way:
    True, play on), or every seat votes (several: the route phase)."""
    area = s.area_def
    if area.ending:
        victory(s, events)
        return False
    if len(area.next) == 1:
        enter_area(s, area.next[0], events)
        return True
    s.phase, s.votes, s.battle, s.actor = "route", {}, None, None
    names = ", ".join(s.scenario_def.areas[x].name for x in area.next)
    events.append(Event(kind="route", text=(
        f"The way forks: {names}. Every seat votes where the party goes; the most votes win "
        "(a tie: the first seat's choice)."), data={"choices": list(area.next)}))
    return False


def begin_save(s: BgkState, step: SaveStep, events: list[Event]) -> None:
    events.append(Event(kind="scene", text=f"**{step.name}**. {step.text}".strip()))
    living: list[Hero] = [h for h in s.party if h.alive]  # read: ids and names
    if step.who == "one" and living:
        living = [s.own_rng().choice(living)]
    s.saving = [h.id for h in living]
    s.phase = "save"
    names = ", ".join(h.name for h in living)
    events.append(Event(kind="save_called", text=(
        f"{step.save.capitalize()} Save of {step.target} for {names}: add a card from the Field, "
        "or take the risk."), data={"save": step.save, "target": step.target, "heroes": s.saving}))


def victory(s: BgkState, events: list[Event]) -> None:
    s.phase, s.outcome, s.battle, s.actor = "over", "victory", None, None
    s.buildings = {}
    outro = s.scenario_def.outro
    events.append(Event(kind="game_over", text=f"The party completes {s.scenario_def.name}! {outro}".strip(),
                        data={"outcome": "victory"}))
    award_experience(s, events)


# --- a battle ------------------------------------------------------------------------------
def begin_battle(s: BgkState, events: list[Event]) -> None:
    step = s.battle_def
    cat = s.cat
    entries = [e.enemy for e in step.enemies if e.min_party <= len(s.party)]
    counts = {e: entries.count(e) for e in entries}
    seen: dict[str, int] = {}
    foes = []
    for i, eid in enumerate(entries):
        seen[eid] = seen.get(eid, 0) + 1
        name = cat.enemies[eid].name + (f" {seen[eid]}" if counts[eid] > 1 else "")
        foe = Foe(id=f"e{i}", name=name, hp=0, enemy=eid)
        foe.hp = max_hp(s, foe)
        foes.append(foe)
    npcs = [Npc(id=f"n{i}", name=cat.npcs[nid].name, hp=cat.npcs[nid].hp, npc=nid)
            for i, nid in enumerate(step.npcs)]
    s.battle = Battle(foes=foes, npcs=npcs)
    s.phase, s.actor, s.played, s.queue, s.intent = "opening", None, None, [], None
    foe_text = ", ".join(f.name for f in foes)
    ally_text = f" {', '.join(n.name for n in npcs)} fights beside the party." if npcs else ""
    events.append(Event(kind="battle", text=(
        f"**{step.name}**. {step.text} Enemies: {foe_text}.{ally_text}").replace("  ", " "),
        data={"step": s.step}))
    opening = s.opening = []  # a new list, of this state alone (copying._WHOLE)
    units: list[Hero | Npc] = [*s.living_heroes(), *npcs]
    for unit in units:
        draw_up(s, unit, cards.HAND_LIMIT, events)
        if not unit.field and unit.hand:
            opening.append(unit.id)
    if not s.opening:
        begin_round(s, events)


def open_with(s: BgkState, uid: str, card: str, events: list[Event]) -> None:
    unit = s.unit(uid)
    assert isinstance(unit, Hero | Npc)
    unit.hand.remove(card)
    unit.field.append(card)
    s.opening = [u for u in s.opening if u != uid]  # a new list (copying._WHOLE); ids appear once
    events.append(plain("opening", f"{unit.name} puts {cards.name(card)} on the Field.",
                        data={"unit": uid, "card": card}))
    if not s.opening:
        begin_round(s, events)


def begin_round(s: BgkState, events: list[Event]) -> None:
    """A new round, played on until someone must decide."""
    if new_round(s, events):
        next_turn(s, events)


def new_round(s: BgkState, events: list[Event]) -> bool:
    """Order a new round by SPD; False when tied characters must be ordered by a seat first."""
    b = s.battle
    assert b is not None
    units: list[AnyUnit] = [*s.peek_allies(), *s.peek_foes()]  # read: only ids and SPD
    spd = {u.id: stat(s, u, "spd") for u in units}  # each unit's SPD, worked out once
    units.sort(key=lambda u: (-spd[u.id], SIDE_RANK[u.id[0]], int(u.id[1:])))
    assign(b, round=b.round + 1, order=[u.id for u in units], pos=-1, ties=[])
    if s.options.get("ties", "ask") == "ask":
        i = 0
        while i < len(units):
            j = i
            while (j + 1 < len(units) and units[j + 1].id[0] == "c" == units[i].id[0]
                   and spd[units[j + 1].id] == spd[units[i].id]):
                j += 1
            if j > i:
                b.ties.append([i, j + 1])
            i = j + 1
    if b.ties:
        s.phase = "order"
        names = "; ".join(" = ".join(s.peek(u).name for u in b.order[a:z]) for a, z in b.ties)
        events.append(Event(kind="tie", text=f"Round {b.round}: tied on SPD ({names}); the party "
                            "chooses who goes first.", data={"round": b.round}))
        return False
    announce_order(s, events, spd)
    return True


def announce_order(s: BgkState, events: list[Event], spd: dict[str, int] | None = None) -> None:
    """`spd`: the units' SPD when the caller has just worked it out."""
    b = s.battle
    assert b is not None
    text = ", ".join(f"{s.peek(u).name} ({spd[u] if spd is not None else stat(s, s.peek(u), 'spd')})"
                     for u in b.order)
    events.append(plain("round", f"Round {b.round}. Turn order by SPD: {text}.",
                        data={"round": b.round, "order": list(b.order)}))


def choose_first(s: BgkState, uid: str, events: list[Event]) -> None:
    """Order phase: `uid` goes first among the characters still tied."""
    b = s.battle
    assert b is not None and b.ties
    start, end = b.ties[0]
    b.order.remove(uid)
    b.order.insert(start, uid)
    start += 1
    if end - start < 2:
        b.ties.pop(0)
    else:
        b.ties[0] = [start, end]
    if not b.ties:
        announce_order(s, events)
        next_turn(s, events)


def battle_over(s: BgkState, events: list[Event]) -> bool:
    """End the battle if one side is down; True when it ended."""
    if s.battle is None:
        return True
    if not s.any_hero_standing():
        wipe(s, events)
        return True
    if not s.any_foe_standing():
        win_battle(s, events)
        return True
    return False


def next_turn(s: BgkState, events: list[Event]) -> None:
    """Go on to the next unit's turn, playing enemies' turns and automatic turns, until someone
    must decide (or the battle ends)."""
    while True:
        if battle_over(s, events):
            return
        b = s.battle
        assert b is not None
        b.pos += 1
        if b.pos >= len(b.order):
            if not new_round(s, events):
                return
            continue
        uid = b.order[b.pos]
        if s.peek(uid).hp > 0 and start_turn(s, s.unit(uid), events):  # (alive)
            return


def start_turn(s: BgkState, unit: AnyUnit, events: list[Event]) -> bool:
    """Begin a unit's turn; True when someone must decide, False when it is already over."""
    b = s.battle
    assert b is not None
    assign(s, actor=unit.id, played=None, queue=[], intent=None)
    events.append(TurnBegan.told(f"{unit.name}'s turn.", unit=unit.id, name=unit.name, round=b.round))
    for kind in ("bleed", "poison") if unit.statuses else ():  # most units bear none
        st = unit.status(kind)
        if st is not None:
            lose(s, unit, st.amount, events, kind)
    if not unit.alive:
        finish_turn(s, unit)
        return False
    if isinstance(unit, Hero) and unit.held is not None:
        release_alone(s, unit, events)
        if not s.any_foe_standing():
            finish_turn(s, unit)
            return False
    if unit.has("sleep"):
        events.append(plain("sleep", f"{unit.name} is asleep and skips the turn."))
        finish_turn(s, unit)
        return False
    if unit.has("blind"):
        flip = s.draw_card()
        if flip is not None:
            s.discard.append(flip)
            unit.miss = cards.rank(flip) >= 9
            outcome = "its strike or ability this turn goes wide" if unit.miss else "it sees well enough"
            events.append(plain("blind", f"{unit.name} is blind and flips {cards.name(flip)}: {outcome}.",
                                data={"unit": unit.id, "card": flip, "miss": unit.miss}))
    if isinstance(unit, Foe):
        intent = announce(s, unit, events)
        if s.options.get("blows", "announce") == "announce" and any_reaction(s):
            assign(s, phase="enemy", intent=intent)
            return True
        land(s, intent, events)
        finish_turn(s, unit)
        return False
    if isinstance(unit, Hero) and unit.has("stun"):
        events.append(plain("stun", f"{unit.name} is stunned and draws no card."))
    elif len(unit.hand) < cards.HAND_LIMIT:
        draw_up(s, unit, 1, events)
    if isinstance(unit, Hero) and unit.has("paralyze"):
        events.append(plain("paralyze", f"{unit.name} is paralyzed and plays no card."))
        finish_turn(s, unit)
        return False
    if not unit.hand:
        events.append(plain("no_card", f"{unit.name} has no card to play."))
        finish_turn(s, unit)
        return False
    s.phase = "play" if isinstance(unit, Hero) else "npc"
    return True


def finish_turn(s: BgkState, unit: AnyUnit) -> None:
    """The end of a unit's turn: its statuses count down."""
    assign(unit, statuses=[changed(st, turns=st.turns - 1) for st in unit.statuses if st.turns > 1], miss=False)
    assign(s, actor=None, played=None, queue=[], spent=0, intent=None)


def end_turn(s: BgkState, events: list[Event]) -> None:
    """The actor's turn is over: count its statuses down and go on."""
    if s.actor is not None and s.battle is not None:
        actor = s.peek(s.actor)  # read: without statuses nor a miss, `finish_turn` changes
        if actor.statuses or actor.miss:  # nothing of it, and it is not copied (cow.py)
            finish_turn(s, s.unit(s.actor))
        else:
            assign(s, actor=None, played=None, queue=[], spent=0, intent=None)
    next_turn(s, events)


# --- the end of a battle ---------------------------------------------------------------------
def clear_battle(s: BgkState, events: list[Event]) -> None:
    """What a battle leaves: fallen characters come back at 1 HP with their Field wiped;
    statuses, shields and held abilities end; enemies' and NPCs' cards go to the discard pile."""
    for h in s.own_party():
        assign(h, statuses=[], shield=0, held=None, miss=False)
        if not h.alive:
            h.hp = 1
            s.discard.extend(h.field)
            h.field = []
            events.append(Event(kind="revived", text=f"{h.name} gets up with 1 HP; its Field is wiped.",
                                data={"unit": h.id}))
        h.hp = min(h.hp, max_hp(s, h))
    if s.battle is not None:  # read: their cards go to the discard pile with the battle
        for f in s.battle.foes:
            s.discard.extend(f.field)
        for n in s.battle.npcs:
            s.discard.extend(n.hand + n.field)
    s.battle = None
    s.actor, s.played, s.queue, s.spent, s.intent, s.opening = None, None, [], 0, None, []


def win_battle(s: BgkState, events: list[Event]) -> None:
    step = s.battle_def
    events.append(BattleEnded.told(f"The party wins {step.name}.", won=True, step=s.step))
    s.battles_won += 1
    clear_battle(s, events)
    cat = s.cat
    held = {sid for h in s.party for sid in [*h.shards, *h.aside]}
    loot = [x for x in step.loot if x not in held]  # a shard exists once in a game
    if loot:
        s.stash = [*s.stash, *loot]  # a new list (copying._WHOLE)
        names = ", ".join(cat.items[x].name if x in cat.items else cat.shards[x].name for x in loot)
        events.append(Event(kind="loot", text=f"Loot: {names}. Claim it in camp, or it is lost.",
                            data={"loot": list(loot)}))
    s.step += 1
    if s.step >= len(s.area_def.steps) and s.area_def.ending:
        victory(s, events)
        return
    s.phase, s.ready = "camp", []
    events.append(Event(kind="camp", text=(
        "Camp: change shards and equipment, claim the loot, use Discard and Sacrifice "
        "abilities; the scenario goes on when everyone is ready.")))


def wipe(s: BgkState, events: list[Event]) -> None:
    """Every character is down: the loot is lost and the scenario starts over (or, with no
    attempt left, the game is lost)."""
    events.append(BattleEnded.told(
        "Every character has fallen: the encounter is lost, and the loot with it.", won=False, step=s.step))
    if s.attempt >= attempts(s):
        # The rulebook: all loot acquired is lost. The characters go home as they set out
        # (`s.origin`), their cards back in the piles; a lost scenario gives no experience
        # (shards gain it "upon the completion of scenarios"; campaign.award_experience).
        for f in s.foes:
            s.discard.extend(f.field)
        for n in s.npcs:
            s.discard.extend(n.hand + n.field)
        for h in s.party:
            s.discard.extend(h.hand + h.field)
        s.party = [set_out(h) for h in s.origin]
        s.stash = []
        s.phase, s.outcome, s.battle, s.actor = "over", "defeat", None, None
        s.buildings = {}
        events.append(Event(kind="game_over", text=(
            f"No attempt is left: {s.scenario_def.name} defeats the party. The characters go home "
            "as they set out: what they found on the way is lost."), data={"outcome": "defeat"}))
        return
    s.attempt += 1
    restart(s)
    events.append(Event(kind="restart", text=(
        f"Attempt {s.attempt} of {attempts(s)}: the party starts {s.scenario_def.name} over."),
        data={"attempt": s.attempt}))
    begin_step(s, events)


def restart(s: BgkState) -> None:
    """The scenario from its start: the party as it entered, a fresh shuffle of every card."""
    s.party = [set_out(h) for h in s.origin]
    s.deck = cards.shuffled(s.own_rng(), s.decks)
    s.discard, s.stash, s.battle, s.step, s.battles_won = [], [], None, 0, 0
    s.area, s.visited, s.votes = "", [], {}
    s.actor, s.played, s.queue, s.spent, s.intent = None, None, [], 0, None
    s.opening, s.saving, s.ready, s.buildings = [], [], [], {}


def set_out(h: Hero) -> Hero:
    """A copy of the character as it sets out: no card in its hand nor on its Field (they are in
    the deck, which a new attempt shuffles whole). A state saved before the starting party was
    kept without cards may hold them in `origin`: they are dropped here, not dealt twice."""
    out = independent_copy(h)
    out.hand, out.field = [], []
    return out
