"""`python -m rules.simulate guilty-gods` says which side won: by deck and by seat order, never a
rate that counts every decided duel as won (issue 29, item 11)."""

from __future__ import annotations

import re

import pytest

from rules.simulate import main, simulate

GAMES = 6


@pytest.fixture(scope="module")
def report():
    return simulate("guilty-gods", GAMES, 2, {}, seed=3)


def test_the_deck_and_the_seat_order_rates_are_the_winners_and_add_up_to_one(report):
    tags = report["by_tag"]
    assert "first" not in tags, "the old whole-game tag that every decided duel 'won'"
    for tag in ("deck", "order"):
        rates = tags[tag]
        assert sum(n for _, n in rates.values()) == 2 * GAMES, "one value for each seat of each duel"
        assert sum(rate * n for rate, n in rates.values()) == pytest.approx(GAMES), "one winner a duel"
    assert set(tags["order"]) == {"first", "second"} and set(tags["deck"]) == {"lilium", "umbra"}
    wins = report["wins_by_seat"]
    assert sum(wins.values()) == pytest.approx(1.0)
    assert report["rivals"] and report["plain_tags"] == ["end"]


def test_the_printed_report_gives_no_whole_game_tag_a_win_rate(capsys):
    assert main(["guilty-gods", "--games", str(GAMES), "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"end=gnosis: \d+ of 6 games", out)
    assert not re.search(r"end=\w+: won", out)
    assert re.search(r"order=first: won \d+\.\d% of 6", out)
    assert re.search(r"deck=umbra: won \d+\.\d% of 6", out)


def test_a_solo_game_keeps_its_win_rates_on_whole_game_tags():
    solo = simulate("deathly-thrones", 3, 1, {}, seed=1)
    assert not solo["rivals"]
