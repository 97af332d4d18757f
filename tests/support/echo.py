"""A small test game for the interface's optional parts: opening events, reactions out of
turn, and a simultaneous "ready" step.

Echo: the players first all press Ready (a simultaneous choice), then take turns adding 1 or
2 to a shared count. After each add, every other player may Echo it once (a reaction the game
does not wait for), which scores 1 for them. The add that brings the count to 10 or more
scores 3 and ends the game; the highest score wins. The opening rolls a d6 for each player:
the highest starts (ties go to the earlier seat).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from rules.core import Action, Event, Game, IllegalAction, Outcome, Result, Rng, RulesPage, who

TARGET = 10


class EchoState(BaseModel):
    players: list[str]
    ready: list[str] = Field(default_factory=list)
    count: int = 0
    turn: int = 0
    scores: dict[str, int]
    echoers: list[str] = Field(default_factory=list)
    """Who may still echo the last add."""
    rng: Rng


class EchoView(BaseModel):
    count: int
    scores: dict[str, int]
    ready: list[str]
    turn_player: str | None
    can_echo: list[str]


class Echo(Game):
    id = "test-echo"
    name = "Echo (test)"
    summary = "A test game with reactions."
    min_players = 2
    max_players = 4
    state_type = EchoState
    has_private_view = False
    max_steps = 500

    def setup(self, players, options, seed):
        return self.start(players, options, seed).state

    def start(self, players, options, seed, records=None):
        self.check_players(len(players))
        rng = Rng(seed=seed)
        rolls = {p: rng.roll(6) for p in players}
        first = max(players, key=lambda p: (rolls[p], -players.index(p)))
        shown = ", ".join(f"{who(p)} {v}" for p, v in rolls.items())
        state = EchoState(players=list(players), turn=players.index(first),
                          scores={p: 0 for p in players}, rng=rng)
        return Outcome(state=state, events=[Event(
            kind="opening_roll", text=f"Opening rolls: {shown}. {who(first)} starts.",
            data={"rolls": rolls, "first": first})])

    def _current(self, s: EchoState) -> str | None:
        if s.count >= TARGET:
            return None
        return s.players[s.turn % len(s.players)]

    def to_act(self, state):
        s: EchoState = state
        if len(s.ready) < len(s.players):
            return [p for p in s.players if p not in s.ready]
        cur = self._current(s)
        return [cur] if cur else []

    def may_act(self, state):
        s: EchoState = state
        if self._current(s) is None or len(s.ready) < len(s.players):
            return []
        return list(s.echoers)

    def legal_actions(self, state, player):
        s: EchoState = state
        if len(s.ready) < len(s.players):
            return [Action(key="ready", label="Ready", style="success")] if player not in s.ready else []
        acts = []
        if player == self._current(s):
            acts += [Action(key="add:1", label="Add 1"), Action(key="add:2", label="Add 2")]
        if player in s.echoers and self._current(s) is not None:
            acts.append(Action(key="echo", label="Echo", style="primary"))
        return acts

    def apply(self, state, player, action, text=None):
        act = self.find_action(state, player, action)
        s = state.model_copy(deep=True)
        if act.key == "ready":
            s.ready.append(player)
            return Outcome(state=s, events=[Event(kind="ready", text=f"{who(player)} is ready.")])
        if act.key == "echo":
            s.echoers.remove(player)
            s.scores[player] += 1
            return Outcome(state=s, events=[Event(kind="echo", text=f"{who(player)} echoes.")])
        n = int(act.key.split(":")[1])
        s.count += n
        s.echoers = [p for p in s.players if p != player]
        events = [Event(kind="add", text=f"{who(player)} adds {n}: the count is {s.count}.")]
        if s.count >= TARGET:
            s.scores[player] += 3
            s.echoers = []
        else:
            s.turn += 1
        return Outcome(state=s, events=events)

    def view(self, state, player):
        s: EchoState = state
        return EchoView(count=s.count, scores=dict(s.scores), ready=list(s.ready),
                        turn_player=self._current(s), can_echo=self.may_act(s))

    def result(self, state):
        s: EchoState = state
        if s.count < TARGET:
            return None
        best = max(s.scores.values())
        winners = [p for p, v in s.scores.items() if v == best]
        return Result(winners=winners, scores={p: float(v) for p, v in s.scores.items()},
                      summary=" and ".join(who(w) for w in winners) + f" win with {best}.")

    def auto_action(self, state, player, rng):
        acts = self.legal_actions(state, player)
        required = [a for a in acts if a.key != "echo"]
        if not required:
            raise IllegalAction("nothing to do")
        return rng.choice(required)

    def auto_reaction(self, state, player, rng):
        s: EchoState = state
        if player in s.echoers and self._current(s) is not None and s.count % 2 == 0:
            return next(a for a in self.legal_actions(s, player) if a.key == "echo")
        return None

    def rules_pages(self):
        return [RulesPage(title="Echo", body="Add 1 or 2; others may echo each add.")]

    def check_invariants(self, state):
        s: EchoState = state
        assert all(v >= 0 for v in s.scores.values())
        assert len(set(s.echoers)) == len(s.echoers)


GAME = Echo()
