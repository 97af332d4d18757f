"""A small test game for records carried between sessions: heroes who gain experience.

Heroes: each player brings a hero (a record: name, experience, level). Each in turn presses
Fight: a d6 plus the hero's level. After one round the highest total wins; every hero gains 1
experience, the winners 2 more, and a hero levels up at every 3 experience. The heroes, with
their experience, go back to their owners.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from rules.core import Action, Event, Game, Outcome, Result, Rng, RulesPage, who


class Hero(BaseModel):
    name: str
    xp: int = 0
    games: int = 0

    @property
    def level(self) -> int:
        return 1 + self.xp // 3


class HeroesState(BaseModel):
    players: list[str]
    heroes: dict[str, Hero]
    totals: dict[str, int] = Field(default_factory=dict)
    rng: Rng


class HeroesView(BaseModel):
    heroes: dict[str, Hero]
    totals: dict[str, int]


class Heroes(Game):
    id = "test-heroes"
    name = "Heroes (test)"
    summary = "A test game whose heroes last between games."
    min_players = 1
    max_players = 4
    state_type = HeroesState
    has_private_view = False
    record_type = Hero
    record_label = "hero"
    max_steps = 20

    def new_record(self, name):
        return Hero(name=name)

    def setup(self, players, options, seed):
        return self.start(players, options, seed).state

    def start(self, players, options, seed, records=None):
        heroes = {p: Hero.model_validate(((records or {}).get(p) or [Hero(name=p)])[0], from_attributes=True)
                  for p in players}
        state = HeroesState(players=list(players), heroes=heroes, rng=Rng(seed=seed))
        shown = ", ".join(f"{who(p)} with {h.name} (level {h.level})" for p, h in heroes.items())
        return Outcome(state=state, events=[Event(kind="heroes", text=f"Heroes: {shown}.")])

    def _next(self, s: HeroesState) -> str | None:
        return next((p for p in s.players if p not in s.totals), None)

    def to_act(self, state):
        nxt = self._next(state)
        return [nxt] if nxt else []

    def legal_actions(self, state, player):
        return [Action(key="fight", label="Fight", style="primary")] if player == self._next(state) else []

    def apply(self, state, player, action, text=None):
        self.find_action(state, player, action)
        s = state.model_copy(deep=True)
        roll = s.rng.roll(6)
        s.totals[player] = roll + s.heroes[player].level
        return Outcome(state=s, events=[Event(
            kind="fight", text=f"{who(player)} rolls {roll}: {s.totals[player]} in all.")])

    def view(self, state, player):
        return HeroesView(heroes=state.heroes, totals=state.totals)

    def result(self, state):
        s: HeroesState = state
        if self._next(s) is not None:
            return None
        best = max(s.totals.values())
        winners = [p for p, v in s.totals.items() if v == best]
        return Result(winners=winners, scores={p: float(v) for p, v in s.totals.items()},
                      summary=" and ".join(who(w) for w in winners) + f" win with {best}.")

    def records_out(self, state):
        s: HeroesState = state
        result = self.result(s)
        out = {}
        for p, hero in s.heroes.items():
            gain = 1 + (2 if result is not None and p in result.winners else 0)
            out[p] = [hero.model_copy(update={"xp": hero.xp + gain, "games": hero.games + 1})]
        return out

    def auto_action(self, state, player, rng):
        return self.legal_actions(state, player)[0]

    def rules_pages(self):
        return [RulesPage(title="Heroes", body="Fight; heroes gain experience between games.")]


GAME = Heroes()
