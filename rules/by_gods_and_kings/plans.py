"""The moves built in steps (rules.core.steps.StepPlan) and how this game drives them.

- PLAY (a character's turn): the card, then the Field card it pushes off when the Field is full.
- FIRE (deploying abilities): which ability next, then how (its target; hold it ready; or
  synchronize it with an ally's held ability).
- NPC (an NPC's turn): its card, then its target.
- USE (a Discard or Sacrifice ability, at any moment): the ability, the card spent, the target.

A step with a single option is filled in by itself (the last step only right after a click,
so that no move is made without one): no click is spent on a choice that is none, and Back
skips such steps too. Each seat builds at most one move at a time (`BgkState.buildings`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.by_gods_and_kings.memo import LIMIT
from rules.by_gods_and_kings.reactions import Refs, reaction_refs, use_options
from rules.by_gods_and_kings.state import BgkState
from rules.by_gods_and_kings.turn import (
    fire_options,
    fire_values,
    npc_options,
    npc_values,
    play_options,
    play_values,
)
from rules.core import Action
from rules.core.steps import Building, Option, StepPlan

PLAY = StepPlan("play", ["card", "out"], prompts={"card": "Play a card", "out": "The Field is full: push a card off"})
FIRE = StepPlan("fire", ["ability", "how"], prompts={"ability": "Fire which ability first",
                                                      "how": "Aim it"})
NPC = StepPlan("npc", ["card", "target"], prompts={"card": "The NPC's card", "target": "The NPC's target"})
USE = StepPlan("use", ["ability", "card", "target"], prompts={
    "ability": "Use a Discard or Sacrifice ability", "card": "Spend which card", "target": "Aim it"},
    private_back=True)
"""Once the ability is picked, the rest of a reaction (the card spent, the aim, Back) is that
player's alone: offered in their private view, not on the table (reactions.use_options)."""
PLANS = {p.verb: p for p in (PLAY, FIRE, NPC, USE)}
TURN_PLANS = {"play": PLAY, "deploy": FIRE, "npc": NPC}
"""The phases whose move is built in steps, and their plans."""

Source = Callable[[str, dict[str, str]], Sequence[Option]]
Values = Callable[[str, dict[str, str]], Sequence[str]]
"""The values of a step's options alone: all that filling in forced steps, applying a key and
checking a move being built read."""


def source(s: BgkState, seat: str, plan: StepPlan, refs: Refs | None = None) -> Source:
    """The options of each step of `plan`. A source lives while the state stays as it is (one
    call of `actions`, `handle` or `still_valid`), so USE finds the seat's reactions once for
    all its steps (`refs`: already found by the caller)."""
    if plan is PLAY:
        return lambda arg, chosen: play_options(s, arg, chosen)
    if plan is FIRE:
        return lambda arg, chosen: fire_options(s, arg, chosen)
    if plan is NPC:
        return lambda arg, chosen: npc_options(s, arg, chosen)
    found = [refs]

    def use(arg: str, chosen: dict[str, str]) -> Sequence[Option]:
        if found[0] is None:
            found[0] = reaction_refs(s, seat)
        return use_options(s, seat, arg, chosen, found[0])
    return use


def values(s: BgkState, seat: str, plan: StepPlan) -> Values:
    """The values of the options of each step of `plan` (see `source`), without building
    labels for the plans of the turn: the cards of a play, the queued abilities and how each
    is aimed, an NPC's card and target."""
    if plan is PLAY:
        return lambda arg, chosen: play_values(s, arg)
    if plan is FIRE:
        def fire(arg: str, chosen: dict[str, str]) -> Sequence[str]:
            if arg == "ability":
                return list(s.queue)
            return fire_values(s, chosen["ability"])
        return fire
    if plan is NPC:
        return lambda arg, chosen: npc_values(s, arg, chosen)
    return _values_of(source(s, seat, plan))


def _values_of(src: Source) -> Values:
    return lambda arg, chosen: [o.value for o in src(arg, chosen)]


def _fill(plan: StepPlan, args: dict[str, str], src: Values, last: bool) -> dict[str, str]:
    """Fill in the forced steps (a single option) that follow the chosen ones; the plan's last
    step only when `last` (right after a click: a move is never made without one)."""
    args = dict(args)
    steps = plan.args
    final = steps[-1]
    for arg in steps:
        if arg in args:
            continue
        if not last and arg == final:
            break
        offered = src(arg, args)
        if len(offered) != 1:
            break
        args[arg] = offered[0]
    return args


def _current(plan: StepPlan, stored: Building | None, src: Values) -> dict[str, str]:
    args = stored.args if stored is not None and stored.verb == plan.verb else {}
    return _fill(plan, args, src, False)


def remembered(src: Source) -> Source:
    """The source, each (argument, choices so far) asked once: building the actions asks
    for the same options while filling in forced steps and while offering the next one."""
    known: dict[tuple[str, tuple[tuple[str, str], ...]], Sequence[Option]] = {}

    def ask(arg: str, chosen: dict[str, str]) -> Sequence[Option]:
        key = (arg, tuple(chosen.items()))
        found = known.get(key)
        if found is None:
            found = known[key] = src(arg, chosen)
        return found
    return ask


def _next_arg(plan: StepPlan, args: dict[str, str]) -> str | None:
    """`plan.next_arg` for the arguments chosen so far, without building a Building model."""
    for arg in plan.args:
        if arg not in args:
            return arg
    return None


_MADE: dict[tuple[object, ...], Action] = {}
"""The step actions made so far (see `step_action`), emptied past `memo.LIMIT` entries."""


def step_action(plan: StepPlan, arg: str, o: Option, group: str | None) -> Action:
    """The action offering option `o` for `arg`. An Action is frozen, so one made earlier
    from the same plan, argument, option fields and group is handed out again instead of
    being validated anew."""
    key = (plan.verb, arg, o.value, o.label, group, o.description, o.style, o.private)
    found = _MADE.get(key)
    if found is None:
        if len(_MADE) > LIMIT:
            _MADE.clear()
        found = _MADE[key] = Action(key=plan.step_key(arg, o.value), label=o.label, group=group,
                                    description=o.description, style=o.style, private=o.private)
    return found


def made(key: str, label: str, **rest: str) -> Action:
    """`Action(key=key, label=label, **rest)`, handed out again when made before from the same
    values (an Action is frozen; see `step_action`)."""
    memo_key = (None, key, label, *rest.items())
    found = _MADE.get(memo_key)
    if found is None:
        if len(_MADE) > LIMIT:
            _MADE.clear()
        found = _MADE[memo_key] = Action(key=key, label=label, **rest)  # type: ignore[arg-type]
    return found


def actions(s: BgkState, seat: str, plan: StepPlan, refs: Refs | None = None) -> list[Action]:
    """The actions of the seat's next step of `plan` (`refs`: see `source`)."""
    src = remembered(source(s, seat, plan, refs))
    stored = s.buildings.get(seat)
    # the forced steps of the turn's plans are filled in from their values (known without
    # labels); the reactions' from the options found once
    args = _current(plan, stored, values(s, seat, plan) if plan is not USE else _values_of(src))
    nxt = _next_arg(plan, args)
    acts: list[Action] = []
    if nxt is not None:
        offered = list(src(nxt, args))
        group = plan.prompts.get(nxt) if len(offered) > 1 else None
        acts = [step_action(plan, nxt, o, group) for o in offered]
    if stored is not None and stored.verb == plan.verb:
        acts.append(Action(key=plan.back_key, label="Back", private=plan.private_back))
    return acts


def is_action_key(s: BgkState, seat: str, plan: StepPlan, key: str) -> bool:
    """Whether `key` is the key of one of `actions(s, seat, plan)` for a plan of the turn
    (PLAY, FIRE, NPC), checked on the values of its steps: the same steps filled in, a value
    of the same next step, or Back while a move of the plan is being built."""
    if key == plan.back_key:
        stored = s.buildings.get(seat)
        return stored is not None and stored.verb == plan.verb
    return step_after(s, seat, plan, key) is not None


def step_after(s: BgkState, seat: str, plan: StepPlan, key: str, known: bool = False) -> dict[str, str] | None:
    """For a plan of the turn (PLAY, FIRE, NPC) and a key other than Back: the arguments of
    the seat's move once `key` is applied (what `handle` stores, or gives when the move is
    complete), or None when `key` is not the key of one of `actions(s, seat, plan)`: the same
    steps filled in, then a value of the next step. `apply` checks a key and works out its
    step with this one computation (`settle` then updates the move being built). `known`: the
    key is one of those actions' (the automatic player's choice, chosen.py), so its value is
    not looked for among the next step's values again."""
    src = values(s, seat, plan)
    args = _current(plan, s.buildings.get(seat), src)
    nxt = _next_arg(plan, args)
    if nxt is None:
        return None
    head = f"{plan.verb}.{nxt}:"
    if not key.startswith(head):
        return None
    value = key[len(head):]
    if not known and value not in src(nxt, args):
        return None
    args[nxt] = value  # `_fill` gave a copy of its own
    return _fill(plan, args, src, True)


def chosen_after(plan: StepPlan, args: dict[str, str], key: str) -> dict[str, str]:
    """The arguments chosen once the step key `key` (`verb.arg:value`, legal) is applied to
    the move built with `args`: what `plan.handle` gives (a finished move's arguments or the
    move still being built), without making its models. The plans here ask for no Confirm."""
    arg, sep, value = key[len(plan.verb) + 1:].partition(":")
    assert key.startswith(plan.verb + ".") and sep and arg in plan.args and not plan.confirm, \
        f"{key} is not a step key of {plan.verb}"
    chosen = dict(args)
    chosen[arg] = value
    return chosen


def settle(s: BgkState, seat: str, plan: StepPlan, args: dict[str, str]) -> dict[str, str] | None:
    """Keep `args` (`step_after`'s, or `handle`'s) as the seat's move being built, or end it
    when complete: then its arguments are given back."""
    if _next_arg(plan, args) is None:
        s.buildings.pop(seat, None)
        return args
    s.buildings[seat] = Building(verb=plan.verb, args=args)
    return None


def handle(s: BgkState, seat: str, plan: StepPlan, key: str) -> dict[str, str] | None:
    """Apply a step key of `plan` (legal): the move's arguments when it is complete."""
    src = values(s, seat, plan)
    stored = s.buildings.get(seat)
    if key == plan.back_key:
        s.buildings.pop(seat, None)
        if stored is None:
            return None
        args = dict(stored.args)
        base = _fill(plan, {}, src, False)
        while args:
            last = list(args)[-1]
            args.pop(last)
            before = dict(args)
            if len(list(src(last, before))) > 1:
                break
        if args and args != base:
            s.buildings[seat] = Building(verb=plan.verb, args=args)
        return None
    return settle(s, seat, plan, _fill(plan, chosen_after(plan, _current(plan, stored, src), key), src, True))


def still_valid(s: BgkState, seat: str, building: Building) -> bool:
    """Whether every argument chosen so far is still one of its options."""
    plan = PLANS[building.verb]
    src = values(s, seat, plan)
    so_far: dict[str, str] = {}
    for arg in plan.args:
        if arg not in building.args:
            break
        if building.args[arg] not in src(arg, so_far):
            return False
        so_far[arg] = building.args[arg]
    return True
