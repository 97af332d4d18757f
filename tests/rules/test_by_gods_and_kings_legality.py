"""The fifth round of speed work on By Gods and Kings: `apply` checks the moves of a turn on
their keys alone (legality.py), from the values of their steps without labels
(plans.values, turn.fire_values, turn.npc_values, reactions.target_values,
turn.attack_keys). Each gives the long way's answer: the keys of the legal actions. And the
automatic player looks up the hands of a Field it weighs only when every two of its cards
make a pair (weigh.may_fire)."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from rules.by_gods_and_kings import GAME as BGK
from rules.by_gods_and_kings import cards, legality, plans, policy, weigh
from rules.by_gods_and_kings.reactions import target_options, target_values
from rules.by_gods_and_kings.turn import attack_choices, attack_keys, fire_options, fire_values
from rules.core import IllegalAction, Rng
from tests.support.bgk_steps import check_step_values
from tests.support.playout import automatic_positions

GAMES = ((1, range(2), 0), (4, range(3), 25), (8, range(3), 20))
"""(players, seeds, percent of random moves) of the games whose positions are checked."""


def _positions():
    for players, seeds, wander in GAMES:
        yield from automatic_positions(BGK, players, seeds, 300, random_share=wander)


def _near_misses(keys: set[str]) -> set[str]:
    """Keys like the legal ones that are not legal here: their values changed or cut."""
    out = set()
    for key in keys:
        head, sep, value = key.rpartition(":")
        if sep:
            out |= {f"{head}:{value}x", f"{head}:e9", f"{head}:c9", f"{head}:Ah", f"{head}:none", head}
            out.add(key.replace("e", "c", 1))
    return out - keys


def test_a_turn_key_is_checked_as_the_legal_actions_say():
    """Every legal move of the turn is taken, and no other key: the keys legal in this
    position for the other seats, legal in the position before, and near misses."""
    checked, refused, phases = 0, 0, set()
    before: set[str] = set()
    for s in _positions():
        legal = {p: {a.key for a in BGK.legal_actions(s, p)} for p in s.players}
        every = set().union(*legal.values())
        for seat in s.players:
            if not legality.checks_keys(s, seat):
                continue
            assert seat in BGK.to_act(s)
            phases.add(s.phase)
            own = {k for k in legal[seat] if not k.startswith("use.")}
            for key in own:
                assert legality.is_turn_key(s, seat, key), (s.phase, seat, key)
                checked += 1
            for key in (every | before | _near_misses(own)) - legal[seat]:
                assert not legality.is_turn_key(s, seat, key), (s.phase, seat, key)
                refused += 1
        before = every
    assert phases == legality.TURN_PHASES | {"opening", "route"}
    assert checked > 3000 and refused > 10_000


def test_the_seats_whose_keys_are_checked_are_to_act():
    seen = 0
    for s in _positions():
        acting = BGK.to_act(s)
        for seat in s.players:
            building = s.buildings.get(seat)
            plan = plans.TURN_PLANS.get(s.phase)
            own = building is None or (plan is not None and building.verb == plan.verb)
            expected = s.phase in legality.TURN_PHASES | {"opening", "route"} and seat in acting and own
            assert legality.checks_keys(s, seat) == expected
            seen += expected
    assert seen > 2000


def test_the_values_of_the_turns_steps_are_those_of_their_options():
    checked: dict[str, int] = {}
    for s in _positions():
        plan = plans.TURN_PLANS.get(s.phase)
        if plan is None:
            continue
        check_step_values(s, BGK.to_act(s)[0], plan, checked)
    assert len(checked) == 6 and min(checked.values()) > 5, checked


def test_aims_and_attacks_without_labels_are_those_with_labels():
    aims = attacks = 0
    for s in _positions():
        if s.phase == "deploy":
            for ref in s.queue:
                assert fire_values(s, ref) == [o.value for o in fire_options(s, "how", {"ability": ref})]
                aims += 1
        if s.phase == "resolve":
            choices = attack_choices(s)
            two = len({b for _, b, _ in choices}) > 1
            assert attack_keys(s) == [f"atk:{f}:{b}" if two else f"atk:{f}" for f, b, _ in choices]
            attacks += 1
        if s.battle is not None:
            for kind in ("foes", "allies", "self", "foe", "ally", "fallen"):
                assert target_values(s, kind) == [o.value for o in target_options(s, s.party[0], kind)]
    assert aims > 200 and attacks > 500


def test_apply_takes_a_turn_key_without_looking_it_up(monkeypatch):
    """The automatic player's turn moves are applied without `find_action` (and without
    offering them to it); the other moves still are looked up."""
    looked_up: list[str] = []
    real = type(BGK).find_action

    def find(self, state, player, action):
        key = action.key if hasattr(action, "key") else action
        # a reaction (the automatic player's heal, shield or revival first) is looked up
        # among those offered, in any phase
        looked_up.append("reaction" if key.startswith("use.") else state.phase)
        return real(self, state, player, action)

    monkeypatch.setattr(type(BGK), "find_action", find)
    moves = 0
    for seed in range(2):
        s = BGK.setup([f"p{i}" for i in range(4)], {}, seed)
        chooser = Rng(seed=seed)
        while BGK.result(s) is None:
            p = BGK.to_act(s)[0]
            action = BGK.auto_action(s, p, chooser)
            checked = legality.checks_keys(s, p) and not action.key.startswith("use.")
            assert (BGK._offered is None) == checked
            before = len(looked_up)
            s = BGK.apply(s, p, action.key, "..." if action.text_prompt else None).state
            assert (len(looked_up) == before) == checked
            moves += checked
    assert moves > 500 and looked_up and not set(looked_up) & legality.TURN_PHASES


def test_a_key_refused_on_keys_is_refused_with_the_long_ways_reason():
    s = next(x for x in automatic_positions(BGK, 2, range(1), 100) if x.phase == "play")
    seat = BGK.to_act(s)[0]
    other = next(p for p in s.players if p != seat)
    reasons = set()
    for player, key in ((seat, "atk:e0"), (seat, "play.card:Zz"), (other, "play.card:Ah"), ("nobody", "land")):
        with pytest.raises(IllegalAction) as refused:
            BGK.apply(s, player, key)
        with pytest.raises(IllegalAction) as long_way:
            BGK.find_action(s, player, key)
        assert str(refused.value) == str(long_way.value)
        reasons.add(str(refused.value))
    assert len(reasons) == 2


def test_a_field_holds_a_hand_only_when_every_two_of_its_cards_make_a_pair():
    """Every Field of three cards (of one deck, with repeats as several decks give them): one
    that `may_fire` rules out holds no hand; most Fields are ruled out."""
    ruled_out = held = 0
    for field in combinations_with_replacement(cards.full_deck(1), 3):
        pairs = (weigh.pair(field[0], field[1]), weigh.pair(field[0], field[2]), weigh.pair(field[1], field[2]))
        if not weigh.may_fire(pairs):
            assert cards.hands(field) == [], field
            ruled_out += 1
        held += bool(cards.hands(field))
    assert ruled_out > 10_000 and held > 2_000


def test_a_route_vote_weighed_alone_is_the_long_ways_vote():
    """The vote among the route's actions alone is the one made among every legal action (the
    reactions after them included), with the same draws of the chooser."""
    votes = drawn = 0
    for players, seeds, wander in GAMES:
        for played in automatic_positions(BGK, players, seeds, 400, random_share=wander):
            if played.phase != "route":
                continue
            hurt = played.model_copy(deep=True)  # a hurt party heads for a rest: no draw
            for h in hurt.party:
                h.hp = 1
            for s, seat in [(x, seat) for x in (played, hurt) for seat in BGK.to_act(x)]:
                quick, long_way = Rng(seed=votes), Rng(seed=votes)
                got = BGK.auto_action(s, seat, quick)
                assert got == policy.choose(BGK, s, seat, long_way, BGK.legal_actions(s, seat))
                assert got.model_fields_set == policy.choose(BGK, s, seat, Rng(seed=votes)).model_fields_set
                assert quick.counter == long_way.counter
                votes += 1
                drawn += quick.counter > 0
    assert votes > 20 and 0 < drawn < votes, (votes, drawn)


def test_a_step_worked_out_with_its_check_is_the_step_handle_takes():
    """`apply` checks a step key of the turn's plan and works out the move's arguments after
    it in one computation (`plans.step_after`, then `plans.settle`): for every legal step key
    it gives what `handle` does, and for every other key None, as the legal actions say."""
    steps, refused = 0, 0
    for s in _positions():
        plan = plans.TURN_PLANS.get(s.phase)
        if plan is None:
            continue
        for seat in s.players:
            if not legality.checks_keys(s, seat):
                continue
            legal = {a.key for a in BGK.legal_actions(s, seat)}
            for key in legal - {plan.back_key}:
                if key.startswith("use."):
                    assert plans.step_after(s, seat, plan, key) is None
                    continue
                after = plans.step_after(s, seat, plan, key)
                assert after is not None, (s.phase, seat, key)
                by_hand, by_step = s.model_copy(deep=True), s.model_copy(deep=True)
                done = plans.handle(by_hand, seat, plan, key)
                assert plans.settle(by_step, seat, plan, after) == done
                assert by_step.buildings == by_hand.buildings
                steps += 1
            for key in _near_misses(legal) - legal:
                assert plans.step_after(s, seat, plan, key) is None, (s.phase, seat, key)
                refused += 1
    assert steps > 1000 and refused > 3000


def test_a_camp_move_leaves_no_character_over_its_max_hp():
    """`apply` cuts the characters' HP to their max after a camp move only when the move
    changed a character (game.py `_flat`): after every camp move, none is over it, as when
    every character was looked at."""
    from rules.by_gods_and_kings.stats import max_hp

    moves, skipped = 0, 0
    for s in _positions():
        if s.phase != "camp" or not s.visited:
            continue
        s = s.model_copy(deep=True)
        for h in s.party:  # at their max: a move lowering it must cut their HP
            h.hp = max_hp(s, h)
        for seat in s.players:
            for a in BGK.legal_actions(s, seat):
                if a.key.split(":")[0].split(".")[0] in plans.PLANS or a.text_prompt:
                    continue
                after = BGK.apply(s, seat, a.key).state
                assert all(0 <= h.hp <= max_hp(after, h) for h in after.party), a.key
                skipped += all(h is g for h, g in zip(after.party, s.party, strict=True))
                moves += 1
    assert moves > 200 and skipped > 50
