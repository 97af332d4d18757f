"""Dice: single dice for the games, and the `/roll` expression language.

Expressions are terms joined by + and -: `NdM` (N dice of M sides, N defaults
to 1), optionally followed by `khK` / `klK` (keep the K highest / lowest), or a
plain number. Examples: `2d10`, `d16+3`, `4d6kh3`, `2d20kl1-1`.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from rules.core.rng import Rng

MAX_DICE = 100
MAX_SIDES = 1000
MAX_TERMS = 10
MAX_LENGTH = 100
"""The longest expression read; checked before any parsing."""
MAX_CONSTANT = 1_000_000

# Numbers have at most 7 digits, so int() never meets a huge literal. The match is anchored at
# `pos` and no quantifier nests, so a term costs time linear in its length.
_TERM = re.compile(
    r"([+-])?(?:(\d{0,7})d(\d{1,7})(?!\d)(?:(kh|kl)(\d{1,7})(?!\d))?|(\d{1,7})(?!\d))",
    re.IGNORECASE)


class DiceError(ValueError):
    """A dice expression that cannot be rolled; the message is for the user."""


class DiceTerm(BaseModel):
    sign: int
    """+1 or -1."""
    count: int = 0
    sides: int = 0
    keep: str | None = None
    """'kh' or 'kl', or None to keep every die."""
    keep_count: int = 0
    constant: int = 0
    rolls: list[int] = []
    kept: list[int] = []

    @property
    def total(self) -> int:
        return self.sign * (sum(self.kept) if self.sides else self.constant)

    def describe(self) -> str:
        sign = "-" if self.sign < 0 else "+"
        if not self.sides:
            return f"{sign} {self.constant}"
        keep = f"{self.keep}{self.keep_count}" if self.keep else ""
        shown = []
        pool = list(self.kept)
        for r in self.rolls:
            if r in pool:
                pool.remove(r)
                shown.append(str(r))
            else:
                shown.append(f"~~{r}~~")
        return f"{sign} {self.count}d{self.sides}{keep} [{', '.join(shown)}]"


class DiceRoll(BaseModel):
    expression: str
    terms: list[DiceTerm]

    @property
    def total(self) -> int:
        return sum(t.total for t in self.terms)

    def describe(self) -> str:
        text = " ".join(t.describe() for t in self.terms)
        return text[2:] if text.startswith("+ ") else text


def parse(expression: str) -> list[DiceTerm]:
    """Parse an expression into terms (not yet rolled); raises DiceError."""
    if len(expression) > MAX_LENGTH:
        raise DiceError(f"That expression is too long ({len(expression)} characters; at most "
                        f"{MAX_LENGTH}). Try `2d10`, `d16+3` or `4d6kh3`.")
    text = expression.strip().replace(" ", "")
    if not text:
        raise DiceError("Give a dice expression such as `2d10`, `d16+3` or `4d6kh3`.")
    terms: list[DiceTerm] = []
    pos = 0
    while pos < len(text):
        m = _TERM.match(text, pos)
        if not m or m.end() == pos or (terms and not m.group(1)):
            near = text[pos:pos + 8].replace("`", "'")
            raise DiceError(
                f"I can't read the expression near `{near}` (numbers have at most 7 digits). "
                "Use dice like `2d10`, `d16+3` or `4d6kh3`."
            )
        sign = -1 if m.group(1) == "-" else 1
        if m.group(6) is not None:
            constant = int(m.group(6))
            if constant > MAX_CONSTANT:
                raise DiceError(f"Add or subtract at most {MAX_CONSTANT:,}.")
            terms.append(DiceTerm(sign=sign, constant=constant))
        else:
            count = int(m.group(2)) if m.group(2) else 1
            sides = int(m.group(3))
            if not 1 <= count <= MAX_DICE:
                raise DiceError(f"Roll between 1 and {MAX_DICE} dice at a time.")
            if not 2 <= sides <= MAX_SIDES:
                raise DiceError(f"A die needs between 2 and {MAX_SIDES} sides.")
            keep = m.group(4).lower() if m.group(4) else None
            keep_count = int(m.group(5)) if m.group(5) else 0
            if keep and not 1 <= keep_count <= count:
                raise DiceError(f"Keep between 1 and {count} dice in `{m.group(0)}`.")
            terms.append(
                DiceTerm(sign=sign, count=count, sides=sides, keep=keep, keep_count=keep_count)
            )
        if len(terms) > MAX_TERMS:
            raise DiceError(f"Use at most {MAX_TERMS} terms.")
        pos = m.end()
    if not any(t.sides for t in terms):
        raise DiceError("The expression has no dice in it; try `d20`.")
    return terms


def roll_expression(expression: str, rng: Rng) -> DiceRoll:
    terms = parse(expression)
    for term in terms:
        if not term.sides:
            continue
        term.rolls = [rng.roll(term.sides) for _ in range(term.count)]
        ordered = sorted(term.rolls, reverse=(term.keep == "kh"))
        term.kept = ordered[: term.keep_count] if term.keep else list(term.rolls)
    return DiceRoll(expression=expression.strip(), terms=terms)
