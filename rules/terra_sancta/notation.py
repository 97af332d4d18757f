"""One-line moves for `/move`: parse "b3 c5" / "b3xc5" / "b3xc5 via c4" / "b3*c5" into the atomic
action keys of a turn, and list completions for autocomplete.

- `b3 c5` (or `b3-c5`, `b3c5`): the piece on b3 goes to c5; if an enemy stands there it attacks
  (melee if it can, else a shot). A knight with two paths needs `via`.
- `b3xc5`: a melee attack; `b3xc5 via c4` picks the knight's path.
- `b3*c5`: a Bot's shot.

Text longer than `MAX_LINE` is refused before it is read; the reader itself is one left-to-right
scan (no regex, no backtracking), so its cost is linear in the length whatever is typed.
"""

from __future__ import annotations

from rules.core import Event, IllegalAction, Outcome
from rules.terra_sancta.board import SquareError, parse_square, square_name
from rules.terra_sancta.movegen import Move, piece_moves
from rules.terra_sancta.plans import MOVE, act_key, piece_key

MAX_LINE = 40
"""The longest text `/move` reads. The longest real move, `b12xc10 via c11`, is 15 characters; any
longer line is refused before it is looked at, so a pasted wall of text costs nothing."""

_FILES = "abcdefghijklABCDEFGHIJKL"
_SIGNS = "-xX*"


def _clip(text: str, width: int = 24) -> str:
    """A short, harmless echo of what the player typed (no backticks, no line breaks)."""
    head = " ".join(text[: width + 1].split()).replace("`", "'")
    return head[:width] + "…" if len(head) > width or len(text) > width + 1 else head


class _Line:
    """A single left-to-right scan over the (already capped) text: every character is looked at
    once, there is no backtracking, so the cost is linear in the length."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def spaces(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos].isspace():
            pos += 1
        self.pos = pos

    def square(self) -> str | None:
        """A file a-l and a rank 1-12 (the longest rank that fits: `a12`, not `a1` then `2`)."""
        text, pos = self.text, self.pos
        if pos + 1 >= len(text) or text[pos] not in _FILES or text[pos + 1] not in "123456789":
            return None
        end = pos + 2
        if text[pos + 1] == "1" and end < len(text) and text[end] in "012":
            end += 1
        self.pos = end
        return text[pos:end].lower()

    def sign(self) -> str:
        if self.pos < len(self.text) and self.text[self.pos] in _SIGNS:
            self.pos += 1
            return self.text[self.pos - 1].lower()
        return ""

    def via(self) -> bool:
        if self.text[self.pos:self.pos + 1] == "/":
            self.pos += 1
            return True
        if self.text[self.pos:self.pos + 3].lower() == "via":
            self.pos += 3
            return True
        return False

    def done(self) -> bool:
        return self.pos == len(self.text)


def read_line(text: str) -> tuple[str, str, str, str | None] | None:
    """(from, sign, to, via) of `b3 c5` / `b3-c5` / `b3c5` / `b3xc5 via c4` / `b3 c5/c4` / `b3*c5`,
    or None when the text is not of that shape. Spaces may surround every part."""
    line = _Line(text)
    line.spaces()
    frm = line.square()
    if frm is None:
        return None
    line.spaces()
    sign = line.sign()
    line.spaces()
    to = line.square()
    if to is None:
        return None
    line.spaces()
    via = None
    if line.via():
        line.spaces()
        via = line.square()
        if via is None:
            return None
        line.spaces()
    return (frm, sign, to, via) if line.done() else None


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
    if player != state.turn_player or state.stage != "select":
        return []
    sheet = game.sheet(state, player)
    return [m for sq in game.movable(state, player) for m in piece_moves(state.board, sq, sheet)]


def parse_line(game, state, player: str, text: str) -> list[str]:
    """The action keys that play `text` from the current step (the steps of plans.MOVE: Back when
    another piece is chosen, the piece, its act); raises IllegalAction with a reason."""
    if player != state.turn_player or state.stage != "select":
        raise IllegalAction("You can only type a move at the start of your turn.")
    text = text or ""
    if len(text) > MAX_LINE:
        raise NotationError(f"That is too long for a move ({len(text)} characters, at most {MAX_LINE}): "
                            f"`{_clip(text)}`. Write it like `b3 c5` or `b3xc5 via c4`.")
    read = read_line(text)
    if read is None:
        raise NotationError(f"I can't read `{_clip(text, MAX_LINE)}`: write it like `b3 c5`, `b3xc5`, "
                            "`b3xc5 via c4` or `b3*c5`.")
    try:
        frm, to = parse_square(read[0]), parse_square(read[2])
        via = parse_square(read[3]) if read[3] else None
    except SquareError as exc:
        raise NotationError(str(exc)) from exc
    sign = read[1]
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
        raise IllegalAction(f"The piece on {square_name(frm)} cannot do `{_clip(text, MAX_LINE)}` now.")
    if len(options) > 1:
        raise IllegalAction("Say which way the knight goes: " + " or ".join(f"`{notation(x)}`" for x in options))
    keys = []
    if state.building is not None:  # a piece is chosen already
        if state.selected == frm:
            return [act_key(options[0])]
        keys.append(MOVE.back_key)
    return [*keys, piece_key(frm), act_key(options[0])]


def play_line(game, state, player: str, text: str) -> Outcome:
    """Apply a typed move as its sequence of atomic actions; the events of every step."""
    events: list[Event] = []
    for key in parse_line(game, state, player, text):
        out = game.apply(state, player, key)
        state = out.state
        events.extend(out.events)
    return Outcome(state=state, events=events)


def completions(game, state, player: str, prefix: str = "", limit: int = 25) -> list[str]:
    """Typed forms of the player's legal moves starting with `prefix` (for autocomplete). Nothing
    longer than a move can be the start of one, so an over-long prefix gets no completions unread."""
    prefix = prefix or ""
    if len(prefix) > MAX_LINE:
        return []
    want = " ".join(prefix.lower().split())
    out = []
    for m in _moves(game, state, player):
        text = notation(m)
        if text.startswith(want):
            out.append(text)
    if state.building is not None and state.selected is not None:
        out.sort(key=lambda t: not t.startswith(square_name(state.selected)))
    return out[:limit]
