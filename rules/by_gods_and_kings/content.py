"""The content of By Gods and Kings: models of content/by-gods-and-kings/*.yaml and of the
catalogue a game plays with (loading, cross-checks and pinning: catalogue.py).

Files (a server's pack may replace any of them, or add scenarios):

- `items.yaml`: weapons, body and head armor, shields and off-hand items;
- `shards.yaml`: the Shards, each unique in a game;
- `characters.yaml`: the characters a party is made of, in the order a party takes them;
- `enemies.yaml`, `npcs.yaml`;
- `elements.yaml`: the elements and their synchronizations;
- `tasks.yaml`: the tasks a saved character may take between scenarios;
- `scenarios/<id>.yaml`: one scenario per file, its id being the file stem.

Errors name the file, the entry and the field (see rules.core.content).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.by_gods_and_kings.effects_model import (
    ALLIES_ONLY,
    Effect,
    StatusSpec,
    Target,
    check_target,
)

GAME_ID = "by-gods-and-kings"
ID = r"^[a-z0-9][a-z0-9-]{0,19}$"
MAX_EQUIPPED = 3

WeaponType = Literal["sword", "spear", "axe", "greatsword", "runeblade", "scythe", "club",
                     "staff", "bow", "dagger"]
Slot = Literal["weapon", "body", "head", "shield", "offhand"]
ShardKind = Literal["shielding", "restorative", "manipulation", "damaging", "elemental"]
Trigger = Literal["discard", "sacrifice", "flush", "straight", "three"]
Rank = Literal["minion", "mini_boss", "boss", "mega_boss"]
SaveKind = Literal["agility", "defensive", "magical"]

Id = Annotated[str, Field(pattern=ID)]
Name = Annotated[str, Field(min_length=1, max_length=40)]
Text = Annotated[str, Field(max_length=600)]

class Stats(BaseModel):
    """Stat bonuses (or a character's base stats). YAML writes DEF as `def`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hp: int = Field(0, ge=-50, le=5000)
    defense: int = Field(0, ge=-20, le=50)
    physical: int = Field(0, ge=-20, le=50)
    magic: int = Field(0, ge=-20, le=50)
    spd: int = Field(0, ge=-20, le=50)

    @model_validator(mode="before")
    @classmethod
    def _def(cls, data: Any) -> Any:
        if isinstance(data, dict) and "def" in data:
            data = dict(data)
            if "defense" in data:
                raise ValueError("write DEF once, as `def`")
            data["defense"] = data.pop("def")
        return data

    def set_fields(self) -> list[str]:
        return [f for f in ("hp", "defense", "physical", "magic", "spd") if getattr(self, f)]

    def __add__(self, other: Stats) -> Stats:
        return Stats(hp=self.hp + other.hp, defense=self.defense + other.defense,
                     physical=self.physical + other.physical, magic=self.magic + other.magic,
                     spd=self.spd + other.spd)

    def halved(self) -> Stats:
        """Every stat halved and rounded down (a dual-wielded off-hand weapon)."""
        return Stats(hp=self.hp // 2, defense=self.defense // 2, physical=self.physical // 2,
                     magic=self.magic // 2, spd=self.spd // 2)

    def describe(self) -> str:
        names = {"hp": "HP", "defense": "DEF", "physical": "Physical", "magic": "Magic", "spd": "SPD"}
        return ", ".join(f"{getattr(self, f):+d} {names[f]}" for f in self.set_fields()) or "no bonus"


ALLOWED_STATS: dict[Slot, set[str]] = {
    "weapon": {"physical", "magic"},
    "body": {"hp", "defense", "spd", "magic"},
    "head": {"hp", "defense", "spd", "magic"},
    "shield": {"hp", "defense"},
    "offhand": {"hp", "defense", "physical", "magic"},
}
"""What each kind of equipment may raise (weapon speed comes from its type; off-hand equipment
never changes SPD)."""


class ItemDef(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Id
    name: Name
    slot: Slot
    type: WeaponType | None = None
    """Weapons only."""
    tier: int = Field(1, ge=1, le=5)
    """How fine the piece is: 1 for a starting character's, higher for better loot."""
    stats: Stats = Stats()
    text: Text = ""

    @model_validator(mode="after")
    def _check(self) -> ItemDef:
        if (self.slot == "weapon") != (self.type is not None):
            raise ValueError("a weapon needs a type, and only weapons have one")
        extra = set(self.stats.set_fields()) - ALLOWED_STATS[self.slot]
        if extra:
            raise ValueError(f"a {self.slot} item cannot raise {', '.join(sorted(extra))}")
        return self


class ItemsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    items: list[ItemDef]


class ShardAbility(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    trigger: Trigger
    name: Name
    target: Target
    effect: Effect
    text: Text = ""

    @model_validator(mode="after")
    def _check(self) -> ShardAbility:
        check_target(self.target, self.effect, enemy_side=False)
        if self.target in ("foe", "foes"):
            useless = [s.kind for s in self.effect.statuses if s.kind in ALLIES_ONLY]
            if useless:
                raise ValueError(f"{', '.join(useless)} never touch enemies")
        return self


class Bonus(BaseModel):
    """An equip bonus that needs something more: another character of the party with one of
    `ally_shard` equipped, and/or a main-hand weapon of one of the `weapon` types."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    stats: Stats
    ally_shard: list[Id] = Field(default_factory=list)
    weapon: list[WeaponType] = Field(default_factory=list)
    text: Text = ""

    @model_validator(mode="after")
    def _check(self) -> Bonus:
        if not self.ally_shard and not self.weapon:
            raise ValueError("a conditional bonus needs ally_shard or weapon (else put it in equip)")
        if not self.stats.set_fields():
            raise ValueError("the bonus raises nothing")
        return self


class Growth(BaseModel):
    """What each level of a shard above the first adds (see levels.py)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    power: int = Field(0, ge=0, le=20)
    """Added to the damage, heal, shield and revive of each of its abilities that has one."""
    status: int = Field(0, ge=0, le=10)
    """Added to the amount of the bleed, poison and stat-lowering statuses its abilities cause."""
    equip: Stats = Stats()
    """Added to the shard's equip bonus."""

    @model_validator(mode="after")
    def _check(self) -> Growth:
        if not self.power and not self.status and not self.equip.set_fields():
            raise ValueError("the growth raises nothing: set power, status or equip")
        return self


class ShardDef(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Id
    name: Name
    kind: ShardKind
    element: Id | None = None
    """Elemental shards: the element of their abilities (see elements.yaml)."""
    equip: Stats = Stats()
    """Always on while equipped."""
    bonuses: list[Bonus] = Field(default_factory=list)
    offhand: bool = False
    """Allows an off-hand weapon (dual-wielding) or an off-hand item."""
    abilities: list[ShardAbility] = Field(default_factory=list)
    growth: Growth | None = None
    """What each level above the first adds (None: levels change nothing)."""
    text: Text = ""

    @model_validator(mode="after")
    def _check(self) -> ShardDef:
        if (self.kind == "elemental") != (self.element is not None):
            raise ValueError("elemental shards name an element, and only they do")
        if not self.abilities and not self.equip.set_fields() and not self.bonuses and not self.offhand:
            raise ValueError("the shard does nothing")
        triggers = [a.trigger for a in self.abilities]
        if len(set(triggers)) != len(triggers):
            raise ValueError("a shard has at most one ability per trigger")
        g = self.growth
        if g is not None and g.power and not any(
                a.effect.scaled or a.effect.revive for a in self.abilities):
            raise ValueError("growth.power: no ability of the shard deals, heals, shields or revives")
        if g is not None and g.status and not any(
                s.amount for a in self.abilities for s in a.effect.statuses):
            raise ValueError("growth.status: no ability of the shard causes a status with an amount")
        return self


MAX_LEVELS = 9


class ShardsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    levels: list[int] = Field(default_factory=list, max_length=MAX_LEVELS)
    """The experience a shard needs for level 2, 3, ... (increasing; empty: shards stay at 1)."""
    shards: list[ShardDef]

    @field_validator("levels")
    @classmethod
    def _levels(cls, levels: list[int]) -> list[int]:
        for i, need in enumerate(levels):
            if need < 1:
                raise ValueError(f"entry {i}: the experience for level {i + 2} must be at least 1")
            if i and need <= levels[i - 1]:
                raise ValueError(f"entry {i}: the experience for level {i + 2} ({need}) must be "
                                 f"more than for level {i + 1} ({levels[i - 1]})")
        return levels


class CharacterDef(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Id
    name: Name
    base: Stats
    main: Id | None = None
    offhand: Id | None = None
    """The off hand (YAML reads a bare `off` as false)."""
    body: Id | None = None
    head: Id | None = None
    bag: list[Id] = Field(default_factory=list)
    """Equipment carried but not worn."""
    shards: list[Id] = Field(default_factory=list)
    equipped: list[Id] = Field(default_factory=list)
    text: Text = ""

    @model_validator(mode="after")
    def _check(self) -> CharacterDef:
        if self.base.hp < 1:
            raise ValueError("base hp must be at least 1")
        if len(self.equipped) > MAX_EQUIPPED:
            raise ValueError(f"at most {MAX_EQUIPPED} shards are equipped")
        if not set(self.equipped) <= set(self.shards):
            raise ValueError("equipped shards must be among the character's shards")
        if len(set(self.shards)) != len(self.shards):
            raise ValueError("a shard is listed twice")
        return self


class CharactersFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    characters: list[CharacterDef]


class FoeAbility(BaseModel):
    """An enemy's or NPC's ability: it fires when its Field's total reaches the threshold."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Name
    threshold: int = Field(ge=2, le=60)
    target: Target
    effect: Effect
    text: Text = ""

    @model_validator(mode="after")
    def _check(self) -> FoeAbility:
        check_target(self.target, self.effect, enemy_side=True)
        return self


RANK_ABILITIES: dict[Rank, tuple[int, int]] = {
    "minion": (1, 1), "mini_boss": (1, 2), "boss": (1, 3), "mega_boss": (3, 6)}
RANK_NAMES: dict[Rank, str] = {"minion": "minion", "mini_boss": "mini boss", "boss": "boss",
                               "mega_boss": "mega boss"}


class FighterDef(BaseModel):
    """What enemies and NPCs share: stats and threshold abilities."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Id
    name: Name
    hp: int = Field(ge=1, le=2000)
    defense: int = Field(0, ge=0, le=50)
    """Written `def` in YAML."""
    physical: int = Field(0, ge=0, le=50)
    magic: int = Field(0, ge=0, le=50)
    spd: int = Field(0, ge=0, le=50)
    abilities: list[FoeAbility]
    text: Text = ""

    @model_validator(mode="before")
    @classmethod
    def _def(cls, data: Any) -> Any:
        if isinstance(data, dict) and "def" in data:
            data = dict(data)
            if "defense" in data:
                raise ValueError("write DEF once, as `def`")
            data["defense"] = data.pop("def")
        return data

    @model_validator(mode="after")
    def _thresholds(self) -> FighterDef:
        limits = [a.threshold for a in self.abilities]
        if len(set(limits)) != len(limits):
            raise ValueError("two abilities share a threshold")
        return self

    @property
    def stats(self) -> Stats:
        return Stats(hp=self.hp, defense=self.defense, physical=self.physical, magic=self.magic,
                     spd=self.spd)


class EnemyDef(FighterDef):
    rank: Rank

    @model_validator(mode="after")
    def _rank(self) -> EnemyDef:
        lo, hi = RANK_ABILITIES[self.rank]
        n = len(self.abilities)
        if not lo <= n <= hi:
            raise ValueError(f"a {RANK_NAMES[self.rank]} has {lo}-{hi} abilities, not {n}")
        return self


class NpcDef(FighterDef):
    @model_validator(mode="after")
    def _count(self) -> NpcDef:
        if not 1 <= len(self.abilities) <= 3:
            raise ValueError("an NPC has 1-3 abilities")
        return self


class EnemiesFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    enemies: list[EnemyDef]


class NpcsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    npcs: list[NpcDef] = Field(default_factory=list)


class SyncDef(BaseModel):
    """What two elemental abilities fired together make."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    elements: list[Id] = Field(min_length=2, max_length=2)
    name: Name
    multiplier: int = Field(ge=1, le=5)
    """The two abilities' damage together is multiplied by this."""
    status: StatusSpec | None = None
    text: Text = ""

    @property
    def pair(self) -> tuple[str, str]:
        a, b = sorted(self.elements)
        return a, b


class ElementsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    elements: list[Id] = Field(min_length=1)
    synchronizations: list[SyncDef]

class EnemyEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    enemy: Id
    min_party: int = Field(1, ge=1, le=8)
    """The enemy joins only when the party has at least this many characters."""


class BattleStep(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["battle"]
    name: Name
    text: Text = ""
    enemies: list[EnemyEntry] = Field(min_length=1, max_length=8)
    npcs: list[Id] = Field(default_factory=list, max_length=2)
    loot: list[Id] = Field(default_factory=list)
    """Items or shards left when the battle is won."""


class SaveStep(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["save"]
    name: Name
    text: Text = ""
    save: SaveKind
    target: int = Field(ge=1, le=60)
    who: Literal["all", "one"] = "all"
    """all: every living character saves; one: one of them, drawn at random."""
    fail: Effect
    """Applied to a character that fails: damage (DEF does not reduce it) and statuses."""
    pass_text: Text = ""
    fail_text: Text = ""
    fail_next: Id | None = None
    """The path a failed save opens (a trap door, a slide): when the one character called
    fails, the rest of the area is skipped and the party goes on into this area instead."""

    @model_validator(mode="after")
    def _check(self) -> SaveStep:
        f = self.fail
        if f.heal or f.shield or f.revive or f.cleanse or f.draw or f.taunt or f.stat or f.add_card:
            raise ValueError("a save's penalty is damage and statuses only")
        if self.fail_next is not None and self.who != "one":
            raise ValueError("fail_next: only a save made by one character (who: one) opens a path")
        return self


class RestStep(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["rest"]
    name: Name
    text: Text = ""
    heal: int = Field(ge=1, le=500)


ScenarioStep = Annotated[BattleStep | SaveStep | RestStep, Field(discriminator="kind")]


LEGACY_AREA = "main"
"""The one area a scenario written as a plain list of `steps` becomes (content from before
maps, and catalogues pinned by games started then)."""
MAX_AREAS = 40


class AreaDef(BaseModel):
    """A place of a scenario's map: its steps, played in order, then the areas the party may go
    on to (`next`); an area with no `next` ends the scenario."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Name
    text: Text = ""
    """Read out when the party enters it."""
    steps: list[ScenarioStep] = Field(min_length=1, max_length=20)
    next: list[Id] = Field(default_factory=list, max_length=6)

    @property
    def ending(self) -> bool:
        return not self.next

    def fail_paths(self) -> list[tuple[int, str]]:
        """(step, area) for each save of the area whose failure opens a path."""
        return [(i, x.fail_next) for i, x in enumerate(self.steps)
                if isinstance(x, SaveStep) and x.fail_next is not None]

    def ways(self) -> list[str]:
        """Every area the party may go on to from here: the ways on, then the failed saves' paths."""
        return list(dict.fromkeys([*self.next, *(aid for _, aid in self.fail_paths())]))

    def battles(self, upto: int | None = None) -> int:
        """The battles among the area's steps (the first `upto` of them, when given)."""
        return sum(1 for x in self.steps[:upto] if isinstance(x, BattleStep))


class ScenarioDef(BaseModel):
    """A scenario: one objective, a map of areas entered at `start`. The map (its ways on and
    the paths failed saves open) has no cycle, every area is reached from the start, and every
    ending area's last step is a battle (the boss).
    A legacy file with a plain `steps` list is read as a map of one area."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Name
    objective: Text = ""
    intro: Text = ""
    outro: Text = ""
    start: Id
    areas: dict[Id, AreaDef] = Field(min_length=1, max_length=MAX_AREAS)

    @model_validator(mode="before")
    @classmethod
    def _legacy_steps(cls, data: Any) -> Any:
        if isinstance(data, dict) and "steps" in data:
            if "areas" in data or "start" in data:
                raise ValueError("write either a `steps` list or `areas` and `start`, not both")
            data = dict(data)
            steps = data.pop("steps")
            data["start"] = LEGACY_AREA
            data["areas"] = {LEGACY_AREA: {"name": data.get("name", "The scenario"), "steps": steps}}
        return data

    @model_validator(mode="after")
    def _check(self) -> ScenarioDef:
        problem = map_problem(self)
        if problem is not None:
            where, what = problem
            raise ValueError(f"at {where}: {what}")
        return self

    @property
    def steps(self) -> list[ScenarioStep]:
        """Every step of every area, in map order (for checks over the whole scenario)."""
        return [step for area in self.areas.values() for step in area.steps]

    def shortest(self, area: str | None = None) -> int:
        """The fewest battles from the start of `area` (default: the start) to an end."""
        return self._battles_to_end(min, area)

    def longest(self, area: str | None = None) -> int:
        """The most battles from the start of `area` (default: the start) to an end."""
        return self._battles_to_end(max, area)

    def _battles_to_end(self, pick: Any, area: str | None) -> int:
        """The battles from the start of `area` to an end, the way `pick` (min or max) chooses:
        every step of the area then a way on, or the steps before a failed save then its path."""
        memo: dict[str, int] = {}

        def count(aid: str) -> int:
            if aid not in memo:
                a = self.areas[aid]
                whole = a.battles() + pick((count(n) for n in a.next), default=0)
                memo[aid] = pick([whole, *(a.battles(i) + count(n) for i, n in a.fail_paths())])
            return memo[aid]
        return count(area or self.start)


def map_problem(sc: ScenarioDef) -> tuple[str, str] | None:
    """The first thing wrong with a scenario's map, as (where, what), or None."""
    if sc.start not in sc.areas:
        return "start", f"unknown area {sc.start!r}"
    for aid, area in sc.areas.items():
        for j, nxt in enumerate(area.next):
            if nxt not in sc.areas:
                return f"areas.{aid}.next.{j}", f"unknown area {nxt!r}"
            if nxt in area.next[:j]:
                return f"areas.{aid}.next.{j}", f"{nxt!r} is listed twice"
        for j, nxt in area.fail_paths():
            if nxt not in sc.areas:
                return f"areas.{aid}.steps.{j}.fail_next", f"unknown area {nxt!r}"
        if area.ending and not isinstance(area.steps[-1], BattleStep):
            return (f"areas.{aid}.steps", "an area with no `next` ends the scenario, so it ends "
                    "with a battle (the boss)")
    # cycles: a depth-first walk from every area, colouring the areas on the current path
    state: dict[str, int] = {}

    def cycle(aid: str, path: list[str]) -> list[str] | None:
        state[aid] = 1
        for nxt in sc.areas[aid].ways():
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt] if nxt in path else [aid, nxt]
            if nxt not in state:
                found = cycle(nxt, [*path, nxt])
                if found:
                    return found
        state[aid] = 2
        return None
    for aid in sc.areas:
        if aid not in state:
            found = cycle(aid, [aid])
            if found:
                return f"areas.{found[-2]}.next", ("the map goes round in a circle ("
                                                  + " -> ".join(found) + "): a game must end")
    reached = {sc.start}
    todo = [sc.start]
    while todo:
        for nxt in sc.areas[todo.pop()].ways():
            if nxt not in reached:
                reached.add(nxt)
                todo.append(nxt)
    for aid in sc.areas:
        if aid not in reached:
            return f"areas.{aid}", f"no way leads here from the start ({sc.start!r})"
    return None


MAX_TASK_XP = 20


class TaskReward(BaseModel):
    """What a task gives the character who takes it: experience for each of its equipped
    shards, and/or an item put in its bag."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    experience: int = Field(0, ge=0, le=MAX_TASK_XP)
    item: Id | None = None

    @model_validator(mode="after")
    def _check(self) -> TaskReward:
        if not self.experience and self.item is None:
            raise ValueError("the reward gives nothing: set experience or item")
        return self


class TaskDef(BaseModel):
    """A task between scenarios: a short errand a saved character may take in the camp before
    setting out (one task a camp, each task once), for its reward."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Id
    name: Name
    text: Text = ""
    after: Id | None = None
    """A scenario the character must have cleared before it is offered the task."""
    reward: TaskReward


class TasksFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tasks: list[TaskDef] = Field(default_factory=list)


class Catalogue(BaseModel):
    """Everything a game reads from the content; a game pins the version it started with."""

    model_config = ConfigDict(frozen=True)

    items: dict[str, ItemDef]
    shards: dict[str, ShardDef]
    characters: list[CharacterDef]
    enemies: dict[str, EnemyDef]
    npcs: dict[str, NpcDef]
    elements: list[str]
    syncs: list[SyncDef]
    shard_levels: list[int] = Field(default_factory=list)
    """The experience a shard needs for level 2, 3, ... (shards.yaml's `levels`)."""
    scenarios: dict[str, ScenarioDef]
    tasks: dict[str, TaskDef] = Field(default_factory=dict)
    """The tasks between scenarios (tasks.yaml; none in catalogues pinned before them)."""

    def sync(self, a: str, b: str) -> SyncDef:
        pair = tuple(sorted((a, b)))
        return next(x for x in self.syncs if x.pair == pair)
