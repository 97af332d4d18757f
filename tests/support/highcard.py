"""A tiny game used only by the platform's tests: each player holds 3 cards and
plays one per turn (a hidden choice); after everyone played all, the highest
total wins. It has hidden hands, turns, a pass-free flow and a text action."""

from __future__ import annotations

from pydantic import BaseModel

from rules.core import (
    Action,
    Card,
    Event,
    Game,
    IllegalAction,
    Outcome,
    Result,
    Rng,
    RulesPage,
    who,
)
from rules.core.cards import shuffled_deck
from rules.core.game import OptionChoice, OptionSpec


class HighCardState(BaseModel):
    players: list[str]
    hands: dict[str, list[Card]]
    played: dict[str, list[Card]]
    turn: int = 0
    rng: Rng
    cheer: str | None = None


class HighCardView(BaseModel):
    players: list[str]
    played: dict[str, list[Card]]
    hand_sizes: dict[str, int]
    turn_player: str | None
    hand: list[Card] | None = None
    cheer: str | None = None


class HighCard(Game):
    id = "test-high-card"
    name = "High Card (test)"
    summary = "A test game."
    min_players = 1
    max_players = 4
    state_type = HighCardState
    options = [OptionSpec(key="cards", label="Cards each", default="3",
                          choices=[OptionChoice(value="1", label="1"), OptionChoice(value="3", label="3")])]
    max_steps = 200

    def setup(self, players, options, seed):
        rng = Rng(seed=seed)
        deck = shuffled_deck(rng)
        n = int(self.resolve_options(options)["cards"])
        hands = {p: [deck.pop() for _ in range(n)] for p in players}
        return HighCardState(players=list(players), hands=hands, played={p: [] for p in players}, rng=rng)

    def _current(self, s: HighCardState) -> str | None:
        if all(not h for h in s.hands.values()):
            return None
        return s.players[s.turn % len(s.players)]

    def to_act(self, state):
        cur = self._current(state)
        return [cur] if cur else []

    def legal_actions(self, state, player):
        if self._current(state) != player:
            return []
        acts = [Action(key=f"play:{i}", label=f"Play {c.name}", private=True, group="Play a card")
                for i, c in enumerate(state.hands[player])]
        acts.append(Action(key="cheer", label="Cheer", text_prompt="What do you shout?"))
        return acts

    def apply(self, state, player, action, text=None):
        act = self.find_action(state, player, action)
        s = state.model_copy(deep=True)
        if act.key == "cheer":
            if not text:
                raise IllegalAction("Say something to cheer.")
            s.cheer = text[:100]
            return Outcome(state=s, events=[Event(kind="cheer", text=f"{who(player)} cheers: {s.cheer}")])
        card = s.hands[player].pop(int(act.key.split(":")[1]))
        s.played[player].append(card)
        s.turn += 1
        return Outcome(state=s, events=[Event(kind="card_played", text=f"{who(player)} plays {card.name}")])

    def view(self, state, player):
        return HighCardView(players=state.players, played=state.played,
                            hand_sizes={p: len(h) for p, h in state.hands.items()},
                            turn_player=self._current(state),
                            hand=state.hands.get(player) if player else None, cheer=state.cheer)

    def result(self, state):
        if self._current(state) is not None:
            return None
        totals = {p: float(sum(c.rank for c in cs)) for p, cs in state.played.items()}
        best = max(totals.values())
        winners = [p for p, t in totals.items() if t == best]
        return Result(winners=winners, scores=totals,
                      summary=" and ".join(who(w) for w in winners) + f" win with {best:g}.")

    def auto_action(self, state, player, rng):
        plays = [a for a in self.legal_actions(state, player) if a.key.startswith("play:")]
        return rng.choice(plays)

    def resample(self, state, player, rng):
        """The other hands dealt anew from the cards `player` has not seen."""
        s = state.model_copy(deep=True)
        others = [p for p in s.players if p != player]
        pool = [c for p in others for c in s.hands[p]]
        seen = {(c.rank, c.suit) for cs in s.played.values() for c in cs}
        seen |= {(c.rank, c.suit) for c in s.hands.get(player, [])} if player else set()
        pool += [c for c in shuffled_deck(Rng(seed=rng.randint(0, 2**62)))
                 if (c.rank, c.suit) not in seen and c not in pool][:len(pool)]
        pool = rng.shuffled(pool)
        for p in others:
            s.hands[p] = [pool.pop() for _ in s.hands[p]]
        s.rng = Rng(seed=rng.randint(0, 2**62), counter=s.rng.counter)
        return s

    def rules_pages(self):
        return [RulesPage(title="High Card", body="Play your cards; the highest total wins.")]

    def check_invariants(self, state):
        n = sum(len(h) for h in state.hands.values()) + sum(len(p) for p in state.played.values())
        assert n == len(state.players) * len(next(iter(state.played.values()), [])) or n > 0


GAME = HighCard()
