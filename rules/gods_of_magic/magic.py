"""The Magic Table: the ten results of the d10 and the choices each one gives.

Each result that needs choices sets `state.step`; `actions` lists the choices of the
current step and `handle` carries one out. `handle` returns a resume token when the
result is finished ('end': the turn ends; 'owner:<id>': a destroyed card's owner may
draw first) or None while the result goes on. Storytelling (game.py) sits between a
finished move and its resume token.

Choices made in steps (a card, then where it goes) follow the step plans of plans.py; the
move under way is `state.building`.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.core import Action, Event, IllegalAction, who
from rules.core.steps import Building
from rules.gods_of_magic.content import Suit
from rules.gods_of_magic.copying import own_realm
from rules.gods_of_magic.moves import (
    can_place,
    draw,
    in_play_label,
    label,
    lift,
    place,
    placement_targets,
    places,
    play_from_hand,
    purge,
    realm_index,
    target_actions,
)
from rules.gods_of_magic.plans import (
    HAND,
    MOVE,
    PLAY,
    RECOMBINE,
    TRANSFORM,
    Choice,
    choice,
    offer,
    step_prefix,
    take,
)
from rules.gods_of_magic.scoring import alteration_gain, domain_value, is_imagination
from rules.gods_of_magic.state import MAGIC_NAMES, RECOMBINE_FREE_MOVES, GomState, Imagined

SKIP_ALTERATION = Action(key="skip", label="Play no Descriptor")


def hand_options(s: GomState, player: str, group: str, only: Suit | None = None) -> list[Choice]:
    """The hand cards that have somewhere to go: private, every label names the card."""
    out: list[Choice] = []
    for cid in s.hands[player]:
        if only is not None and s.suit(cid) != only:
            continue
        if can_place(s, player, cid):
            out.append(choice(cid, f"Play {label(s, cid)}", group, private=True))
    return out


def target_options(s: GomState, player: str, cid: str) -> list[Choice]:
    """Where a card picked from the hand may go: private, since every label names that card
    (and it may still go back to the hand)."""
    pairs = placement_targets(s, player, cid)
    group = None
    if len(pairs) > 4:
        group = "Attach it to a card" if s.suit(cid) == Suit.DESCRIPTOR else "Choose a realm"
    return [choice(w, lab, group, private=True, style="primary") for w, lab in pairs]


def play_actions(s: GomState, player: str, group: str, only: Suit | None = None) -> list[Action]:
    """The Play plan's next step: a card from the hand (offered in `group`), then its place
    and Back. Empty when no card of the hand has a place."""
    def choices(arg: str, chosen: dict[str, str]) -> list[Choice]:
        if arg == "card":
            return hand_options(s, player, group, only)
        return target_options(s, player, chosen["card"])

    def count(cid: str) -> int:
        """How many places `target_options` offers for `cid`, without their labels."""
        return sum(1 for _ in places(s, player, cid))

    return offer(PLAY, s.building, choices, one_step=count)


def played_event(s: GomState, player: str, cid: str, where: str, r: int) -> Event:
    """A card played from the hand; a Descriptor's names the card it is attached to."""
    if where.startswith("on."):
        text = f"{who(player)} attaches {label(s, cid)} to {label(s, where[3:])} in realm {r + 1}."
    else:
        text = f"{who(player)} plays {label(s, cid)} to realm {r + 1}."
    return Event(kind="card_played", text=text, data={"player": player, "card": cid, "realm": r})


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


def pass_action(reason: str, private: bool = False) -> Action:
    """A pass. `private` when the reason (or that there is nothing else to do) tells what the
    hand holds: the table never sees it."""
    return Action(key="pass", label=f"Pass: {reason}"[:80], private=private)


# --- starting a result ------------------------------------------------------------

def begin(s: GomState, result: int, events: list[Event]) -> str | None:
    """Start resolving a Magic Table result; returns 'end' when it needed no choice."""
    p = s.player
    s.building = None
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
        if not can_place(s, p, got[0]):
            # the card is still in the hand: only its owner is told which one it is
            events.append(Event(kind="evocation_kept", text=(
                f"{who(p)} cannot play the card they drew anywhere and keeps it in hand."),
                data={"player": p}))
            events.append(Event(kind="evocation_kept_private", text=(
                f"You cannot play {label(s, got[0])} anywhere: it stays in your hand."),
                data={"player": p, "card": got[0]}, visible_to=[p]))
            return "end"
        # the game chose the card: only its place is left to choose
        s.building = Building(verb=PLAY.verb, args={"card": got[0]})
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
    step = s.step
    if step == "imagine":
        return [Action(key=f"magic:{n}", label=f"{n}: {MAGIC_NAMES[n]}", group="Choose a result")
                for n in range(1, 10)]
    if step == "creation":
        acts = play_actions(s, player, "Play a card (Creation)")
        if s.plays_left < 2:  # also while a card is being placed: the table reads the same
            acts.append(Action(key="fin", label="Finish the Creation"))
        elif not acts:
            acts.append(no_play_pass(s, player))
        return acts
    if step == "evoke":
        # the card was drawn and must be played: no going back
        return [a for a in play_actions(s, player, "") if a.key != PLAY.back_key]
    if step == "transform":
        acts = transform_actions(s, player)
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
        return move_actions(s) or [pass_action("no other realm to move a card to")]
    if step == "alter":
        acts = play_actions(s, player, "Play a Descriptor", only=Suit.DESCRIPTOR)
        # playing a Descriptor is optional: the same public way out, whatever the hand holds,
        # and while one is being placed (a Back on the table would tell that one fits)
        return [*acts, SKIP_ALTERATION]
    if step == "recombine":
        return recombine_actions(s, player)
    raise AssertionError(f"unknown step {step!r}")


def transform_actions(s: GomState, player: str) -> list[Action]:
    """A card in play, then the hand card of its suit replacing it. The cards offered are those
    sharing a suit with the hand: that tells the hand, so every option is private."""
    def choices(arg: str, chosen: dict[str, str]) -> list[Choice]:
        if arg == "target":
            suits = {s.suit(c) for c in s.hands[player]}
            return [choice(cid, in_play_label(s, owner, r, cid), "Card to transform", private=True)
                    for owner, r, cid in s.in_play() if s.suit(cid) in suits]
        suit = s.suit(chosen["target"])
        return [choice(c, f"Replace it with {label(s, c)}", "Replace it with", private=True)
                for c in s.hands[player] if s.suit(c) == suit]

    return offer(TRANSFORM, s.building, choices)


def move_actions(s: GomState) -> list[Action]:
    """A card in play that has somewhere else to go, then where (all public)."""
    def choices(arg: str, chosen: dict[str, str]) -> list[Choice]:
        if arg == "card":
            return [choice(cid, in_play_label(s, owner, r, cid), "Card to move")
                    for owner, r, cid in s.in_play() if can_move(s, owner, r, cid)]
        return [choice(w, lab, "Move it to") for w, lab in move_destinations(s, chosen["card"])]

    return offer(MOVE, s.building, choices)


def _destinations(s: GomState, owner: str, r: int, cid: str) -> Iterator[tuple[str, str, int, str | None]]:
    """Where a Transmigration may take the card `cid` of `owner`'s realm `r`, one at a time
    and in the order of the menu: (place, owner there, realm there, host or None). The place
    is `<seat>.<realm>` or, for a Descriptor, `on.<host>`."""
    if s.suit(cid) == Suit.DESCRIPTOR:
        cards = s.cards
        for o2 in s.players:
            for r2, realm in enumerate(s.domains[o2]):
                if (o2, r2) == (owner, r):
                    continue
                for placed in realm.cards:
                    for host in (placed.card, *placed.descriptors):
                        if cards[host].suit != Suit.DESCRIPTOR:
                            yield f"on.{host}", o2, r2, host
        return
    for seat, o2 in enumerate(s.players):
        for r2 in range(len(s.domains[o2])):
            if (o2, r2) != (owner, r):
                yield f"{seat}.{r2}", o2, r2, None


def can_move(s: GomState, owner: str, r: int, cid: str) -> bool:
    """Whether a Transmigration can take this card anywhere: the first destination is enough,
    no label is written."""
    return next(_destinations(s, owner, r, cid), None) is not None


def move_destinations(s: GomState, cid: str) -> list[tuple[str, str]]:
    """Where a Transmigration may take a card in play: (place, label) pairs, the place being
    `<seat>.<realm>` or, for a Descriptor, `on.<host>`."""
    owner, r, _i, _d = s.where(cid)
    name = label(s, cid)
    out = []
    for where, o2, r2, host in _destinations(s, owner, r, cid):
        if host is not None:
            out.append((where, f"Move {name} under {label(s, host)} · {who(o2)} realm {r2 + 1}"))
        else:
            out.append((where, f"Move {name} to {who(o2)} realm {r2 + 1}"))
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
    def choices(arg: str, chosen: dict[str, str]) -> list[Choice]:
        if arg == "to":
            return _recombine_spots(s, player, chosen["card"])
        out: list[Choice] = []
        for owner, r, cid in s.in_play():
            if owner != player:
                continue
            size = _lift_size(s, cid)
            if _rc_ok(s, player, size) or (_rc_ok(s, player, 0) and rc_spots(s, player, cid)):
                out.append(choice(cid, f"{label(s, cid)} · realm {r + 1}", "Take a card from your realms"))
        if _rc_ok(s, player, -1):
            for cid in s.hands[player]:
                if rc_spots(s, player, cid):
                    out.append(choice(cid, f"Place {label(s, cid)}", "Place a card from your hand", private=True))
        return out

    acts = offer(RECOMBINE, s.building, choices)
    if s.building is not None:
        if s.locate(s.building.args["card"]) is not None:
            return acts  # a card in play was picked: everyone saw it
        # a card of the hand is being placed (picked in private): the table keeps what it
        # offered before the pick (another card to take, or finishing), so it reads the same;
        # choosing one of those drops the pick (`_recombine`)
        unpicked = s.model_copy(update={"building": None})
        return acts + [a for a in recombine_actions(unpicked, player) if not a.private]
    n = _surplus(s, player)
    if n == 0:
        acts.append(Action(key="rc:done", label="Finish the Recombination", style="primary"))
    elif not acts:  # cannot happen by construction; never leave the player stuck
        acts.append(pass_action("the hand size cannot be restored", private=True))
    return acts


def _recombine_spots(s: GomState, player: str, cid: str) -> list[Choice]:
    in_play = s.locate(cid) is not None
    out: list[Choice] = []
    if _rc_ok(s, player, 0 if in_play else -1):
        # a card from the hand is named by every label: private; a card in play is public
        out = [choice(w, lab, "Put it", private=not in_play) for w, lab in rc_spots(s, player, cid)]
    if in_play and _rc_ok(s, player, _lift_size(s, cid)):
        out.append(choice(HAND, f"Take {label(s, cid)} into your hand"))
    return out


def _recombine(s: GomState, player: str, key: str, events: list[Event]) -> str | None:
    if s.building is not None and (key == "rc:done" or key.startswith(step_prefix(RECOMBINE, "card"))):
        s.building = None  # the card of the hand being placed stays there (see `recombine_actions`)
    if key == "rc:done":
        purge(s, player)
        s.step = ""
        if s.recombine_moves:
            events.append(Event(kind="recombination", text=(
                f"{who(player)} rearranges their domain ({s.recombine_moves} move(s)).")))
        return "end"
    done = take(s, RECOMBINE, key)
    if done is None:
        return None
    cid, where = done["card"], done["to"]
    s.recombine_moves += 1
    if where == HAND:
        _o, _r, placed = lift(s, cid)
        taken = [placed.card, *placed.descriptors] if placed else [cid]
        s.hands[player].extend(taken)
        events.append(Event(kind="recombine_take", text=(
            f"{who(player)} takes {', '.join(label(s, c) for c in taken)} back into their hand.")))
        return None
    if s.locate(cid) is None:
        s.hands[player].remove(cid)
        place(s, player, cid, where)
        events.append(Event(kind="recombine_place", text=f"{who(player)} places {label(s, cid)}."))
        return None
    _o, _r, placed = lift(s, cid)
    if placed is None:
        place(s, player, cid, where)
    else:
        own_realm(s, player, realm_index(where)).cards.append(placed)
    events.append(Event(kind="recombine_move", text=f"{who(player)} moves {label(s, cid)}."))
    return None


# --- carrying out a choice -------------------------------------------------------------

def handle(s: GomState, player: str, key: str, events: list[Event]) -> str | None:
    step = s.step
    if key == "pass" or key == "skip":
        assert s.dice is not None, "a Magic Table result is resolved after the roll"
        s.building = None  # a card being placed stays in the hand
        events.append(Event(kind="pass", text=f"{who(player)} passes ({MAGIC_NAMES[s.dice.result]})."))
        return "end"
    if step == "imagine":
        n = int(key.split(":")[1])
        events.append(Imagined(player=player, result=n).event(
            f"{who(player)} imagines {MAGIC_NAMES[n]}."))
        return begin(s, n, events)
    if step == "creation" and key == "fin":
        s.building = None  # a card being placed stays in the hand
        return "end"
    if step in ("creation", "alter", "evoke"):
        done = take(s, PLAY, key)
        if done is None:
            return None
        cid, where = done["card"], done["to"]
        r = play_from_hand(s, player, cid, where)
        events.append(played_event(s, player, cid, where, r))
        if step == "alter":
            host = where[3:]
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
        done = take(s, TRANSFORM, key)
        if done is None:
            return None
        old, new = done["target"], done["with"]
        owner, r, i, d = s.where(old)
        spot = own_realm(s, owner, r).cards[i]
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
        done = take(s, MOVE, key)
        if done is None:
            return None
        cid, where = done["card"], done["to"]
        owner, r, placed = lift(s, cid)
        if where.startswith("on."):
            place(s, "", cid, where)
            o2, r2, _, _ = s.where(where[3:])
        else:
            assert placed is not None, "a card moved to a realm is no Descriptor: lift returned it"
            seat, r2 = (int(x) for x in where.split("."))
            o2 = s.players[seat]
            own_realm(s, o2, r2).cards.append(placed)
        purge(s, owner)
        events.append(Event(kind="transmigration", text=(
            f"{who(player)} moves {label(s, cid)} from {who(owner)}'s realm {r + 1} to {who(o2)}'s "
            f"realm {r2 + 1}.")))
        return "end"
    if step == "recombine":
        return _recombine(s, player, key, events)
    raise IllegalAction("That move is not possible now.")
