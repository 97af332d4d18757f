"""Loading the content of By Gods and Kings: every file read and validated, cross-checked
(references, loadouts, unique shards, synchronizations), cached per content roots, and pinned
(`CATALOGUES`): a running game names the version it started with.

Errors name the file, the entry and the field (see rules.core.content).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from rules.by_gods_and_kings.content import (
    GAME_ID,
    LEGACY_AREA,
    BattleStep,
    Catalogue,
    CharactersFile,
    ElementsFile,
    EnemiesFile,
    ItemsFile,
    NpcsFile,
    ScenarioDef,
    ShardsFile,
    TasksFile,
)
from rules.by_gods_and_kings.gear import Loadout, loadout_problem
from rules.core.content import ContentError, Pinned, content_files, content_roots, load_model

SCENARIO_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,19}")

M = TypeVar("M", bound=BaseModel)


def _one(name: str, model: type[M]) -> tuple[Path, M]:
    found = content_files(GAME_ID, name)
    if not found:
        raise ContentError(f"content/{GAME_ID}/{name} is missing")
    return found[-1], load_model(found[-1], model)


def _unique(path: Path, key: str, ids: list[str]) -> None:
    seen: dict[str, int] = {}
    for i, v in enumerate(ids):
        if v in seen:
            raise ContentError(f"{path}: at {key}.{i}.id: {v!r} is already used by {key}.{seen[v]}")
        seen[v] = i


def _with_additions(name: str, model: type[M], key: str) -> tuple[Path, M]:
    """`<name>.yaml` (the last root's), with the entries of every `<name>/*.yaml` added (a
    server's pack adds shards, gear, enemies ... this way without copying the whole file).
    An id used twice is an error naming both places."""
    path, main = _one(f"{name}.yaml", model)
    entries = list(getattr(main, key))
    where: dict[str, str] = {}
    _unique(path, key, [x.id for x in entries])
    for i, x in enumerate(entries):
        where[x.id] = f"{path}: {key}.{i}"
    for extra in content_files(GAME_ID, f"{name}/*.yaml"):
        more = load_model(extra, model)
        if any(v for f, v in more if f != key):
            raise ContentError(f"{extra}: an added file holds only `{key}:` (the rest stays in {name}.yaml)")
        for i, x in enumerate(getattr(more, key)):
            if x.id in where:
                raise ContentError(f"{extra}: at {key}.{i}.id: {x.id!r} is already {where[x.id]}")
            where[x.id] = f"{extra}: {key}.{i}"
            entries.append(x)
    return path, main.model_copy(update={key: entries})


def load_catalogue() -> Catalogue:
    """Read and cross-check every file; raises ContentError naming file, entry and field."""
    ipath, items = _with_additions("items", ItemsFile, "items")
    spath, shards = _with_additions("shards", ShardsFile, "shards")
    cpath, chars = _with_additions("characters", CharactersFile, "characters")
    epath, enemies = _with_additions("enemies", EnemiesFile, "enemies")
    npath, npcs = _with_additions("npcs", NpcsFile, "npcs")
    lpath, elements = _one("elements.yaml", ElementsFile)
    tpath, tasks = _with_additions("tasks", TasksFile, "tasks")
    scenarios: dict[str, tuple[Path, ScenarioDef]] = {}
    for path in content_files(GAME_ID, "scenarios/*.yaml"):
        if not SCENARIO_ID.fullmatch(path.stem):
            raise ContentError(f"{path}: a scenario's file name must be 1-20 characters of a-z, "
                               "0-9 and - (it becomes the scenario's id)")
        scenarios[path.stem] = (path, load_model(path, ScenarioDef))
    if not scenarios:
        raise ContentError(f"content/{GAME_ID}/scenarios/ holds no scenario")
    cat = Catalogue(
        items={x.id: x for x in items.items}, shards={x.id: x for x in shards.shards},
        characters=list(chars.characters), enemies={x.id: x for x in enemies.enemies},
        npcs={x.id: x for x in npcs.npcs}, elements=list(elements.elements),
        syncs=list(elements.synchronizations), shard_levels=list(shards.levels),
        scenarios={k: v for k, (_, v) in sorted(scenarios.items())},
        tasks={x.id: x for x in tasks.tasks})
    _check_elements(lpath, spath, cat)
    _check_characters(cpath, cat)
    for sid, (path, scenario) in sorted(scenarios.items()):
        _check_scenario(path, scenario, cat, sid)
    _check_unique_shards(cpath, scenarios, cat)
    _check_tasks(tpath, cat)
    return cat


def _check_tasks(tpath: Path, cat: Catalogue) -> None:
    for i, task in enumerate(cat.tasks.values()):
        if task.after is not None and task.after not in cat.scenarios:
            raise ContentError(f"{tpath}: at tasks.{i}.after: unknown scenario {task.after!r}")
        item = task.reward.item
        if item is not None and item not in cat.items:
            raise ContentError(f"{tpath}: at tasks.{i}.reward.item: unknown item {item!r}"
                               + (" (a shard exists once: a task gives items only)" if item in cat.shards else ""))


def _check_elements(lpath: Path, spath: Path, cat: Catalogue) -> None:
    known = cat.elements
    if len(set(known)) != len(known):
        raise ContentError(f"{lpath}: at elements: an element is listed twice")
    pairs: dict[tuple[str, str], int] = {}
    for i, sync in enumerate(cat.syncs):
        for e in sync.elements:
            if e not in known:
                raise ContentError(f"{lpath}: at synchronizations.{i}.elements: unknown element {e!r}")
        if sync.pair in pairs:
            raise ContentError(f"{lpath}: at synchronizations.{i}.elements: the pair {sync.pair} "
                               f"is already synchronizations.{pairs[sync.pair]}")
        pairs[sync.pair] = i
    for a in known:
        for b in known:
            pair = (a, b) if a <= b else (b, a)
            if pair not in pairs:
                raise ContentError(f"{lpath}: at synchronizations: no synchronization for {a} + {b}")
    for i, shard in enumerate(cat.shards.values()):
        if shard.element is not None and shard.element not in known:
            raise ContentError(f"{spath}: at shards.{i}.element: unknown element {shard.element!r}")
        for j, bonus in enumerate(shard.bonuses):
            for k, other in enumerate(bonus.ally_shard):
                if other not in cat.shards:
                    raise ContentError(f"{spath}: at shards.{i}.bonuses.{j}.ally_shard.{k}: "
                                       f"unknown shard {other!r}")


def _check_characters(cpath: Path, cat: Catalogue) -> None:
    names: set[str] = set()
    for i, c in enumerate(cat.characters):
        where = f"{cpath}: at characters.{i}"
        if c.name in names:
            raise ContentError(f"{where}.name: {c.name!r} is already a character's name")
        names.add(c.name)
        for field in ("main", "offhand", "body", "head"):
            item = getattr(c, field)
            if item is not None and item not in cat.items:
                raise ContentError(f"{where}.{field}: unknown item {item!r}")
        for j, item in enumerate(c.bag):
            if item not in cat.items:
                raise ContentError(f"{where}.bag.{j}: unknown item {item!r}")
        for j, shard in enumerate(c.shards):
            if shard not in cat.shards:
                raise ContentError(f"{where}.shards.{j}: unknown shard {shard!r}")
        loadout = Loadout(main=c.main, off=c.offhand, body=c.body, head=c.head)
        problem = loadout_problem(cat, loadout, c.equipped)
        if problem:
            raise ContentError(f"{where}: {problem}")
    if not 1 <= len(cat.characters):
        raise ContentError(f"{cpath}: at characters: at least one character is needed")


def _battles(scenario: ScenarioDef) -> list[tuple[str, BattleStep]]:
    """(where, battle) for every battle of the scenario's areas, where naming it in the file:
    `areas.<id>.steps.<i>` (`steps.<i>` for a legacy file of one list)."""
    out = []
    only = scenario.areas.get(LEGACY_AREA)
    legacy = len(scenario.areas) == 1 and only is not None and only.name == scenario.name
    for aid, area in scenario.areas.items():
        for i, step in enumerate(area.steps):
            if isinstance(step, BattleStep):
                out.append((f"steps.{i}" if legacy else f"areas.{aid}.steps.{i}", step))
    return out


def _check_scenario(path: Path, scenario: ScenarioDef, cat: Catalogue, sid: str) -> None:
    for i, step in _battles(scenario):
        for j, entry in enumerate(step.enemies):
            if entry.enemy not in cat.enemies:
                raise ContentError(f"{path}: at {i}.enemies.{j}.enemy: unknown enemy {entry.enemy!r}")
        if not any(e.min_party == 1 for e in step.enemies):
            raise ContentError(f"{path}: at {i}.enemies: at least one enemy has min_party 1")
        for j, npc in enumerate(step.npcs):
            if npc not in cat.npcs:
                raise ContentError(f"{path}: at {i}.npcs.{j}: unknown NPC {npc!r}")
        for j, loot in enumerate(step.loot):
            if loot not in cat.items and loot not in cat.shards:
                raise ContentError(f"{path}: at {i}.loot.{j}: {loot!r} is neither an item nor a shard")


def _check_unique_shards(cpath: Path, scenarios: dict[str, tuple[Path, ScenarioDef]],
                         cat: Catalogue) -> None:
    """A shard exists once in a game: no two characters start with it, and a scenario that
    drops it as loot drops it once and gives it to no starting character."""
    owner: dict[str, str] = {}
    for i, c in enumerate(cat.characters):
        for j, shard in enumerate(c.shards):
            if shard in owner:
                raise ContentError(f"{cpath}: at characters.{i}.shards.{j}: {shard!r} already "
                                   f"belongs to {owner[shard]} (a shard exists once)")
            owner[shard] = c.name
    for _sid, (path, scenario) in sorted(scenarios.items()):
        dropped: set[str] = set()
        for where, step in _battles(scenario):
            for j, loot in enumerate(step.loot):
                if loot not in cat.shards:
                    continue
                if loot in owner or loot in dropped:
                    raise ContentError(f"{path}: at {where}.loot.{j}: the shard {loot!r} already "
                                       "exists in the game (a shard exists once)")
                dropped.add(loot)


_cache: dict[tuple[str, ...], Catalogue] = {}


def cached_catalogue() -> Catalogue:
    roots = tuple(str(r) for r in content_roots())
    if roots not in _cache:
        _cache[roots] = load_catalogue()
    return _cache[roots]


def clear_cache() -> None:
    _cache.clear()


CATALOGUES: Pinned[Catalogue] = Pinned(GAME_ID, Catalogue, cached_catalogue)
"""Every catalogue version this process knows; a state names the one its game started with."""
