"""What of the content can be met in play, and how: every way the game hands out an item, a
shard, an enemy or an NPC, walked over a catalogue.

- a starting kit: what it wears, carries and its shards (characters.yaml);
- a battle of a scenario, in an area the party can walk into (by a way on, or by the path a
  failed save opens): its enemies, its NPCs, and its loot, unless it is the scenario's last
  battle (the scenario ends with it, before any camp where loot is claimed);
- a task between scenarios (tasks.yaml): the item it gives.

`unreachable` lists what none of them gives (tests/rules/test_bgk_reach.py: nothing, for the
shipped content).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.by_gods_and_kings.content import BattleStep, Catalogue, SaveStep, ScenarioDef


@dataclass
class Reach:
    """Where each piece of content can be met: id -> the first places that give it."""

    items: dict[str, list[str]] = field(default_factory=dict)
    shards: dict[str, list[str]] = field(default_factory=dict)
    enemies: dict[str, list[str]] = field(default_factory=dict)
    npcs: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kind: str, thing: str, where: str) -> None:
        getattr(self, kind).setdefault(thing, []).append(where)


def entered_areas(sc: ScenarioDef) -> list[str]:
    """The areas a party can walk into, from the start: by a way on, or by a failed save's path."""
    seen = [sc.start]
    todo = [sc.start]
    while todo:
        area = sc.areas[todo.pop()]
        outs = [*area.next, *(x.fail_next for x in area.steps
                              if isinstance(x, SaveStep) and x.fail_next is not None)]
        for nxt in outs:
            if nxt not in seen:
                seen.append(nxt)
                todo.append(nxt)
    return seen


def reach(cat: Catalogue) -> Reach:
    out = Reach()
    for kit in cat.characters:
        for item in (kit.main, kit.offhand, kit.body, kit.head, *kit.bag):
            if item is not None:
                out.add("items", item, f"kit {kit.id}")
        for sid in kit.shards:
            out.add("shards", sid, f"kit {kit.id}")
    for scid, sc in cat.scenarios.items():
        for aid in entered_areas(sc):
            area = sc.areas[aid]
            for i, step in enumerate(area.steps):
                if not isinstance(step, BattleStep):
                    continue
                where = f"{scid}/{aid}/{step.name}"
                for entry in step.enemies:
                    out.add("enemies", entry.enemy, where)
                for npc in step.npcs:
                    out.add("npcs", npc, where)
                if area.ending and i == len(area.steps) - 1:
                    continue  # the last battle: the scenario ends before a camp
                for thing in step.loot:
                    out.add("items" if thing in cat.items else "shards", thing, where)
    for tid, task in cat.tasks.items():
        if task.reward.item is not None:
            out.add("items", task.reward.item, f"task {tid}")
    return out


def unreachable(cat: Catalogue) -> dict[str, list[str]]:
    """Per kind (items, shards, enemies, npcs), the ids nothing in play gives; kinds with none
    left out."""
    got = reach(cat)
    every: dict[str, list[str]] = {"items": list(cat.items), "shards": list(cat.shards),
                                   "enemies": list(cat.enemies), "npcs": list(cat.npcs)}
    out = {kind: sorted(set(ids) - set(getattr(got, kind))) for kind, ids in every.items()}
    return {k: v for k, v in out.items() if v}
