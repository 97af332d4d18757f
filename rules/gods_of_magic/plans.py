"""The moves of Gods of Magic built in steps (rules.core.steps): a card, then where it goes.

    play       card, to     a card from the hand, then its place: the Play phase, a Creation,
                            an Alteration (a Descriptor), an Evocation (the drawn card, chosen
                            by the game: no Back)
    transform  target, with a card in play, then the card of its suit from the hand replacing it
    move       card, to     a card in play (Transmigration), then another realm or host
    recombine  card, to     a card of the own realms or of the hand, then its new place, or the
                            hand

Values: a card is its id; a place in the own domain is `new` (a new realm), `r<n>` (realm n,
from 0) or `on.<card>` (attached to that card), as in the setup's `set:<card>:<place>`; a
Transmigration goes to `<seat>.<n>` (realm n of the god at that seat) or `on.<card>`; a card
being rearranged may also go back to the `hand`. The move under way is `GomState.building`.

A card from the hand that has a single place is played in one step: its action is the whole
move (`play:<card>:<place>`, `StepPlan.key`), labelled with that place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from rules.core import Action, IllegalAction
from rules.core.game import ButtonStyle
from rules.core.steps import Building, Option, StepPlan
from rules.gods_of_magic.state import GomState

BACK_LABEL = "Choose something else"

PLAY = StepPlan("play", ["card", "to"], back_label=BACK_LABEL, private_back=True)
TRANSFORM = StepPlan("transform", ["target", "with"], back_label=BACK_LABEL, private_back=True)
MOVE = StepPlan("move", ["card", "to"], back_label=BACK_LABEL)
RECOMBINE = StepPlan("recombine", ["card", "to"], back_label=BACK_LABEL, private_back=True)
"""Back is private where the first step may be a card of the hand (picked in private): a Back
on the table would show that a god has picked a card that fits. Moving a card in play is
public throughout."""
PLANS = {p.verb: p for p in (PLAY, TRANSFORM, MOVE, RECOMBINE)}

HAND = "hand"
"""Where a card being rearranged goes when it is taken back into the hand."""

Choice = tuple[Option, str | None]
"""An option of the next step and the select menu (action group) it is offered in, if any."""


def choice(value: str, label: str, group: str | None = None, private: bool = False,
           style: ButtonStyle = "secondary") -> Choice:
    """An option offered in the select menu `group` (None: a button of its own)."""
    return Option(value=value, label=label, private=private, style=style, group=group), group


def step_prefix(plan: StepPlan, arg: str) -> str:
    """What every key choosing `arg` of `plan` starts with."""
    return f"{plan.verb}.{arg}:"


def step_value(plan: StepPlan, arg: str, key: str) -> str | None:
    """The value a key chooses for `arg` of `plan` (None: the key chooses something else)."""
    prefix = step_prefix(plan, arg)
    return key[len(prefix):] if key.startswith(prefix) else None


def offer(plan: StepPlan, building: Building | None,
          choices: Callable[[str, dict[str, str]], Sequence[Choice]], *,
          one_step: Callable[[str], int] | None = None) -> list[Action]:
    """The actions of the plan's next step (Back once something is chosen), each option in its
    own select menu as the game always offered it (a hand card in a menu even when alone).
    `one_step`, for a plan of two steps: how many options the second step has after each first
    choice, counted without making them; a first choice whose second has a single option is the
    whole move at once."""
    acts = plan.actions(building, lambda arg, chosen: [
        option if option.group == group else replace(option, group=group)
        for option, group in choices(arg, chosen)])
    if one_step is None or building is not None or len(plan.args) != 2:
        return acts
    first, second = plan.args
    out = []
    for a in acts:
        value = step_value(plan, first, a.key)
        if value is not None and one_step(value) == 1:
            [(only, _group)] = choices(second, {first: value})
            a = a.model_copy(update={"key": plan.key(**{first: value, second: only.value}),
                                     "label": only.label, "private": a.private or only.private})
        out.append(a)
    return out


def move_value(plan: StepPlan, arg: str, key: str) -> str | None:
    """The value a key chooses for `arg` of `plan`: a step key, or a whole move (one step)."""
    whole = plan.parse(key)
    return whole[arg] if whole is not None else step_value(plan, arg, key)


def take(s: GomState, plan: StepPlan, key: str) -> dict[str, str] | None:
    """Carry out a step key of `plan` on the state: the move goes on being built (None), or it
    is finished and its arguments are returned (the building is cleared). A whole-move key
    (a card with a single place) finishes it at once."""
    whole = plan.parse(key)
    if whole is not None:
        s.building = None
        return whole
    step = plan.handle(s.building, key)
    if step is None:
        raise IllegalAction("That move is not possible now.")
    s.building = step.building
    return step.done


def first_step_key(building: Building) -> str:
    """The key that chose the building's first argument (the card picked for the move)."""
    plan = PLANS[building.verb]
    first = plan.args[0]
    return plan.step_key(first, building.args[first])
