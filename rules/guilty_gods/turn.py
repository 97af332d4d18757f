"""The course of a duel: setup, the initiative, renewal, confirming moves, skills, the end.

Every function here works on a state the game has already copied, and appends its events.
"""

from __future__ import annotations

from rules.core import Event, IllegalAction, who
from rules.guilty_gods.combat import chances, compare, finish_move, fire
from rules.guilty_gods.combos import move_cost, spheres
from rules.guilty_gods.content import marks
from rules.guilty_gods.hands import draw, names, refill, take
from rules.guilty_gods.state import HAND_SIZE, MAX_SEALS, GgState, Move, Seat

# --- setup ---------------------------------------------------------------------------------------


def roll_off(s: GgState, events: list[Event], what: str) -> str:
    """Both roll a d10, again on a tie; returns the higher roller."""
    while True:
        rolls = {p: s.rng.roll(10) for p in s.players}
        shown = ", ".join(f"{who(p)} {v}" for p, v in rolls.items())
        a, b = s.players
        tie = rolls[a] == rolls[b]
        winner = a if rolls[a] > rolls[b] else b
        more = " A tie: they roll again." if tie else f" {who(winner)} wins."
        events.append(Event(kind="roll", text=f"Roll for {what}: {shown}.{more}",
                            data={"rolls": rolls, "for": what}))
        if not tie:
            return winner


def assign_deck(s: GgState, player: str, deck_id: str, events: list[Event]) -> None:
    s.seats[player] = Seat(deck_id=deck_id, deck=[])
    summoners = ", ".join(s.summoners[x].name for x in s.deck_summoners[deck_id])
    events.append(Event(kind="deck", text=(
        f"{who(player)} plays {s.deck_names[deck_id]} (summoners {summoners})."),
        data={"player": player, "deck": deck_id}))


def deal(s: GgState, events: list[Event]) -> None:
    """Shuffle both decks and draw seven each; then the starting hands are looked at."""
    for p in s.players:
        seat = s.seats[p]
        seat.deck = s.rng.shuffled(s.deck_cards[seat.deck_id])
        draw(s, p, HAND_SIZE, events, "starting hand")
    s.phase = "hand"


def may_redraw(s: GgState, player: str) -> bool:
    """The starting-hand rule: seven cards all of one kind may be shown and drawn again."""
    seat = s.seats[player]
    return (s.phase == "hand" and not seat.ready and len(seat.hand) == HAND_SIZE
            and len({s.cards[c].kind for c in seat.hand}) == 1)


def redraw(s: GgState, player: str, events: list[Event]) -> None:
    seat = s.seats[player]
    kind = s.cards[seat.hand[0]].kind
    events.append(Event(kind="redraw", text=(
        f"{who(player)} shows a starting hand of {HAND_SIZE} {kind} cards ({names(s, seat.hand)}), "
        "shuffles it back and draws again."), data={"player": player, "cards": list(seat.hand)}))
    seat.deck += seat.hand
    seat.hand = []
    s.rng.shuffle(seat.deck)
    draw(s, player, HAND_SIZE, events, "new starting hand")


def keep_hand(s: GgState, player: str, events: list[Event]) -> None:
    s.seats[player].ready = True
    events.append(Event(kind="keep", text=f"{who(player)} keeps their starting hand.",
                        data={"player": player}))
    if all(seat.ready for seat in s.seats.values()):
        winner = roll_off(s, events, "the initiative")
        s.current = s.players.index(winner)
        s.phase = "first"


def choose_first(s: GgState, chooser: str, who_value: str, events: list[Event]) -> None:
    first = chooser if who_value == "me" else s.other(chooser)
    s.first = first
    said = "to move first" if first == chooser else f"that {who(first)} moves first"
    events.append(Event(kind="first", text=f"{who(chooser)} decides {said}.",
                        data={"player": first}))
    start_initiative(s, first, events)


# --- the initiative ------------------------------------------------------------------------------


def start_initiative(s: GgState, player: str, events: list[Event]) -> None:
    s.current = s.players.index(player)
    s.turn += 1
    s.draft = s.building = None
    seat = s.seats[player]
    first = " (the first: no summoner power)" if s.turn == 1 else ""
    events.append(Event(kind="turn", text=f"Turn {s.turn}: {who(player)} holds the initiative{first}.",
                        data={"player": player, "turn": s.turn}))
    if not s.has_attack(player) and not seat.deck:
        end(s, s.other(player), "cards", events,
            f"{who(player)} holds no attack card and has no card left to draw")
        return
    s.phase = "summoner"


def summon(s: GgState, player: str, sid: str, events: list[Event]) -> None:
    seat = s.seats[player]
    seat.summoner = sid
    summoner = s.summoners[sid]
    events.append(Event(kind="summoner", text=f"{who(player)} summons {summoner.name}.",
                        data={"player": player, "summoner": sid}))
    s.phase = "act"
    if not s.powers_on(player):
        return
    low = summoner.power("seal_when_low")
    if low is not None and seat.seals <= low.threshold:
        got = min(low.amount, MAX_SEALS - seat.seals)
        seat.seals += got
        events.append(Event(kind="seals", text=(
            f"{who(player)} takes {got} Divine Seal from {summoner.name}: {seat.seals} now."),
            data={"player": player, "gain": got, "seals": seat.seals}))
    if summoner.power("draw") is not None and seat.deck:
        s.phase = "kairos"


def kairos(s: GgState, player: str, take_card: bool, events: list[Event]) -> None:
    s.phase = "act"
    if not take_card:
        events.append(Event(kind="pass", text=f"{who(player)} draws no card with Kairos.",
                            data={"player": player}))
        return
    draw(s, player, 1, events, "Kairos")
    if len(s.seats[player].hand) > HAND_SIZE:
        s.phase = "discard"


def discard(s: GgState, player: str, cid: str, events: list[Event]) -> None:
    seat = s.seats[player]
    seat.hand.remove(cid)
    seat.hidden.append(cid)
    events.append(Event(kind="discard_hidden", text=(
        f"{who(player)} holds {HAND_SIZE + 1} cards and discards one face down."),
        data={"player": player}))
    s.phase = "act"


def renew(s: GgState, player: str, keep: str | None, events: list[Event]) -> None:
    """Spend the initiative renewing: discard the hand (keeping one card or none) and draw."""
    seat = s.seats[player]
    move = s.draft
    chain = move is not None and move.chain
    if move is not None:
        seat.seals -= move_cost(s, move)
    kept = [keep] if keep is not None else []
    if keep is not None:
        seat.hand.remove(keep)
    seat.hidden += seat.hand
    thrown = len(seat.hand)
    seat.hand = kept
    s.draft = s.building = None
    how = "keeps one card" if kept else "keeps none"
    events.append(Event(kind="renew", text=(
        f"{who(player)} renews their creatures: discards {thrown} face down and {how}."),
        data={"player": player, "discarded": thrown, "kept": len(kept)}))
    draw(s, player, HAND_SIZE - len(kept), events, "renewal")
    pass_initiative(s, player, chain, events)


def pass_initiative(s: GgState, player: str, chain: bool, events: list[Event]) -> None:
    if chain:
        events.append(Event(kind="chain", text=f"Chain of Actions: the initiative returns to {who(player)}.",
                            data={"player": player}))
        start_initiative(s, player, events)
    else:
        start_initiative(s, s.other(player), events)


# --- moves on the table --------------------------------------------------------------------------


def describe(s: GgState, move: Move, facing: str = "") -> str:
    """The move in words: its cards in a row with their spheres (and supports), then `facing`
    (a defense: the attack cards it faces), then the group support and Combination."""
    parts = []
    for i, p in enumerate(move.row):
        card = s.cards[p.card]
        text = f"{card.name} [{marks(spheres(s, move, i))}]"
        if p.support:
            text += f" (supported by {s.cards[p.support].name})"
        parts.append(text)
    text = " + ".join(parts) + facing
    if move.group:
        text += f", group support {s.cards[move.group].name}"
    if move.combination:
        text += ", a slot opened by Combination"
    return text


def confirm(s: GgState, player: str, events: list[Event]) -> None:
    """The player's draft goes on the table: seals paid, cards out of the hand."""
    move = s.draft
    if move is None or not move.row:
        raise IllegalAction("Place a card first.")
    cost = move_cost(s, move)
    seat = s.seats[player]
    seat.seals -= cost
    take(s, player, move.cards())
    s.draft = s.building = None
    paid = f", paying {cost} seal{'s' * (cost > 1)}" if cost else ""
    chain = ", buying Chain of Actions" if move.chain else ""
    if move.kind == "attack":
        s.attack = move
        events.append(Event(kind="attack", text=(
            f"{who(player)} attacks with {describe(s, move)}{paid}{chain}."),
            data={"player": player, "cards": move.cards(), "cost": cost}))
        refill(s, player, events)
        s.phase = "defend"
    else:
        s.defense = move
        assert s.attack is not None
        faced = f"attack card{'s' * (len(move.row) > 1)} {move.offset + 1}"
        if len(move.row) > 1:
            faced += f"-{move.offset + len(move.row)}"
        events.append(Event(kind="defense", text=(
            f"{who(player)} defends with {describe(s, move, f' facing {faced}')}{paid}."),
            data={"player": player, "cards": move.cards(), "cost": cost, "offset": move.offset}))
        refill(s, player, events)
        start_combat(s, events)


def take_hit(s: GgState, player: str, events: list[Event]) -> None:
    s.draft = s.building = None
    s.defense = None
    events.append(Event(kind="defense", text=f"{who(player)} plays no defense.",
                        data={"player": player, "cards": []}))
    start_combat(s, events)


def start_combat(s: GgState, events: list[Event]) -> None:
    assert s.attack is not None
    s.tally = compare(s, s.attack, s.defense)
    t = s.tally
    lines = []
    for i, p in enumerate(s.attack.row):
        lines.append(f"{s.cards[p.card].name} {t.raw[i]}")
    events.append(Event(kind="combat", text=f"Through the spheres: {', '.join(lines)} (total {sum(t.raw)}).",
                        data={"raw": list(t.raw), "stopped": list(t.stopped)}))
    begin_skills(s, s.attack.player, events)


def begin_skills(s: GgState, player: str, events: list[Event]) -> None:
    """Free skills fire by themselves; the player is asked about the others they can pay."""
    for c in chances(s, player):
        if c.cost == 0:
            fire(s, player, c, events)
    if any(c.cost <= s.seats[player].seals for c in chances(s, player)):
        s.phase, s.skill_player = "skills", player
        return
    skills_done(s, player, events)


def skills_done(s: GgState, player: str, events: list[Event]) -> None:
    assert s.attack is not None
    if player == s.attack.player:
        begin_skills(s, s.other(player), events)
        return
    attacker = s.attack.player
    chain = s.attack.chain
    if finish_move(s, events):
        pass_initiative(s, attacker, chain, events)


def activate(s: GgState, player: str, sid: str, events: list[Event]) -> None:
    chance = next(c for c in chances(s, player) if c.id == sid)
    fire(s, player, chance, events)
    if not any(c.cost <= s.seats[player].seals for c in chances(s, player)):
        skills_done(s, player, events)


def end(s: GgState, winner: str, reason: str, events: list[Event], why: str) -> None:
    s.phase, s.winners, s.end_reason = "over", [winner], reason
    s.draft = s.building = None
    events.append(Event(kind="game_over", text=f"{why}: {who(winner)} wins the duel.",
                        data={"winners": [winner], "reason": reason}))
