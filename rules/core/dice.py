"""Dice: the `/roll` expression language, Avrae's, through the `d20` library Avrae uses.

`2d10`, `d16+3`, `4d6kh3`, `2d20kl1-1` as before, and everything d20 reads: rerolls
(`4d6ro<3`, `2d6rr1`), explosions (`1d6e6`, and `1d20!` for "explode on the highest face"),
keep / drop (`kh`, `kl`, `p`), minimum / maximum (`mi`, `ma`), sets (`(1d6, 1d8)kh1`),
* / // %, comparisons (`1d20 > 10`), annotations (`2d6 [fire]`), a note after the dice
(`1d20+5 stealth`), and `adv` / `dis` at the end (the leading d20 becomes `2d20kh1` / `2d20kl1`).

Every bound is checked before d20 reads a character (length, digits) or rolls a die (dice,
sides, terms), and rerolls and explosions stop at `MAX_ROLLS` dice in all. The dice come from
the project's seeded `Rng`, never from `random`, so a roll replays from its seed.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from pydantic import BaseModel

from rules.core.rng import Rng
from rules.core.text import escape_markdown

MAX_DICE = 100
"""Dice in one group (`100d6`)."""
MAX_SIDES = 1000
MAX_TERMS = 10
"""Dice groups and numbers in one expression."""
MAX_LENGTH = 100
"""The longest expression read; checked before any parsing."""
MAX_CONSTANT = 1_000_000
MAX_DIGITS = 7
MAX_OPERATIONS = 6
"""Operations (`kh3`, `ro<3`, `e6`...) on one group."""
MAX_ROLLS = 1000
"""Dice rolled in all, rerolls and explosions included."""
BREAKDOWN_LIMIT = 1500
"""Past this, the per-die breakdown gives each group's total instead of every die."""

EXAMPLES = "`2d10`, `d16+3`, `4d6kh3`, `4d6ro<3`, `1d20+5 adv` or `2d6 [fire]`"

_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")
_ADVANTAGE = re.compile(r"(?:^|\s)(adv|advantage|dis|disadvantage)\s*$", re.IGNORECASE)
_EXPLODE = re.compile(r"(\d*)d(\d{1,7})!", re.IGNORECASE)
_NOTE_LOOKS_LIKE_DICE = re.compile(r"[\d(+\-*/]|d\d", re.IGNORECASE)
_OUTSIDE_ANNOTATIONS = re.compile(r"\[[^\]]*\]|[^\[]+")


class DiceError(ValueError):
    """A dice expression that cannot be rolled; the message is for the user."""


class DiceGroup(BaseModel):
    """One `NdM` of the expression, as rolled."""

    count: int
    sides: int
    """100 for `d%` (whose faces are 0, 10, ... 90)."""
    rolls: list[int]
    """Every face that came up, rerolled and exploded ones included, in order."""
    kept: list[int]
    """The faces that count towards the total."""


class DiceRoll(BaseModel):
    expression: str
    """The expression as d20 read it (`d16+3` reads `1d16 + 3`), annotations escaped."""
    total: int
    breakdown: str
    """Markdown: every die (dropped ones struck through, 1s and highest faces in bold), then
    the total; escaped, at most `BREAKDOWN_LIMIT` characters."""
    note: str | None = None
    """The words after the dice (`1d20+5 stealth`), escaped."""
    advantage: str | None = None
    """'adv' or 'dis' when asked for."""
    groups: list[DiceGroup] = []

    def describe(self) -> str:
        return self.breakdown


escape = escape_markdown
"""User text for a Discord message: no markdown, no mention, no link (`text.escape_markdown`)."""


def _unreadable(near: str) -> DiceError:
    near = near[:12].replace("`", "'")
    return DiceError(f"I can't read the expression near `{near}`. Try {EXAMPLES}.")


def _prepare(expression: str) -> tuple[str, str | None]:
    """The text for d20 and 'adv' / 'dis'; raises DiceError for what must not reach d20."""
    if len(expression) > MAX_LENGTH:
        raise DiceError(f"That expression is too long ({len(expression)} characters; at most "
                        f"{MAX_LENGTH}). Try `2d10`, `d16+3` or `4d6kh3`.")
    text = expression.strip()
    if not text:
        raise DiceError(f"Give a dice expression such as {EXAMPLES}.")
    if _LONG_NUMBER.search(text):
        raise DiceError(f"Numbers have at most {MAX_DIGITS} digits. Try {EXAMPLES}.")
    advantage = None
    m = _ADVANTAGE.search(text)
    if m:
        advantage = "adv" if m.group(1).lower().startswith("adv") else "dis"
        text = text[: m.start()].strip() or "1d20"
    return text, advantage


def _for_d20(text: str) -> str:
    """`4D6KH3` as d20 reads it (lower case outside annotations), `1d20!` as `1d20e20`. The
    length does not change except at a `!`, so a note is found at the same place from the end."""
    text = _OUTSIDE_ANNOTATIONS.sub(lambda m: m.group(0) if m.group(0).startswith("[")
                                    else m.group(0).lower(), text)
    # `1d20!`: explode on the highest face, as other dice bots write it
    return _EXPLODE.sub(lambda g: f"{g.group(1)}d{g.group(2)}e{g.group(2)}", text)


def _nodes(node: Any) -> list[Any]:
    out, todo = [], [node]
    while todo:
        current = todo.pop()
        out.append(current)
        todo.extend(reversed(current.children))  # left to right
    return out


def _check(tree: Any) -> None:
    """The bounds on dice, sides and terms, on the parsed tree, before any die is rolled."""
    import d20

    terms = 0
    has_dice = False
    for node in _nodes(tree):
        if isinstance(node, d20.ast.Literal):
            terms += 1
            if node.value > MAX_CONSTANT:
                raise DiceError(f"Add or subtract at most {MAX_CONSTANT:,}.")
        elif isinstance(node, d20.ast.Dice):
            terms += 1
            has_dice = True
            if not 1 <= node.num <= MAX_DICE:
                raise DiceError(f"Roll between 1 and {MAX_DICE} dice at a time.")
            if node.size != "%" and not 2 <= node.size <= MAX_SIDES:
                raise DiceError(f"A die needs between 2 and {MAX_SIDES} sides.")
        elif isinstance(node, d20.ast.OperatedSet):
            if sum(len(op.sels) for op in node.operations) > MAX_OPERATIONS:
                raise DiceError(f"Use at most {MAX_OPERATIONS} operations (kh, ro, e...) on one "
                                "group of dice.")
            dice = node.value
            for op in node.operations:
                for sel in op.sels:
                    if op.op == "rr" and sel.cat in ("h", "l"):
                        raise DiceError(f"`rr{sel.cat}` would reroll forever (there is always a "
                                        f"{'highest' if sel.cat == 'h' else 'lowest'} die); use "
                                        f"`ro{sel.cat}`.")
                    if op.op == "e" and sel.cat in ("h", "l"):
                        raise DiceError(f"Explode on faces (`e6`, `e>4`), not on `e{sel.cat}`; "
                                        f"`ra{sel.cat}` explodes one die once.")
                    if not isinstance(dice, d20.ast.Dice):
                        continue
                    if op.op == "k" and sel.cat in ("h", "l") and not 1 <= sel.num <= dice.num:
                        raise DiceError(f"Keep between 1 and {dice.num} dice in "
                                        f"`{dice.num}d{dice.size}k{sel.cat}{sel.num}`.")
        if terms > MAX_TERMS:
            raise DiceError(f"Use at most {MAX_TERMS} terms.")
    if not has_dice:
        raise DiceError("The expression has no dice in it; try `d20`.")


def _parse(original: str) -> Any:
    import d20

    text = _for_d20(original)
    try:
        tree = _d20_parser().parse(text, allow_comments=True)
    except d20.RollSyntaxError as exc:
        column = max(0, min(len(text), (exc.col or 1) - 1))
        raise _unreadable(text[column:]) from None
    except Exception:  # lark's own errors for input the comment fallback cannot place
        raise _unreadable(text) from None
    if tree.comment is not None:
        note = original[len(original) - len(tree.comment):].strip()  # as typed, not lower case
        if note and _NOTE_LOOKS_LIKE_DICE.match(note):
            # `2d6 3d4`: more dice without an operator, not a note
            raise _unreadable(note)
        tree.comment = note[:MAX_LENGTH] or None
    for node in _nodes(tree):  # annotations are the user's words: shown as text, never markup
        if isinstance(node, d20.ast.AnnotatedNumber):
            node.annotations = [f"[{escape(a.strip()[1:-1])}]" for a in node.annotations]
    return tree


_parser: Any = None
_building = threading.Lock()
"""Held while d20 is imported and its grammar built, so that the start-up's thread and a roll
that comes early build it once between them."""


def _d20_parser() -> Any:
    """d20's parser, built on first use (lark compiles the grammar: 50 ms at import, 86-90 ms
    with the first roll's classes); `warm_up` builds it at start-up instead."""
    global _parser
    if _parser is None:
        with _building:
            if _parser is None:
                import d20

                _parser = d20.Roller()
    return _parser


def warm_up() -> None:
    """Import d20, build its grammar and the seeded classes, and roll once: what the first
    `/roll` of a process would otherwise pay on the event loop. Run it in a worker thread
    (the bot's setup hook does); the dice it rolls come from a throwaway `Rng`."""
    roll_expression("(1d6, 1d8)kh1 + 4d6kh3ro<2e6mi2 + 2d20kl1 [warm] >= 1 note", Rng(seed=0))


def warmed() -> bool:
    """Whether d20's grammar and the seeded classes are built (a roll pays nothing more)."""
    return _parser is not None and _classes is not None


def _seeded_classes() -> tuple[Any, Any, Any, Any]:
    """d20's Roller and RollContext, drawing every die from a project `Rng`."""
    global _classes
    if _classes is not None:
        return _classes
    import d20

    class SeededContext(d20.RollContext):
        def __init__(self, rng: Rng):
            self.rng = rng
            super().__init__(max_rolls=MAX_ROLLS)

    class SeededDie(d20.Die):
        __slots__ = ()

        def _add_roll(self) -> None:
            self._context.count_roll()
            rng: Rng = self._context.rng
            value = (rng.roll(10) - 1) * 10 if self.size == "%" else rng.roll(self.size)
            self.values.append(d20.Literal(value))

    class SeededDice(d20.Dice):
        __slots__ = ()

        @classmethod
        def new(cls, num, size, context=None):
            return cls(num, size, [SeededDie.new(size, context=context) for _ in range(num)],
                       context=context)

        def roll_another(self) -> None:
            self.values.append(SeededDie.new(self.size, context=self._context))

    class Operator(d20.SetOperator):
        """d20's operators, with keep and explode in linear time (same results: d20 selects
        again for every die kept, and looks at every die again after each explosion), and
        rerolls in the order of the dice (replayable from the seed)."""

        __slots__ = ()

        def _in_order(self, target) -> list:
            """The dice selected, in the order they were rolled: d20 returns a set, whose order
            follows memory addresses, and the order decides which die gets which next draw."""
            chosen = self.select(target)
            return [value for value in target.keptset if value in chosen]

        def reroll(self, target):
            to_reroll = self._in_order(target)
            while to_reroll:
                for die in to_reroll:
                    die.reroll()
                to_reroll = self._in_order(target)

        def reroll_once(self, target):
            for die in self._in_order(target):
                die.reroll()

        def keep(self, target):
            selected = self.select(target)
            for value in target.keptset:
                if value not in selected:
                    value.drop()

        def explode(self, target):  # `eh` / `el` are refused in _check
            start = 0
            while True:
                fresh = [die for die in target.values[start:] if die.kept and self._hit(die)]
                start = len(target.values)
                if not fresh:
                    return
                for die in fresh:
                    die.explode()
                    target.roll_another()

        def _hit(self, die) -> bool:
            value = die.total
            return any((sel.cat == "<" and value < sel.num) or (sel.cat == ">" and value > sel.num)
                       or (sel.cat is None and value == sel.num) for sel in self.sels)

    class SeededRoller(d20.Roller):
        def _eval_dice(self, node):
            return SeededDice.new(node.num, node.size, context=self.context)

        def _eval_operatedset(self, node):
            target = self._eval(node.value)
            for op in node.operations:
                the_op = Operator.from_ast(op)
                the_op.operate(target)
                target.operations.append(the_op)
            return target

    class Stringifier(d20.MarkdownStringifier):
        """d20's Markdown; `compact` gives each group's total instead of its dice."""

        def __init__(self, compact: bool = False):
            super().__init__()
            self.compact = compact
            self._nodes[SeededDice] = self._str_dice
            self._nodes[SeededDie] = self._str_die

        def _str_expression(self, node):
            return self._stringify(node.roll)

        def _str_dice(self, node):
            if not self.compact:
                return super()._str_dice(node)
            return f"{node.num}d{node.size}{self._str_ops(node.operations)} (Σ {int(node.total)})"

    _classes = (SeededRoller, SeededContext, Stringifier, SeededDice)
    return _classes


_classes: Any = None


def _groups(expr: Any, dice_type: Any) -> list[DiceGroup]:
    groups = []
    for node in _nodes(expr):
        if isinstance(node, dice_type):
            rolls = [int(lit.number) for die in node.values for lit in die.values]
            kept = [int(die.number) for die in node.values if die.kept]
            groups.append(DiceGroup(count=node.num, sides=100 if node.size == "%" else node.size,
                                    rolls=rolls, kept=kept))
    return groups


def parse(expression: str) -> Any:
    """Check and parse an expression without rolling it; raises DiceError."""
    text, _ = _prepare(expression)
    tree = _parse(text)
    _check(tree)
    return tree


def roll_expression(expression: str, rng: Rng) -> DiceRoll:
    """Roll an expression with dice from `rng`; raises DiceError with a sentence for the user."""
    import d20

    text, advantage = _prepare(expression)
    tree = _parse(text)
    _check(tree)
    roller_type, context_type, stringifier_type, dice_type = _seeded_classes()
    if advantage is not None:
        lead = d20.utils.leftmost(tree)
        if not (isinstance(lead, d20.ast.Dice) and lead.num == 1 and lead.size == 20):
            raise DiceError(f"`{advantage}` rolls a leading `1d20` twice: start with `1d20` "
                            "(or write `2d20kh1` yourself).")
    roller = roller_type(context_type(rng))
    kind = {"adv": d20.AdvType.ADV, "dis": d20.AdvType.DIS}.get(advantage or "", d20.AdvType.NONE)
    try:
        result = roller.roll(tree, advantage=kind)
        total = result.total
    except d20.TooManyRolls:
        raise DiceError(f"That rolls more than {MAX_ROLLS:,} dice with the rerolls and "
                        "explosions; ask for fewer.") from None
    except (d20.RollError, ZeroDivisionError, OverflowError, ValueError) as exc:
        message = str(exc)[:120].replace("`", "'")
        raise DiceError(f"That cannot be rolled: {message}") from None
    breakdown = stringifier_type().stringify(result.expr)
    if len(breakdown) > BREAKDOWN_LIMIT:
        breakdown = stringifier_type(compact=True).stringify(result.expr)[:BREAKDOWN_LIMIT]
    return DiceRoll(expression=str(result.ast.roll), total=total, breakdown=breakdown,
                    note=escape(result.comment) if result.comment else None,
                    advantage=advantage, groups=_groups(result.expr, dice_type))
