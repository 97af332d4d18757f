"""The automatic player's shortcuts in By Gods and Kings: a Field weighed without copying the
character, and a Field's closeness to a hand worked out once per Field."""

from __future__ import annotations

from itertools import combinations

import pytest

from rules.by_gods_and_kings import GAME as BGK
from rules.by_gods_and_kings import cards, policy
from rules.by_gods_and_kings.abilities import field_abilities, hand_abilities
from rules.by_gods_and_kings.state import Hero
from tests.support.playout import automatic_positions


def _positions(players: int, seeds: range, steps: int = 250):
    return automatic_positions(BGK, players, seeds, steps)


def test_a_field_weighed_fires_what_the_character_with_that_field_would():
    checked = 0
    for s in list(_positions(3, range(2)))[::4]:
        for hero in s.party:
            pool = [*hero.field, *hero.hand]
            for field in {tuple(f) for n in (2, 3) for f in combinations(pool, n)}:
                trial = hero.model_copy(update={"field": list(field)})
                assert field_abilities(s, hero, list(field)) == hand_abilities(s, trial)
                checked += 1
    assert checked > 500


def test_weighing_a_card_copies_no_character(monkeypatch):
    s = next(s for s in _positions(2, range(3)) if s.phase == "play")
    assert s.actor is not None
    hero = s.hero(s.actor)
    expected = {c: policy._play_options(s, hero, c) for c in hero.hand}
    monkeypatch.setattr(Hero, "model_copy", lambda *a, **k: pytest.fail("the character was copied"))
    assert {c: policy._play_options(s, hero, c) for c in hero.hand} == expected


def _plain_potential(field: list[str]) -> int:
    score = 0
    for i, a in enumerate(field):
        for b in field[i + 1:]:
            if cards.is_ace(a) or cards.is_ace(b):
                score += 2
                continue
            if cards.suit(a) == cards.suit(b):
                score += 1
            if cards.rank(a) == cards.rank(b) or abs(cards.rank(a) - cards.rank(b)) <= 2:
                score += 1
    return score


def test_a_fields_potential_is_the_plain_count_and_is_worked_out_once():
    codes = ["Ah", "2h", "3c", "4h", "7s", "9d", "10d", "Jc", "Qd", "Kh", "Ks"]
    for n in (0, 1, 2, 3):
        for field in combinations(codes, n):
            assert policy._potential(list(field)) == _plain_potential(list(field))
    before = policy._potential_of.cache_info().hits
    policy._potential(["Ah", "2h", "3c"])
    assert policy._potential_of.cache_info().hits == before + 1
