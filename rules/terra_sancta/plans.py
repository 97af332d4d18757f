"""The moves of Terra Sancta built in steps (rules.core.steps): a piece, then what it does.

    move   piece, act   a piece of the player's (its square), then its move, attack or shot;
                        the move under way is `TSState.building`, Back unselects the piece
    land   square       after a wounding attack with a choice: where the attacker ends
    bolt   target       the Thunderbirds' lightning, after the move
    heal   target       the Grove's regrowth, after the move

Values: a piece or a square is its name (`f4`); an act is `mv.<to>` (a move), `at.<to>` (a melee
attack), `at.<to>.<via>` (a knight's attack, naming the square where its L turns) or `sh.<to>` (a
Bot's shot). Keys: `move.piece:f4`, `move.act:at.g8.g6`, `move.back`, `land.square:f6`,
`bolt.target:h9`, `heal.target:e1`; a whole move is also one key, `move:f4:at.f8`, for logs and
tests.

Landing and the extra action are not further arguments of the move: they come after it has been
applied (its dice rolled), and what they offer depends on the outcome, so there is nothing to go
Back to. Each is a stage of its own (`land`, `ability`) whose single choice is a one-argument plan.
`pass` (no piece can act), `skip` (no extra action now) and the faction choice `faction:<id>` stay
plain keys: they are single clicks, not moves built in steps.
"""

from __future__ import annotations

from dataclasses import replace

from rules.core import Action
from rules.core.steps import Building, OptionSource, StepPlan
from rules.terra_sancta.board import SQUARE_NAMES, square_name
from rules.terra_sancta.movegen import Move

MOVE = StepPlan("move", ["piece", "act"], prompts={"piece": "Choose a piece", "act": "Moves"})
LAND = StepPlan("land", ["square"], prompts={"square": "Landing"})
BOLT = StepPlan("bolt", ["target"])
HEAL = StepPlan("heal", ["target"])
ABILITY_PLANS = {"lightning": BOLT, "regrowth": HEAL}
"""The plan of each faction extra action (ability kind -> plan)."""

PASS = "pass"
SKIP = "skip"

_TAGS = {"move": "mv", "attack": "at", "shot": "sh"}
_SQUARES = {name: sq for sq, name in enumerate(SQUARE_NAMES)}
"""square name -> square, exactly as `square_name` writes them."""


def act_value(m: Move) -> str:
    """The value of the `act` argument naming this move of its piece."""
    value = f"{_TAGS[m.kind]}.{square_name(m.to)}"
    return value + (f".{square_name(m.via)}" if m.via is not None else "")


_KINDS = {tag: kind for kind, tag in _TAGS.items()}


def act_fields(value: str) -> tuple[str, int, int | None] | None:
    """The kind, target and turn square (`via`) of the move whose `act_value` is `value` (square
    names exactly as `square_name` writes them); None when no move is written so."""
    tag, _, rest = value.partition(".")
    kind = _KINDS.get(tag)
    to_name, _, via_name = rest.partition(".")
    if kind is None or to_name not in _SQUARES or (via_name and via_name not in _SQUARES):
        return None
    return kind, _SQUARES[to_name], _SQUARES[via_name] if via_name else None


def find_move(moves: list[Move], value: str) -> Move | None:
    """The move among `moves` whose `act_value` is `value` (None: none is). The value is read
    once (`act_fields`), so the moves are compared by their fields instead of each being written
    out."""
    fields = act_fields(value)
    if fields is None:
        return None
    kind, to, via = fields
    for m in moves:
        if m.to == to and m.kind == kind and m.via == via:
            return m
    return None


def piece_key(sq: int) -> str:
    """The key choosing the piece on `sq` (the first step of a move): `made_piece_key`, made once
    per square (`_PIECE_KEYS`)."""
    return _PIECE_KEYS[sq]


def made_piece_key(sq: int) -> str:
    """`piece_key` made anew (the plan writes and checks it)."""
    return MOVE.step_key("piece", square_name(sq))


_PIECE_KEYS = [made_piece_key(sq) for sq in range(len(SQUARE_NAMES))]


def act_key(m: Move) -> str:
    """The key choosing move `m` of the piece already chosen (the second step): `made_act_key`,
    made once per kind, target and turn square (all it depends on) and kept in `_ACT_KEYS`, which
    cannot outgrow the 3 * 144 * 145 such triples."""
    fields = (m.kind, m.to, m.via)
    found = _ACT_KEYS.get(fields)
    if found is None:
        found = _ACT_KEYS[fields] = made_act_key(m)
    return found


def made_act_key(m: Move) -> str:
    """`act_key` made anew (the plan writes and checks it)."""
    return MOVE.step_key("act", act_value(m))


_ACT_KEYS: dict[tuple[str, int, int | None], str] = {}


def whole_key(m: Move) -> str:
    """The whole move as one key (`move:f4:at.f8`), for logs and tests."""
    return MOVE.key(piece=square_name(m.frm), act=act_value(m))


def offer(plan: StepPlan, building: Building | None, options: OptionSource,
          group: str | None = None) -> list[Action]:
    """The actions of the plan's next step (Back once something is chosen), every option in the
    select menu `group` (default: the plan's prompt for that argument) even when it is alone, as
    the game always offered them."""
    arg = plan.next_arg(building)
    menu = group if group is not None else plan.prompts.get(arg) if arg is not None else None
    if menu is None:
        return plan.actions(building, options)
    return plan.actions(building, lambda a, chosen: [o if o.group == menu else replace(o, group=menu)
                                                     for o in options(a, chosen)])
