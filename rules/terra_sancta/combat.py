"""Dice, damage, deaths and the removal of a faction whose king falls."""

from __future__ import annotations

from rules.core import Event, who
from rules.terra_sancta.board import square_name
from rules.terra_sancta.pieces import KIND_NAMES
from rules.terra_sancta.state import DieRoll, TSState


def roll(s: TSState, player: str, sides: int, why: str) -> int:
    """Roll one die for `player`, keeping it in the turn's dice."""
    value = s.rng.roll(sides)
    s.dice.append(DieRoll(turn=s.turn, player=player, sides=sides, value=value, why=why))
    return value


def describe(s: TSState, sq: int) -> str:
    """'Knight d5 of ⟨p1⟩'."""
    piece = s.board[sq]
    return f"{KIND_NAMES[piece.kind]} {square_name(sq)} of {who(piece.owner)}"


def hurt(s: TSState, sq: int, amount: int, events: list[Event]) -> tuple[int, bool]:
    """Take `amount` health from the piece on `sq`; returns (damage dealt, killed).

    A killed piece leaves the board; a killed king takes its whole faction with it."""
    piece = s.board[sq]
    dealt = min(amount, piece.hp)
    if amount < piece.hp:
        s.board[sq] = piece._replace(hp=piece.hp - amount)
        return dealt, False
    del s.board[sq]
    if piece.kind == "K":
        eliminate(s, piece.owner, events)
    return dealt, True


def heal(s: TSState, sq: int, amount: int) -> int:
    """Give back up to `amount` health (never above the maximum); returns the health gained."""
    piece = s.board[sq]
    gained = min(amount, piece.max_hp - piece.hp)
    if gained:
        s.board[sq] = piece._replace(hp=piece.hp + gained)
    return gained


def eliminate(s: TSState, player: str, events: list[Event]) -> None:
    """The king of `player` is dead: all its pieces leave at once; the last king standing wins."""
    for sq in [q for q, p in s.board.items() if p.owner == player]:
        del s.board[sq]
    if player in s.alive:
        s.alive.remove(player)
    events.append(Event(kind="eliminated", text=f"The king of {who(player)} is dead: the faction leaves the board.",
                        data={"player": player}))
    if len(s.alive) == 1:
        s.winner = s.alive[0]
        s.stage = "over"
        s.turn_player = None
        events.append(Event(kind="game_over", text=f"{who(s.winner)} is the last king standing and wins!",
                            data={"winner": s.winner}))
