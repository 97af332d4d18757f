"""What a player (or the table) sees of a duel: its own models, built from the public parts of
the state, plus the viewer's hand and the move they are building."""

from __future__ import annotations

from pydantic import BaseModel

from rules.core import who
from rules.guilty_gods.combat import damage_total
from rules.guilty_gods.combos import free_seals, move_cost, slot, spheres, touching
from rules.guilty_gods.content import SPHERES, CreatureDef, Slot, SummonerDef
from rules.guilty_gods.state import GgState, Move, Side


class SeatView(BaseModel):
    player: str
    deck: str
    deck_name: str
    gnosis: int
    seals: int
    hand_count: int
    deck_count: int
    played_count: int
    """Face-up pile: cards played in moves or discarded by effects."""
    hidden_count: int
    """Face-down pile: cards thrown away when renewing or at Kairos's limit."""
    summoners: list[SummonerDef]
    active_summoner: str | None
    """The summoner turned sideways (chosen at this player's last initiative)."""
    powers_on: bool
    initiative: bool
    ready: bool


class PlacedView(BaseModel):
    card: CreatureDef
    support: CreatureDef | None
    spheres: list[str]
    """Its spheres in this move (automatic supports may add one), in the card's printed order."""
    opened: str | None
    """The side whose closed slot Combination opened."""
    facing: int
    """The attack position (from 0, attacker's left) this card is at or faces."""
    west: Slot
    east: Slot
    """Its slots on the attacker's left and right as the card lies in the move (a defense card
    is turned round: its printed right slot is on the west), as the rules count them: a closed
    slot opened by Combination or by an automatic support is open and free."""
    west_opened: bool = False
    east_opened: bool = False
    """That slot is printed closed and counts as open in this move."""
    damage: int | None = None
    """Attack card in combat: damage it deals through the spheres."""
    stopped: bool | None = None
    """Defense card in combat: it stopped its attack card completely."""


class MoveView(BaseModel):
    player: str
    kind: str
    row: list[PlacedView]
    group: CreatureDef | None
    chain: bool
    cost: int


class CombatView(BaseModel):
    raw: int
    """Damage through the spheres."""
    damage: int
    """Damage the defender takes with the skills fired so far."""
    fired: list[str]
    skills: list[str]
    """The fired skills in words, in the order they fired (each with who activated it)."""
    skill_player: str | None


class GgView(BaseModel):
    viewer: str | None
    phase: str
    turn: int
    first_turn: bool
    """The first initiative of the game: no summoner power works."""
    current: str | None
    """The initiative holder."""
    to_act: list[str]
    prompt: str
    seats: list[SeatView]
    attack: MoveView | None = None
    defense: MoveView | None = None
    combat: CombatView | None = None
    winners: list[str] | None = None
    end_reason: str = ""
    hand: list[CreatureDef] | None = None
    """Only in the player's own view."""
    draft: MoveView | None = None
    """The move the viewer is building (own view only)."""
    picking: CreatureDef | None = None
    """The card the viewer picked and has not placed yet (own view only)."""
    free_seals: int | None = None
    """Own view while building: the seals left once the move so far is paid."""


def _printed(card: CreatureDef, side: Side) -> Slot:
    return card.left if side == "left" else card.right


def move_view(s: GgState, move: Move) -> MoveView:
    t = s.tally
    on_table = move is s.attack or move is s.defense
    east_side, west_side = touching(move.kind)  # the left card's east touches the right card's west
    row = []
    for i, p in enumerate(move.row):
        card = s.cards[p.card]
        order = SPHERES if card.kind == "attack" else tuple(reversed(SPHERES))
        have = spheres(s, move, i)
        facing = i + (move.offset if move.kind == "defense" else 0)
        west, east = slot(s, p, west_side), slot(s, p, east_side)
        pv = PlacedView(card=card, support=s.cards[p.support] if p.support else None,
                        spheres=[x for x in order if x in have], opened=p.opened, facing=facing,
                        west=west, east=east,
                        west_opened=west.open and not _printed(card, west_side).open,
                        east_opened=east.open and not _printed(card, east_side).open)
        if t is not None and on_table:
            if move.kind == "attack":
                pv.damage = t.raw[i]
            else:
                pv.stopped = t.stopped[i]
        row.append(pv)
    return MoveView(player=move.player, kind=move.kind, row=row,
                    group=s.cards[move.group] if move.group else None, chain=move.chain,
                    cost=move_cost(s, move))


def skill_name(s: GgState, fired: str) -> str:
    """A fired skill ('a:own.1', 'd:group', 'd:protect') in words, with who activated it."""
    side, what = fired.split(":", 1)
    move = s.attack if side == "a" else s.defense
    assert s.attack is not None
    player = s.attack.player if side == "a" else s.other(s.attack.player)
    if what == "protect":
        summoner = s.summoner(player)
        return f"{summoner.name if summoner else 'the summoner'}'s Protection ({who(player)})"
    assert move is not None
    if what == "group":
        assert move.group is not None
        return f"{s.cards[move.group].name}'s group support ({who(player)})"
    kind, i = what.split(".")
    p = move.row[int(i)]
    place = f"card {move.offset + int(i) + 1 if move.kind == 'defense' else int(i) + 1}"
    if kind == "own":
        return f"{s.cards[p.card].name}'s own skill ({place}, {who(player)})"
    assert p.support is not None
    return f"{s.cards[p.support].name}'s support under {s.cards[p.card].name} ({place}, {who(player)})"


def prompt(s: GgState) -> str:
    if s.phase == "over":
        return "The duel is over."
    if s.phase == "deck":
        return f"{who(s.picker or '')} won the roll and chooses a deck."
    if s.phase == "hand":
        waiting = ", ".join(who(p) for p in s.players if not s.seats[p].ready)
        return f"Starting hands: {waiting} may keep it (seven of one kind may be drawn again)."
    p = who(s.player)
    if s.phase == "first":
        return f"{p} won the initiative roll and decides who moves first."
    if s.phase == "summoner":
        return f"{p} holds the initiative and chooses a summoner."
    if s.phase == "kairos":
        return f"{p} may draw a card with Kairos."
    if s.phase == "discard":
        return f"{p} holds eight cards and discards one."
    if s.phase == "act":
        return f"{p} builds an attack or renews their creatures."
    if s.phase == "defend":
        return f"{who(s.defender)} answers the attack: a defense, or they take the hit."
    return f"{who(s.skill_player or '')} may activate skills."


def build_view(s: GgState, viewer: str | None, to_act: list[str]) -> GgView:
    started = s.phase not in ("deck", "hand", "first")
    seats = [SeatView(
        player=p, deck=seat.deck_id, deck_name=s.deck_names[seat.deck_id], gnosis=seat.gnosis,
        seals=seat.seals, hand_count=len(seat.hand), deck_count=len(seat.deck),
        played_count=len(seat.played), hidden_count=len(seat.hidden),
        summoners=[s.summoners[x] for x in s.deck_summoners[seat.deck_id]],
        active_summoner=seat.summoner, powers_on=s.powers_on(p),
        initiative=started and p == s.player, ready=seat.ready)
        for p in s.players if (seat := s.seats.get(p)) is not None]
    v = GgView(viewer=viewer, phase=s.phase, turn=s.turn, first_turn=s.turn == 1,
               current=s.player if started else None, to_act=to_act, prompt=prompt(s),
               seats=seats, winners=s.winners, end_reason=s.end_reason)
    if s.attack is not None:
        v.attack = move_view(s, s.attack)
    if s.defense is not None:
        v.defense = move_view(s, s.defense)
    if s.tally is not None:
        v.combat = CombatView(raw=sum(s.tally.raw), damage=damage_total(s),
                              fired=list(s.tally.fired), skills=[skill_name(s, f) for f in s.tally.fired],
                              skill_player=s.skill_player)
    if viewer is not None and viewer in s.seats:
        v.hand = [s.cards[c] for c in s.seats[viewer].hand]
        if s.draft is not None and s.draft.player == viewer:
            v.draft = move_view(s, s.draft)
            v.free_seals = free_seals(s, s.draft)
        if s.building is not None and viewer in to_act and s.phase in ("act", "defend"):
            v.picking = s.cards[s.building.args["card"]]
    return v
