"""The third round of speed work on By Gods and Kings: the automatic player weighs its turn
without the reactions, sheets and Fields are remembered on cheap keys, step actions are made
once, the copy of a character or an enemy is written out. Each shortcut gives the answer of the
long way and is really taken."""

from __future__ import annotations

import pytest

from rules.by_gods_and_kings import GAME as BGK
from rules.by_gods_and_kings import (
    abilities,
    cards,
    copying,
    cow,
    plans,
    policy,
    reactions,
    stats,
    turn,
)
from rules.by_gods_and_kings.memo import catalogue_memo
from rules.by_gods_and_kings.state import GEAR, BgkState, Foe, Hero, Status
from rules.core import Rng
from rules.core.state import independent_copy
from rules.core.steps import Building
from tests.support.playout import automatic_positions


def _positions(players: int, seeds: range, steps: int = 300, wander: int = 0):
    """Positions of seeded games; `wander`: percent of moves made at random instead."""
    return automatic_positions(BGK, players, seeds, steps, random_share=wander)


# --- the automatic player's turn ------------------------------------------------------------------
def test_the_automatic_choice_is_the_one_made_among_every_legal_action():
    checked = with_reactions = 0
    for players, wander in ((1, 0), (4, 30), (8, 30)):
        for s in _positions(players, range(2), 250, wander):
            p = BGK.to_act(s)[0]
            legal = BGK.legal_actions(s, p)
            long_way = policy.choose(BGK, s, p, Rng(seed=1), legal)
            assert BGK.auto_action(s, p, Rng(seed=1)) == long_way
            checked += 1
            with_reactions += any(a.key.startswith("use.") for a in legal)
    assert checked > 1000 and with_reactions > 100


def test_the_automatic_turn_builds_no_reaction_it_does_not_take(monkeypatch):
    real = plans.actions
    built = []

    def counted(s, seat, plan, *rest):
        built.append(plan.verb)
        return real(s, seat, plan, *rest)
    monkeypatch.setattr("rules.by_gods_and_kings.game.actions", counted)
    skipped = 0
    for s in _positions(4, range(1), 200):
        p = BGK.to_act(s)[0]
        if p in s.buildings or s.phase in ("route", "over") or not reactions.reaction_refs(s, p):
            continue
        built.clear()
        action = BGK.auto_action(s, p, Rng(seed=1))
        if not action.key.startswith("use."):
            assert "use" not in built, f"the reactions were built for {action.key}"
            skipped += 1
    assert skipped > 20


def test_reactions_are_found_once_per_legal_actions(monkeypatch):
    calls = []
    real = reactions.reaction_refs

    def counted(*a):
        calls.append(1)
        return real(*a)
    monkeypatch.setattr(reactions, "reaction_refs", counted)
    monkeypatch.setattr(plans, "reaction_refs", counted)
    monkeypatch.setattr("rules.by_gods_and_kings.game.reaction_refs", counted)
    seen = 0
    for s in _positions(4, range(1), 200):
        p = BGK.to_act(s)[0]
        if p in s.buildings or not real(s, p):
            continue
        calls.clear()
        legal = BGK.legal_actions(s, p)
        assert any(a.key.startswith("use.") for a in legal)
        assert len(calls) == 1, "the seat's reactions were looked for again"
        seen += 1
    assert seen > 20


# --- step actions ---------------------------------------------------------------------------------
def test_a_step_action_is_made_once_and_is_the_plain_one():
    s = next(x for x in _positions(2, range(1)) if x.phase == "play")
    p = BGK.to_act(s)[0]
    first = plans.actions(s, p, plans.PLAY)
    again = plans.actions(s, p, plans.PLAY)
    assert first and all(a is b for a, b in zip(first, again, strict=True))
    plain = plans.PLAY.actions(None, lambda arg, chosen: turn.play_options(s, arg, chosen))
    assert [a.model_dump() for a in first] == [a.model_dump() for a in plain]
    option = turn.play_options(s, "card", {})[0]
    made = plans.step_action(plans.PLAY, "card", option, "Play a card")
    assert made.group == "Play a card" and made.key == f"play.card:{option.value}"
    assert plans.step_action(plans.PLAY, "card", option, None).group is None


def test_the_next_argument_is_the_plans_own():
    for plan in plans.PLANS.values():
        for n in range(len(plan.args) + 1):
            args = {a: "x" for a in plan.args[:n]}
            assert plans._next_arg(plan, args) == plan.next_arg(Building(verb=plan.verb, args=args))


# --- stats -----------------------------------------------------------------------------------------
def test_a_basic_attacks_damage_is_worked_out_once_per_bonus(monkeypatch):
    s = next(x for x in _positions(8, range(2)) if x.phase == "resolve" and len(x.living_foes()) > 1)
    hero = turn.actor_hero(s)
    long_way = [(f.id, b, turn.attack_raw(s, hero, b)) for f in s.living_foes()
                for b in turn.attack_stats(s.cat, hero.loadout)]
    calls = []
    real = turn.stat
    monkeypatch.setattr(turn, "stat", lambda *a: calls.append(1) or real(*a))
    assert turn.attack_choices(s) == long_way
    assert len(calls) == len(turn.attack_stats(s.cat, hero.loadout))


def test_a_characters_stats_follow_its_own_shards_even_with_the_same_experience():
    s = next(x for x in _positions(4, range(1), 40) if x.battle is not None)
    hero = s.party[0]
    spare = [sid for sid in s.cat.shards if all(sid not in h.equipped for h in s.party)]
    assert hero.equipped and spare
    for other in spare[:20]:
        changed = independent_copy(hero)
        changed.equipped = [other, *changed.equipped[1:]]
        changed.shard_xp = {}
        same = independent_copy(hero)
        same.shard_xp = {}
        others = frozenset(sid for h in s.party[1:] for sid in h.equipped)
        assert stats.hero_base(s.cat, same, s.party) == stats._hero_base(s.cat, same, others)
        assert stats.hero_base(s.cat, changed, s.party) == stats._hero_base(s.cat, changed, others)


def test_a_characters_stats_follow_another_characters_shards():
    s = next(x for x in _positions(4, range(1), 40) if x.battle is not None)
    shard, ally = next((sid, b.ally_shard[0]) for sid, sh in s.cat.shards.items() for b in sh.bonuses
                       if b.ally_shard and not b.weapon and b.stats != type(b.stats)())
    hero = independent_copy(s.party[0])
    hero.equipped, hero.shard_xp = [shard], {}
    answers = []
    for theirs in ([ally], [], [ally]):
        friends = [independent_copy(h) for h in s.party[1:]]
        for friend in friends:
            friend.equipped = []
        friends[0].equipped = theirs
        party = [hero, *friends]
        others = frozenset(sid for x in party if x.id != hero.id for sid in x.equipped)
        answers.append(stats.hero_base(s.cat, hero, party))
        assert answers[-1] == stats._hero_base(s.cat, hero, others)
    assert answers[0] != answers[1] == stats._hero_base(s.cat, hero, frozenset())


# --- Fields weighed ---------------------------------------------------------------------------------
def _plain_field_abilities(s: BgkState, hero: Hero, field: list[str]) -> list[str]:
    if hero.has("numb"):
        return []
    kinds = cards.hands(field)
    return [f"{sid}.{a.trigger}" for sid in hero.equipped for a in s.cat.shards[sid].abilities
            if a.trigger in kinds]


def test_the_abilities_of_a_field_are_the_plain_ones_and_each_caller_owns_its_list():
    checked = 0
    for s in list(_positions(4, range(2), 250))[::3]:
        for hero in s.party:
            pool = [*hero.field, *hero.hand]
            for i in range(len(pool)):
                field = pool[i:i + 3]
                found = abilities.field_abilities(s, hero, field)
                assert found == _plain_field_abilities(s, hero, field)
                found.append("spoiled")
                assert abilities.field_abilities(s, hero, field) == _plain_field_abilities(s, hero, field)
                checked += 1
    assert checked > 300


def test_the_abilities_of_a_field_are_remembered():
    s = next(x for x in _positions(4, range(1)) if any(abilities.hand_abilities(x, h) for h in x.party))
    hero = next(h for h in s.party if abilities.hand_abilities(s, h))
    memo = catalogue_memo(s.cat, "field_abilities")
    key = (tuple(hero.equipped), tuple(cards.hands(hero.field)))
    assert list(memo[key]) == _plain_field_abilities(s, hero, hero.field)
    memo[key] = ("kept.answer",)  # the answer is served from the table
    assert abilities.hand_abilities(s, hero) == ["kept.answer"]
    del memo[key]
    assert abilities.hand_abilities(s, hero) == _plain_field_abilities(s, hero, hero.field)


def test_plays_are_weighed_once_and_as_the_long_way(monkeypatch):
    seen = 0
    for s in _positions(4, range(2), 250):
        if s.phase != "play":
            continue
        hero = s.hero(s.actor or "")
        for c in hero.hand:
            assert list(policy._play_options(s, hero, c)) == policy._weigh_plays(s, hero, c)
            seen += 1
    assert seen > 100
    s = next(x for x in _positions(2, range(3)) if x.phase == "play")
    hero = s.hero(s.actor or "")
    expected = {c: policy._play_options(s, hero, c) for c in hero.hand}
    monkeypatch.setattr(policy.weigh, "plays", lambda *a: pytest.fail("weighed again"))
    assert {c: policy._play_options(s, hero, c) for c in hero.hand} == expected


def test_a_numb_character_weighs_its_plays_as_numb():
    s = next(x for x in _positions(4, range(2)) if x.phase == "play"
             and any(policy._play_options(x, x.hero(x.actor or ""), c)[0][0] >= 100 for c in x.hero(x.actor or "").hand))
    hero = s.hero(s.actor or "")
    numbed = independent_copy(hero)
    numbed.statuses = [*numbed.statuses, Status(kind="numb", turns=2)]
    for c in hero.hand:
        assert list(policy._play_options(s, numbed, c)) == policy._weigh_plays(s, numbed, c)
        assert all(score < 100 for score, _ in policy._play_options(s, numbed, c))


def test_a_fields_potential_adds_up_the_pairs_worked_out_once():
    before = policy._pair.cache_info()
    policy._potential_of.__wrapped__(("5h", "6h", "Ks"))
    after = policy._pair.cache_info()
    assert after.hits + after.misses == before.hits + before.misses + 3
    assert policy._potential_of.__wrapped__(("5h", "6h", "Ks")) == 2 + 0 + 0


# --- the copy ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("model,copier,kept", [(Hero, copying._hero, ()), (Hero, cow.hero, GEAR), (Foe, copying._foe, ())],
                         ids=["hero", "hero-for-a-move", "foe"])
def test_the_written_out_copies_copy_exactly_the_fields_of_the_table(model, copier, kept):
    """Each copy copies the fields the table copies; the copy of a character for a move keeps
    its gear (state.GEAR: replaced whole, never changed in place)."""
    checked = 0
    for s in _positions(8, range(1), 200):
        for unit in (s.party if model is Hero else s.foes):
            copy = copier(unit)
            assert type(copy) is model and copy == unit
            assert copy.model_fields_set == unit.model_fields_set
            assert copy.model_fields_set is not unit.model_fields_set
            for name in model.model_fields:
                value = getattr(unit, name)
                if name in copying.HOW[model] and value is not None and name not in kept:
                    assert getattr(copy, name) is not value, f"{name} is shared"
                else:
                    assert getattr(copy, name) is value, f"{name} is copied but need not be"
            checked += 1
    assert checked > 100
