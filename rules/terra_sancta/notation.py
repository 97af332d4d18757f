"""One-line moves for `/move`: parse "b3 c5" / "b3xc5" / "b3xc5 via c4" / "b3*c5" into the atomic
action keys of a turn, and list completions for autocomplete.

- `b3 c5` (or `b3-c5`, `b3c5`): the piece on b3 goes to c5; if an enemy stands there it attacks
  (melee if it can, else a shot). A knight with two paths needs `via`.
- `b3xc5`: a melee attack; `b3xc5 via c4` picks the knight's path.
- `b3*c5`: a Bot's shot.
"""

from __future__ import annotations

import re

from rules.core import Event, IllegalAction, Outcome
from rules.terra_sancta.board import SquareError, parse_square, square_name
from rules.terra_sancta.movegen import Move, piece_moves

_LINE = re.compile(
    r"^\s*([a-l](?:1[0-2]|[1-9]))\s*([-x*]|\s)?\s*([a-l](?:1[0-2]|[1-9]))\s*(?:(?:via|/)\s*([a-l](?:1[0-2]|[1-9])))?\s*$",
    re.IGNORECASE,
)


class NotationError(IllegalAction):
    """A line that cannot be read as a move (malformed), as opposed to a move not allowed now."""


def notation(m: Move) -> str:
    frm, to = square_name(m.frm), square_name(m.to)
    if m.kind == "move":
        return f"{frm} {to}"
    if m.kind == "shot":
        return f"{frm}*{to}"
    return f"{frm}x{to}" + (f" via {square_name(m.via)}" if m.via is not None else "")


def _moves(game, state, player: str) -> list[Move]:
    if player != state.turn_player or state.stage not in ("select", "act"):
        return []
    sheet = game.sheet(state, player)
    return [m for sq in game.movable(state, player) for m in piece_moves(state.board, sq, sheet)]


def parse_line(game, state, player: str, text: str) -> list[str]:
    """The action keys that play `text` from the current step; raises IllegalAction with a reason."""
    from rules.terra_sancta.game import move_key

    if player != state.turn_player or state.stage not in ("select", "act"):
        raise IllegalAction("You can only type a move at the start of your turn.")
    m = _LINE.match(text or "")
    if not m:
        raise NotationError(f"I can't read `{text}`: write it like `b3 c5`, `b3xc5`, `b3xc5 via c4` or `b3*c5`.")
    try:
        frm, to = parse_square(m.group(1)), parse_square(m.group(3))
        via = parse_square(m.group(4)) if m.group(4) else None
    except SquareError as exc:
        raise NotationError(str(exc)) from exc
    sign = (m.group(2) or " ").strip().lower()
    piece = state.board.get(frm)
    if piece is None or piece.owner != player:
        raise IllegalAction(f"You have no piece on {square_name(frm)}.")
    options = [x for x in _moves(game, state, player) if x.frm == frm and x.to == to]
    if sign == "x":
        options = [x for x in options if x.kind == "attack"]
    elif sign == "*":
        options = [x for x in options if x.kind == "shot"]
    elif any(x.kind == "attack" for x in options):
        options = [x for x in options if x.kind != "shot"]
    if via is not None:
        options = [x for x in options if x.via == via]
    if not options:
        raise IllegalAction(f"The piece on {square_name(frm)} cannot do `{text.strip()}` now.")
    if len(options) > 1:
        raise IllegalAction("Say which way the knight goes: " + " or ".join(f"`{notation(x)}`" for x in options))
    keys = []
    if state.stage == "act":
        if state.selected == frm:
            return [move_key(options[0])]
        keys.append("back")
    return [*keys, f"sel:{square_name(frm)}", move_key(options[0])]


def play_line(game, state, player: str, text: str) -> Outcome:
    """Apply a typed move as its sequence of atomic actions; the events of every step."""
    events: list[Event] = []
    for key in parse_line(game, state, player, text):
        out = game.apply(state, player, key)
        state = out.state
        events.extend(out.events)
    return Outcome(state=state, events=events)


def completions(game, state, player: str, prefix: str = "", limit: int = 25) -> list[str]:
    """Typed forms of the player's legal moves starting with `prefix` (for autocomplete)."""
    want = " ".join(prefix.lower().split())
    out = []
    for m in _moves(game, state, player):
        text = notation(m)
        if text.startswith(want):
            out.append(text)
    if state.stage == "act":
        out.sort(key=lambda t: not t.startswith(square_name(state.selected)))
    return out[:limit]
