"""Moves built in steps (rules.core.steps) and the choices offered while building them.

    attack   card          the first card of an attack (or renew instead: `renew`)
    face     card, at      the first defense card, then the attack card it faces (at = f<i>)
    add      card, at      one more card: joined at an end of the row, under a card as an
                           individual support, or beside the move as a group support
                           (the places are listed in combos.py)
    renew    keep          renew the creatures: `none` (discard all, draw 7) or a card kept
    discard  card          Kairos's limit: the card thrown away from a hand of eight
    summon   who           the summoner of this initiative (public)
    first    who           `me` or `them`: who makes the first move (public)
    deck     id            the deck chosen after the deck roll (public)

Other keys of a move being built: `undo` (take back the last card placed), `chain` (buy or drop
Chain of Actions), `go` (confirm the move), `hit` (the defender plays no defense). Everything
about a move being built is private until it is confirmed: the options name cards of the hand,
and even Undo or Confirm would tell the table that something was picked.
"""

from __future__ import annotations

from rules.core import Action
from rules.core.steps import Option, StepPlan
from rules.guilty_gods.combos import (
    available,
    chain_cost,
    free_seals,
    move_cost,
    places,
    step_cost,
)
from rules.guilty_gods.content import CreatureDef
from rules.guilty_gods.state import GgState, Move

CHOOSE_OTHER = "Choose another card"

ATTACK = StepPlan("attack", ["card"], prompts={"card": "Attack with"}, private_back=True)
FACE = StepPlan("face", ["card", "at"], prompts={"card": "Defend with", "at": "Facing"},
                back_label=CHOOSE_OTHER, private_back=True)
ADD = StepPlan("add", ["card", "at"], prompts={"card": "Add a card", "at": "Where it goes"},
               back_label=CHOOSE_OTHER, private_back=True)
RENEW = StepPlan("renew", ["keep"], prompts={"keep": "Or renew your creatures"}, private_back=True)
DISCARD = StepPlan("discard", ["card"], prompts={"card": "Discard a card"}, private_back=True)
SUMMON = StepPlan("summon", ["who"], prompts={"who": "Choose your summoner"})
FIRST = StepPlan("first", ["who"])
DECK = StepPlan("deck", ["id"], prompts={"id": "Choose your deck"})
BUILD_PLANS = {p.verb: p for p in (ATTACK, FACE, ADD)}

NO_KEEP = "none"


def card_text(card: CreatureDef) -> str:
    """A card in a line of at most 100 characters: slots, seal, skill."""
    seal = ", seal" if card.seal else ""
    skill = f"; own: {card.skill.effect.describe()}" if card.skill else ""
    return f"slots {card.left.text}|{card.right.text}{seal}{skill}"[:100]


def draft_of(s: GgState, player: str) -> Move:
    """The move the player is building (an empty one when nothing is placed yet)."""
    if s.draft is not None and s.draft.player == player:
        return s.draft
    return Move(player=player, kind="attack" if s.phase == "act" else "defense")


def place_label(s: GgState, move: Move, at: str) -> str:
    """What putting a card at `at` means, for a button."""
    combo = " (Combination)" if at in ("wa", "ea") else ""
    if at.startswith("f"):
        assert s.attack is not None
        i = int(at[1:])
        return f"Face attack card {i + 1}: {s.cards[s.attack.row[i].card].name}"
    if at[0] in "we":
        end = move.row[0] if at[0] == "w" else move.row[-1]
        side = "left" if at[0] == "w" else "right"
        if move.kind == "defense":
            assert s.attack is not None
            i = move.offset - 1 if at[0] == "w" else move.offset + len(move.row)
            return (f"Face attack card {i + 1} ({s.cards[s.attack.row[i].card].name}), "
                    f"joined to {s.cards[end.card].name}{combo}")
        return f"Join on the {side} of {s.cards[end.card].name}{combo}"
    if at.startswith("s"):
        i = int(at[1:])
        return f"Support under {s.cards[move.row[i].card].name} (card {i + 1})"
    return "Support beside the whole move (group)"


def _place_options(s: GgState, move: Move, cid: str) -> list[Option]:
    free = free_seals(s, move)
    out = []
    card = s.cards[cid]
    for at in places(s, move, cid, s.attack):
        cost = step_cost(s, move, cid, at)
        if cost > free:
            continue
        notes = []
        if at[0] in "sg" and not card.support.automatic:
            target = s.cards[move.row[int(at[1:])].card] if at.startswith("s") else None
            fire = card.support.cost_for(target.level if target else 0)
            notes.append(f"its skill costs {fire} when it fires")
        notes.append(f"{free - cost} seal{'s' * (free - cost != 1)} left")
        out.append(Option(value=at, label=place_label(s, move, at), private=True, cost=cost,
                          description="; ".join(notes)))
    return out


def _card_options(s: GgState, move: Move, affordable: bool) -> list[Option]:
    out = []
    for cid in available(s, move):
        if affordable and not _place_options(s, move, cid):
            continue
        card = s.cards[cid]
        out.append(Option(value=cid, label=card.short, description=card_text(card), private=True))
    return out


def _renew_options(s: GgState, player: str) -> list[Option]:
    hand = s.seats[player].hand
    out = [Option(value=NO_KEEP, label="Renew: discard all and draw 7", private=True)]
    for cid in dict.fromkeys(hand):
        out.append(Option(value=cid, label=f"Renew keeping {s.cards[cid].name}, draw 6",
                          private=True))
    return out


def build_actions(s: GgState, player: str) -> list[Action]:
    """The choices of the attacker (phase act) or the defender (phase defend)."""
    move = draft_of(s, player)
    b = s.building
    if b is not None:
        plan = BUILD_PLANS[b.verb]
        return plan.actions(b, lambda _arg, chosen: _place_options(s, move, chosen["card"]))
    acts: list[Action] = []
    if not move.row:
        if move.kind == "attack":
            acts += ATTACK.actions(None, lambda _a, _c: _card_options(s, move, False))
            if move.empty:
                acts += RENEW.actions(None, lambda _a, _c: _renew_options(s, player))
        else:
            acts += FACE.actions(None, lambda _a, _c: _card_options(s, move, False))
    else:
        acts += ADD.actions(None, lambda _a, _c: _card_options(s, move, True))
    cost = chain_cost(s, player)
    if cost is not None and (move.chain or free_seals(s, move) >= cost):
        label = ("Drop Chain of Actions" if move.chain
                 else f"Chain of Actions: keep the initiative ({cost} seal{'s' * (cost != 1)})")
        acts.append(Action(key="chain", label=label, private=True))
    if move.steps:
        acts.append(Action(key="undo", label="Undo the last card", private=True))
    if move.row:
        total = move_cost(s, move)
        what = "Attack" if move.kind == "attack" else "Defend"
        acts.append(Action(key="go", label=f"{what} with this move ({total} seal{'s' * (total != 1)})",
                           private=True, style="success"))
    if move.kind == "defense":
        acts.append(Action(key="hit", label="Take the hit (play no defense)", private=True,
                           style="danger"))
    return acts
