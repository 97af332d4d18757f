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
    BattleStep,
    Catalogue,
    CharactersFile,
    ElementsFile,
    EnemiesFile,
    ItemsFile,
    NpcsFile,
    ScenarioDef,
    ShardsFile,
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


def load_catalogue() -> Catalogue:
    """Read and cross-check every file; raises ContentError naming file, entry and field."""
    ipath, items = _one("items.yaml", ItemsFile)
    spath, shards = _one("shards.yaml", ShardsFile)
    cpath, chars = _one("characters.yaml", CharactersFile)
    epath, enemies = _one("enemies.yaml", EnemiesFile)
    npath, npcs = _one("npcs.yaml", NpcsFile)
    lpath, elements = _one("elements.yaml", ElementsFile)
    _unique(ipath, "items", [x.id for x in items.items])
    _unique(spath, "shards", [x.id for x in shards.shards])
    _unique(cpath, "characters", [x.id for x in chars.characters])
    _unique(epath, "enemies", [x.id for x in enemies.enemies])
    _unique(npath, "npcs", [x.id for x in npcs.npcs])
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
        syncs=list(elements.synchronizations),
        scenarios={k: v for k, (_, v) in sorted(scenarios.items())})
    _check_elements(lpath, spath, cat)
    _check_characters(cpath, cat)
    for sid, (path, scenario) in sorted(scenarios.items()):
        _check_scenario(path, scenario, cat, sid)
    _check_unique_shards(cpath, scenarios, cat)
    return cat


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


def _check_scenario(path: Path, scenario: ScenarioDef, cat: Catalogue, sid: str) -> None:
    for i, step in enumerate(scenario.steps):
        if not isinstance(step, BattleStep):
            continue
        for j, entry in enumerate(step.enemies):
            if entry.enemy not in cat.enemies:
                raise ContentError(f"{path}: at steps.{i}.enemies.{j}.enemy: unknown enemy {entry.enemy!r}")
        if not any(e.min_party == 1 for e in step.enemies):
            raise ContentError(f"{path}: at steps.{i}.enemies: at least one enemy has min_party 1")
        for j, npc in enumerate(step.npcs):
            if npc not in cat.npcs:
                raise ContentError(f"{path}: at steps.{i}.npcs.{j}: unknown NPC {npc!r}")
        for j, loot in enumerate(step.loot):
            if loot not in cat.items and loot not in cat.shards:
                raise ContentError(f"{path}: at steps.{i}.loot.{j}: {loot!r} is neither an item nor a shard")


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
        for i, step in enumerate(scenario.steps):
            if not isinstance(step, BattleStep):
                continue
            for j, loot in enumerate(step.loot):
                if loot not in cat.shards:
                    continue
                if loot in owner or loot in dropped:
                    raise ContentError(f"{path}: at steps.{i}.loot.{j}: the shard {loot!r} already "
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
