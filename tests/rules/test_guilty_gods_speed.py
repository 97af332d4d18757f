"""The shortcuts that keep a Guilty Gods game fast, each checked against the plain way it
replaces: the copy that knows the state's shape (copying.py), the plan worked out once for
summoners alike (policy.planning_summoner), and the scores the planner keeps instead of working
them out again (planner._top, planner.with_supports)."""

from __future__ import annotations

import itertools
import types
import typing

import pytest
from pydantic import BaseModel

from rules.core.state import independent_copy
from rules.guilty_gods import GAME as G
from rules.guilty_gods import copying, planner, policy, values
from rules.guilty_gods.game import clone
from rules.guilty_gods.state import GgState, Move, Placed, Seat
from tests.support.playout import automatic_positions
from tests.support.sharing import mutables

_OPTIONS = [{}, {"decks": "lilium-umbra"}, {"decks": "umbra-lilium"}]


def _states(seeds: range, random_share: int = 20) -> list[GgState]:
    return [s for options in _OPTIONS
            for s in automatic_positions(G, 2, seeds, 400, options, random_share)]


@pytest.fixture(scope="module")
def states() -> list[GgState]:
    return _states(range(4))


def _frozen(value: object) -> bool:
    return isinstance(value, BaseModel) and bool(value.model_config.get("frozen"))


def _shares_nothing_mutable(a: BaseModel, b: BaseModel) -> None:
    ours = {id(v) for v in mutables(a, []) if not _frozen(v)}
    assert not any(id(v) in ours for v in mutables(b, []) if not _frozen(v))


def test_the_hand_made_copy_is_equal_and_shares_nothing_mutable(states):
    kinds: set[str] = set()
    for s in states:
        c = copying.copy_state(s)
        assert c == s == independent_copy(s) and c.model_dump_json() == s.model_dump_json()
        assert c.__pydantic_fields_set__ == s.__pydantic_fields_set__
        _shares_nothing_mutable(s, c)
        kinds.update(k for k in ("draft", "attack", "defense", "tally", "building", "winners")
                     if getattr(s, k) is not None)
        for move in (s.draft, s.attack, s.defense):
            if move is not None:
                m = copying.copy_move(move)
                assert m == move and m.__pydantic_fields_set__ == move.__pydantic_fields_set__
                _shares_nothing_mutable(move, m)
    assert len(states) > 1000
    assert {"draft", "attack", "defense", "tally", "building"} <= kinds


def _atom(annotation: object) -> bool:
    """A field of this type holds atoms only (a str, int, bool, None, a Literal, or a union of them)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return True
    if origin in (typing.Union, types.UnionType):
        return all(_atom(a) for a in typing.get_args(annotation))
    return annotation in (str, int, bool, type(None))


def test_the_copy_knows_the_shapes_it_assumes():
    """A new field of a seat, a move or a placed card, or one of the state's, that is not an atom
    would need the copy to learn it: these fail first."""
    for name, field in Seat.model_fields.items():
        assert field.annotation == list[str] if name in copying.SEAT_LISTS else _atom(field.annotation), name
    for name, field in Move.model_fields.items():
        expected = {"row": list[Placed], "steps": list[str]}.get(name)
        assert field.annotation == expected if expected else _atom(field.annotation), name
    assert all(_atom(f.annotation) for f in Placed.model_fields.values())
    by_hand = set(copying._BY_FIELD)
    assert by_hand <= set(GgState.model_fields)
    others = {n for n, f in GgState.model_fields.items() if n not in by_hand and not _atom(f.annotation)}
    assert others == {"tally", "building", "winners"}  # models, and a list of names


def test_no_state_changes_after_it_was_made():
    seen = [(s, s.model_dump_json()) for options in _OPTIONS  # each dumped before the next is made
            for s in automatic_positions(G, 2, range(4, 9), 400, options, 30)]
    assert len(seen) > 1000
    for i, (s, made) in enumerate(seen):
        assert s.model_dump_json() == made, f"state {i} changed after it was made"


def _summoner_states(states: list[GgState]) -> list[GgState]:
    return [s for s in states if s.phase == "summoner"]


def test_summoners_alike_in_what_the_planner_reads_make_the_same_plan(states):
    alike = 0
    for s in _summoner_states(states):
        player = s.player
        plans: dict[tuple[object, ...], planner.Plan | None] = {}
        for sid in s.deck_summoners[s.seats[player].deck_id]:
            t = clone(s)
            t.phase = "act"
            t.seats[player].summoner = sid
            low = t.summoners[sid].power("seal_when_low")
            if t.powers_on(player) and low is not None and t.seats[player].seals <= low.threshold:
                t.seats[player].seals = min(7, t.seats[player].seals + low.amount)
            key = policy.planning_summoner(t, player)
            plan = values.plan_attack(t, player)
            if key in plans:
                assert plans[key] == plan, (sid, key)
                alike += 1
            plans[key] = plan
    assert alike > 20


def test_the_summoner_chosen_is_the_one_chosen_planning_every_summoner(states, monkeypatch):
    chosen = [(s, policy.choose_summoner(s, s.player)) for s in _summoner_states(states)]
    counter = itertools.count()
    monkeypatch.setattr(policy, "planning_summoner", lambda *a: (next(counter),))  # nothing alike
    assert all(policy.choose_summoner(s, s.player) == sid for s, sid in chosen)
    assert len(chosen) > 30


def test_the_scores_the_planner_keeps_are_the_scores(states, monkeypatch):
    """`_top` and `with_supports` hand back the score of each shape they return, which the
    planner uses instead of scoring it again: each is the score the shape gets."""
    checked = []
    real_top, real_supports = planner._top, planner.with_supports

    def top(shapes, score):
        out = real_top(shapes, score)
        checked.extend((score, shape, v) for shape, v in out)
        return out

    def supports(s, shape, value, spare, seals, score):
        full, v = real_supports(s, shape, value, spare, seals, score)
        checked.append((score, full, v))
        return full, v

    monkeypatch.setattr(planner, "_top", top)
    monkeypatch.setattr(planner, "with_supports", supports)
    for s in states[::5]:
        if s.phase == "act":
            values.plan_attack(s, s.player)
        elif s.phase == "defend" and s.attack is not None:
            values.plan_defense(s, s.defender)
    assert len(checked) > 500
    assert all(score(shape) == v for score, shape, v in checked)


def _plain_attack_score(s: GgState, player: str, rival: values.Rival):
    """`values.attack_score` as it was written before `Facing` and `SkillValues`: every value
    worked out again for each shape."""
    seat = s.seats[player]
    hand = len(seat.hand)
    summoner = s.summoner(player)
    ophiel = summoner.power("extra_damage") if summoner and s.powers_on(player) else None
    w = values.w_damage(rival.gnosis)
    worth = values.EffectValues(s, player)
    seal = values.W_SEAL

    def score(shape: planner.Shape) -> float:
        n = len(shape.cards)
        d = [len(x) for x in shape.spheres]
        b = [min(rival.block(x), float(len(x))) for x in shape.spheres]
        ranked = sorted(b, reverse=True)
        blocked = ranked[0] + (0.35 * ranked[1] if n > 1 and rival.seals > 0 else 0.0)
        exp = max(0.0, sum(d) - blocked)
        p = [max(0.15, 1 - b[i] / d[i]) for i in range(n)]
        fail = 1.0
        for x in p:
            fail *= 1 - x
        success = 1 - fail
        extra_fx = []
        skills = []
        for i, c in enumerate(shape.cards):
            if c.skill is not None:
                skills.append((c.skill.effect.damage * w + worth(c.skill.effect), c.skill.cost, p[i]))
            sup = shape.supports.get(i)
            if sup is not None:
                if sup.support.automatic:
                    extra_fx.append(sup.support.effect)
                else:
                    skills.append((sup.support.effect.damage * w + worth(sup.support.effect),
                                   sup.support.cost_for(c.level), p[i]))
        if shape.group is not None:
            g = shape.group.support
            if g.automatic:
                extra_fx.append(g.effect)
            else:
                skills.append((g.effect.damage * w + worth(g.effect), g.cost_for(0), success))
        dmg = exp + sum(e.damage for e in extra_fx) + (ophiel.amount * success if ophiel else 0)
        v = w * dmg
        if dmg >= rival.gnosis:
            v += 3.0
        v += sum(worth(e) for e in extra_fx)
        left = seat.seals - shape.cost
        for value, cost, chance in sorted(skills, key=lambda t: -(t[0] * t[2] - t[1] * seal)):
            if cost <= left and value > cost * seal:
                v += chance * (value - cost * seal)
                left -= cost
        lit = sum(1 for c in shape.cards if c.seal)
        v += seal * min(lit, 7 - (seat.seals - shape.cost))
        v -= seal * shape.cost
        used = shape.used()
        v -= sum(values.card_value(c) for c in used)
        if len(used) == hand:
            v += values.REFILL
        return v

    return score


def test_the_attack_score_is_the_plain_one(states):
    """Every shape the planner scores gets exactly the score of the plain way."""
    scored: list[float] = []

    def both(s: GgState, player: str):
        """The score of the fast way, checked against the plain way."""
        fast = values.attack_score(s, player, values.Rival(s, player))
        plain = _plain_attack_score(s, player, values.Rival(s, player))

        def score(shape: planner.Shape) -> float:
            v = fast(shape)
            assert v == plain(shape)
            scored.append(v)
            return v

        return score

    for s in states[::3]:
        if s.phase == "act":
            planner.best_attack(s, s.player, both(s, s.player), values.chain_value(s, s.player))
    assert len(scored) > 5000
