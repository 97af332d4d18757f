"""What a player (or the table) sees: everything but the order of the draw pile. The party's
hands are face up; `controlled` says which characters the viewer decides for."""

from __future__ import annotations

from pydantic import BaseModel

from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.abilities import ability
from rules.by_gods_and_kings.content import RANK_NAMES, RestStep, SaveStep
from rules.by_gods_and_kings.enemy import fighter_abilities, numbers
from rules.by_gods_and_kings.levels import describe_level
from rules.by_gods_and_kings.state import BgkState, Foe, Hero, Npc
from rules.by_gods_and_kings.stats import sheet
from rules.by_gods_and_kings.tasks import setting_out


class StatusView(BaseModel):
    kind: str
    amount: int
    turns: int
    source: str | None = None


class UnitView(BaseModel):
    id: str
    name: str
    kind: str
    """character, enemy or npc."""
    hp: int
    max_hp: int
    defense: int
    physical: int
    magic: int
    spd: int
    shield: int
    statuses: list[StatusView]
    field: list[str]
    field_total: int
    hand: list[str] | None = None
    """Characters and NPCs (face up)."""
    seat: str | None = None
    numbers: tuple[int, int] | None = None
    """The numbers 1-13 it holds for enemies' target cards."""
    hands: list[str] = []
    """The hands its Field holds (Flush, Straight, Three of a Kind)."""
    held: str | None = None
    rank: str | None = None
    """An enemy's rank in words ("minion", "mini boss", "boss", "mega boss")."""
    weapon: str | None = None
    shards: list[str] = []
    """Equipped shards: 'Shard of Fury (level 2)' (the name alone when the content has no levels)."""
    abilities: list[str] = []
    """Enemies and NPCs: 'threshold: name'."""


class RouteView(BaseModel):
    """A way on from the area just done, and the seats that voted for it, with what the party
    knows of it: the map (the names of the places it leads on to, or that it is the last place,
    where the scenario ends, and whether there is a place to rest). The enemies, traps and loot
    waiting inside a place are not on the map: a seat may look into a place before voting
    (review.py), which tells its enemies and dangers to the whole party, never its loot."""

    id: str
    name: str
    votes: list[str] = []
    leads_to: list[str] = []
    """The names of the places the map shows beyond it."""
    ends: bool = False
    """The way ends there: the scenario's last place."""
    rest: bool = False
    """The map marks a place to rest there (the automatic player heads for one when hurt)."""


class BgkView(BaseModel):
    viewer: str | None
    controlled: list[str]
    phase: str
    scenario: str
    step: int
    steps: int
    step_name: str
    objective: str = ""
    area: str = ""
    """The name of the area the party is in."""
    visited: list[str] = []
    """The names of the areas entered this attempt, in order."""
    routes: list[RouteView] = []
    """Route phase: the ways on and who voted for each."""
    attempt: int
    attempts: int
    round: int
    order: list[str]
    actor: str | None
    to_act: list[str]
    prompt: str
    party: list[UnitView]
    foes: list[UnitView]
    npcs: list[UnitView]
    deck_count: int
    discard_count: int
    stash: list[str]
    queue: list[str]
    intent: str | None
    outcome: str


def unit_view(s: BgkState, unit: Hero | Foe | Npc, held_numbers: dict[str, tuple[int, int]]) -> UnitView:
    st = sheet(s, unit)
    cat = s.cat
    out = UnitView(
        id=unit.id, name=unit.name,
        kind="character" if isinstance(unit, Hero) else "enemy" if isinstance(unit, Foe) else "npc",
        hp=unit.hp, max_hp=st.hp, defense=st.defense, physical=st.physical, magic=st.magic, spd=st.spd,
        shield=unit.shield,
        statuses=[StatusView(kind=x.kind, amount=x.amount, turns=x.turns, source=x.source) for x in unit.statuses],
        field=list(unit.field), field_total=cards.total(unit.field), numbers=held_numbers.get(unit.id))
    if isinstance(unit, Hero):
        out.hand, out.seat = list(unit.hand), unit.seat
        out.hands = [cards.HAND_NAMES[k] for k in cards.hands(unit.field)]
        out.held = ability(s, unit.held.ref).name if unit.held else None
        out.weapon = cat.items[unit.loadout.main].name if unit.loadout.main else None
        out.shards = [describe_level(cat, unit, x) if cat.shard_levels else cat.shards[x].name
                      for x in unit.equipped]
    else:
        if isinstance(unit, Npc):
            out.hand = list(unit.hand)
        else:
            out.rank = RANK_NAMES[cat.enemies[unit.enemy].rank]
        out.abilities = [f"{a.threshold}: {a.name}" for a in fighter_abilities(s, unit)]
    return out


def prompt(s: BgkState, intent: str | None = None) -> str:
    """What the game waits for, in a line; `intent`: the enemy's announced blow (the enemy phase
    names it)."""
    if s.phase == "over":
        return "The party wins." if s.outcome == "victory" else "The party is defeated."
    actor = s.unit(s.actor).name if s.actor else ""
    step = s.step_def if s.step < len(s.area_def.steps) else None
    return {
        "opening": "Each character puts a first card on its Field.",
        "order": "Characters tied on SPD: choose who goes first.",
        "play": f"{actor}: play a card onto the Field.",
        "resolve": f"{actor}: a basic attack, or fire the abilities of the Field.",
        "deploy": f"{actor}: fire the abilities in the order you like.",
        "npc": f"{actor}: the party plays the NPC's card and picks its target.",
        "enemy": f"{intent or f'{actor} is about to strike'}: react with Discard or Sacrifice, or let it land.",
        "save": f"{step.name}: make the save." if isinstance(step, SaveStep) else "Make the save.",
        "camp": ("Before setting out: change shards and equipment, take a task if you like, then get "
                 "ready." if setting_out(s) else "Camp: claim loot, change shards and equipment, then get ready."),
        "route": "The way forks: look into the ways on if you like, then every seat votes.",
    }.get(s.phase, "")


def build_view(s: BgkState, viewer: str | None, to_act: list[str]) -> BgkView:
    held = {uid: (lo, hi) for uid, lo, hi in numbers(s)} if s.battle is not None else {}
    b = s.battle
    area = s.area_def
    step = s.step_def if s.step < len(area.steps) else None
    areas = s.scenario_def.areas
    routes = [RouteView(id=aid, name=areas[aid].name, votes=[p for p in s.players if s.votes.get(p) == aid],
                        leads_to=[areas[x].name for x in areas[aid].next if x in areas],
                        ends=areas[aid].ending,
                        rest=any(isinstance(x, RestStep) for x in areas[aid].steps))
              for aid in area.next] if s.phase == "route" else []
    cat = s.cat
    intent = None
    if s.intent is not None:
        foe = s.unit(s.intent.foe)
        assert isinstance(foe, Foe)
        what = ("a basic attack" if s.intent.ability is None
                else fighter_abilities(s, foe)[s.intent.ability].name)
        intent = f"{foe.name} aims {what} at {s.unit(s.intent.target).name}"
    return BgkView(
        viewer=viewer, controlled=[h.id for h in s.party if h.seat == viewer],
        phase=s.phase, scenario=s.scenario_def.name, step=s.step, steps=len(area.steps),
        step_name=step.name if step is not None else "",
        objective=s.scenario_def.objective, area=area.name,
        visited=[areas[x].name for x in s.visited if x in areas], routes=routes,
        attempt=s.attempt, attempts=int(s.options.get("attempts", "3")),
        round=b.round if b else 0, order=list(b.order) if b else [], actor=s.actor, to_act=to_act,
        prompt=prompt(s, intent),
        party=[unit_view(s, h, held) for h in s.party],
        foes=[unit_view(s, f, held) for f in s.foes],
        npcs=[unit_view(s, n, held) for n in s.npcs],
        deck_count=len(s.deck), discard_count=len(s.discard),
        stash=[cat.items[x].name if x in cat.items else cat.shards[x].name for x in s.stash],
        queue=[ability(s, r).name for r in s.queue], intent=intent, outcome=s.outcome,
    )
