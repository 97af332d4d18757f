"""A check shared by By Gods and Kings' speed tests: a move's step values, worked out without
labels (`plans.values`), are the values of the step's options (`plans.source`)."""

from __future__ import annotations

from typing import Any

from rules.by_gods_and_kings import plans
from rules.by_gods_and_kings.state import BgkState


def check_step_values(s: BgkState, seat: str, plan: Any, checked: dict[str, int]) -> None:
    """Along `plan`'s steps (each time taking the last option offered), the values equal the
    options' values; `checked` counts the steps compared, by "verb.argument"."""
    src, vals = plans.source(s, seat, plan), plans.values(s, seat, plan)
    chosen: dict[str, str] = {}
    for arg in plan.args:
        offered = [o.value for o in src(arg, chosen)]
        assert list(vals(arg, chosen)) == offered
        checked[f"{plan.verb}.{arg}"] = checked.get(f"{plan.verb}.{arg}", 0) + 1
        if not offered:
            break
        chosen[arg] = offered[-1]
