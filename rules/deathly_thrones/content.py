"""Characters and quests of Deathly Thrones: pydantic models and loading.

A quest is a YAML file in `content/deathly-thrones/quests/`; its id is the file
stem. Every one of its 40 steps is an event (fight, hurt or rest) and may carry a
story line (the rulebook's Ξ) that is read when the player reaches or walks past
that step. Step 40 is the boss, whose defeat wins the throne.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.core.content import ContentError, Pinned, content_files, content_roots, load_model

GAME_ID = "deathly-thrones"
QUEST_LENGTH = 40
COUNTER_MAX = 9
ENEMY_ARMOR_MAX = 6
"""Enemy armor is kept at 6 or less: with the player's armor at most 9, some side can
always be damaged, so no fight can stall forever."""

EventType = Literal["fight", "hurt", "rest"]


class Effect(BaseModel):
    """A change of the player's counters (a reward, a wound, a rest); clamped to 0..9."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    health: int = Field(0, ge=-COUNTER_MAX, le=COUNTER_MAX)
    armor: int = Field(0, ge=-COUNTER_MAX, le=COUNTER_MAX)

    def describe(self) -> str:
        parts = [f"{v:+d} {name}" for name, v in (("health", self.health), ("armor", self.armor)) if v]
        return ", ".join(parts) or "nothing"

    @property
    def empty(self) -> bool:
        return not self.health and not self.armor


class QuestStep(BaseModel):
    """One of the 40 events of a quest."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    step: int = Field(ge=1, le=QUEST_LENGTH)
    type: EventType
    name: str = Field(min_length=1, max_length=80)
    """The enemy, the danger or the resting place."""
    text: str = Field("", max_length=400)
    """What the player finds there, read when landing on the step."""
    health: int | None = Field(None, ge=1, le=COUNTER_MAX)
    """A fight only: the enemy's health (also its strength)."""
    armor: int | None = Field(None, ge=0, le=ENEMY_ARMOR_MAX)
    """A fight only: the enemy's armor."""
    outcome: str = Field(min_length=1, max_length=300)
    """What happens after the event (after the enemy falls, for a fight)."""
    result: Effect = Effect()
    """The reward or penalty applied after the event."""
    story: str | None = Field(None, max_length=600)
    """A Ξ story line, read when the player reaches or passes this step."""

    @model_validator(mode="after")
    def _check_type(self) -> QuestStep:
        if self.type == "fight":
            if self.health is None or self.armor is None:
                raise ValueError(f"step {self.step}: a fight needs the enemy's `health` and `armor`")
        else:
            if self.health is not None or self.armor is not None:
                raise ValueError(f"step {self.step}: only a fight has `health` and `armor`")
            if self.type == "hurt" and (self.result.health > 0 or self.result.armor > 0 or self.result.empty):
                raise ValueError(f"step {self.step}: a hurt's `result` must take something away")
            if self.type == "rest" and (self.result.health < 0 or self.result.armor < 0 or self.result.empty):
                raise ValueError(f"step {self.step}: a rest's `result` must give something back")
        return self


class Quest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = ""
    """The file stem (set when loading)."""
    name: str = Field(min_length=1, max_length=80)
    intro: str = Field(min_length=1, max_length=1000)
    """The opening story line, read before the first step."""
    throne: str = Field(min_length=1, max_length=600)
    """The ending read when the boss on step 40 falls."""
    steps: list[QuestStep]

    @model_validator(mode="after")
    def _check_steps(self) -> Quest:
        numbers = [s.step for s in self.steps]
        if numbers != list(range(1, QUEST_LENGTH + 1)):
            raise ValueError(
                f"`steps` must list steps 1 to {QUEST_LENGTH} in order, one each (got {len(numbers)} entries)"
            )
        if self.steps[-1].type != "fight":
            raise ValueError(f"step {QUEST_LENGTH} must be the boss fight")
        return self

    def at(self, step: int) -> QuestStep:
        return self.steps[step - 1]

    @property
    def boss(self) -> QuestStep:
        return self.steps[-1]


class Character(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    name: str = Field(min_length=1, max_length=40)
    health: int = Field(ge=1, le=COUNTER_MAX)
    armor: int = Field(ge=0, le=COUNTER_MAX)
    blurb: str = Field("", max_length=200)


class CharacterFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    characters: list[Character] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> CharacterFile:
        ids = [c.id for c in self.characters]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"character ids must be unique: {', '.join(dupes)}")
        return self


def characters() -> dict[str, Character]:
    """The characters, in file order (the first is the default), from the content in use now
    (a server's pack applied: `CONTENT_DIR` set at any time before the call is honoured)."""
    return _characters(_roots())


def quests() -> dict[str, Quest]:
    """Every quest by id (the file stem), sorted by id, from the content in use now."""
    return _quests(_roots())


def _roots() -> tuple[str, ...]:
    return tuple(str(r) for r in content_roots())


@cache
def _characters(roots: tuple[str, ...]) -> dict[str, Character]:
    files = content_files(GAME_ID, "characters.yaml")
    if not files:
        raise ContentError(f"content/{GAME_ID}/characters.yaml is missing")
    return {c.id: c for c in load_model(files[0], CharacterFile).characters}


@cache
def _quests(roots: tuple[str, ...]) -> dict[str, Quest]:
    found: dict[str, Quest] = {}
    for path in content_files(GAME_ID, "quests/*.yaml"):
        quest = load_model(path, Quest)
        found[path.stem] = quest.model_copy(update={"id": path.stem})
    if not found:
        raise ContentError(f"content/{GAME_ID}/quests/ holds no quest")
    return found



class RunContent(BaseModel):
    """What one run plays with: its character and its quest, pinned when the run starts."""

    model_config = ConfigDict(frozen=True)

    character: Character
    quest: Quest


RUNS: Pinned[RunContent] = Pinned(GAME_ID, RunContent, lambda: RunContent(
    character=next(iter(characters().values())), quest=next(iter(quests().values()))))
"""Every (character, quest) version this process knows; a run names its own."""


def pin_run(character_id: str, quest_id: str) -> str:
    """The content version of a run with this character and quest (as the files have them now)."""
    return RUNS.add(RunContent(character=characters()[character_id], quest=quests()[quest_id]))
