"""Guilty Gods as a Pantheon game: the duel's phases, the actions of each, and applying them."""

from __future__ import annotations

from itertools import permutations

from pydantic import BaseModel

from rules.core import (
    Action,
    Event,
    Game,
    IllegalAction,
    OptionChoice,
    OptionSpec,
    Outcome,
    Result,
    Rng,
    RulesPage,
    who,
)
from rules.core.content import Pinned
from rules.core.steps import Option
from rules.core.text import clip_words, count
from rules.guilty_gods import turn
from rules.guilty_gods.combat import chances
from rules.guilty_gods.combos import free_seals, join_total, place, undo
from rules.guilty_gods.content import CATALOGUES, Catalogue, load_decks
from rules.guilty_gods.copying import copy_state
from rules.guilty_gods.plans import (
    BUILD_PLANS,
    DECK,
    DISCARD,
    FIRST,
    NO_KEEP,
    RENEW,
    SUMMON,
    build_actions,
    draft_of,
)
from rules.guilty_gods.shape import shape
from rules.guilty_gods.state import HAND_SIZE, MAX_SEALS, START_GNOSIS, GgState
from rules.guilty_gods.view import GgView, build_view

ROLL = "roll"


class GuiltyGods(Game[GgState, GgView]):
    id = "guilty-gods"
    name = "Guilty Gods"
    summary = "Two gods duel with decks of creatures: attack combos, defenses, Divine Seals and summoners."
    min_players = 2
    max_players = 2
    state_type = GgState
    colour = 0xC0392B
    max_steps = 4_000
    has_private_view = True

    def __init__(self) -> None:
        decks = load_decks()  # validate the content at start-up
        choices = [OptionChoice(value=ROLL, label="Each rolls a d10, the higher picks a deck")]
        for a, b in permutations(sorted(decks), 2):
            choices.append(OptionChoice(value=f"{a}-{b}",
                                        label=f"Seat 1 {decks[a].name}, seat 2 {decks[b].name}"))
        self.options = [OptionSpec(key="decks", label="Decks", choices=choices, default=ROLL)]

    # --- setup -----------------------------------------------------------------------------
    def setup(self, players: list[str], options: dict[str, str], seed: int) -> GgState:
        return self._open(players, options, seed, [])

    def start(self, players: list[str], options: dict[str, str], seed: int,
              records: dict[str, list[BaseModel]] | None = None) -> Outcome:
        events: list[Event] = []
        return Outcome(state=self._open(players, options, seed, events), events=events)

    def _open(self, players: list[str], options: dict[str, str], seed: int,
              events: list[Event]) -> GgState:
        opts = self.resolve_options(options)
        self.check_players(len(players))
        if len(set(players)) != 2:
            raise IllegalAction("Two different players are needed.")
        s = GgState(
            players=list(players), options=opts, rng=Rng(seed=seed),
            content=CATALOGUES.current(),
        )
        choice = opts["decks"]
        if choice == ROLL:
            s.picker = turn.roll_off(s, events, "the first pick of a deck")
            s.phase = "deck"
        else:
            for p, deck_id in zip(players, choice.split("-"), strict=True):
                turn.assign_deck(s, p, deck_id, events)
            turn.deal(s, events)
        return s

    # --- whose move ------------------------------------------------------------------------
    def to_act(self, state: GgState) -> list[str]:
        s = state
        if s.phase == "over":
            return []
        if s.phase == "deck":
            assert s.picker is not None
            return [s.picker]
        if s.phase == "hand":
            return [p for p in s.players if not s.seats[p].ready]
        if s.phase == "defend":
            return [s.defender]
        if s.phase == "skills":
            assert s.skill_player is not None
            return [s.skill_player]
        return [s.player]

    # --- legal actions -----------------------------------------------------------------------
    def legal_actions(self, state: GgState, player: str) -> list[Action]:
        s = state
        if player not in self.to_act(s):
            return []
        if s.phase == "deck":
            taken = {seat.deck_id for seat in s.seats.values()}
            return DECK.actions(None, lambda _a, _c: [
                Option(value=k, label=f"Play {name}", style="primary")
                for k, name in s.deck_names.items() if k not in taken])
        if s.phase == "hand":
            acts = [Action(key="hand:keep", label="Keep this starting hand", style="success")]
            if turn.may_redraw(s, player):
                acts.append(Action(key="hand:redraw", private=True,
                                   label="Show these seven cards and draw seven new ones"))
            return acts
        if s.phase == "first":
            return FIRST.actions(None, lambda _a, _c: [
                Option(value="me", label="I make the first move", style="primary"),
                Option(value="them", label="My opponent makes the first move")])
        if s.phase == "summoner":
            seat = s.seats[player]
            return SUMMON.actions(None, lambda _a, _c: [
                Option(value=x, label=f"Summon {s.summoners[x].name}",
                       description=s.summoners[x].text[:100], style="primary")
                for x in s.deck_summoners[seat.deck_id]])
        if s.phase == "kairos":
            return [Action(key="kairos:draw", label="Draw a card (Kairos)", style="primary"),
                    Action(key="kairos:skip", label="Draw no card")]
        if s.phase == "discard":
            hand = s.seats[player].hand
            return DISCARD.actions(None, lambda _a, _c: [
                Option(value=c, label=f"Discard {s.cards[c].short}", private=True)
                for c in dict.fromkeys(hand)])
        if s.phase in ("act", "defend"):
            return build_actions(s, player)
        if s.phase == "skills":
            seals = s.seats[player].seals
            acts = []
            for c in chances(s, player):
                if c.cost <= seals:
                    what = c.text("1 less damage")
                    acts.append(Action(key=f"skill:{c.id}",
                                       label=clip_words(f"{c.label} ({count(c.cost, 'seal')}): {what}", 80),
                                       description=f"costs {c.cost} of your {seals} seal{'s' * (seals != 1)}",
                                       style="primary"))
            acts.append(Action(key="skill:done", label="No more skills"))
            return acts
        return []

    # --- applying ------------------------------------------------------------------------------
    def apply(self, state: GgState, player: str, action: str | Action,
              text: str | None = None) -> Outcome:
        key = self.find_action(state, player, action).key
        s = clone(state)
        events: list[Event] = []
        self._handle(s, player, key, events)
        return Outcome(state=s, events=events)

    def _handle(self, s: GgState, player: str, key: str, events: list[Event]) -> None:
        verb, _, value = key.partition(":")
        if s.phase in ("act", "defend"):
            self._build(s, player, key, events)
        elif s.phase == "deck":
            self._pick_deck(s, player, key.split(":", 1)[1], events)
        elif s.phase == "hand":
            if value == "redraw":
                turn.redraw(s, player, events)
            else:
                turn.keep_hand(s, player, events)
        elif s.phase == "first":
            turn.choose_first(s, player, key.split(":", 1)[1], events)
        elif s.phase == "summoner":
            turn.summon(s, player, key.split(":", 1)[1], events)
        elif s.phase == "kairos":
            turn.kairos(s, player, value == "draw", events)
        elif s.phase == "discard":
            turn.discard(s, player, key.split(":", 1)[1], events)
        elif s.phase == "skills":
            if value == "done":
                turn.skills_done(s, player, events)
            else:
                turn.activate(s, player, value, events)

    def _pick_deck(self, s: GgState, player: str, deck_id: str, events: list[Event]) -> None:
        turn.assign_deck(s, player, deck_id, events)
        other = s.other(player)
        left = [k for k in s.deck_names if k not in {x.deck_id for x in s.seats.values()}]
        if other in s.seats:
            turn.deal(s, events)
        elif len(left) == 1:
            turn.assign_deck(s, other, left[0], events)
            turn.deal(s, events)
        else:
            s.picker = other

    def _build(self, s: GgState, player: str, key: str, events: list[Event]) -> None:
        move = draft_of(s, player)
        verb = key.split(".", 1)[0].split(":", 1)[0]
        if verb in BUILD_PLANS:
            step = BUILD_PLANS[verb].handle(s.building, key)
            if step is None:
                raise IllegalAction("That move is not possible now.")
            s.building = step.building
            if step.done is not None:
                at = step.done.get("at", "row")
                s.draft = place(s, move, step.done["card"], at)
            return
        if verb == RENEW.verb:
            done = RENEW.handle(None, key)
            assert done is not None and done.done is not None
            keep = done.done["keep"]
            turn.renew(s, player, None if keep == NO_KEEP else keep, events)
        elif key == "chain":
            s.draft = move.model_copy(update={"chain": not move.chain})
        elif key == "undo":
            s.draft = undo(move)
        elif key == "go":
            turn.confirm(s, player, events)
        elif key == "hit":
            turn.take_hit(s, player, events)
        else:
            raise IllegalAction("That move is not possible now.")

    # --- views and results ------------------------------------------------------------------------
    def view(self, state: GgState, player: str | None) -> GgView:
        return build_view(state, player, self.to_act(state))

    def pinned_content(self) -> Pinned[Catalogue]:
        return CATALOGUES

    def result(self, state: GgState) -> Result | None:
        s = state
        if s.phase != "over":
            return None
        winners = list(s.winners or [])
        tags = {"end": s.end_reason}
        for p, seat in s.seats.items():
            tags[f"{p}.deck"] = seat.deck_id
            if s.first is not None:
                tags[f"{p}.order"] = "first" if p == s.first else "second"
        w = winners[0] if winners else None
        summary = "The duel ended without a winner."
        if w is not None:
            how = "brings the rival's Gnosis to 0" if s.end_reason == "gnosis" \
                else "outlasts a rival left without attack cards"
            summary = f"{who(w)} ({s.deck_names[s.seats[w].deck_id]}) {how} on turn {s.turn}."
        return Result(winners=winners, summary=summary, tags=tags,
                      scores={p: float(seat.gnosis) for p, seat in s.seats.items()})

    def auto_action(self, state: GgState, player: str, rng: Rng) -> Action:
        """The automatic player's choice (the actions it chose among are kept for the `apply`
        of that choice: `offer_to_auto`)."""
        from rules.guilty_gods.policy import choose

        return choose(self, state, player, rng, self.offer_to_auto(state, player, self.legal_actions(state, player)))

    def state_shape(self, state: GgState) -> tuple[object, ...]:
        return shape(state)

    def rules_pages(self) -> list[RulesPage]:
        from rules.guilty_gods.help import rules_pages

        return rules_pages(load_decks())

    def resample(self, state: GgState, player: str | None, rng: Rng) -> GgState:
        from rules.guilty_gods.hidden import resample

        return resample(state, player, rng)

    def seat_label(self, state: GgState, player: str) -> str | None:
        seat = state.seats.get(player)
        return state.deck_names[seat.deck_id] if seat else None

    def check_invariants(self, state: GgState) -> None:
        s = state
        for p, seat in s.seats.items():
            if s.phase in ("deck",):
                continue
            assert s.count_cards(p) == len(s.deck_cards[seat.deck_id]), f"{p} lost or gained a card"
            owned = sorted(seat.deck + seat.hand + seat.played + seat.hidden + [
                c for m in (s.attack, s.defense) if m is not None and m.player == p for c in m.cards()])
            assert owned == sorted(s.deck_cards[seat.deck_id]), f"{p}'s cards are not their deck"
            assert 0 <= seat.seals <= MAX_SEALS, f"{p} has {seat.seals} seals"
            assert 0 <= seat.gnosis <= START_GNOSIS
            assert len(seat.hand) <= HAND_SIZE + (1 if s.phase == "discard" and p == s.player else 0)
            if s.phase != "over":
                assert seat.gnosis > 0, f"{p} is at 0 Gnosis and the game goes on"
        if s.draft is not None:
            assert s.phase in ("act", "defend") and s.draft.player in self.to_act(s)
            assert join_total(s, s.draft) is not None, "the draft's row is not joined"
            assert free_seals(s, s.draft) >= 0, "the draft costs more seals than its player has"
            assert not set(s.draft.cards()) - set(s.seats[s.draft.player].hand)
        if s.phase in ("defend", "skills"):
            assert s.attack is not None
        if s.defense is not None:
            assert s.attack is not None
            assert 0 <= s.defense.offset and s.defense.offset + len(s.defense.row) <= len(s.attack.row)


def clone(s: GgState) -> GgState:
    """A copy for `apply` (the catalogue is pinned, not copied; see copying.py)."""
    return copy_state(s)

