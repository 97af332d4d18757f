"""Moves built in steps: choose, refine, Back, Confirm.

Some moves take several choices: a card from the hand, then the realm it goes to; an attack
card, then the cards joined to it, then the supports, then Confirm. Each choice is one action
(one click), so a game keeps the move being built in its state, offers the options of the next
step, and applies the move once every argument is chosen (and confirmed, when the plan asks for
it). `StepPlan` does the bookkeeping once for every game:

    PLAY = StepPlan("play", ["card", "realm"])
    # legal_actions:
    PLAY.actions(state.building, options=lambda arg, chosen: [...Option...])
    # apply:
    step = PLAY.handle(state.building, key)   # None: not a key of this plan
    state.building = step.building           # still being built (None when finished or undone)
    if step.done is not None: ...apply the move with step.done["card"], step.done["realm"]

Keys are derived from the structured arguments: `play.card:O22`, `play.realm:2`,
`play.back`, `play.ok`; a finished move is also written as one key (`PLAY.key(card="O22",
realm="2")` -> `play:O22:2`), for logs, typed moves and tests. An option may carry its cost
(seals, points) and be private (it names a card from the hand): the table never shows it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from rules.core.game import Action, ButtonStyle

_VALUE = re.compile(r"[A-Za-z0-9_.\-]{1,40}")


class Building(BaseModel):
    """A move being built, kept in the game state between clicks."""

    model_config = ConfigDict(frozen=True)

    verb: str
    args: dict[str, str] = Field(default_factory=dict)
    """The arguments chosen so far, in the plan's order."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Option:
    """One choice offered for the next argument. A plain frozen dataclass, not a model: games
    build hundreds of them per move in a simulation, and the Action made from each one is
    validated anyway."""

    value: str
    """At most 40 characters of [A-Za-z0-9_.-]: it becomes part of the action key."""
    label: str
    description: str | None = None
    private: bool = False
    """It names hidden information (a card from the hand): only the player's own view shows it."""
    cost: int | None = None
    """What choosing it costs (seals ...); shown in the description, checked by the game."""
    style: ButtonStyle = "secondary"
    group: str | None = None
    """The select menu it is offered in; None: the plan's prompt for the argument when there
    are several options, a button of its own when it is alone."""

    def model_copy(self, *, update: dict[str, Any] | None = None) -> Option:
        """A copy with some fields changed, as a pydantic model would make it."""
        return replace(self, **(update or {}))


class Step(BaseModel):
    """What a step key did: the move still being built (None: nothing is pending any more) and,
    once every argument is chosen (and confirmed), the arguments to apply."""

    building: Building | None
    done: dict[str, str] | None = None


OptionSource = Callable[[str, dict[str, str]], Sequence[Option]]
"""(the argument to choose, the arguments chosen so far) -> its options."""


class StepPlan:
    """The arguments of one kind of move, chosen one after the other."""

    def __init__(self, verb: str, args: Sequence[str], *, confirm: bool = False,
                 prompts: dict[str, str] | None = None, back_label: str = "Back",
                 confirm_label: str = "Confirm", private_back: bool = False):
        if not _VALUE.fullmatch(verb) or "." in verb or not args:
            raise ValueError(f"bad step plan {verb!r} {args!r}")
        self.verb = verb
        self.args = list(args)
        self.confirm = confirm
        self.prompts = prompts or {}
        self.back_label = back_label
        self.confirm_label = confirm_label
        self.private_back = private_back
        """Back reveals that a choice was made in private (rarely a secret worth keeping)."""

    # --- keys ------------------------------------------------------------------------
    def key(self, **args: str) -> str:
        """The whole move as one key: `verb:value1:value2`."""
        return ":".join([self.verb, *(self._checked(args[a]) for a in self.args)])

    def parse(self, key: str) -> dict[str, str] | None:
        """The arguments of a whole-move key, or None when it is not one of this plan."""
        parts = key.split(":")
        if len(parts) != len(self.args) + 1 or parts[0] != self.verb:
            return None
        if not all(_VALUE.fullmatch(p) for p in parts[1:]):
            return None
        return dict(zip(self.args, parts[1:], strict=True))

    def step_key(self, arg: str, value: str) -> str:
        return f"{self.verb}.{arg}:{self._checked(value)}"

    @property
    def back_key(self) -> str:
        return f"{self.verb}.back"

    @property
    def confirm_key(self) -> str:
        return f"{self.verb}.ok"

    @staticmethod
    def _checked(value: str) -> str:
        if not _VALUE.fullmatch(value):
            raise ValueError(f"step value {value!r} is not 1-40 characters of [A-Za-z0-9_.-]")
        return value

    # --- the next choice ---------------------------------------------------------------
    def next_arg(self, building: Building | None) -> str | None:
        """The argument to choose next (None: all chosen)."""
        chosen = building.args if building is not None else {}
        return next((a for a in self.args if a not in chosen), None)

    def actions(self, building: Building | None, options: OptionSource) -> list[Action]:
        """The actions of the next step: its options (a select menu when there are several),
        Back once something is chosen, Confirm when everything is and the plan asks for it."""
        if building is not None and building.verb != self.verb:
            return []
        chosen = dict(building.args) if building is not None else {}
        nxt = self.next_arg(building)
        acts: list[Action] = []
        if nxt is not None:
            offered = list(options(nxt, chosen))
            group = self.prompts.get(nxt) if len(offered) > 1 else None
            prefix = f"{self.verb}.{nxt}:"
            checked = self._checked
            for o in offered:
                description = o.description
                if o.cost:
                    description = f"{description}; costs {o.cost}" if description else f"costs {o.cost}"
                acts.append(Action(key=prefix + checked(o.value), label=o.label,
                                   group=o.group if o.group is not None else group,
                                   description=description or None, private=o.private, style=o.style))
        elif self.confirm:
            acts.append(Action(key=self.confirm_key, label=self.confirm_label, style="success"))
        if chosen:
            acts.append(Action(key=self.back_key, label=self.back_label, private=self.private_back))
        return acts

    def handle(self, building: Building | None, key: str) -> Step | None:
        """What a key of this plan does to the move being built; None when the key is not one
        of this plan's (the game handles it). The key must be legal (the game checked it
        against `actions`)."""
        if not key.startswith(self.verb + "."):
            return None
        chosen = dict(building.args) if building is not None and building.verb == self.verb else {}
        rest = key[len(self.verb) + 1:]
        if rest == "back":
            if chosen:
                chosen.pop(list(chosen)[-1])
            return Step(building=Building(verb=self.verb, args=chosen) if chosen else None)
        if rest == "ok":
            return Step(building=None, done=chosen)
        arg, sep, value = rest.partition(":")
        if not sep or arg not in self.args:
            return None
        chosen[arg] = value
        following = Building(verb=self.verb, args=chosen)
        if self.next_arg(following) is None and not self.confirm:
            return Step(building=None, done=chosen)
        return Step(building=following)
