"""Deathly Thrones: the rulebook's battle examples, the decks, counters, views and playouts."""

from __future__ import annotations

import pytest

import rules
from rules.core import Card, IllegalAction, Rng, Suit
from rules.core.state import independent_copy
from rules.deathly_thrones import policy
from rules.deathly_thrones.combat import battle_cards, resolve_round
from rules.deathly_thrones.content import characters, quests
from rules.deathly_thrones.state import Fight, RunState
from rules.deathly_thrones.steps import step_cards, step_value

GAME = rules.get_game("deathly-thrones")


def c(rank: int, suit: Suit = Suit.CLUBS) -> Card:
    return Card(rank=rank, suit=suit)


def fight_state(yours: int, theirs: int, enemy_health: int = 2, enemy_armor: int = 1,
                character: str = "hero") -> RunState:
    """The Hero at step 3 of the Iron Throne facing a naked skeleton, with the next two battle
    cards scripted (yours first, then the enemy's)."""
    s = GAME.setup(["p"], {"character": character}, 1)
    rest = [x for x in battle_cards() if x not in (c(yours), c(theirs, Suit.DIAMONDS))]
    s.battle_deck = rest + [c(theirs, Suit.DIAMONDS), c(yours)]  # drawn from the end
    drawn = [x for x in s.step_deck if x.rank == 12][:1]
    s.step_deck = [x for x in s.step_deck if x not in drawn]
    s.steps_drawn, s.position, s.visited = drawn, 3, [3]
    s.fight = Fight(step=3, enemy="Naked Skeleton", health=enemy_health, armor=enemy_armor,
                    start_health=enemy_health, start_armor=enemy_armor)
    s.phase = "fight"
    GAME.check_invariants(s)
    return s


# --- the rulebook's three battle examples ---------------------------------------------

def test_perfect_attack_numbers():
    r = resolve_round(3, 5, 2, 1, c(8), c(3))
    assert (r.your_power, r.enemy_power, r.hits, r.target, r.armor, r.damage) == (11, 5, 6, "enemy", 1, 5)


def test_perfect_attack_on_health_kills():
    s = fight_state(8, 3)
    out = GAME.apply(s, "p", "battle")
    assert out.state.phase == "choose"
    keys = [a.key for a in GAME.legal_actions(out.state, "p")]
    assert keys == ["hit:health", "hit:armor"]
    battle = next(e for e in out.events if e.kind == "battle")
    assert battle.data["your_power"] == 11 and battle.data["enemy_power"] == 5
    assert battle.data["hits"] == 6 and battle.data["damage"] == 5
    done = GAME.apply(out.state, "p", "hit:health")
    assert done.state.fight.health == 0 and done.state.phase == "walk"
    assert any(e.kind == "victory" for e in done.events)
    assert done.state.health == 3 and done.state.armor == 5
    GAME.check_invariants(done.state)


def test_perfect_attack_on_armor_breaks_it():
    s = fight_state(8, 3)
    s = GAME.apply(s, "p", "battle").state
    s = GAME.apply(s, "p", "hit:armor").state
    assert (s.fight.health, s.fight.armor, s.phase) == (2, 0, "fight")
    assert s.fight.last.lost == 1  # the other 4 damage points are lost
    GAME.check_invariants(s)


def test_good_defense_takes_no_damage_and_asks_nothing():
    r = resolve_round(3, 5, 2, 1, c(2), c(6))
    assert (r.your_power, r.enemy_power, r.hits, r.target, r.damage) == (5, 8, 3, "you", 0)
    s = GAME.apply(fight_state(2, 6), "p", "battle").state
    assert s.phase == "fight" and (s.health, s.armor) == (3, 5)
    assert s.battle_table == [] and len(s.battle_discard) == 2


@pytest.mark.parametrize("part,expected", [("health", (1, 5)), ("armor", (3, 3))])
def test_weak_defense_choice(part, expected):
    r = resolve_round(3, 5, 2, 1, c(1), c(9))
    assert (r.your_power, r.enemy_power, r.hits, r.target, r.damage) == (4, 11, 7, "you", 2)
    s = GAME.apply(fight_state(1, 9), "p", "battle").state
    assert s.phase == "choose"
    labels = [a.label for a in GAME.legal_actions(s, "p")]
    assert labels == ["Damage to armor (♠ 5 → 3)", "Damage to health (♥ 3 → 1)"]  # armor first
    s = GAME.apply(s, "p", f"hit:{part}").state
    assert (s.health, s.armor) == expected and s.phase == "fight"


def test_no_armor_left_means_no_choice():
    s = fight_state(9, 1, enemy_health=5, enemy_armor=0)
    out = GAME.apply(s, "p", "battle")
    # powers 12 and 6: 6 hits, no armor, so the damage lands on health at once
    assert out.state.phase == "walk" and out.state.fight.health == 0


def test_tie_is_redrawn_in_the_same_click():
    s = fight_state(4, 5, enemy_health=2, enemy_armor=1)  # 3+4 = 2+5: a tie
    out = GAME.apply(s, "p", "battle")
    battles = [e for e in out.events if e.kind == "battle"]
    assert len(battles) >= 2 and battles[0].data["target"] is None
    assert battles[-1].data["target"] is not None
    GAME.check_invariants(out.state)


def test_player_death_ends_the_run():
    s = fight_state(1, 9, enemy_health=2, enemy_armor=1)
    s.health, s.armor = 1, 0
    out = GAME.apply(s, "p", "battle")
    assert out.state.outcome == "dead" and out.state.phase == "over"
    res = GAME.result(out.state)
    assert res.winners == [] and res.tags == {"character": "hero", "quest": "iron-throne"}
    assert GAME.to_act(out.state) == [] and GAME.legal_actions(out.state, "p") == []


# --- decks ------------------------------------------------------------------------

def test_step_deck_is_sixteen_cards_adding_to_forty():
    cards = step_cards()
    assert len(cards) == 16 and sum(step_value(x) for x in cards) == 40
    assert sorted(step_value(x) for x in cards) == [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4


@pytest.mark.parametrize("seed", range(20))
def test_walking_always_ends_on_forty(seed):
    s = GAME.setup(["p"], {}, seed)
    positions = []
    for card in reversed(s.step_deck):
        positions.append((positions[-1] if positions else 0) + step_value(card))
    assert positions[-1] == 40 and all(p < 40 for p in positions[:-1])


def test_battle_discard_is_reshuffled_when_the_deck_runs_out():
    s = fight_state(5, 5)
    s.battle_discard = s.battle_deck[:-1]
    s.battle_deck = s.battle_deck[-1:]  # one card left: the second draw reshuffles
    GAME.check_invariants(s)
    out = GAME.apply(s, "p", "battle")
    kinds = [e.kind for e in out.events]
    assert "reshuffle" in kinds
    reshuffle = next(e for e in out.events if e.kind == "reshuffle")
    assert reshuffle.data["cards"] == 17
    GAME.check_invariants(out.state)
    total = out.state.battle_deck + out.state.battle_discard + out.state.battle_table
    assert len(total) == 18


def test_reshuffle_is_seeded():
    s = fight_state(5, 5)
    s.battle_discard, s.battle_deck = s.battle_deck, []
    a = GAME.apply(s, "p", "battle").state
    b = GAME.apply(s, "p", "battle").state
    assert a == b and s.battle_deck == []


# --- events, counters -------------------------------------------------------------

def _land_on(step: int, health: int, armor: int) -> RunState:
    s = GAME.setup(["p"], {}, 5)
    # a card worth `step` (1..4) goes on top of the step deck
    card = next(x for x in s.step_deck if step_value(x) == step)
    s.step_deck.remove(card)
    s.step_deck.append(card)
    s.health, s.armor = health, armor
    return s


def test_rest_is_clamped_at_nine():
    s = _land_on(1, 9, 9)  # step 1 of the Iron Throne: a rest, +1 armor
    out = GAME.apply(s, "p", "step")
    assert out.state.armor == 9 and out.state.phase == "walk"
    assert (out.state.position, out.state.visited) == (1, [1])


def test_hurt_is_clamped_at_zero_and_can_kill():
    s = _land_on(2, 1, 0)  # step 2: rusted grate, -1 health
    out = GAME.apply(s, "p", "step")
    assert out.state.health == 0 and out.state.outcome == "dead"
    assert any(e.kind == "death" for e in out.events)


def test_stories_are_told_when_walked_past():
    s = GAME.setup(["p"], {}, 5)
    s.position = 5
    card = next(x for x in s.step_deck if step_value(x) == 4)  # 5 -> 9 walks past step 7
    s.step_deck.remove(card)
    s.step_deck.append(card)
    out = GAME.apply(s, "p", "step")
    stories = [e for e in out.events if e.kind == "story"]
    assert [e.data["step"] for e in stories] == [7]


def test_stone_guardian_leaves_a_stone_shield():
    quest = quests()["iron-throne"]
    assert quest.at(3).name == "Green Slime" and quest.at(3).type == "fight"
    guardian = quest.at(7)
    assert guardian.name == "Stone Guardian" and guardian.result.armor == 2
    s = fight_state(9, 1, enemy_health=1, enemy_armor=0)
    s.fight = Fight(step=7, enemy="Stone Guardian", health=1, armor=0, start_health=3, start_armor=3)
    s.armor = 2
    s = GAME.apply(s, "p", "battle").state
    assert s.armor == 4  # the rulebook's example: 3♡ and 2♤, then the shield makes 4♤


# --- the game interface -------------------------------------------------------------

def test_options_come_from_content():
    opts = {o.key: o for o in GAME.options}
    assert opts["character"].default == "hero"
    assert [x.value for x in opts["character"].choices] == ["hero", "barbarian", "magician", "dwarf"]
    assert opts["quest"].default == "iron-throne"
    assert {x.value for x in opts["quest"].choices} == set(quests()) and len(quests()) >= 3
    chars = characters()
    assert [(x.health, x.armor) for x in chars.values()] == [(3, 5), (6, 2), (2, 6), (5, 3)]
    with pytest.raises(IllegalAction):
        GAME.setup(["p"], {"character": "wizard"}, 1)
    with pytest.raises(IllegalAction):
        GAME.setup(["p", "q"], {}, 1)


def test_setup_uses_the_character():
    s = GAME.setup(["p"], {"character": "magician", "quest": "ash-throne"}, 3)
    assert (s.health, s.armor, s.quest) == (2, 6, "ash-throne")
    assert [a.key for a in GAME.legal_actions(s, "p")] == ["step"]
    assert GAME.legal_actions(s, "someone-else") == []


def test_view_is_public_and_hides_the_deck_order():
    s = GAME.setup(["p"], {}, 9)
    for _ in range(3):
        s = GAME.apply(s, "p", GAME.auto_action(s, "p", Rng(seed=0)).key).state
    assert GAME.view(s, None) == GAME.view(s, "p")
    other = independent_copy(s)
    other.battle_deck = list(reversed(other.battle_deck))
    other.step_deck = list(reversed(other.step_deck))
    assert GAME.view(other, None) == GAME.view(s, None)
    dump = GAME.view(s, None).model_dump()
    assert "battle_deck" not in dump and "step_deck" not in dump


def test_auto_player_kills_when_it_can():
    assert policy.best_part(3, 5, 2, 1, "enemy", 5, False) == "health"
    s = GAME.apply(fight_state(8, 3), "p", "battle").state
    assert GAME.auto_action(s, "p", Rng(seed=0)).key == "hit:health"


def test_rules_pages_fit():
    pages = GAME.rules_pages()
    assert pages and all(len(p.body) <= 4000 for p in pages)


# --- random playouts ------------------------------------------------------------------

PLAYOUTS = [(ch, q, seed) for ch in ("hero", "barbarian", "magician", "dwarf")
            for q in sorted(quests()) for seed in range(4)]


@pytest.mark.parametrize("character,quest,seed", PLAYOUTS)
def test_random_playout_ends_in_a_win_or_a_death(character, quest, seed):
    s = GAME.setup(["p"], {"character": character, "quest": quest}, seed)
    chooser = Rng(seed=seed + 1000)
    for _ in range(GAME.max_steps):
        GAME.check_invariants(s)
        if GAME.result(s) is not None:
            break
        legal = GAME.legal_actions(s, "p")
        action = chooser.choice(legal) if chooser.randint(0, 1) else GAME.auto_action(s, "p", chooser)
        s = GAME.apply(s, "p", action.key).state
    res = GAME.result(s)
    assert res is not None
    if res.winners:
        assert res.winners == ["p"] and s.position == 40 and s.step_deck == [] and s.health > 0
    else:
        assert s.health == 0 and s.outcome == "dead"
    assert res.tags == {"character": character, "quest": quest}
    assert res.scores == {"p": float(s.position)}


def test_simulator_groups_by_character_and_quest():
    from rules.simulate import simulate

    report = simulate("deathly-thrones", 20, 1, {"character": "barbarian", "quest": "sunken-throne"})
    assert set(report["by_tag"]) == {"character", "quest"}
    assert report["by_tag"]["character"]["barbarian"][1] == 20


def test_fight_on_draws_rounds_until_a_choice_or_a_fall():
    """Against heavy armor most hits are stopped: one "Fight on" plays those rounds in one click
    and stops at the first round that asks for a choice, or when someone falls."""
    for seed in range(30):
        s = fight_state(5, 5, enemy_health=9, enemy_armor=6)
        s.rng = Rng(seed=seed)
        s.battle_deck = Rng(seed=seed).shuffled(s.battle_deck)
        assert "fight_on" in [a.key for a in GAME.legal_actions(s, "p")]
        out = GAME.apply(s, "p", "fight_on")
        rounds = [e for e in out.events if e.kind == "battle"]
        after = out.state
        assert rounds
        assert after.phase != "fight", "Fight on stopped while nothing asked for a choice"
        # every round but the last told nothing to choose (stopped by armor, a tie, or landed alone)
        if after.phase == "choose":
            assert after.fight is not None and after.fight.last is not None
            assert after.fight.last.damage > 0
        GAME.check_invariants(after)


def test_your_own_damage_offers_armor_first():
    s = fight_state(2, 9)  # the skeleton wins the round: you are hit
    out = GAME.apply(s, "p", "battle").state
    assert out.phase == "choose"
    assert [a.key for a in GAME.legal_actions(out, "p")] == ["hit:armor", "hit:health"]
