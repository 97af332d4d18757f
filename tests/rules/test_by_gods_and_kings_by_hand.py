"""The fourth round of speed work on By Gods and Kings, the side of `apply`: moves applied
from the values of their steps (plans.values, plans.chosen_after), events and outcomes made
by hand, fields read and assigned through the models' dictionaries, and the reactions looked
for in one pass. Each gives the long way's answer."""

from __future__ import annotations

import pytest

from rules.by_gods_and_kings import GAME as BGK
from rules.by_gods_and_kings import (
    camp,
    effects,
    enemy,
    flow,
    game,
    plans,
    reactions,
    turn,
)
from rules.by_gods_and_kings.abilities import ability
from rules.by_gods_and_kings.events import Said, plain
from rules.by_gods_and_kings.levels import levelled
from rules.by_gods_and_kings.shape import shape
from rules.by_gods_and_kings.state import Battle, BgkState, Foe, Hero, Npc, Status, assign
from rules.core import Action, Event, Outcome, Rng
from rules.core.state import independent_copy
from rules.core.steps import Building, Option
from tests.support.bgk_steps import check_step_values
from tests.support.playout import automatic_positions


def _positions(players: int, seeds: range, steps: int = 300, wander: int = 0):
    return automatic_positions(BGK, players, seeds, steps, random_share=wander)


# --- moves applied from the values of their steps -------------------------------------------------
def test_the_values_of_each_step_are_those_of_its_options():
    checked: dict[str, int] = {}
    for players in (2, 8):
        for s in _positions(players, range(3), 300, 20):
            plan = {"play": plans.PLAY, "deploy": plans.FIRE}.get(s.phase)
            if plan is None:
                continue
            check_step_values(s, BGK.to_act(s)[0], plan, checked)
    assert min(checked.values()) > 30 and len(checked) == 4, checked


def test_a_step_key_chooses_what_the_plans_own_handling_chooses():
    checked = 0
    for players in (2, 8):
        for s in _positions(players, range(3), 300, 20):
            for seat in BGK.acting(s):
                for a in BGK.legal_actions(s, seat):
                    verb = a.key.split(".")[0]
                    plan = plans.PLANS.get(verb)
                    if plan is None or a.key == plan.back_key:
                        continue
                    stored = s.buildings.get(seat)
                    args = dict(stored.args) if stored is not None and stored.verb == verb else {}
                    step = plan.handle(Building(verb=verb, args=args), a.key)
                    assert step is not None
                    chosen = step.done if step.done is not None else (step.building.args if step.building else {})
                    assert plans.chosen_after(plan, args, a.key) == chosen
                    assert list(plans.chosen_after(plan, args, a.key)) == list(chosen)
                    checked += 1
    assert checked > 1000


def test_a_queued_abilitys_option_describes_it_at_its_level_as_the_long_way():
    checked = levelled_up = 0
    for s in _positions(4, range(4), 400, 20):
        if s.phase != "deploy":
            continue
        hero = s.hero(s.actor or "")
        for ref in s.queue:
            ab = ability(s, ref)
            for xp in (0, 100):  # at the first level and grown
                h = independent_copy(hero)
                h.shard_xp = {**h.shard_xp, ref.split(".")[0]: xp}
                option = turn.ability_option(s, h, ref)
                assert option == Option(value=ref, label=f"Fire {ab.name}",
                                        description=levelled(s, h, ab).effect.describe()[:100])
                checked += 1
                levelled_up += levelled(s, h, ab) != ab
    assert checked > 100 and levelled_up > 30


# --- events and outcomes made by hand -------------------------------------------------------------
def _outcomes(players: int, seed: int, steps: int = 500) -> list:
    s = BGK.setup([f"p{i}" for i in range(players)], {}, seed)
    chooser = Rng(seed=seed)
    out = []
    for _ in range(steps):
        if BGK.result(s) is not None:
            break
        p = BGK.to_act(s)[0]
        key = BGK.auto_action(s, p, chooser).key if chooser.randint(0, 3) else chooser.choice(BGK.legal_actions(s, p)).key
        done = BGK.apply(s, p, key)
        out.append(done)
        s = done.state
    return out


def test_events_and_outcomes_made_by_hand_are_the_validated_ones(monkeypatch):
    fast = [o for players, seed in ((4, 0), (8, 1)) for o in _outcomes(players, seed)]
    kinds = {e.kind for o in fast for e in o.events}
    assert {"draw", "round", "intent", "push", "deploy", "shield", "opening"} <= kinds

    def validated(kind, text, data=None):
        return Event(kind=kind, text=text) if data is None else Event(kind=kind, text=text, data=data)
    for module in (effects, enemy, flow, turn):
        monkeypatch.setattr(module, "plain", validated)
    monkeypatch.setattr(Said, "told", classmethod(lambda cls, text, **data: cls(**data).event(text)))
    monkeypatch.setattr(game, "outcome", lambda state, events: Outcome(state=state, events=events))
    slow = [o for players, seed in ((4, 0), (8, 1)) for o in _outcomes(players, seed)]
    assert len(fast) == len(slow)
    for a, b in zip(fast, slow, strict=True):
        assert type(a) is type(b) and a.model_fields_set == b.model_fields_set
        assert a.state == b.state and len(a.events) == len(b.events)
        for x, y in zip(a.events, b.events, strict=True):
            assert x == y and type(x) is type(y) and x.model_fields_set == y.model_fields_set
            assert type(x.data) is dict and x.data == y.data and list(x.data) == list(y.data)


def test_a_plain_events_data_is_its_own():
    data = {"unit": "c0", "cards": ["Ah"]}
    e = plain("draw", "text", data)
    data["unit"] = "c1"
    assert e.data == {"unit": "c0", "cards": ["Ah"]} and plain("x", "y").data == {}
    assert plain("x", "y").model_fields_set == {"kind", "text"}


# --- fields read and assigned through the models' dictionaries ------------------------------------
def _shape_by_attributes(s: BgkState) -> tuple[object, ...]:
    battle = s.battle
    return (s.phase, s.actor, s.played, s.area, s.step, s.attempt, s.rng.counter, len(s.deck),
            len(s.discard), len(s.stash), tuple(s.queue), s.intent, tuple(s.opening), tuple(s.saving),
            tuple(s.ready), tuple(s.votes.items()),
            tuple((seat, b.verb, tuple(b.args.items())) for seat, b in s.buildings.items()),
            tuple((h.hp, h.shield, h.miss, len(h.field), len(h.statuses), len(h.hand), len(h.bag),
                   len(h.shards), len(h.equipped), h.loadout, h.held) for h in s.party),
            None if battle is None else (
                battle.round, battle.pos, len(battle.order),
                tuple((f.hp, f.shield, f.miss, len(f.field), len(f.statuses)) for f in battle.foes),
                tuple((n.hp, n.shield, n.miss, len(n.field), len(n.statuses), len(n.hand)) for n in battle.npcs)))


def test_the_guard_read_from_dictionaries_is_the_one_read_through_attributes():
    seen = set()
    for players in (1, 8):
        for s in _positions(players, range(3), 400, 20):
            assert shape(s) == _shape_by_attributes(s)
            seen.add((s.phase, bool(s.buildings), bool(s.votes), bool(s.battle and s.battle.npcs)))
    assert len(seen) > 10
    s = next(x for x in _positions(2, range(1), 60) if x.battle is not None)
    before = shape(s)
    s.battle.foes[0].statuses.append(Status(kind="poison", turns=1))  # changed in place: seen
    assert shape(s) != before and shape(s) == _shape_by_attributes(s)


@pytest.mark.parametrize("model", [BgkState, Battle, Hero, Foe, Npc])
def test_a_field_assigned_by_hand_is_assigned_as_pydantic_assigns_it(model):
    assert not model.model_config.get("validate_assignment") and not model.model_config.get("frozen")
    s = next(x for x in _positions(4, range(2), 200) if x.battle is not None and any(f.statuses for f in x.foes))
    found = {BgkState: s, Battle: s.battle, Hero: s.party[0], Foe: s.foes[0], Npc: s.npcs[0] if s.npcs else None}[model]
    if found is None:
        found = Npc(id="n0", name="x", hp=3, npc="x")
    for name in model.model_fields:
        value = getattr(found, name)
        by_hand, by_pydantic = found.model_copy(), found.model_copy()
        object.__setattr__(by_hand, "__pydantic_fields_set__", set())  # as a model made with defaults
        object.__setattr__(by_pydantic, "__pydantic_fields_set__", set())
        assign(by_hand, **{name: value})
        setattr(by_pydantic, name, value)
        assert by_hand.__dict__ == by_pydantic.__dict__ and list(by_hand.__dict__) == list(by_pydantic.__dict__)
        assert by_hand.model_fields_set == by_pydantic.model_fields_set == {name}


# --- reactions looked for in one pass -------------------------------------------------------------
def _reaction_refs_long_way(s: BgkState, seat: str) -> list:
    if s.phase == "over":
        return []
    out = []
    for hero in s.party:
        if hero.seat != seat or not hero.alive or hero.has("numb"):
            continue
        for sid in hero.equipped:
            for ab in s.cat.shards[sid].abilities:
                if ab.trigger not in ("discard", "sacrifice") or not (hero.hand if ab.trigger == "discard" else hero.field):
                    continue
                if reactions.has_target(s, hero, ab.target):
                    out.append((hero, f"{sid}.{ab.trigger}", ab))
    return out


def test_reactions_are_the_long_ways_and_any_is_found_in_one_look():
    answers = []
    for players in (1, 3, 8):
        for s in list(_positions(players, range(2), 300, 20))[::3]:
            for numbed in ((), s.players, s.players[:-1]):  # nobody's, everybody's, all but the last seat's
                t = independent_copy(s)
                for hero in t.party:
                    if hero.seat in numbed:
                        hero.statuses = [*hero.statuses, Status(kind="numb", turns=1)]
                for seat in t.players:
                    assert reactions.reaction_refs(t, seat) == _reaction_refs_long_way(t, seat)
                answer = reactions.any_reaction(t)
                assert answer == any(_reaction_refs_long_way(t, seat) for seat in t.players)
                answers.append((answer, len(numbed) == len(s.players) - 1 > 0))
    assert answers.count((True, False)) > 100 and answers.count((False, False)) > 100
    assert answers.count((True, True)) > 20


# --- camp actions made once ----------------------------------------------------------------------------
def test_camp_actions_are_made_once_and_are_the_plain_ones():
    checked = 0
    for players in (1, 4):
        for s in _positions(players, range(3), 400, 20):
            if s.phase != "camp":
                continue
            for seat in BGK.to_act(s):
                first, again = camp.camp_actions(s, seat), camp.camp_actions(s, seat)
                assert all(a is b for a, b in zip(first, again, strict=True))
                for a in first:
                    plain = (Action(key=a.key, label=a.label, style="success") if a.key == "ready"
                             else Action(key=a.key, label=a.label, group=a.group))
                    assert a == plain and a.model_fields_set == plain.model_fields_set
                    checked += 1
    assert checked > 200
