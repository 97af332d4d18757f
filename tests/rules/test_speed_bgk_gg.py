"""The speed work of By Gods and Kings and Guilty Gods, and the compact saved form of By Gods
and Kings: each shortcut gives the answer of the long way, is really taken, and never answers
for a state that changed since."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from rules.by_gods_and_kings import GAME as BGK
from rules.by_gods_and_kings import cards, copying, plans, reactions, stats
from rules.by_gods_and_kings.game import ByGodsAndKings
from rules.by_gods_and_kings.levels import levelled
from rules.by_gods_and_kings.state import BgkState
from rules.core import IllegalAction, Rng
from rules.core.state import independent_copy
from rules.guilty_gods import GAME as GG
from rules.guilty_gods import combos, values
from rules.guilty_gods.game import GuiltyGods
from rules.guilty_gods.state import Move
from tests.support.playout import automatic_positions


def _bgk_positions(players: int, seeds: range, steps: int = 300):
    return automatic_positions(BGK, players, seeds, steps)


# --- applying the automatic choice -----------------------------------------------------------
@pytest.mark.parametrize("game,cls", [(BGK, ByGodsAndKings), (GG, GuiltyGods)], ids=["bgk", "gg"])
def test_apply_uses_the_actions_the_automatic_choice_was_made_among(monkeypatch, game, cls):
    names = ["a", "b"] if game is GG else ["a", "b", "c"]
    s = game.setup(names, {}, 5)
    chooser = Rng(seed=5)
    calls = []
    real = cls.legal_actions

    def counted(self, *a):
        calls.append(1)
        return real(self, *a)
    monkeypatch.setattr(cls, "legal_actions", counted)
    for _ in range(80):
        if game.result(s) is not None:
            break
        p = game.to_act(s)[0]
        action = game.auto_action(s, p, chooser)
        before = len(calls)
        s = game.apply(s, p, action.key).state
        assert len(calls) == before, "apply built the legal actions again"


@pytest.mark.parametrize("game", [BGK, GG], ids=["bgk", "gg"])
def test_a_state_changed_after_the_automatic_choice_is_checked_again(game):
    names = ["a", "b"]
    s = game.setup(names, {}, 2)
    p = game.to_act(s)[0]
    action = game.auto_action(s, p, Rng(seed=2))
    s.phase = "over"  # the state changed under the kept actions: they must not be used
    with pytest.raises(IllegalAction):
        game.apply(s, p, action.key)


# --- stats --------------------------------------------------------------------------------------
def test_character_stats_are_remembered_and_follow_every_change(monkeypatch):
    s = next(x for x in _bgk_positions(4, range(1), 40) if x.battle is not None)
    cat = s.cat
    hero = s.party[0]
    expected = stats._hero_base(cat, hero, frozenset(sid for h in s.party[1:] for sid in h.equipped))
    assert stats.hero_base(cat, hero, s.party) == expected
    monkeypatch.setattr(stats, "_hero_base", lambda *a: pytest.fail("worked out again"))
    for _ in range(3):
        assert stats.hero_base(cat, hero, s.party) is stats.hero_base(cat, hero, s.party)
    monkeypatch.undo()
    changed = independent_copy(hero)
    changed.shard_xp = {sid: 1000 for sid in changed.equipped}  # every shard at its top level
    others = frozenset(sid for h in s.party[1:] for sid in h.equipped)
    assert stats.hero_base(cat, changed, s.party) == stats._hero_base(cat, changed, others)
    assert stats.hero_base(cat, changed, s.party) != expected
    changed.equipped = changed.equipped[:1]
    assert stats.hero_base(cat, changed, s.party) == stats._hero_base(cat, changed, others)
    alone = stats.hero_base(cat, hero, [hero])  # the other characters' shards count too
    assert alone == stats._hero_base(cat, hero, frozenset())


def test_the_sheet_of_every_unit_matches_the_long_way():
    seen = 0
    for s in _bgk_positions(8, range(2), 200):
        for unit in [*s.party, *s.foes, *s.npcs]:
            base = stats.sheet(s, unit)
            if isinstance(unit, type(s.party[0])):
                others = frozenset(sid for h in s.party if h.id != unit.id for sid in h.equipped)
                raw = stats._hero_base(s.cat, unit, others)
            elif unit.id[0] == "e":
                enemy = s.cat.enemies[unit.enemy]
                raw = enemy.stats.model_copy(update={"hp": stats.scaled_hp(enemy.hp, enemy.rank, len(s.party))})
            else:
                raw = s.cat.npcs[unit.npc].stats
            values_ = {"hp": max(1, raw.hp), "defense": raw.defense, "physical": raw.physical,
                       "magic": raw.magic, "spd": raw.spd}
            for st in unit.statuses:
                field = stats.STAT_DOWN.get(st.kind) if st.kind != "taunt" else None
                if field is not None:
                    values_[field] -= st.amount
            for f in ("defense", "physical", "magic", "spd"):
                values_[f] = max(0, values_[f])
            assert base == stats.Stats(**values_)
            seen += 1
    assert seen > 1000


# --- the copy apply makes ---------------------------------------------------------------------
def test_the_copy_knows_every_field_of_every_model():
    for model, how in copying.HOW.items():
        known = set(copying.ATOMS.get(model, ())) | set(how)
        assert known == set(model.model_fields), f"{model.__name__}: {set(model.model_fields) ^ known}"
        assert not set(copying.ATOMS.get(model, ())) & set(how)


def _containers(value, path="s"):
    """(path, object) of every list, dict and unfrozen model inside a value."""
    if isinstance(value, list | dict):
        yield path, value
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            yield from _containers(v, f"{path}[{k!r}]")
    elif isinstance(value, BaseModel) and not value.model_config.get("frozen"):
        yield path, value
        for name in type(value).model_fields:
            yield from _containers(getattr(value, name), f"{path}.{name}")


def test_the_copy_shares_nothing_a_move_changes_but_the_origin():
    checked = 0
    for s in _bgk_positions(8, range(1), 200):
        if s.battle is None or not any(u.statuses for u in s.foes):
            continue
        s.rng.script(1)
        copy = copying.copy_state(s)
        assert copy == s and copy.origin is s.origin
        ours = {id(v) for p, v in _containers(s) if not p.startswith("s.origin")}
        for path, v in _containers(copy):
            if not path.startswith("s.origin"):
                assert id(v) not in ours, f"{path} is shared"
        checked += 1
    assert checked > 5


# --- cards, options and reactions ---------------------------------------------------------------
def test_card_lookups_match_their_definitions():
    for code in cards.full_deck(1):
        assert cards.rank(code) == cards.RANKS.index(code[:-1]) + 1
        assert cards.name(code) == cards.card(code).name
    found = cards.hands(["Ah", "2h", "3h"])
    found.append("three")  # a caller's list is its own: the remembered answer is untouched
    assert cards.hands(["Ah", "2h", "3h"]) == ["flush", "straight", "three"][:len(cards._hands(("Ah", "2h", "3h")))]
    assert cards.hands(["Ah", "2h", "3h"]) == list(cards._hands(("Ah", "2h", "3h")))


def test_building_the_actions_asks_each_option_once(monkeypatch):
    asked = []
    real = reactions.use_options

    def counted(*a):
        asked.append(a[2:4])
        return real(*a)
    monkeypatch.setattr(reactions, "use_options", counted)
    monkeypatch.setattr(plans, "use_options", reactions.use_options)
    for s in _bgk_positions(4, range(1), 80):
        for seat in s.players:
            if reactions.reaction_refs(s, seat):
                asked.clear()
                plans.actions(s, seat, plans.USE)
                keys = [(arg, tuple(chosen.items())) for arg, chosen in asked]
                assert asked and len(keys) == len(set(keys)), "an option was asked twice"


def test_reactions_find_targets_as_the_options_do():
    checked = 0
    for s in _bgk_positions(8, range(2), 200):
        grown = independent_copy(s.party[0])
        grown.shard_xp = {sid: 1000 for sid in grown.equipped}  # its shards at their top level
        for hero in [*s.party, grown]:
            for kind in ("foe", "foes", "ally", "allies", "self", "fallen"):
                assert reactions.has_target(s, hero, kind) == bool(reactions.target_options(s, hero, kind))
                checked += 1
            for sid in hero.equipped:
                for ab in s.cat.shards[sid].abilities:
                    ref = f"{sid}.{ab.trigger}"
                    assert reactions.level_description(s, hero, ref, ab) == levelled(s, hero, ab).effect.describe()[:100]
    assert checked > 1000


# --- Guilty Gods ----------------------------------------------------------------------------------
def test_guilty_gods_places_a_card_without_a_deep_copy_and_leaves_the_move_alone(monkeypatch):
    s = GG.setup(["a", "b"], {}, 3)
    chooser = Rng(seed=3)
    real = Move.model_copy
    monkeypatch.setattr(Move, "model_copy", lambda self, *, update=None, deep=False: (
        pytest.fail("a deep copy of the move") if deep else real(self, update=update)))
    placed = 0
    for _ in range(200):
        if GG.result(s) is not None:
            break
        p = GG.to_act(s)[0]
        before = s.draft.model_dump_json() if s.draft is not None else None
        s2 = GG.apply(s, p, GG.auto_action(s, p, chooser).key).state
        if s.draft is not None:
            assert s.draft.model_dump_json() == before
            placed += 1
        s = s2
    assert placed > 5
    move = Move(player="a", kind="attack")
    assert combos.place(s, move, "x", "row").row[0].card == "x" and move.row == []


def test_guilty_gods_effect_values_are_the_plain_ones():
    s = GG.setup(["a", "b"], {}, 4)
    chooser = Rng(seed=4)
    seen: set[float] = set()
    for _ in range(150):
        if GG.result(s) is not None:
            break
        if s.seats:
            for p in s.players:
                worth = values.EffectValues(s, p)
                for card in s.cards.values():
                    for e in [x.effect for x in (card.skill, card.support) if x is not None]:
                        assert worth(e) == values.effect_value(s, p, e) == worth(e)
                        seen.add(worth(e))
        p = GG.to_act(s)[0]
        s = GG.apply(s, p, GG.auto_action(s, p, chooser).key).state
    assert len(seen) > 3


def test_guilty_gods_an_attack_plan_values_each_effect_once(monkeypatch):
    s = GG.setup(["a", "b"], {}, 6)
    chooser = Rng(seed=6)
    planned = 0
    real = values.effect_value
    for _ in range(120):
        if GG.result(s) is not None:
            break
        p = GG.to_act(s)[0]
        if s.phase == "act" and s.draft is None:
            asked: list[int] = []

            def counted(state, player, e, asked=asked):
                asked.append(id(e))
                return real(state, player, e)
            monkeypatch.setattr(values, "effect_value", counted)
            values.plan_attack(s, p)
            monkeypatch.setattr(values, "effect_value", real)
            assert len(asked) == len(set(asked)), "an effect was valued twice"
            planned += bool(asked)
        s = GG.apply(s, p, GG.auto_action(s, p, chooser).key).state
    assert planned > 3


# --- the saved form ---------------------------------------------------------------------------------
def test_saved_states_are_small_and_load_back_the_same():
    largest = 0
    for s in _bgk_positions(8, range(1), 800):
        text = BGK.dump_state(s)
        largest = max(largest, len(text.encode()))
        assert BGK.load_state(text) == s
        plain = BgkState.model_validate_json(s.model_dump_json())  # the form written before
        assert plain == s
    assert 0 < largest <= 4096


def test_the_saved_form_keeps_what_differs_from_the_defaults():
    s = next(x for x in _bgk_positions(3, range(1), 100) if x.battle is not None)
    s.origin[1].hand = ["Ah"]  # not what a character usually enters with: kept explicitly
    s.origin[2].name = "Renamed"
    s.party[0].id = "x9"
    s.deck = [*s.deck, "bogus"]
    text = BGK.dump_state(s)
    back = BGK.load_state(text)
    assert back == s
    data = json.loads(text)
    assert data["v"] == 2 and isinstance(data["deck"], list) and data["party"][0]["id"] == "x9"
