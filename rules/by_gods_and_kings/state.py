"""The state of a game of By Gods and Kings, and small queries over it.

The party's characters (`Hero`), the enemies (`Foe`) and the NPCs fighting beside the party
(`Npc`) are all units with an id: `c0`..`c7` for characters in party order, `e0`.. for the
enemies of the battle, `n0`.. for its NPCs. Cards are codes (see cards.py); the draw pile's
top is the end of `deck`. Everything but the order of the draw pile is public: the party's
hands are face up.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.by_gods_and_kings.catalogue import CATALOGUES
from rules.by_gods_and_kings.content import (
    AreaDef,
    BattleStep,
    Catalogue,
    ScenarioDef,
    ScenarioStep,
    Trigger,
)
from rules.by_gods_and_kings.cow import WRITING, all_owned, owned
from rules.by_gods_and_kings.effects_model import StatusKind
from rules.by_gods_and_kings.gear import Loadout
from rules.core import Rng
from rules.core.state import copy_rng
from rules.core.steps import Building

Phase = Literal["opening", "order", "play", "resolve", "deploy", "npc", "enemy", "save", "camp",
                "route", "over"]
"""opening: characters and NPCs put their first card on the Field; order: a seat orders
characters tied on SPD; play: a character plays a card; resolve: it chooses its basic attack
or its abilities; deploy: it fires its abilities in the order it likes; npc: the
administrator plays an NPC's turn; enemy: an enemy's blow is announced and the party may
react before it lands; save: characters make a save; camp: between battles; route: an area is
done and every seat votes where the party goes next; over."""


class _Places(dict[str, int]):
    """A unit id's place in its list: `c3` -> 3 (see `PLACE`)."""

    def __missing__(self, uid: str) -> int:
        return int(uid[1:])


PLACE = _Places({f"{side}{i}": i for side in "cen" for i in range(64)})
"""A unit id's place in its list (`c3` -> 3, `e12` -> 12), looked up: the accessors below read
it at every move, and a lookup costs half of cutting the id and reading its number (an id not
in the table is read so)."""


class Status(BaseModel):
    """A status a unit bears. Frozen: the copies of a state share their statuses (copying.py),
    and a status that changes is replaced by a new one (`cow.changed`)."""

    model_config = ConfigDict(frozen=True)

    kind: StatusKind | Literal["taunt"]
    """A status of effects_model, or taunt (a foe made to aim at `source`)."""
    amount: int = 0
    turns: int
    """The bearer's turns left."""
    source: str | None = None
    """Taunt: the character the foe must aim at."""


class Held(BaseModel):
    """An elemental ability held ready for an ally to release in a synchronization."""

    shard: str
    trigger: Trigger
    target: str
    """The foe it aims at ('all' for every foe) when it fires alone."""
    spent: int = 0
    """The value of the cards spent on it (for add_card)."""

    @property
    def ref(self) -> str:
        return f"{self.shard}.{self.trigger}"


class Unit(BaseModel):
    id: str
    name: str
    hp: int
    field: list[str] = Field(default_factory=list)
    statuses: list[Status] = Field(default_factory=list)
    shield: int = 0
    miss: bool = False
    """Blind turned up a 9 to King this turn: the unit's strike or ability this turn goes wide."""

    @property
    def alive(self) -> bool:
        """HP above 0 (the party's and the battle's helpers below test `hp > 0` themselves: they
        run at every move, and a property costs a call)."""
        return self.hp > 0

    def status(self, kind: StatusKind | Literal["taunt"]) -> Status | None:
        for x in self.statuses:  # a loop: no generator to make for the common empty list
            if x.kind == kind:
                return x
        return None

    def has(self, kind: StatusKind | Literal["taunt"]) -> bool:
        for x in self.statuses:  # `status` written out
            if x.kind == kind:
                return True
        return False


class Hero(Unit):
    """A character of the party."""

    template: str
    """Its entry in characters.yaml."""
    seat: str
    """The player controlling it."""
    hand: list[str] = Field(default_factory=list)
    loadout: Loadout = Loadout()
    bag: list[str] = Field(default_factory=list)
    shards: list[str] = Field(default_factory=list)
    equipped: list[str] = Field(default_factory=list)
    shard_xp: dict[str, int] = Field(default_factory=dict)
    """Experience of its shards (shard id -> points; missing: 0), carried between sessions in
    the character's record; a shard's level comes from it (levels.py)."""
    record: str | None = None
    """The name of the saved character this is (None: a character of the band's roster that
    no record backs, e.g. in simulations)."""
    aside: list[str] = Field(default_factory=list)
    """Its shards left aside in this game because an earlier character has them (campaign.py);
    `aside_equipped`: those of them it had equipped."""
    aside_equipped: list[str] = Field(default_factory=list)
    cleared: dict[str, int] = Field(default_factory=dict)
    """The saved character's past: scenario id -> times cleared; adventures played to the end."""
    adventures: int = 0
    tasks: list[str] = Field(default_factory=list)
    """The tasks between scenarios the saved character has done (tasks.yaml ids; camp.py)."""
    held: Held | None = None


GEAR = ("bag", "shards", "equipped", "aside", "aside_equipped", "shard_xp", "cleared", "tasks")
"""A character's gear and past: lists and dicts that only a camp move and the experience of a
finished scenario change (camp.py, campaign.py), each time by a new one, never in place, so
the copies of a state share them (copying.py, cow.py); only the making of a party sets shards
aside in place, before any state holds it. A test applies every camp move and checks the state
before it unchanged."""


class Foe(Unit):
    enemy: str


class Npc(Unit):
    npc: str
    hand: list[str] = Field(default_factory=list)


class Intent(BaseModel):
    """An enemy's turn, announced before it lands (the party may still react)."""

    foe: str
    target: str
    pick: str | None = None
    """The card that picked the target (None: taunted)."""
    card: str | None = None
    """The card put on its Field (None: none was left to draw)."""
    ability: int | None = None
    """The ability its Field total fires (None: a basic attack)."""


class Battle(BaseModel):
    foes: list[Foe]
    npcs: list[Npc] = Field(default_factory=list)
    round: int = 0
    order: list[str] = Field(default_factory=list)
    """This round's turn order (unit ids)."""
    pos: int = -1
    """The turn being played: an index into `order`."""
    ties: list[list[int]] = Field(default_factory=list)
    """Ranges [start, end) of `order` holding characters tied on SPD that a seat still orders."""


class BgkState(BaseModel):
    players: list[str]
    options: dict[str, str]
    content: str
    """The version of the catalogue this game plays with (`catalogue.CATALOGUES`)."""
    rng: Rng
    scenario: str
    area: str = ""
    """The area of the scenario's map the party is in ('' in states saved before maps: the
    start, a legacy scenario's only area)."""
    step: int = 0
    """The step of the area being played."""
    visited: list[str] = Field(default_factory=list)
    """The areas entered this attempt, in order (empty until the start is entered)."""
    votes: dict[str, str] = Field(default_factory=dict)
    """Route: each seat's vote so far (seat -> area id)."""
    attempt: int = 1
    party: list[Hero]
    origin: list[Hero]
    """The party as it entered the scenario: a wipe starts over from it."""
    decks: int
    deck: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    stash: list[str] = Field(default_factory=list)
    """Loot not yet claimed (lost when the camp breaks up)."""
    battle: Battle | None = None
    phase: Phase = "opening"
    actor: str | None = None
    """The unit whose turn it is."""
    played: str | None = None
    """The card the actor played this turn."""
    queue: list[str] = Field(default_factory=list)
    """Deploy: the abilities still to fire, as 'shard.trigger'."""
    spent: int = 0
    """Deploy: the value of the three Field cards spent on the abilities."""
    intent: Intent | None = None
    opening: list[str] = Field(default_factory=list)
    """Units that still put their first card on the Field."""
    saving: list[str] = Field(default_factory=list)
    """Characters still to make the save of this step."""
    ready: list[str] = Field(default_factory=list)
    """Seats done in camp."""
    buildings: dict[str, Building] = Field(default_factory=dict)
    """Each seat's move being built (see plans.py)."""
    outcome: Literal["", "victory", "defeat"] = ""
    battles_won: int = 0
    """Battles won in this attempt (the shards' experience, campaign.py)."""

    @model_validator(mode="before")
    @classmethod
    def _saved(cls, data: Any) -> Any:
        """A state saved in the compact form (saving.py) becomes the plain fields again."""
        from rules.by_gods_and_kings.saving import expand

        return expand(data)

    @model_validator(mode="after")
    def _within_max_hp(self) -> BgkState:
        """A battle saved before enemies were scaled anew to the party size (stats.SMALL_PARTY_HP
        is code, not pinned content) may hold an enemy above its maximum now: it is capped."""
        if self.battle is not None and self.battle.foes:
            from rules.by_gods_and_kings.stats import max_hp

            for foe in self.battle.foes:
                top = max_hp(self, foe)
                if foe.hp > top:
                    foe.hp = top
        return self

    # --- content ---------------------------------------------------------------------------
    @property
    def cat(self) -> Catalogue:
        return CATALOGUES.get(self.content)

    @property
    def scenario_def(self) -> ScenarioDef:
        return self.cat.scenarios[self.scenario]

    @property
    def area_id(self) -> str:
        return self.area or self.scenario_def.start

    @property
    def area_def(self) -> AreaDef:
        return self.scenario_def.areas[self.area_id]

    @property
    def step_def(self) -> ScenarioStep:
        return self.area_def.steps[self.step]

    @property
    def battle_def(self) -> BattleStep:
        step = self.step_def
        assert isinstance(step, BattleStep), "no battle is being fought"
        return step

    # --- units ---------------------------------------------------------------------------
    # While `apply` changes this state, each accessor hands out units of its own (cow.py).
    def hero(self, uid: str) -> Hero:
        if WRITING.state is self:
            return owned(self, self.party, PLACE[uid])
        return self.party[PLACE[uid]]

    def unit(self, uid: str) -> Hero | Foe | Npc:
        if uid[0] == "c":
            units: list[Any] = self.party
        else:
            assert self.battle is not None, f"{uid} fights only in a battle"
            units = self.battle.foes if uid[0] == "e" else self.battle.npcs
        if WRITING.state is self:
            return owned(self, units, PLACE[uid])
        return units[PLACE[uid]]

    def peek(self, uid: str) -> Hero | Foe | Npc:
        """The unit, to read only (never kept by code of `apply`: see cow.py)."""
        if uid[0] == "c":
            return self.party[PLACE[uid]]
        assert self.battle is not None, f"{uid} fights only in a battle"
        return (self.battle.foes if uid[0] == "e" else self.battle.npcs)[PLACE[uid]]

    def own_rng(self) -> Rng:
        """The generator, ready to draw from: while `apply` changes this state and still shares
        it, first replaced by a copy of its own (cow.py)."""
        rng = self.rng
        shared = WRITING.shared
        if shared and id(rng) in shared and WRITING.state is self:
            shared.discard(id(rng))
            rng = copy_rng(rng)
            self.rng = rng
        return rng

    def own_party(self) -> list[Hero]:
        """The party, every character ready to change."""
        return all_owned(self, self.party)

    @property
    def foes(self) -> list[Foe]:
        return all_owned(self, self.battle.foes) if self.battle is not None else []

    @property
    def npcs(self) -> list[Npc]:
        return all_owned(self, self.battle.npcs) if self.battle is not None else []

    def living_foes(self) -> list[Foe]:
        if self.battle is None:
            return []
        foes = self.battle.foes
        return [owned(self, foes, i) for i, f in enumerate(foes) if f.hp > 0]

    def living_heroes(self) -> list[Hero]:
        party = self.party
        return [owned(self, party, i) for i, h in enumerate(party) if h.hp > 0]

    def living_allies(self) -> list[Hero | Npc]:
        """The party's side: living characters, then living NPCs."""
        out: list[Hero | Npc] = [*self.living_heroes()]
        if self.battle is not None:
            npcs = self.battle.npcs
            out.extend(owned(self, npcs, i) for i, n in enumerate(npcs) if n.hp > 0)
        return out

    def peek_foes(self) -> list[Foe]:
        """The living foes, to read only (see `peek`)."""
        battle = self.battle
        return [f for f in battle.foes if f.hp > 0] if battle is not None else []

    def peek_allies(self) -> list[Hero | Npc]:
        """The living allies, to read only (see `peek`)."""
        out: list[Hero | Npc] = [h for h in self.party if h.hp > 0]
        battle = self.battle
        if battle is not None and battle.npcs:
            out.extend([n for n in battle.npcs if n.hp > 0])
        return out

    def any_foe_standing(self) -> bool:
        battle = self.battle
        if battle is not None:
            for f in battle.foes:
                if f.hp > 0:
                    return True
        return False

    def any_hero_standing(self) -> bool:
        for h in self.party:
            if h.hp > 0:
                return True
        return False

    def seat_of(self, uid: str) -> str:
        """The player who decides for a unit: a character's controller; NPCs (and anything
        else) are played by the administrator, the first seat."""
        return self.party[PLACE[uid]].seat if uid[0] == "c" else self.players[0]

    def heroes_of(self, seat: str) -> list[Hero]:
        party = self.party
        return [owned(self, party, i) for i, h in enumerate(party) if h.seat == seat]

    def draw_card(self) -> str | None:
        """The top card of the draw pile (the discard pile is shuffled in when it runs out);
        None when both are empty."""
        if not self.deck and self.discard:
            self.deck = self.own_rng().shuffled(self.discard)
            self.discard = []
        return self.deck.pop() if self.deck else None

    def count_cards(self) -> int:
        n = len(self.deck) + len(self.discard)
        n += sum(len(h.hand) + len(h.field) for h in self.party)
        if self.battle is not None:
            n += sum(len(f.field) for f in self.battle.foes)
            n += sum(len(x.hand) + len(x.field) for x in self.battle.npcs)
        return n


def assign(model: BaseModel, **values: Any) -> None:
    """`model.<name> = value` for each of `values`, as pydantic assigns a field of this game's
    models (they validate no assignment and are not frozen: a test checks): the value into
    the model's `__dict__`, the name into its fields set. Without pydantic's `__setattr__`, for
    the fields a turn sets every time."""
    model.__dict__.update(values)
    model.__pydantic_fields_set__.update(values)
