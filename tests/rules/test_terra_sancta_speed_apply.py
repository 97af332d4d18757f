"""The fifth round of speed work on Terra Sancta, on `apply`: the state copied field by field
written out (copying.copy_state), the fields of a finished move cleared only when they hold
something and a new turn's fields written only when they change (game._clear_move,
TerraSancta._begin_turn), and the automatic player's step taken by `apply` without checking its
key again (TerraSancta.chosen_step). Each test compares the shortcut with the long way and fails
if it gives another answer."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import Event, Rng, who
from rules.core.state import rebuilt
from rules.terra_sancta import GAME as TS
from rules.terra_sancta import game as ts_game
from rules.terra_sancta.combat import hurt, roll
from rules.terra_sancta.copying import copy_by_table, copy_state
from rules.terra_sancta.game import TerraSancta
from rules.terra_sancta.state import TSState
from tests.support.playout import automatic_positions


def _positions(players: int, seeds: range, random_share: int) -> list[TSState]:
    return list(automatic_positions(TS, players, seeds, 10_000, {"factions": "random"}, random_share))


_POSITIONS = _positions(4, range(2), 25) + _positions(2, range(2), 25)
"""Positions of whole games in the order they were played, with every faction."""


def _same_state(a: TSState, b: TSState) -> None:
    assert type(a) is type(b)
    assert list(a.__dict__) == list(b.__dict__)
    assert a.__dict__ == b.__dict__
    assert TS.dump_state(a) == TS.dump_state(b)
    assert a.rng.__dict__ == b.rng.__dict__ and type(a.rng) is type(b.rng)
    assert (a.__pydantic_extra__, a.__pydantic_private__) == (b.__pydantic_extra__, b.__pydantic_private__)
    assert (a.rng.__pydantic_extra__, a.rng.__pydantic_private__) == (b.rng.__pydantic_extra__,
                                                                      b.rng.__pydantic_private__)


# --- the copy written out -----------------------------------------------------------------------


def test_the_written_out_copy_is_the_copy_by_the_table():
    for s in _POSITIONS[::5]:
        s.rng.scripted = [2, 5]
        c, long_way = copy_state(s), copy_by_table(s)
        s.rng.scripted = []
        _same_state(c, long_way)
        assert c.__pydantic_fields_set__ == long_way.__pydantic_fields_set__ == s.__pydantic_fields_set__
        assert c.rng.__pydantic_fields_set__ == long_way.rng.__pydantic_fields_set__
        assert c.rng.scripted == [2, 5]
        for name, value in s.__dict__.items():  # what the table copies, the written-out copy copies
            assert (c.__dict__[name] is value) == (long_way.__dict__[name] is value), name


def test_a_state_with_private_values_keeps_a_copy_of_them():
    s = _POSITIONS[40]
    odd = rebuilt(s, dict(s.__dict__))
    object.__setattr__(odd, "__pydantic_private__", {"x": 1})
    c = copy_state(odd)
    assert c.__pydantic_private__ == {"x": 1} and c.__pydantic_private__ is not odd.__pydantic_private__
    assert c == odd


# --- the fields of a move and a turn written only when they change --------------------------------


def _clear_all(s: TSState) -> None:
    """`_clear_move` the long way: all three written."""
    s.building = None
    s.landing = []
    s.attack_from = None


def _begin_turn_long_way(self: TerraSancta, s: TSState, player: str, events: list[Event]) -> None:
    """`TerraSancta._begin_turn` as it was first written, every field written."""
    while True:
        s.turn += 1
        s.turn_player = player
        s.stage = "select"
        s.building = None
        s.damaged = False
        s.dice = [d for d in s.dice if d.turn >= s.turn - len(s.alive) + 1]
        if not all(p.kind == "K" for p in s.board.values()):
            return
        value = roll(s, player, 16, "poison")
        loss = 1 if value % 2 else 2
        king_sq = next(q for q, p in s.board.items() if p.owner == player)
        _, killed = hurt(s, king_sq, loss, events)
        events.append(Event(kind="poison", text=f"Poison: {who(player)} rolls {value} and the king loses "
                            f"{loss}" + (" and dies." if killed else "."),
                            data={"player": player, "roll": value, "loss": loss, "killed": killed}))
        if not killed:
            return
        if s.stage == "over":
            return
        player = self._next_player(s, player)


def _steps(positions: list[TSState]) -> list[tuple[TSState, str, str]]:
    """(position, player, key) for each position, its key the automatic player's choice."""
    out = []
    for i, s in enumerate(positions):
        p = TS.to_act(s)[0]
        out.append((s, p, TS.auto_action(s, p, Rng(seed=i)).key))
    return out


def test_writing_only_what_changes_gives_the_states_of_writing_everything(monkeypatch):
    steps = _steps(_POSITIONS)
    got = [TS.apply(s, p, key) for s, p, key in steps]
    monkeypatch.setattr(ts_game, "_clear_move", _clear_all)
    monkeypatch.setattr(TerraSancta, "_begin_turn", _begin_turn_long_way)
    turns = 0
    for (s, p, key), out in zip(steps, got, strict=True):
        long_way = TS.apply(s, p, key)
        _same_state(out.state, long_way.state)
        assert [e.model_dump() for e in out.events] == [e.model_dump() for e in long_way.events]
        turns += out.state.turn != s.turn
    assert turns > 500


def test_the_poison_turns_are_the_same_as_writing_everything(monkeypatch):
    """Kings alone: each turn begins with the poison, which may end the game."""
    checked = 0
    for s in _POSITIONS[::3]:
        if s.stage != "select" or s.building is not None:
            continue
        kings = copy_state(s)
        kings.board = {q: p for q, p in s.board.items() if p.kind == "K"}
        events: list[Event] = []
        got = copy_state(kings)
        TS._end_turn(got, events)
        with monkeypatch.context() as m:
            m.setattr(ts_game, "_clear_move", _clear_all)
            m.setattr(TerraSancta, "_begin_turn", _begin_turn_long_way)
            long_way = copy_state(kings)
            long_events: list[Event] = []
            TS._end_turn(long_way, long_events)
        _same_state(got, long_way)
        assert [e.model_dump() for e in events] == [e.model_dump() for e in long_events]
        checked += 1
    assert checked > 20


# --- the automatic player's step taken without checking its key again ----------------------------


def test_the_kept_step_is_what_the_key_check_finds():
    checked = 0
    for i, s in enumerate(_POSITIONS):
        if s.stage != "select":
            continue
        p = s.turn_player
        key = TS.auto_action(s, p, Rng(seed=i)).key
        kept = TS._kept_step(s, p, key)
        if key in ("move.back", "pass"):
            assert kept is None
            continue
        assert kept is not None
        assert kept == TS._move_step(s, p, key)
        checked += 1
    assert checked > 1000


def test_the_kept_step_belongs_to_its_own_state_player_and_key(monkeypatch):
    s = next(x for x in _POSITIONS if x.stage == "select" and x.building is None and len(x.alive) == 4)
    p = s.turn_player
    assert p is not None
    key = TS.auto_action(s, p, Rng(seed=1)).key
    assert TS._kept_step(s, p, key) is not None
    assert TS._kept_step(copy_state(s), p, key) is None  # an equal state, but another object
    assert TS._kept_step(s, next(q for q in s.alive if q != p), key) is None
    assert TS._kept_step(s, p, key + "x") is None
    other = next(k for k in (a.key for a in TS.legal_actions(s, p)) if k != key)
    assert TS._kept_step(s, p, other) is None
    real = TS._move_step
    calls: list[Any] = []
    monkeypatch.setattr(TerraSancta, "_move_step", lambda self, *a: calls.append(a) or real(*a))
    TS.apply(s, p, key)
    assert calls == []  # the kept step
    TS.apply(s, p, other)
    assert len(calls) == 1  # another key: checked
    TS.auto_action(s, p, Rng(seed=1))
    moved = copy_state(s)  # a state changed in place after the choice (never done): checked again
    ts_game._CHOSEN[:] = [(moved, *ts_game._CHOSEN[0][1:])]
    sq = ts_game._CHOSEN[0][5][0]
    moved.board[sq] = moved.board[sq]._replace(hp=moved.board[sq].hp)
    TS.apply(moved, p, key)
    assert len(calls) == 2


def test_a_game_played_with_the_key_checked_again_is_the_same(monkeypatch):
    names = ["a", "b", "c", "d"]
    finals = []
    for check in (False, True):
        with monkeypatch.context() as m:
            if check:
                m.setattr(TerraSancta, "_kept_step", lambda self, *a: None)
            s = TS.setup(names, {"factions": "random"}, 11)
            chooser = Rng(seed=11)
            steps = 0
            while TS.result(s) is None:
                p = TS.to_act(s)[0]
                s = TS.apply(s, p, TS.auto_action(s, p, chooser).key).state
                steps += 1
            finals.append((TS.dump_state(s), steps))
    assert finals[0] == finals[1] and finals[0][1] > 100


@pytest.mark.parametrize("stage", ["land", "ability"])
def test_no_step_is_kept_outside_the_select_stage(stage):
    s = next((x for x in _POSITIONS if x.stage == stage), None)
    assert s is not None
    p = s.turn_player
    assert p is not None
    ts_game._CHOSEN.clear()
    TS.auto_action(s, p, Rng(seed=0))
    assert ts_game._CHOSEN == []


def test_the_kept_buildings_are_the_plans():
    from rules.core.steps import Building
    from rules.terra_sancta.board import PLAYABLE, square_name
    from rules.terra_sancta.plans import MOVE

    for sq in sorted(PLAYABLE):
        made = ts_game._piece_building(sq)
        assert made == Building(verb=MOVE.verb, args={"piece": square_name(sq)})
        assert ts_game._piece_building(sq) is made and made.model_config.get("frozen")


# --- a slider's rays cut to its reach once per sheet -----------------------------------------------


def test_the_rays_cut_once_per_sheet_are_the_rays_cut_to_the_reach():
    from rules.terra_sancta.board import SQUARES
    from rules.terra_sancta.content import factions_of
    from rules.terra_sancta.movegen import _SLIDES, RAYS, hooks

    sheets = factions_of(_POSITIONS[0].content).values()
    reaches = set()
    for sheet in sheets:
        found = hooks(sheet)
        assert set(found.slides) == set(_SLIDES) == {"R", "B", "Q"}
        for kind, dirs in _SLIDES.items():
            reach = sheet.piece(kind).range or 11
            reaches.add(reach)
            assert found.reach[kind] == reach
            assert found.slides[kind] == [[RAYS[sq][d][:reach] for d in dirs] for sq in SQUARES]
    assert len(sheets) >= 4 and len(reaches) > 1  # some sheet cuts its rays short


# --- the automatic player reading the threats doubled ---------------------------------------------


def test_the_doubled_threats_are_twice_the_threat_map():
    from rules.terra_sancta.board import SQUARES
    from rules.terra_sancta.policy import threat_map
    from rules.terra_sancta.sight import board_masks
    from rules.terra_sancta.threats import Halved, threat_lanes, threat_table

    checked = 0
    for s in _POSITIONS[::4]:
        if s.stage == "faction":
            continue
        masks = board_masks(s.board)
        for player in s.alive:
            king = next(q for q, p in s.board.items() if p.owner == player and p.kind == "K")
            doubled, attackers = threat_lanes(s, player, king, masks)
            threat, reach = threat_map(s, player)
            expected = [threat.get(q, 0.0) for q in SQUARES]
            assert all(type(d) is int for d in doubled)
            assert [d / 2 for d in doubled] == expected
            halved = Halved(doubled)
            assert [halved[q] for q in SQUARES] == expected == threat_table(s, player, king, masks)[0]
            assert len(halved) == len(SQUARES)
            assert attackers == reach.get(king, set())
            checked += 1
    assert checked > 300


def test_a_doubled_threat_over_twice_the_health_is_the_threat_over_the_health():
    """The risk's quotient, read from the doubled threat: the same real number, rounded once,
    so the very same float, for every threat a lane can hold and every health."""
    from rules.terra_sancta.pieces import KINDS, max_health
    from rules.terra_sancta.threats import _HALF

    top = max(max_health(k) for k in KINDS)
    for hp in range(1, top + 1):
        for d in range(len(_HALF)):
            assert d / (hp + hp) == _HALF[d] / hp, (d, hp)
