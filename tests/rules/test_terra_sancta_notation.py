"""Terra Sancta `/move`: over-long or hostile text is refused at once, and reading costs time linear in
the length (the first parser was a regex that backtracked cubically: 4,005 characters took minutes).

Timings are ratios to a normal move measured in the same test (best of several runs), never absolute
times, so a slow or busy machine does not change the verdict."""

from __future__ import annotations

import timeit

import pytest

from rules.terra_sancta import GAME
from rules.terra_sancta.notation import NotationError, completions, parse_line
from tests.rules.test_terra_sancta import position

LONG = 6000
"""The longest text Discord lets a player put in the `/move` option."""


def nasty(length: int = LONG) -> dict[str, str]:
    """Hostile inputs of exactly `length` characters."""
    half = (length - 5) // 2
    shapes = {
        # a square, a run of spaces, a square, a run of spaces, then a character that cannot match:
        # the shape the old regex took cubic time on (its three overlapping whitespace runs)
        "backtracking": "a1" + " " * half + "a1" + " " * (length - 5 - half) + "!",
        "squares and spaces": "a1 " * length,
        "squares": "a1" * length,
        "spaces": " " * length,
        "via via via": "b3 c5 " + "via " * length,
        "slashes": "b3 c5" + "/" * length,
        "backticks": "`" * length,
        "lines": "e4 e5\n" * length,
    }
    return {name: text[:length] for name, text in shapes.items()}


def best(fn, number: int = 1, repeat: int = 7) -> float:
    """The best time of one call of `fn` over several runs (the least disturbed by other work)."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


@pytest.fixture
def game():
    return position({"f6": ("a", "N"), "g8": ("b", "P"), "g1": ("a", "K"), "f12": ("b", "K"),
                     "e4": ("a", "P"), "e6": ("b", "P")}, factions=("grove", "bots"))


@pytest.mark.parametrize("name", list(nasty()))
def test_overlong_text_is_refused_with_a_short_message(game, name):
    text = nasty()[name]
    assert len(text) == LONG
    with pytest.raises(NotationError, match="too long") as err:
        parse_line(GAME, game, "a", text)
    message = str(err.value)
    assert len(message) < 200
    assert text[:40] not in message  # at most a clipped start of the input is shown
    assert "\n" not in message and message.count("`") % 2 == 0
    assert completions(GAME, game, "a", text) == []


def test_the_length_limit_is_generous_for_real_moves(game):
    assert parse_line(GAME, game, "a", "  F6 x G8  VIA  G6 ".ljust(40)) == ["move.piece:f6", "move.act:at.g8.g6"]
    with pytest.raises(NotationError, match="too long"):
        parse_line(GAME, game, "a", "e4 e5".ljust(41))
    with pytest.raises(NotationError, match="can't read"):
        parse_line(GAME, game, "a", "e4 e5 e6")


def test_every_typed_form_still_reads(game):
    assert parse_line(GAME, game, "a", "e4 e5") == ["move.piece:e4", "move.act:mv.e5"]
    assert parse_line(GAME, game, "a", "e4-e5") == parse_line(GAME, game, "a", "e4e5")
    assert parse_line(GAME, game, "a", "E4\tE5") == ["move.piece:e4", "move.act:mv.e5"]
    assert parse_line(GAME, game, "a", "f6xg8 via g6") == ["move.piece:f6", "move.act:at.g8.g6"]
    assert parse_line(GAME, game, "a", "f6 X g8 VIA g6") == ["move.piece:f6", "move.act:at.g8.g6"]
    assert parse_line(GAME, game, "a", "f6xg8via g6") == ["move.piece:f6", "move.act:at.g8.g6"]
    assert parse_line(GAME, game, "a", "f6 g8/f8") == ["move.piece:f6", "move.act:at.g8.f8"]
    assert parse_line(GAME, game, "a", "f6 g8 / f8") == ["move.piece:f6", "move.act:at.g8.f8"]
    for bad in ("", "   ", "e4", "e4 e", "e13 e5", "e4 e5 via", "e4 e5 via e", "e4 e5 e6", "z4 e5", "e4 x"):
        with pytest.raises(NotationError):
            parse_line(GAME, game, "a", bad)


def test_a_6000_character_line_costs_about_as_much_as_a_normal_move(game):
    normal = best(lambda: parse_line(GAME, game, "a", "f6xg8 via g6"), number=20)

    def refused(text):
        def run():
            with pytest.raises(NotationError):
                parse_line(GAME, game, "a", text)
        return run

    for name, text in nasty().items():
        assert best(refused(text)) < 20 * normal, name
        assert best(lambda t=text: completions(GAME, game, "a", t)) < 20 * best(
            lambda: completions(GAME, game, "a", "f6"), number=5), name


def test_the_reader_itself_is_linear_in_the_length():
    """Even without the length limit in front of it, reading 10x more text costs about 10x more
    (a cubic parser costs 1,000x)."""
    from rules.terra_sancta.notation import read_line

    short, long = nasty(LONG // 10), nasty(LONG)
    for name in short:
        assert read_line(short[name]) is None and read_line(long[name]) is None
        small = best(lambda n=name: read_line(short[n]), number=20)
        big = best(lambda n=name: read_line(long[n]), number=2)
        assert big < 30 * small, name
