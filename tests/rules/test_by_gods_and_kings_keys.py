"""The fourth round of speed work on By Gods and Kings, the automatic player's side: its
turn weighed on the keys of its actions, with only the chosen action built and labelled
(autoturn.py), and the card it plays scored from small tables (weigh.py). Each gives the long
way's answer and is really taken."""

from __future__ import annotations

from itertools import permutations

import pytest

from rules.by_gods_and_kings import GAME as BGK
from rules.by_gods_and_kings import (
    cards,
    game,
    policy,
    weigh,
)
from rules.by_gods_and_kings.abilities import ability, hand_abilities
from rules.by_gods_and_kings.autoturn import _labelled, auto_turn
from rules.by_gods_and_kings.game import _unique_labels
from rules.by_gods_and_kings.labels import unique_texts
from rules.by_gods_and_kings.state import BgkState, Status
from rules.by_gods_and_kings.stats import stat
from rules.by_gods_and_kings.turn import attack_choices
from rules.core import Action, Rng
from rules.core.state import independent_copy
from tests.support.playout import automatic_positions


def _positions(players: int, seeds: range, steps: int = 300, wander: int = 0):
    return automatic_positions(BGK, players, seeds, steps, random_share=wander)


def _long_turn(s: BgkState, seat: str) -> Action | None:
    """The choice among the seat's turn actions, every one of them built with its label."""
    return policy.turn_choice(s, seat, _unique_labels(BGK._turn_actions(s, seat)))


def _turn_seat(s: BgkState) -> str | None:
    seat = BGK.to_act(s)[0]
    return None if s.phase in ("over", "route") else seat


def _same(a: Action | None, b: Action | None) -> None:
    assert a == b
    if a is not None and b is not None:
        assert a.model_fields_set == b.model_fields_set


def _reacts(s: BgkState, seat: str) -> bool:
    """Whether the automatic player weighs a Discard or Sacrifice ability before its turn (an
    ally needs one): then the turn is not weighed on keys."""
    return seat not in s.buildings and bool(policy.wanted_reactions(s, seat))


def hero_index(s: BgkState) -> int:
    return int((s.actor or "c0")[1:])


# --- the turn weighed on keys ---------------------------------------------------------------------
def test_the_turn_weighed_on_keys_is_the_long_ways_choice():
    taken: dict[str, int] = {}
    for players, wander in ((1, 0), (4, 30), (8, 20)):
        for s in _positions(players, range(3), 300, wander):
            seat = _turn_seat(s)
            if seat is None:
                continue
            quick = auto_turn(s, seat)
            if quick is None or _reacts(s, seat):
                continue
            _same(quick, policy.choose(BGK, s, seat, Rng(seed=1), BGK.legal_actions(s, seat)))
            building = s.buildings.get(seat)
            if building is None:
                _same(quick, _long_turn(s, seat))
            kind = f"{s.phase}+{building.verb}" if building is not None else s.phase
            kind += " (one queued)" if s.phase == "deploy" and len(s.queue) == 1 else ""
            taken[kind] = taken.get(kind, 0) + 1
    assert taken.keys() == {"play", "play+play", "resolve", "deploy", "deploy (one queued)", "deploy+fire",
                            "enemy", "opening"}
    assert min(taken.values()) > 20 and taken["resolve"] > 300, taken  # shorter games with reactions


def test_the_keys_are_weighed_without_building_the_turns_actions(monkeypatch):
    def refused(*a, **k):
        pytest.fail("the turn's actions were built")
    quick = 0
    for s in _positions(4, range(2), 250):
        seat = _turn_seat(s)
        if seat is None or auto_turn(s, seat) is None or _reacts(s, seat):
            continue
        with monkeypatch.context() as m:
            m.setattr(game.ByGodsAndKings, "_turn_actions", refused)
            m.setattr(game.ByGodsAndKings, "legal_actions", refused)
            action = BGK.auto_action(s, seat, Rng(seed=1))
            out = BGK.apply(s, seat, action.key)  # found among the action offered
        assert out.state is not s
        quick += 1
    assert quick > 200


def test_the_deploy_choice_is_made_from_keys_whichever_ability_fires():
    s = next(x for x in _positions(4, range(4), 400) if x.phase == "deploy" and len(x.queue) >= 2)
    for queue in permutations(s.queue):
        t = independent_copy(s)
        t.queue = list(queue)
        _same(auto_turn(t, BGK.to_act(t)[0]), _long_turn(t, BGK.to_act(t)[0]))


def test_the_attack_follows_the_bonus_stat_and_takes_the_first_of_equals():
    picked: dict[str, int] = {}
    ties = 0
    for players in (4, 8):
        for s in _positions(players, range(3), 300):
            if s.phase != "resolve" or hand_abilities(s, s.hero(s.actor or "")):
                continue
            bonuses = list(dict.fromkeys(b for _, b, _ in attack_choices(s)))
            if len(bonuses) < 2:
                continue
            seat = BGK.to_act(s)[0]
            hero = s.hero(s.actor or "")
            gap = stat(s, hero, "physical") - stat(s, hero, "magic")
            lowered = [("petrify", 30), ("choke", 30), ("petrify", gap) if gap > 0 else ("choke", -gap)]
            for kind, amount in lowered:
                t = independent_copy(s)
                if amount:
                    t.party[hero_index(t)].statuses.append(Status(kind=kind, amount=amount, turns=1))
                quick = auto_turn(t, seat)
                assert quick is not None
                _same(quick, policy.choose(BGK, t, seat, Rng(seed=1), BGK.legal_actions(t, seat)))
                chosen = quick.key.split(":")[2]
                picked[chosen] = picked.get(chosen, 0) + 1
                if kind == lowered[-1][0] and amount == lowered[-1][1]:
                    assert chosen == bonuses[0], "equal bonuses: the first is taken"
                    ties += 1
    assert set(picked) == {"physical", "magic"} and min(picked.values()) > 20 and ties > 20, picked


# --- labels made for the chosen action alone ------------------------------------------------------
def test_labels_are_cut_and_numbered_as_before():
    long = "x" * 90
    labels = ["Hit A", "Hit A", "Hit A #2", long, long + "y", "Hit A"]
    assert unique_texts(labels) == ["Hit A", "Hit A #2", "Hit A #2 #2", "x" * 80, f"{'x' * 74} #2", "Hit A #3"]
    acts = [Action(key=f"k{i}", label=lab) for i, lab in enumerate(labels)]
    out = _unique_labels(acts)
    assert [a.label for a in out] == unique_texts(labels)
    assert out[0] is acts[0] and out[1] is not acts[1]
    alone = Action(key="k", label=long)  # the chosen action alone: cut, as among the others
    assert _labelled(alone).label == "x" * 80 and _labelled(alone, [long]).label == f"{'x' * 74} #2"
    assert _labelled(acts[0]) is acts[0] and _labelled(acts[0], labels[:2]).label == "Hit A #3"


def test_an_attack_on_a_foe_named_like_another_gets_the_numbered_label():
    s = next(x for x in _positions(8, range(2), 300) if x.phase == "resolve"
             and not BGK._resolve_actions(x)[-1].key == "deploy" and len(x.living_foes()) >= 3)
    seat = BGK.to_act(s)[0]
    picked = 0
    for victim in s.living_foes():
        t = independent_copy(s)
        for f in t.living_foes():  # every foe as weak and as named as the victim: the last one is hit
            f.name, f.hp = "Twin", (1 if f.id == victim.id else 50)
        quick = auto_turn(t, seat)
        assert quick is not None and quick.key.startswith(f"atk:{victim.id}")
        _same(quick, _long_turn(t, seat))
        picked += "#" in quick.label
    assert picked >= 2, "no numbered label was chosen: the test proves nothing"


def test_an_aim_at_a_foe_named_like_another_gets_the_numbered_label():
    numbered = 0
    for s in _positions(8, range(4), 400):
        seat = BGK.to_act(s)[0]
        if s.phase != "deploy" or len(s.queue) != 1 or seat in s.buildings or len(s.living_foes()) < 3:
            continue
        if ability(s, s.queue[0]).target != "foe":
            continue
        for victim in s.living_foes()[1:]:
            t = independent_copy(s)
            for f in t.living_foes():
                f.name, f.hp = "Twin", (1 if f.id == victim.id else 50)
            quick = auto_turn(t, seat)
            assert quick is not None and quick.key.endswith(f".{victim.id}")
            _same(quick, _long_turn(t, seat))
            numbered += "#" in quick.label
        if numbered > 5:
            break
    assert numbered > 5


def test_an_opening_card_of_a_unit_named_like_another_gets_the_numbered_label():
    s = next(x for x in _positions(1, range(2), 50) if x.phase == "opening" and len(x.opening) >= 3)
    seat = BGK.to_act(s)[0]
    hand = list(s.unit(s.opening[0]).hand)
    numbered = 0
    for n in range(1, len(s.opening)):
        for lone in dict.fromkeys(hand):  # the others hold one card, which the n-th unit holds too
            t = independent_copy(s)
            for i, uid in enumerate(t.opening):
                unit = t.unit(uid)
                unit.name, unit.hand = "Twin", (hand * 2 if i == n else [lone])  # copies of a card: one key
            quick = auto_turn(t, seat)
            assert quick is not None
            _same(quick, _long_turn(t, seat))
            numbered += "#" in quick.label
    assert numbered >= 2


# --- plays scored from tables ---------------------------------------------------------------------
def test_the_card_played_is_the_first_best_by_the_long_ways_scores():
    checked = ties = numb = short = 0
    for players in (1, 8):
        for s in _positions(players, range(3), 300, 20):
            if s.phase != "play" or s.actor is None:
                continue
            numbed = independent_copy(s)
            numbed.party[hero_index(s)].statuses.append(Status(kind="numb", turns=1))
            for t in (s, numbed):
                hero = t.hero(t.actor or "")
                offered = list(dict.fromkeys(hero.hand))
                best = {c: max(sc for sc, _ in policy._weigh_plays(t, hero, c)) for c in offered}
                expected = max(offered, key=best.__getitem__)
                assert policy._play_step(t, [f"play.card:{c}" for c in offered]) == f"play.card:{expected}"
                checked += 1
                ties += list(best.values()).count(best[expected]) > 1
                numb += t is numbed
                short += len(hero.field) < cards.FIELD_SIZE
    assert checked > 600 and ties > 20 and numb > 300 and short > 100, (checked, ties, numb, short)


def test_plays_scored_from_tables_are_the_long_ways():
    checked = numb = pushed = 0
    for players in (2, 8):
        for s in _positions(players, range(3), 300):
            if s.phase != "play":
                continue
            hero = s.hero(s.actor or "")
            numbed = independent_copy(hero)
            numbed.statuses = [*numbed.statuses, Status(kind="numb", turns=1)]
            for h in (hero, numbed):
                for c in dict.fromkeys(h.hand):
                    got = weigh.plays(s.cat, h.has("numb"), tuple(h.equipped), tuple(h.field), c)
                    assert list(got) == policy._weigh_plays(s, h, c)
                    checked += 1
                    numb += h is numbed
                    pushed += len(got) > 1
    assert checked > 500 and numb > 200 and pushed > 200


def test_the_hands_of_a_field_in_any_order_are_its_own():
    codes = ["Ah", "2h", "3h", "3c", "4h", "5s", "5d", "9d", "10d", "Jd", "Qd", "Kh", "Ks"]
    found = set()
    for a in codes:
        for b in codes:
            for c in codes[:7]:
                field = [a, b, c]
                kinds = tuple(cards.hands(field))
                for order in permutations(field):
                    assert cards.sorted_hands(order) == kinds
                found.add(kinds)
    assert len(found) >= 5
