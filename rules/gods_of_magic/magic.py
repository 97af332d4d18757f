"""The Magic Table: the ten results of the d10 and the choices each one gives.

Each result that needs choices sets `state.step`; `actions` lists the choices of the
current step and `handle` carries one out. `handle` returns a resume token when the
result is finished ('end': the turn ends; 'owner:<id>': a destroyed card's owner may
draw first) or None while the result goes on. Storytelling (game.py) sits between a
finished move and its resume token.
"""

from __future__ import annotations

from rules.core import Action, Event, IllegalAction, who
from rules.gods_of_magic.content import Suit
from rules.gods_of_magic.moves import (
    draw,
    label,
    lift,
    place,
    placement_targets,
    play_from_hand,
    purge,
    target_actions,
)
from rules.gods_of_magic.scoring import alteration_gain, domain_value, is_imagination
from rules.gods_of_magic.state import MAGIC_NAMES, RECOMBINE_FREE_MOVES, GomState

BACK = Action(key="back", label="Choose something else")
SKIP_ALTERATION = Action(key="skip", label="Play no Descriptor")


def hand_choices(s: GomState, player: str, group: str, only: Suit | None = None,
                 new_realm: bool = True) -> list[Action]:
    """Private actions 'play:<card>' for the hand cards that have somewhere to go."""
    out = []
    for cid in s.hands[player]:
        if only is not None and s.suit(cid) != only:
            continue
        if placement_targets(s, player, cid, new_realm):
            out.append(Action(key=f"play:{cid}", label=f"Play {label(s, cid)}", group=group,
                              private=True))
    return out


def no_play_reason(s: GomState, player: str) -> str:
    if not s.hands[player]:
        return "your hand is empty"
    if not s.domains[player]:
        return "no Location in hand to start a realm"
    return "no card in hand fits a realm"


def no_play_pass(s: GomState, player: str) -> Action:
    """The forced pass when no hand card can be played. That there is nothing to play is itself
    news about the hand, so it is private, unless the hand is empty (its size is public)."""
    return pass_action(no_play_reason(s, player), private=bool(s.hands[player]))


def target_choices(s: GomState, player: str, cid: str, new_realm: bool = True) -> list[Action]:
    """Where a card picked from the hand may go: private, since every label names that card
    (and it may still go back to the hand)."""
    pairs = placement_targets(s, player, cid, new_realm)
    group = None
    if len(pairs) > 4:
        group = "Attach it to a card" if s.suit(cid) == Suit.DESCRIPTOR else "Choose a realm"
    return [Action(key=k, label=lab, group=group, style="primary", private=True) for k, lab in pairs]


def pass_action(reason: str, private: bool = False) -> Action:
    """A pass. `private` when the reason (or that there is nothing else to do) tells what the
    hand holds: the table never sees it."""
    return Action(key="pass", label=f"Pass: {reason}"[:80], private=private)


# --- starting a result ------------------------------------------------------------

def begin(s: GomState, result: int, events: list[Event]) -> str | None:
    """Start resolving a Magic Table result; returns 'end' when it needed no choice."""
    p = s.player
    s.pending = []
    events.append(Event(kind="magic", text=f"{who(p)} resolves {MAGIC_NAMES[result]}.",
                        data={"player": p, "result": result}))
    if s.dice is not None:
        s.dice.result = result
    if result == 4:
        n = 5 if len(s.hands[p]) <= 2 else 2
        draw(s, p, n, events, "Inspiration")
        return "end"
    if result == 8:
        got = draw(s, p, 1, events, "Evocation")
        if not got:
            return "end"
        if not placement_targets(s, p, got[0]):
            # the card is still in the hand: only its owner is told which one it is
            events.append(Event(kind="evocation_kept", text=(
                f"{who(p)} cannot play the card they drew anywhere and keeps it in hand."),
                data={"player": p}))
            events.append(Event(kind="evocation_kept_private", text=(
                f"You cannot play {label(s, got[0])} anywhere: it stays in your hand."),
                data={"player": p, "card": got[0]}, visible_to=[p]))
            return "end"
        s.pending = [got[0]]
    if result == 9:
        draw(s, p, 1, events, "Visitation")
        visitation(s, events)
        # when that draw found no card, this Visitation is the last one: nobody scores twice
        return "last" if s.exhausted else "end"
    if result == 7:
        s.recombine_hand = len(s.hands[p])
        s.recombine_moves = 0
    s.plays_left = 2 if result == 1 else 0
    s.step = {1: "creation", 2: "transform", 3: "destroy", 5: "move", 6: "alter", 7: "recombine",
              8: "evoke", 10: "imagine"}[result]
    return None


def visitation(s: GomState, events: list[Event]) -> None:
    """Every god scores their domain (cumulative)."""
    gains = {p: domain_value(s, p) for p in s.players}
    for p, g in gains.items():
        s.scores[p] += g
    text = "; ".join(f"{who(p)} +{g} = {s.scores[p]}" for p, g in gains.items())
    events.append(Event(kind="visitation", text=f"Visitation! Every domain scores: {text}.",
                        data={"gains": gains, "scores": dict(s.scores)}))


# --- choices of the current step -----------------------------------------------------

def actions(s: GomState, player: str) -> list[Action]:
    step, pend = s.step, s.pending
    if step == "imagine":
        return [Action(key=f"magic:{n}", label=f"{n}: {MAGIC_NAMES[n]}", group="Choose a result")
                for n in range(1, 10)]
    if step == "creation":
        if pend:
            return [*target_choices(s, player, pend[0]), BACK]
        acts = hand_choices(s, player, "Play a card (Creation)")
        if s.plays_left < 2:
            acts.append(Action(key="fin", label="Finish the Creation"))
        elif not acts:
            acts.append(no_play_pass(s, player))
        return acts
    if step == "evoke":
        return target_choices(s, player, pend[0])
    if step == "transform":
        if pend:
            suit = s.suit(pend[0])
            return [*(Action(key=f"tr:{c}", label=f"Replace it with {label(s, c)}", private=True,
                             group="Replace it with")
                      for c in s.hands[player] if s.suit(c) == suit), BACK]
        # the cards offered are those sharing a suit with the hand: that tells the hand, so private
        suits = {s.suit(c) for c in s.hands[player]}
        cards = [t for t in s.in_play() if s.suit(t[2]) in suits]
        acts = [a.model_copy(update={"private": True})
                for a in target_actions(s, "tf", cards, "Card to transform")]
        if acts:
            return acts
        if not s.hands[player]:
            return [pass_action("your hand is empty")]
        if not s.in_play():
            return [pass_action("no card is in play")]
        return [pass_action("no card in play shares a suit with your hand", private=True)]
    if step == "destroy":
        return target_actions(s, "kill", s.in_play(), "Card to destroy") or [
            pass_action("no card is in play")]
    if step == "move":
        if pend:
            return [*move_destinations(s, pend[0]), BACK]
        cards = [t for t in s.in_play() if move_destinations(s, t[2])]
        return target_actions(s, "mv", cards, "Card to move") or [
            pass_action("no other realm to move a card to")]
    if step == "alter":
        if pend:
            return [*target_choices(s, player, pend[0]), BACK]
        # playing a Descriptor is optional: the same public way out, whatever the hand holds
        acts = hand_choices(s, player, "Play a Descriptor", only=Suit.DESCRIPTOR)
        return [*acts, SKIP_ALTERATION]
    if step == "recombine":
        return recombine_actions(s, player)
    raise AssertionError(f"unknown step {step!r}")


def move_destinations(s: GomState, cid: str) -> list[Action]:
    owner, r, _i, d = s.where(cid)
    name = label(s, cid)
    out = []
    if s.suit(cid) == Suit.DESCRIPTOR:
        for o2, r2, host in s.in_play():
            if (o2, r2) != (owner, r) and s.suit(host) != Suit.DESCRIPTOR:
                out.append(Action(key=f"host:{host}", label=f"Move {name} under {label(s, host)} · "
                                  f"{who(o2)} realm {r2 + 1}", group="Move it to"))
        return out
    for seat, o2 in enumerate(s.players):
        for r2 in range(len(s.domains[o2])):
            if (o2, r2) != (owner, r):
                out.append(Action(key=f"dest:{seat}.{r2}", label=f"Move {name} to {who(o2)} realm {r2 + 1}",
                                  group="Move it to"))
    return out


# --- Recombination -------------------------------------------------------------------

def _surplus(s: GomState, player: str) -> int:
    return len(s.hands[player]) - s.recombine_hand


def _rc_ok(s: GomState, player: str, delta: int) -> bool:
    """Past the free moves, only moves that bring the hand size back are allowed (so it ends)."""
    if s.recombine_moves < RECOMBINE_FREE_MOVES:
        return True
    now = _surplus(s, player)
    return abs(now + delta) < abs(now)


def _lift_size(s: GomState, cid: str) -> int:
    owner, r, i, d = s.where(cid)
    return 1 if d is not None else 1 + len(s.domains[owner][r].cards[i].descriptors)


def rc_spots(s: GomState, player: str, cid: str) -> list[tuple[str, str]]:
    """Where a card being rearranged may go (not where it is now, never a new realm)."""
    where = s.locate(cid)
    if where is None:
        return placement_targets(s, player, cid, new_realm=False)
    _o, r, i, d = where
    if d is not None:
        return placement_targets(s, player, cid, skip_host=s.domains[player][r].cards[i].card)
    return placement_targets(s, player, cid, new_realm=False, skip_realm=r)


def recombine_actions(s: GomState, player: str) -> list[Action]:
    pend = s.pending
    if pend:
        cid = pend[0]
        in_play = s.locate(cid) is not None
        acts = []
        if _rc_ok(s, player, 0 if in_play else -1):
            # a card from the hand is named by every label: private; a card in play is public
            acts = [Action(key=f"rc:{k}", label=lab, group="Put it", private=not in_play)
                    for k, lab in rc_spots(s, player, cid)]
        if in_play and _rc_ok(s, player, _lift_size(s, cid)):
            acts.append(Action(key="rc:hand", label=f"Take {label(s, cid)} into your hand"))
        return [*acts, BACK]
    acts = []
    for owner, r, cid in s.in_play():
        if owner != player:
            continue
        size = _lift_size(s, cid)
        if _rc_ok(s, player, size) or (_rc_ok(s, player, 0) and rc_spots(s, player, cid)):
            acts.append(Action(key=f"rc:pick:{cid}", label=f"{label(s, cid)} · realm {r + 1}",
                               group="Take a card from your realms"))
    if _rc_ok(s, player, -1):
        for cid in s.hands[player]:
            if rc_spots(s, player, cid):
                acts.append(Action(key=f"rc:put:{cid}", label=f"Place {label(s, cid)}", private=True,
                                   group="Place a card from your hand"))
    n = _surplus(s, player)
    if n == 0:
        acts.append(Action(key="rc:done", label="Finish the Recombination", style="primary"))
    elif not acts:  # cannot happen by construction; never leave the player stuck
        acts.append(pass_action("the hand size cannot be restored", private=True))
    return acts


def _recombine(s: GomState, player: str, key: str, events: list[Event]) -> str | None:
    if key == "rc:done":
        purge(s, player)
        s.step = ""
        if s.recombine_moves:
            events.append(Event(kind="recombination", text=(
                f"{who(player)} rearranges their domain ({s.recombine_moves} move(s)).")))
        return "end"
    if key.startswith("rc:pick:") or key.startswith("rc:put:"):
        s.pending = [key.split(":", 2)[2]]
        return None
    cid = s.pending[0]
    s.pending = []
    s.recombine_moves += 1
    if key == "rc:hand":
        _o, _r, placed = lift(s, cid)
        taken = [placed.card, *placed.descriptors] if placed else [cid]
        s.hands[player].extend(taken)
        events.append(Event(kind="recombine_take", text=(
            f"{who(player)} takes {', '.join(label(s, c) for c in taken)} back into their hand.")))
        return None
    where = key[3:]
    if s.locate(cid) is None:
        s.hands[player].remove(cid)
        place(s, player, cid, where)
        events.append(Event(kind="recombine_place", text=f"{who(player)} places {label(s, cid)}."))
        return None
    _o, _r, placed = lift(s, cid)
    if placed is None:
        place(s, player, cid, where)
    else:
        s.domains[player][int(where[4:])].cards.append(placed)
    events.append(Event(kind="recombine_move", text=f"{who(player)} moves {label(s, cid)}."))
    return None


# --- carrying out a choice -------------------------------------------------------------

def handle(s: GomState, player: str, key: str, events: list[Event]) -> str | None:
    step = s.step
    if key == "back":
        s.pending = []
        return None
    if key == "pass" or key == "skip":
        assert s.dice is not None, "a Magic Table result is resolved after the roll"
        events.append(Event(kind="pass", text=f"{who(player)} passes ({MAGIC_NAMES[s.dice.result]})."))
        return "end"
    if step == "imagine":
        n = int(key.split(":")[1])
        events.append(Event(kind="imagination", text=f"{who(player)} imagines {MAGIC_NAMES[n]}.",
                            data={"player": player, "result": n}))
        return begin(s, n, events)
    if step in ("creation", "alter") and key.startswith("play:"):
        s.pending = [key[5:]]
        return None
    if step == "creation" and key == "fin":
        return "end"
    if step in ("creation", "alter", "evoke"):
        cid = s.pending[0]
        s.pending = []
        r = play_from_hand(s, player, cid, key)
        events.append(Event(kind="card_played", text=f"{who(player)} plays {label(s, cid)} to realm {r + 1}.",
                            data={"player": player, "card": cid, "realm": r}))
        if step == "alter":
            host = key[3:]
            gain = alteration_gain(s, player, cid, host)
            s.scores[player] += gain
            if is_imagination(s, s.domains[player][r]):
                text = (f"{who(player)} scores nothing for {label(s, cid)} and {label(s, host)}: "
                        f"realm {r + 1} has no Location, a realm of imagination.")
            else:
                text = (f"{who(player)} scores {label(s, cid)} and {label(s, host)} at once: +{gain} "
                        f"= {s.scores[player]}.")
            events.append(Event(kind="alteration_score", text=text, data={"player": player, "gain": gain}))
        if step == "creation":
            s.plays_left -= 1
            return "creation"
        return "end"
    if step == "transform":
        if key.startswith("tf:"):
            s.pending = [key[3:]]
            return None
        old, new = s.pending[0], key[3:]
        s.pending = []
        owner, r, i, d = s.where(old)
        spot = s.domains[owner][r].cards[i]
        if d is None:
            spot.card = new
        else:
            spot.descriptors[d] = new
        s.hands[player].remove(new)
        s.discard.append(old)
        events.append(Event(kind="transformation", text=(
            f"{who(player)} transforms {label(s, old)} in {who(owner)}'s realm {r + 1} into {label(s, new)}.")))
        return "end"
    if step == "destroy":
        cid = key[5:]
        owner, r, placed = lift(s, cid)
        gone = [placed.card, *placed.descriptors] if placed else [cid]
        s.discard.extend(gone)
        purge(s, owner)
        events.append(Event(kind="destruction", text=(
            f"{who(player)} destroys {', '.join(label(s, c) for c in gone)} in {who(owner)}'s realm {r + 1}."),
            data={"player": player, "owner": owner, "cards": gone}))
        return f"owner:{owner}"
    if step == "move":
        if key.startswith("mv:"):
            s.pending = [key[3:]]
            return None
        cid = s.pending[0]
        s.pending = []
        owner, r, placed = lift(s, cid)
        if key.startswith("host:"):
            place(s, "", cid, "on:" + key[5:])
            o2, r2, _, _ = s.where(key[5:])
        else:
            assert placed is not None, "a card moved to a realm is no Descriptor: lift returned it"
            seat, r2 = (int(x) for x in key[5:].split("."))
            o2 = s.players[seat]
            s.domains[o2][r2].cards.append(placed)
        purge(s, owner)
        events.append(Event(kind="transmigration", text=(
            f"{who(player)} moves {label(s, cid)} from {who(owner)}'s realm {r + 1} to {who(o2)}'s "
            f"realm {r2 + 1}.")))
        return "end"
    if step == "recombine":
        return _recombine(s, player, key, events)
    raise IllegalAction("That move is not possible now.")
