import pytest

from rules.core import DiceError, Rng, roll_expression
from rules.core.dice import parse


def test_simple_expression_sums_dice_and_constant():
    roll = roll_expression("2d10+3", Rng(seed=5))
    dice = roll.terms[0]
    assert dice.count == 2 and dice.sides == 10 and len(dice.rolls) == 2
    assert all(1 <= r <= 10 for r in dice.rolls)
    assert roll.total == sum(dice.rolls) + 3


def test_die_count_defaults_to_one_and_minus_subtracts():
    roll = roll_expression("d16-2", Rng(seed=1))
    assert roll.terms[0].count == 1
    assert roll.total == roll.terms[0].rolls[0] - 2


@pytest.mark.parametrize("seed", range(20))
def test_keep_highest_keeps_the_best_dice(seed):
    roll = roll_expression("4d6kh3", Rng(seed=seed))
    term = roll.terms[0]
    assert len(term.rolls) == 4 and len(term.kept) == 3
    assert sorted(term.kept) == sorted(term.rolls)[1:]
    assert roll.total == sum(sorted(term.rolls)[1:])


def test_keep_lowest():
    roll = roll_expression("2d20kl1", Rng(seed=3))
    term = roll.terms[0]
    assert term.kept == [min(term.rolls)]


def test_describe_strikes_dropped_dice():
    roll = roll_expression("4d6kh3", Rng(seed=11))
    assert roll.describe().count("~~") == 2


def test_same_seed_same_roll():
    assert roll_expression("3d8", Rng(seed=9)) == roll_expression("3d8", Rng(seed=9))


@pytest.mark.parametrize("bad,says", [
    ("", "Give a dice expression"), ("hello", "can't read"), ("2d", "can't read"),
    ("d1", "between 2 and"), ("0d6", "between 1 and 100 dice"), ("101d6", "between 1 and 100 dice"),
    ("4d6kh5", "Keep between 1 and 4"), ("3", "no dice"), ("2d6 3d4", "can't read"),
    ("2d6++3", "can't read"), ("1d20+" + "9" * 4400, "too long"), ("1d" + "9" * 90, "at most 7 digits"),
    ("1d20+99999999", "at most 7 digits"), ("1d20+9999999", "at most 1,000,000"),
    ("d20" * 40, "too long"), ("+".join(["d6"] * 11), "at most 10 terms"),
])
def test_bad_expressions_have_clear_messages(bad, says):
    with pytest.raises(DiceError) as err:
        parse(bad)
    assert says in str(err.value)
    assert len(str(err.value)) < 200  # never an echo of a long input


def test_rng_is_uniform_enough_and_in_range():
    rng = Rng(seed=42)
    counts = [0] * 10
    for _ in range(10_000):
        counts[rng.roll(10) - 1] += 1
    assert all(900 < c < 1100 for c in counts)


def test_rng_sequence_is_pinned():
    # the seeded stream must never change across Python versions: replays depend on it
    rng = Rng(seed=2026)
    assert [rng.roll(6) for _ in range(8)] == [3, 4, 1, 1, 6, 5, 6, 6]
    assert rng.counter == 8


def test_shuffle_is_a_permutation_and_fork_is_independent():
    rng = Rng(seed=7)
    items = list(range(52))
    shuffled = rng.shuffled(items)
    assert sorted(shuffled) == items and shuffled != items
    fork = rng.fork("bot")
    assert fork.seed != rng.seed and rng.counter == 51


def test_scripted_chance_decides_the_next_draws_then_the_seeded_stream_goes_on():
    rng = Rng(seed=2026).script(6, 1, 4)
    assert [rng.roll(6) for _ in range(3)] == [6, 1, 4]
    assert rng.counter == 3  # a scripted draw counts like a real one
    seeded = Rng(seed=2026, counter=3)
    assert rng.roll(6) == seeded.roll(6)


def test_a_script_outside_the_range_fails_loudly_and_is_never_saved():
    rng = Rng(seed=1).script(11)
    with pytest.raises(ValueError, match="outside 1..10"):
        rng.roll(10)
    rng = Rng(seed=1).script(3)
    assert "scripted" not in rng.model_dump_json()
    copy = rng.model_copy()
    assert copy.roll(6) == 3 and rng.roll(6) == 3  # a copy does not consume the original's script
