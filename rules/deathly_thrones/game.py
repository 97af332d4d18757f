"""Deathly Thrones as a Pantheon game: the step loop, the events, the fights."""

from __future__ import annotations

from rules.core import (
    Action,
    Card,
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
from rules.core.state import independent_copy
from rules.deathly_thrones import help as help_text
from rules.deathly_thrones import policy
from rules.deathly_thrones.combat import (
    battle_cards,
    draw_battle_card,
    parts_open,
    resolve_round,
    take_damage,
)
from rules.deathly_thrones.content import (
    COUNTER_MAX,
    QUEST_LENGTH,
    RUNS,
    Character,
    Effect,
    Quest,
    RunContent,
    characters,
    pin_run,
    quests,
)
from rules.deathly_thrones.state import (
    BattleDrawn,
    CurrentEvent,
    Fight,
    FightView,
    Part,
    PassedStep,
    Round,
    RunState,
    RunView,
)
from rules.deathly_thrones.steps import describe_step_card, new_step_deck, step_cards, step_value

SYMBOL = {"health": "♥", "armor": "♠"}
FIGHT_ON_ROUNDS = 60
"""At most this many rounds for one "Fight on" (the battle deck reshuffles; a fight always ends)."""
PARTS: dict[str, Part] = {"health": "health", "armor": "armor"}
"""The part named in a `hit:<part>` action key."""
DEFAULT_QUEST = "iron-throne"


def _clamp(value: int) -> int:
    return max(0, min(COUNTER_MAX, value))


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


def _fight(s: RunState) -> Fight:
    """The fight under way (phases 'fight' and 'choose')."""
    assert s.fight is not None, f"no fight in phase {s.phase}"
    return s.fight


def _last(fight: Fight) -> Round:
    """The round on the table (drawn, its damage still to land in phase 'choose')."""
    assert fight.last is not None, "no round drawn in this fight"
    return fight.last


class DeathlyThrones(Game[RunState, RunView]):
    id = "deathly-thrones"
    name = "Deathly Thrones"
    summary = "Solo roguelike: walk 40 steps by the cards, fight what you meet, take the boss's throne."
    min_players = 1
    max_players = 1
    state_type = RunState
    max_steps = 3000
    colour = 0x8E1B1B
    has_private_view = False  # nothing is hidden but the deck order: the table is the whole view

    def __init__(self) -> None:
        chars = characters()
        qs = quests()
        default_quest = DEFAULT_QUEST if DEFAULT_QUEST in qs else next(iter(qs))
        self.options = [
            OptionSpec(key="character", label="Character", default=next(iter(chars)),
                       choices=[OptionChoice(value=c.id, label=f"{c.name} (♥{c.health} ♠{c.armor})",
                                             description=c.blurb or None)
                                for c in chars.values()]),
            OptionSpec(key="quest", label="Quest", default=default_quest,
                       choices=[OptionChoice(value=q.id, label=q.name) for q in qs.values()]),
        ]

    # --- content ---------------------------------------------------------
    def quest_of(self, state: RunState) -> Quest:
        if state.content:
            return RUNS.get(state.content).quest
        try:
            return quests()[state.quest]
        except KeyError:
            raise IllegalAction(f"The quest `{state.quest}` is no longer installed.") from None

    def character_of(self, state: RunState) -> Character:
        if state.content:
            return RUNS.get(state.content).character
        return characters()[state.character]

    def pinned_content(self) -> Pinned[RunContent]:
        return RUNS

    # --- setup -----------------------------------------------------------
    def setup(self, players: list[str], options: dict[str, str], seed: int) -> RunState:
        self.check_players(len(players))
        opts = self.resolve_options(options)
        character = characters()[opts["character"]]
        rng = Rng(seed=seed)
        return RunState(
            players=list(players), character=character.id, quest=opts["quest"],
            content=pin_run(character.id, opts["quest"]),
            health=character.health, armor=character.armor,
            step_deck=new_step_deck(rng), battle_deck=rng.shuffled(battle_cards()), rng=rng,
        )

    # --- play ------------------------------------------------------------
    def to_act(self, state: RunState) -> list[str]:
        return [] if state.phase == "over" else list(state.players)

    def legal_actions(self, state: RunState, player: str) -> list[Action]:
        if player not in state.players or state.phase == "over":
            return []
        if state.phase == "walk":
            return [Action(key="step", label="Draw a step card", style="primary",
                           description=f"{len(state.step_deck)} step cards left")]
        if state.phase == "fight":
            return [Action(key="battle", label="Draw battle cards", style="primary",
                           description=f"Fight {_fight(state).enemy}"),
                    Action(key="fight_on", label="Fight on",
                           description="Draw rounds until a choice is needed or someone falls")]
        return [self._damage_action(state, part) for part in self._open_parts(state)]

    def _open_parts(self, state: RunState) -> list[Part]:
        fight = _fight(state)
        if _last(fight).target == "enemy":
            return parts_open(fight.health, fight.armor)
        # your own damage: armor is offered first, so a hasty click does not cost health
        return list(reversed(parts_open(state.health, state.armor)))

    def _damage_action(self, state: RunState, part: Part) -> Action:
        fight = _fight(state)
        damage = _last(fight).damage
        if _last(fight).target == "enemy":
            whose, value = fight.enemy, getattr(fight, part)
        else:
            whose, value = "you", getattr(state, part)
        after = take_damage(value, damage)[0]
        return Action(key=f"hit:{part}", label=f"Damage to {part} ({SYMBOL[part]} {value} → {after})",
                      style="danger" if part == "health" else "secondary",
                      description=f"{whose[:60]} loses {value - after} {part}")

    def apply(self, state: RunState, player: str, action: str | Action,
              text: str | None = None) -> Outcome:
        act = self.find_action(state, player, action)
        s = independent_copy(state)
        events: list[Event] = []
        if act.key == "step":
            self._walk(s, events)
        elif act.key == "battle":
            self._battle(s, events)
        elif act.key == "fight_on":
            # round after round while nothing asks for a choice and both sides stand (a fight
            # against heavy armor can take a dozen rounds of hits all stopped)
            for _ in range(FIGHT_ON_ROUNDS):
                self._battle(s, events)
                if s.phase != "fight":
                    break
        else:
            self._land(s, PARTS[act.key.split(":", 1)[1]], events)
        return Outcome(state=s, events=events)

    def _walk(self, s: RunState, events: list[Event]) -> None:
        quest = self.quest_of(s)
        card = s.step_deck.pop()
        s.steps_drawn.append(card)
        start, s.position = s.position, s.position + step_value(card)
        s.fight = None
        s.note = ""
        events.append(Event(kind="step_drawn",
                            text=f"{who(s.players[0])} draws {describe_step_card(card)} and walks "
                                 f"from step {start} to step {s.position}.",
                            data={"card": card.name, "steps": step_value(card), "from": start,
                                  "to": s.position}))
        for n in range(start + 1, s.position + 1):
            story = quest.at(n).story
            if story:
                events.append(Event(kind="story", text=f"Ξ {story}", data={"step": n}))
        s.visited.append(s.position)
        self._play_event(s, quest, events)

    def _play_event(self, s: RunState, quest: Quest, events: list[Event]) -> None:
        ev = quest.at(s.position)
        data = {"step": ev.step, "type": ev.type, "name": ev.name}
        if ev.type == "fight":
            assert ev.health is not None and ev.armor is not None, "a fight step has both (validated)"
            s.fight = Fight(step=ev.step, enemy=ev.name, health=ev.health, armor=ev.armor,
                            start_health=ev.health, start_armor=ev.armor)
            s.phase = "fight"
            boss = " The boss of the quest bars the way." if ev.step == QUEST_LENGTH else ""
            events.append(Event(kind="fight", text=f"Step {ev.step}: {ev.name} attacks "
                                f"(♥ {ev.health}, ♠ {ev.armor}).{boss}",
                                data={**data, "health": ev.health, "armor": ev.armor}))
            return
        verb = "Danger" if ev.type == "hurt" else "Rest"
        events.append(Event(kind=ev.type, text=f"Step {ev.step}, {verb.lower()}: {ev.name}. {ev.outcome}",
                            data=data))
        s.note = f"{ev.outcome} ({ev.result.describe()})"
        self._apply_effect(s, ev.result, events)
        s.phase = "over" if s.outcome else "walk"

    def _apply_effect(self, s: RunState, effect: Effect, events: list[Event]) -> None:
        if effect.empty:
            return
        health, armor = _clamp(s.health + effect.health), _clamp(s.armor + effect.armor)
        dh, da = health - s.health, armor - s.armor
        s.health, s.armor = health, armor
        changes = [f"{d:+d} {SYMBOL[k]}" for k, d in (("health", dh), ("armor", da)) if d]
        events.append(Event(kind="effect",
                            text=f"{who(s.players[0])}: {', '.join(changes) or 'no change'} "
                                 f"(now ♥ {s.health}, ♠ {s.armor}).",
                            data={"health": dh, "armor": da, "now_health": s.health,
                                  "now_armor": s.armor}))
        if s.health == 0:
            self._die(s, events)

    def _die(self, s: RunState, events: list[Event]) -> None:
        s.outcome = "dead"
        s.phase = "over"
        ev = self.quest_of(s).at(s.position)
        events.append(Event(kind="death", text=f"{who(s.players[0])} falls on step {s.position} "
                            f"({ev.name}). The run is over.", data={"step": s.position}))

    def _battle(self, s: RunState, events: list[Event]) -> None:
        fight = _fight(s)
        while True:
            yours = draw_battle_card(s, s.rng, events)
            s.battle_table.append(yours)
            theirs = draw_battle_card(s, s.rng, events)
            s.battle_table.append(theirs)
            rnd = resolve_round(s.health, s.armor, fight.health, fight.armor, yours, theirs)
            fight.rounds += 1
            fight.last = rnd
            events.append(BattleDrawn(round=fight.rounds, **rnd.model_dump(mode="json")).event(
                self._round_text(s, rnd)))
            if rnd.target is not None:
                break
            self._discard_table(s)
        if rnd.damage == 0:
            self._discard_table(s)
            return
        parts = self._open_parts(s)
        if len(parts) == 1:
            self._land(s, parts[0], events)
        else:
            s.phase = "choose"

    def _round_text(self, s: RunState, rnd: Round) -> str:
        enemy = _fight(s).enemy
        head = (f"Battle cards: you {rnd.your_card.rank} (power {rnd.your_power}), "
                f"{enemy} {rnd.enemy_card.rank} (power {rnd.enemy_power})")
        if rnd.target is None:
            return f"{head}: a tie, draw again."
        victim = enemy if rnd.target == "enemy" else "you"
        if rnd.damage == 0:
            return f"{head}: {_hits(rnd.hits)} on {victim}, all stopped by armor {rnd.armor}."
        return f"{head}: {_hits(rnd.hits)} on {victim}, armor {rnd.armor}, {rnd.damage} damage."

    def _discard_table(self, s: RunState) -> None:
        s.battle_discard.extend(s.battle_table)
        s.battle_table = []

    def _land(self, s: RunState, part: Part, events: list[Event]) -> None:
        fight = _fight(s)
        rnd = _last(fight)
        holder: Fight | RunState = fight if rnd.target == "enemy" else s
        new, lost = take_damage(getattr(holder, part), rnd.damage)
        setattr(holder, part, new)
        rnd.part, rnd.lost = part, lost
        self._discard_table(s)
        victim = fight.enemy if rnd.target == "enemy" else who(s.players[0])
        events.append(Event(kind="damage", text=f"{victim} loses {lost} {part} ({SYMBOL[part]} {new}).",
                            data={"target": rnd.target, "part": part, "damage": rnd.damage,
                                  "lost": lost, "now": new}))
        s.phase = "fight"
        if s.health == 0:
            self._die(s, events)
        elif fight.health == 0:
            self._win_fight(s, events)

    def _win_fight(self, s: RunState, events: list[Event]) -> None:
        quest = self.quest_of(s)
        fight = _fight(s)
        ev = quest.at(fight.step)
        events.append(Event(kind="victory", text=f"{ev.name} is defeated. {ev.outcome}",
                            data={"step": ev.step, "name": ev.name, "rounds": fight.rounds}))
        s.note = f"{ev.outcome} ({ev.result.describe()})" if not ev.result.empty else ev.outcome
        s.phase = "walk"
        self._apply_effect(s, ev.result, events)
        if s.outcome is None and ev.step == QUEST_LENGTH:
            s.outcome = "won"
            s.phase = "over"
            events.append(Event(kind="throne", text=f"{who(s.players[0])} takes the throne. {quest.throne}",
                                data={"quest": quest.id}))

    # --- views and results ---------------------------------------------------
    def view(self, state: RunState, player: str | None) -> RunView:
        quest = self.quest_of(state)
        character = self.character_of(state)
        landed = set(state.visited)
        passed = [PassedStep(step=n, type=quest.at(n).type, name=quest.at(n).name,
                             landed=n in landed, story=quest.at(n).story)
                  for n in range(1, state.position + 1)]
        current = None
        if state.visited:
            ev = quest.at(state.visited[-1])
            current = CurrentEvent(step=ev.step, type=ev.type, name=ev.name, text=ev.text,
                                   outcome=ev.outcome, result=ev.result.describe())
        fight = None
        if state.fight is not None:
            f = state.fight
            fight = FightView(enemy=f.enemy, health=f.health, armor=f.armor,
                              start_health=f.start_health, start_armor=f.start_armor,
                              rounds=f.rounds, last=f.last, choosing=state.phase == "choose")
        return RunView(
            player=state.players[0], character=character.id, character_name=character.name,
            quest=quest.id, quest_name=quest.name, intro=quest.intro,
            health=state.health, armor=state.armor, position=state.position, length=QUEST_LENGTH,
            phase=state.phase, steps_drawn=list(state.steps_drawn),
            step_cards_left=len(state.step_deck), battle_cards_left=len(state.battle_deck),
            battle_discard=len(state.battle_discard), passed=passed, current=current, fight=fight,
            note=state.note, outcome=state.outcome,
            throne=quest.throne if state.outcome == "won" else "",
        )

    def result(self, state: RunState) -> Result | None:
        if state.outcome is None:
            return None
        player = state.players[0]
        quest = self.quest_of(state)
        character = self.character_of(state)
        tags = {"character": state.character, "quest": state.quest}
        scores = {player: float(state.position)}
        if state.outcome == "won":
            return Result(winners=[player], scores=scores, tags=tags,
                          summary=f"{who(player)}, {character.name}, wins {quest.name} "
                                  f"with ♥ {state.health} and ♠ {state.armor} left.")
        ev = quest.at(state.position)
        return Result(winners=[], scores=scores, tags=tags,
                      summary=f"{who(player)}, {character.name}, dies on step {state.position} "
                              f"of {quest.name} ({ev.name}).")

    def auto_action(self, state: RunState, player: str, rng: Rng) -> Action:
        legal = self.legal_actions(state, player)
        if state.phase != "choose" or len(legal) == 1:
            return legal[0]
        f = _fight(state)
        last = _last(f)
        assert last.target is not None, "damage to place comes from a round that was not a tie"
        part = policy.best_part(state.health, state.armor, f.health, f.armor, last.target,
                                last.damage, f.step == QUEST_LENGTH)
        return next(a for a in legal if a.key == f"hit:{part}")

    def rules_pages(self) -> list[RulesPage]:
        return help_text.pages()

    def seat_label(self, state: RunState, player: str) -> str | None:
        return self.character_of(state).name

    def resample(self, state: RunState, player: str | None, rng: Rng) -> RunState:
        """The run with its hidden parts dealt anew: the order of the face-down step deck and of
        the face-down battle deck, and the generator's seed. Everything else is on the table
        (the cards drawn, the discard pile's size, the counters, the fight)."""
        s = independent_copy(state)
        s.step_deck = rng.shuffled(s.step_deck)
        s.battle_deck = rng.shuffled(s.battle_deck)
        s.rng = Rng(seed=rng.randint(0, 2**62), counter=state.rng.counter)
        return s

    def check_invariants(self, state: RunState) -> None:
        assert 0 <= state.health <= COUNTER_MAX, f"health {state.health} out of 0..9"
        assert 0 <= state.armor <= COUNTER_MAX, f"armor {state.armor} out of 0..9"
        steps = state.step_deck + state.steps_drawn
        assert _same_cards(steps, step_cards()), "the step deck lost or gained cards"
        assert sum(step_value(c) for c in steps) == QUEST_LENGTH
        assert sum(step_value(c) for c in state.steps_drawn) == state.position
        assert len(state.visited) == len(state.steps_drawn)
        battle = state.battle_deck + state.battle_discard + state.battle_table
        assert len(battle) == 18 and _same_cards(battle, battle_cards()), "battle cards lost or gained"
        assert len(state.battle_table) == (2 if state.phase == "choose" else 0)
        if state.phase in ("fight", "choose"):
            f = state.fight
            assert f is not None and f.health > 0 and 0 <= f.armor <= COUNTER_MAX
        if state.phase == "over":
            assert state.outcome is not None
            assert state.outcome == "dead" or state.position == QUEST_LENGTH
        if state.outcome == "dead":
            assert state.health == 0


def _same_cards(a: list[Card], b: list[Card]) -> bool:
    key = lambda c: (c.suit.value, c.rank)  # noqa: E731
    return sorted(a, key=key) == sorted(b, key=key)
