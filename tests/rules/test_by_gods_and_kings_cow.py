"""Copy on write of the units in By Gods and Kings (cow.py): a move copies only the units it
changes, and no state ever sees another's change."""

from __future__ import annotations

import threading

import pytest
from pydantic import BaseModel

from rules.by_gods_and_kings import GAME as BGK
from rules.by_gods_and_kings import copying, cow
from rules.by_gods_and_kings.state import (
    GEAR,
    Battle,
    BgkState,
    Foe,
    Held,
    Hero,
    Intent,
    Npc,
    Status,
)
from rules.core import Rng
from tests.support.playout import automatic_positions


def _mutables(value: object, path: str = "u") -> list[tuple[str, object]]:
    """(path, object) of every list, dict and unfrozen model inside a value."""
    out: list[tuple[str, object]] = []
    if isinstance(value, list | dict):
        out.append((path, value))
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            out += _mutables(v, f"{path}[{k!r}]")
    elif isinstance(value, BaseModel) and not value.model_config.get("frozen"):
        out.append((path, value))
        for name in type(value).model_fields:
            out += _mutables(getattr(value, name), f"{path}.{name}")
    return out


cow_units = (Hero, Foe, Npc)


def _game(players: int, seed: int, options: dict[str, str], steps: int = 700):
    """(state, its saved text when it was made) along a seeded game of automatic and random moves."""
    s = BGK.setup([f"p{i}" for i in range(players)], options, seed)
    chooser, noise = Rng(seed=seed), Rng(seed=seed + 99)
    made = []
    for _ in range(steps):
        if BGK.result(s) is not None:
            break
        made.append((s, s.model_dump_json()))
        p = noise.choice(BGK.acting(s))
        if p in BGK.to_act(s) and noise.randint(0, 2):
            key = BGK.auto_action(s, p, chooser).key
        else:
            key = noise.choice(BGK.legal_actions(s, p)).key
        s = BGK.apply(s, p, key).state
    return made


@pytest.mark.parametrize("players,options", [
    (1, {}), (3, {"blows": "fast", "ties": "order"}), (4, {"party": "5"}), (8, {})])
def test_no_state_of_a_game_changes_after_it_was_made(players, options):
    """States share the units no move changed: a unit changed in place by a later move would
    show here, in the state made before it."""
    shared, phases = 0, set()
    for seed in range(3):
        made = _game(players, seed, options)
        for (a, _), (b, _) in zip(made, made[1:], strict=False):
            shared += sum(x is y for x, y in zip(a.party, b.party, strict=False))
        for s, text in made:
            assert s.model_dump_json() == text
            phases.add(s.phase)
    assert shared > 1000, "the copies share no character: copy on write is not taken"
    assert {"opening", "play", "resolve", "deploy", "npc", "save", "camp", "route"} <= phases


def test_a_move_copies_only_the_units_it_changes():
    checked = 0
    for s in automatic_positions(BGK, 8, range(2), 300):
        if s.phase != "play":
            continue
        p = BGK.to_act(s)[0]
        key = BGK.auto_action(s, p, Rng(seed=1)).key
        if key.startswith("use."):  # a heal or shield first (it may touch a whole side)
            continue
        after = BGK.apply(s, p, key).state
        assert s.actor is not None
        for i, (old, new) in enumerate(zip(s.party, after.party, strict=True)):
            if old is not new:
                assert old != new or f"c{i}" == s.actor, f"c{i} was copied but not changed"
        assert sum(old is not new for old, new in zip(s.party, after.party, strict=True)) <= 2
        checked += 1
    assert checked > 20


def _outside_units(value: object) -> list[object]:
    """Every list, dict and unfrozen model of a state but the units, what they hold, the
    generator, the origin and the lists replaced whole (copying._WHOLE)."""
    return [v for p, v in _mutables(value, "s")
            if not p.startswith(("s.origin", "s.rng", *(f"s.{name}" for name in copying._WHOLE)))
            and not isinstance(v, cow_units) and not p.startswith(("s.party[", "s.battle.foes[", "s.battle.npcs["))]


def test_the_copy_for_a_move_copies_every_field_the_full_copy_copies():
    assert {*copying._LISTS, *copying._DICTS, *copying._WHOLE, "rng", "intent", "battle"} == set(copying.HOW[BgkState])
    for model in (BgkState, Rng, Battle, Intent, Hero, Foe, Npc, Status, Held):  # `remade` leaves out
        # extra and private values
        assert not model.model_config.get("extra") and not model.__private_attributes__


def test_the_copy_for_a_move_shares_only_the_units_the_generator_and_the_origin():
    checked = 0
    for s in automatic_positions(BGK, 8, range(1), 200):
        if s.battle is None:
            continue
        copy, units = copying.copy_for_move(s)
        assert copy == s and copy.origin is s.origin and copy.rng is s.rng
        assert all(getattr(copy, name) is getattr(s, name) for name in copying._WHOLE)
        assert units == [*s.party, *s.foes, *s.npcs, s.rng]
        assert all(x is y for x, y in zip(units, [*copy.party, *copy.foes, *copy.npcs, copy.rng], strict=True))
        theirs = {id(v) for v in _outside_units(s)}
        assert theirs and not [v for v in _outside_units(copy) if id(v) in theirs]
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("copier", [cow.hero, cow.foe, cow.npc], ids=["hero", "foe", "npc"])
def test_a_unit_copied_on_write_shares_nothing_mutable(copier):
    checked = 0
    for s in automatic_positions(BGK, 8, range(2), 300):
        units = {cow.hero: s.party, cow.foe: s.foes, cow.npc: s.npcs}[copier]
        for unit in units:
            copy = copier(unit)
            assert type(copy) is type(unit) and copy == unit
            assert copy.model_fields_set == unit.model_fields_set
            ours = {id(v) for _, v in _mutables(unit)}
            gear = tuple(f"u.{name}" for name in GEAR)  # replaced whole, never changed in place: shared
            assert not [p for p, v in _mutables(copy) if id(v) in ours and not p.startswith(gear)]
            assert all(getattr(copy, name) is getattr(unit, name) for name in GEAR if isinstance(unit, Hero))
            checked += 1
    assert checked > (5 if copier is cow.npc else 100)


def test_outside_apply_the_accessors_hand_out_the_states_own_units():
    s = next(x for x in automatic_positions(BGK, 4, range(1), 60) if x.battle is not None)
    before = [*s.party, *s.foes]
    assert [s.unit(u.id) for u in before] == before
    assert all(s.unit(u.id) is u for u in before) and all(s.hero(h.id) is h for h in s.party)
    assert all(x is y for x, y in zip(s.living_foes(), [f for f in s.battle.foes if f.alive], strict=True))
    assert all(x is y for x, y in zip(s.living_heroes(), [h for h in s.party if h.alive], strict=True))
    assert s.own_party() is s.party and s.foes is s.battle.foes
    assert cow.WRITING.state is None and not cow.WRITING.shared


def test_during_apply_each_unit_is_copied_once_and_only_for_its_state():
    s = next(x for x in automatic_positions(BGK, 4, range(1), 60) if x.battle is not None)
    copy, units = copying.copy_for_move(s)
    cow.WRITING.begin(copy, units)
    try:
        first = copy.hero("c1")
        assert first is not s.party[1] and first == s.party[1]
        assert copy.hero("c1") is first and copy.party[1] is first
        assert s.hero("c2") is s.party[2] and copy.party[2] is s.party[2]  # another state: as it is
        assert copy.peek("c3") is s.party[3]  # a peek copies nothing
        living = copy.living_foes()
        assert all(f is not g for f, g in zip(living, s.living_foes(), strict=True))
    finally:
        cow.WRITING.end()


def test_each_thread_has_its_own_move_being_applied():
    s = next(x for x in automatic_positions(BGK, 2, range(1), 60) if x.battle is not None)
    copy, units = copying.copy_for_move(s)
    cow.WRITING.begin(copy, units)
    seen: list[object] = []
    try:
        other = threading.Thread(target=lambda: seen.append(copy.hero("c0")))
        other.start()
        other.join()
    finally:
        cow.WRITING.end()
    assert seen == [s.party[0]] and seen[0] is s.party[0], "another thread copied a unit of this move"
