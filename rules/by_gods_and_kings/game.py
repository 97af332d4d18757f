"""By Gods and Kings as a Pantheon game: setup, who acts, the actions of each phase, applying them."""

from __future__ import annotations

from pydantic import BaseModel

from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.abilities import ability, hand_abilities
from rules.by_gods_and_kings.autoturn import auto_turn
from rules.by_gods_and_kings.camp import (
    camp_actions,
    camp_move,
    make_save,
    route_actions,
    save_actions,
    vote,
)
from rules.by_gods_and_kings.campaign import (
    Character,
    aside_events,
    characters_out,
    describe,
    form_party,
    kit_choices,
    new_character,
)
from rules.by_gods_and_kings.catalogue import CATALOGUES, cached_catalogue
from rules.by_gods_and_kings.chosen import Chosen
from rules.by_gods_and_kings.content import Catalogue, ScenarioDef
from rules.by_gods_and_kings.copying import copy_for_move
from rules.by_gods_and_kings.cow import WRITING
from rules.by_gods_and_kings.enemy import land
from rules.by_gods_and_kings.events import outcome
from rules.by_gods_and_kings.flow import (
    battle_over,
    begin_round,
    begin_step,
    choose_first,
    end_turn,
    open_with,
    set_out,
)
from rules.by_gods_and_kings.gear import attack_stats
from rules.by_gods_and_kings.invariants import check
from rules.by_gods_and_kings.labels import attack_label, opening_label, unique_texts
from rules.by_gods_and_kings.legality import TURN_PHASES, checks_keys, is_turn_key, turn_seat
from rules.by_gods_and_kings.plans import (
    PLANS,
    TURN_PLANS,
    USE,
    actions,
    handle,
    made,
    settle,
    step_after,
    still_valid,
)
from rules.by_gods_and_kings.policy import (
    any_wanted,
    choose,
    reaction,
    reaction_among,
    route_choice,
    turn_choice,
    wanted_reactions,
)
from rules.by_gods_and_kings.reactions import by_seat, react, reaction_refs
from rules.by_gods_and_kings.saving import dump
from rules.by_gods_and_kings.shape import shape
from rules.by_gods_and_kings.state import BgkState, Hero, Npc
from rules.by_gods_and_kings.stats import hero_base, max_hp
from rules.by_gods_and_kings.turn import (
    attack_choices,
    attack_keys,
    basic_attack,
    deploy,
    fire,
    npc_play,
    opening_keys,
    peek_actor,
    play,
)
from rules.by_gods_and_kings.view import BgkView, build_view
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
)
from rules.core.content import Pinned
from rules.core.state import independent_copy

MAX_PARTY = 8
FIRST_SCENARIO = "kobold-warren"
"""The scenario offered first (the default), when the content has it; the others follow by length."""
AUTO_PARTY = 4


class ByGodsAndKings(Game[BgkState, BgkView]):
    id = "by-gods-and-kings"
    name = "By Gods and Kings"
    summary = "A party of adventurers fights through a scenario with playing cards and the Shards of the Gods."
    min_players = 1
    max_players = MAX_PARTY
    state_type = BgkState
    colour = 0xB8860B
    max_steps = 8_000
    has_private_view = True
    record_type = Character
    record_label = "character"
    records_per_seat = MAX_PARTY
    _chosen = Chosen()
    """The automatic player's last turn move, kept for its `apply` (chosen.py)."""

    def __init__(self) -> None:
        cat = cached_catalogue()  # validate the content at start-up
        top = min(MAX_PARTY, len(cat.characters))
        party = [OptionChoice(value="auto", label=f"{AUTO_PARTY} characters, or one per seat, or all "
                                                  "that are brought if more")]
        party += [OptionChoice(value=str(n), label=f"{n} character{'s' * (n > 1)}") for n in range(1, top + 1)]
        scenarios = [OptionChoice(value=k, label=f"{v.name} ({_length(v)})") for k, v in
                     sorted(cat.scenarios.items(), key=lambda kv: (kv[0] != FIRST_SCENARIO, kv[1].shortest()))]
        self.options = [
            OptionSpec(key="party", label="Party size", choices=party, default="auto"),
            OptionSpec(key="scenario", label="Scenario", choices=scenarios, default=scenarios[0].value),
            OptionSpec(key="ties", label="Characters tied on SPD", default="ask", choices=[
                OptionChoice(value="ask", label="The party chooses who goes first, each round"),
                OptionChoice(value="order", label="Party order decides")]),
            OptionSpec(key="blows", label="Enemy blows", default="announce", choices=[
                OptionChoice(value="announce", label="Announced: the party may react before they land"),
                OptionChoice(value="fast", label="Land at once (react on the party's turns)")]),
            OptionSpec(key="attempts", label="Attempts at the scenario", default="3", choices=[
                OptionChoice(value=str(n), label=f"{n} attempt{'s' * (n > 1)}") for n in (1, 2, 3, 5)]),
        ]

    # --- setup -------------------------------------------------------------------------------
    def setup(self, players: list[str], options: dict[str, str], seed: int) -> BgkState:
        return self._open(players, options, seed, [])

    def start(self, players: list[str], options: dict[str, str], seed: int,
              records: dict[str, list[BaseModel]] | None = None) -> Outcome:
        events: list[Event] = []
        brought = None
        if records is not None:
            brought = {p: [Character.model_validate(r, from_attributes=True) for r in rs]
                       for p, rs in records.items()}
        return Outcome(state=self._open(players, options, seed, events, brought), events=events)

    def new_record(self, name: str) -> Character:
        """A new character: it gets the first starting kit nobody in the party uses."""
        return Character(name=name)

    def records_out(self, state: BgkState) -> dict[str, list[BaseModel]]:
        return characters_out(state)

    def record_kinds(self) -> list[OptionChoice]:
        return [OptionChoice(value=k, label=label[:100]) for k, label in kit_choices(cached_catalogue())]

    def create_record(self, name: str, kind: str | None) -> Character:
        cat = cached_catalogue()
        return new_character(cat, name, kind or cat.characters[0].id)

    def describe_record(self, record: BaseModel) -> list[tuple[str, str]]:
        return describe(cached_catalogue(), Character.model_validate(record, from_attributes=True))

    def _open(self, players: list[str], options: dict[str, str], seed: int,
              events: list[Event], brought: dict[str, list[Character]] | None = None) -> BgkState:
        opts = self.resolve_options(options)
        self.check_players(len(players))
        if len(set(players)) != len(players):
            raise IllegalAction("Every seat needs a different player.")
        version = CATALOGUES.current()
        cat = CATALOGUES.get(version)
        if brought is None:  # the band's characters in content order
            size = party_size(opts["party"], len(players), cat)
        else:
            count = sum(len(v) for v in brought.values())
            if count > MAX_PARTY:
                raise IllegalAction(f"A party has at most {MAX_PARTY} characters; {count} were brought.")
            wanted = max(AUTO_PARTY, len(players)) if opts["party"] == "auto" else int(opts["party"])
            size = min(MAX_PARTY, max(count, wanted))
        party = form_party(cat, players, brought or {}, size)
        for h in party:
            h.hp = hero_base(cat, h, party).hp
        size = len(party)
        rng = Rng(seed=seed)
        decks = cards.decks_for(size)
        s = BgkState(players=list(players), options=opts, content=version, rng=rng,
                     scenario=opts["scenario"], party=party, origin=[independent_copy(h) for h in party],
                     decks=decks, deck=cards.shuffled(rng, decks))
        scenario = s.scenario_def
        seats = "; ".join(f"{', '.join(h.name for h in s.heroes_of(p))}: ⟨{p}⟩" for p in players)
        events.append(Event(kind="scenario", text=(
            f"**{scenario.name}**. {scenario.intro} The party ({seats}) shuffles {decks} "
            f"deck{'s' * (decks > 1)} together.").replace("  ", " "), data={"scenario": s.scenario}))
        events.extend(aside_events(cat, party))
        if brought is not None:  # saved characters: a moment to re-equip before setting out
            s.phase, s.ready = "camp", []
            events.append(Event(kind="camp", text=(
                "Before setting out: change shards and equipment; the scenario begins when "
                "everyone is ready.")))
        else:
            begin_step(s, events)
        return s

    # --- whose move ----------------------------------------------------------------------------
    def to_act(self, state: BgkState) -> list[str]:
        s = state
        if s.phase in TURN_PHASES:  # one seat (the commonest case, first)
            seat = turn_seat(s)
            return [seat] if seat in s.players else []
        if s.phase == "over":
            return []
        if s.phase == "opening":
            seats = {s.seat_of(u) for u in s.opening}
        elif s.phase == "order":
            assert s.battle is not None and s.battle.ties
            seats = {s.seat_of(s.battle.order[s.battle.ties[0][0]])}
        elif s.phase == "save":
            seats = {s.seat_of(u) for u in s.saving}
        elif s.phase == "camp":
            seats = {p for p in s.players if p not in s.ready}
        elif s.phase == "route":
            seats = {p for p in s.players if p not in s.votes}
        else:
            assert s.actor is not None
            seats = {s.seat_of(s.actor)}
        return [p for p in s.players if p in seats]

    def may_act(self, state: BgkState) -> list[str]:
        required = self.to_act(state)
        others = [p for p in state.players if p not in required]
        if not others:
            return []
        ready = by_seat(state)  # every seat's reactions, found once for this state
        return [p for p in others if p in ready or state.buildings.get(p) is not None]

    # --- legal actions -----------------------------------------------------------------------------
    def legal_actions(self, state: BgkState, player: str) -> list[Action]:
        s = state
        if s.phase == "over" or player not in s.players:
            return []
        building = s.buildings.get(player)
        if building is not None:
            return _unique_labels(actions(s, player, PLANS[building.verb]))
        acts: list[Action] = []
        if player in self.to_act(s):
            acts += self._turn_actions(s, player)
        refs = reaction_refs(s, player)
        if refs:
            acts += actions(s, player, USE, refs)
        return _unique_labels(acts)

    def _turn_actions(self, s: BgkState, seat: str) -> list[Action]:
        if s.phase in TURN_PLANS:
            return actions(s, seat, TURN_PLANS[s.phase])
        if s.phase == "opening":
            out = []
            for key in opening_keys(s, seat):
                _, uid, c = key.split(":")
                name = s.peek(uid).name
                out.append(Action(key=key, label=opening_label(name, c), group=f"{name}'s first Field card"))
            return out
        if s.phase == "order":
            assert s.battle is not None
            start, end = s.battle.ties[0]
            return [Action(key=f"first:{uid}", label=f"{s.unit(uid).name} goes first")
                    for uid in s.battle.order[start:end]]
        if s.phase == "resolve":
            return self._resolve_actions(s)
        if s.phase == "enemy":
            assert s.intent is not None
            return [Action(key="land", label=f"Let {s.unit(s.intent.foe).name}'s blow land", style="primary")]
        if s.phase == "save":
            return save_actions(s, seat)
        if s.phase == "route":
            return route_actions(s, seat)
        return camp_actions(s, seat)

    def _resolve_actions(self, s: BgkState) -> list[Action]:
        choices = attack_choices(s)
        played = cards.name(s.played or "")
        out = []
        for key, (foe, bonus, raw) in zip(attack_keys(s), choices, strict=True):
            out.append(made(key, group="Basic attack", label=attack_label(s.unit(foe).name, played, bonus, raw)))
        assert s.actor is not None
        refs = hand_abilities(s, s.hero(s.actor))
        if refs:
            names = ", ".join(ability(s, r).name for r in refs)
            out.append(made("deploy", f"Fire {names}"[:80], style="primary"))
        return out

    # --- applying ---------------------------------------------------------------------------------------
    def apply(self, state: BgkState, player: str, action: str | Action,
              text: str | None = None) -> Outcome:
        key, step = self._legal_key(state, player, action)
        s, units = copy_for_move(state)
        events: list[Event] = []
        WRITING.begin(s, units)
        try:
            if step is not None:  # a step of the turn's plan, worked out by the key's check
                plan = TURN_PLANS[s.phase]
                done = settle(s, player, plan, step)
                if done is not None:
                    self._finish_plan(s, player, plan.verb, done, events)
            else:
                head = key.split(":")[0]
                verb = head.split(".")[0]
                if "." in head and verb in PLANS:
                    done = handle(s, player, PLANS[verb], key)
                    if done is not None:
                        self._finish_plan(s, player, verb, done, events)
                else:
                    self._flat(s, player, key, events)
            self._prune(s)
        finally:
            WRITING.end()
        return outcome(s, events)

    def _legal_key(self, s: BgkState, player: str,
                   action: str | Action) -> tuple[str, dict[str, str] | None]:
        """The key of the action to apply, checked. The automatic player's turn move just
        chosen on this very state is taken as it is (chosen.py); any other move of the seat's
        turn is checked on its key alone (legality.py); any other key, or one refused there,
        is looked up the long way (`find_action`, which also says why a key is refused). With
        it, for a step of the turn's plan, the move's arguments once the key is applied
        (`step_after`, worked out once for the check and the step), else None."""
        key = action.key if isinstance(action, Action) else action
        taken = self._chosen.take(s, player, key)
        if taken is not None:  # the automatic player's own choice on this very state (chosen.py)
            self._offered = None
            return key, taken[0]
        if checks_keys(s, player):
            plan = TURN_PLANS.get(s.phase)
            if plan is not None and key != plan.back_key:
                step = step_after(s, player, plan, key)
                if step is not None:
                    self._offered = None  # what the automatic player offered is only for this apply
                    return key, step
            elif is_turn_key(s, player, key):
                self._offered = None
                return key, None
        return self.find_action(s, player, key).key, None

    def _finish_plan(self, s: BgkState, seat: str, verb: str, args: dict[str, str],
                     events: list[Event]) -> None:
        if verb == "play":
            play(s, args["card"], args["out"], events)
        elif verb == "fire":
            fire(s, args["ability"], args["how"], events)
            if not s.queue or not s.any_foe_standing():
                end_turn(s, events)
        elif verb == "npc":
            npc_play(s, args["card"], args["target"], events)
            end_turn(s, events)
        else:
            react(s, seat, args, events)
            self._settle(s, events)

    def _flat(self, s: BgkState, seat: str, key: str, events: list[Event]) -> None:
        parts = key.split(":")
        if parts[0] == "open":
            open_with(s, parts[1], parts[2], events)
        elif parts[0] == "first":
            choose_first(s, parts[1], events)
        elif parts[0] == "atk":
            bonus = parts[2] if len(parts) > 2 else attack_stats(s.cat, peek_actor(s).loadout)[0]
            basic_attack(s, parts[1], bonus, events)
            end_turn(s, events)
        elif parts[0] == "deploy":
            deploy(s, events)
        elif parts[0] == "land":
            assert s.intent is not None
            land(s, s.intent, events)
            end_turn(s, events)
        elif parts[0] == "save":
            make_save(s, parts[1], None if parts[2] == "risk" else parts[2], events)
        elif parts[0] == "route":
            vote(s, seat, parts[1], events)
        else:
            setting_out = not s.visited and s.battle is None
            camp_move(s, seat, key, events)
            # A character's max HP depends on it and its mates' shards alone: when the move
            # changed no character (each still shared with the state before it, cow.py), each
            # one's HP is still within it (the state's invariant) and nothing is cut.
            shared = WRITING.shared
            if setting_out or not all(id(h) in shared for h in s.party):
                for h in s.party:  # read; a character is changed (copied) only when its HP is
                    hp = max_hp(s, h) if setting_out else min(h.hp, max_hp(s, h))
                    if hp != h.hp:
                        s.hero(h.id).hp = hp
            if setting_out and s.phase != "camp":  # a wipe starts over from the party as it left,
                s.origin = [set_out(h) for h in s.party]  # before its opening hands (flow.restart)

    def _settle(self, s: BgkState, events: list[Event]) -> None:
        """After a reaction: the battle may be won, the actor may have nothing left to play."""
        if s.battle is None:
            return
        if battle_over(s, events):
            return
        if s.phase == "enemy" and s.actor is not None and not s.unit(s.actor).alive:
            end_turn(s, events)
        elif s.phase == "play" and s.actor is not None and not s.hero(s.actor).hand:
            events.append(Event(kind="no_card", text=f"{s.hero(s.actor).name} has no card left to play."))
            end_turn(s, events)
        elif s.phase == "opening":
            s.opening = [u for u in s.opening if _hand(s, u)]
            if not s.opening:
                begin_round(s, events)

    def _prune(self, s: BgkState) -> None:
        """Drop moves being built that no longer fit (a card gone, a turn over)."""
        if not s.buildings:
            return
        required = self.to_act(s)
        for seat, building in list(s.buildings.items()):
            turn_plan = TURN_PLANS.get(s.phase)
            fits = building.verb == "use" or (turn_plan is not None and building.verb == turn_plan.verb
                                              and seat in required)
            if s.phase == "over" or not fits or not still_valid(s, seat, building):
                del s.buildings[seat]

    def dump_state(self, state: BgkState) -> str:
        """The compact saved form (saving.py); `load_state` reads it and every earlier form."""
        return dump(state)

    def pinned_content(self) -> Pinned[Catalogue]:
        return CATALOGUES

    # --- views and results ---------------------------------------------------------------------------
    def view(self, state: BgkState, player: str | None) -> BgkView:
        return build_view(state, player, self.to_act(state))

    def result(self, state: BgkState) -> Result | None:
        s = state
        if s.phase != "over":
            return None
        won = s.outcome == "victory"
        summary = (f"The party completes {s.scenario_def.name}" if won
                   else f"{s.scenario_def.name} defeats the party") + \
            f" (attempt {s.attempt} of {s.options.get('attempts', '3')})."
        return Result(winners=list(s.players) if won else [], summary=summary,
                      tags={"scenario": s.scenario, "party": str(len(s.party)), "attempts": str(s.attempt),
                            "outcome": s.outcome})

    def auto_action(self, state: BgkState, player: str, rng: Rng) -> Action:
        """The automatic player's choice. The actions it chose among are kept for the `apply`
        of that choice on the same state (`offer_to_auto`), so they are built once, unless
        `apply` checks its key by itself (see `_kept_for_apply`). On its turn, the commonest
        steps are weighed on keys, and only the action chosen is built (autoturn.py). Else
        the turn's own actions are weighed first, without the reactions (Discard and
        Sacrifice abilities) offered after them: when the choice is one of them, it is the one
        the full list gives (see `policy.turn_choice`); so is a route vote (`route_choice`).
        Before all that, a Discard or Sacrifice ability of the seat's when an ally needs one
        (`policy.wanted_reactions`, as `auto_reaction` does for a seat that may react): one
        automatic player, the same in `rules.simulate`, the balance runs and a seat of a table."""
        s = state
        wanted = wanted_reactions(s, player) if player not in s.buildings else None
        if wanted:  # its own Discard or Sacrifice ability first, when an ally needs it
            legal = self.legal_actions(s, player)
            react = reaction_among(s, wanted, legal)
            if react is not None:
                return self._kept_for_apply(s, player, react, legal, False)
        checked = checks_keys(s, player)  # to act, and `apply` checks the key by itself
        if s.phase not in ("over", "route") and (checked or player in self.to_act(s)):
            quick = auto_turn(s, player)  # the commonest steps, weighed on keys (autoturn.py)
            if quick is not None:
                return self._kept_for_apply(s, player, quick, [quick], checked)
            if player not in s.buildings:
                # The turn's own actions come first among the legal ones (so their labels are
                # the same without the reactions after them), and the automatic player only
                # takes a reaction when nothing else fits: try them alone first.
                turn = _unique_labels(self._turn_actions(s, player))
                found = turn_choice(s, player, turn)
                if found is not None:
                    return self._kept_for_apply(s, player, found, turn, checked)
        if s.phase == "route" and (checked or player in self.to_act(s)) and player not in s.buildings:
            votes = _unique_labels(route_actions(s, player))  # offered first: their labels as in the full list
            vote = route_choice(s, votes, rng)
            if vote is not None:
                return self._kept_for_apply(s, player, vote, votes, checked)
        legal = self.legal_actions(state, player)
        return self._kept_for_apply(s, player, choose(self, state, player, rng, legal), legal, checked)

    def _kept_for_apply(self, s: BgkState, player: str, chosen: Action, offered: list[Action],
                        checked: bool) -> Action:
        """`chosen`, the actions `offered` with it kept for its `apply` (`offer_to_auto`);
        not when `apply` checks its key by itself (`checked`: `checks_keys` holds, and the key
        is not a reaction's; legality.py), where working out the state's shape to keep them
        would cost more than the check: then the choice alone is kept (chosen.py), and its
        `apply` skips that check too."""
        if chosen.key.startswith("use.") or not checked:
            self._chosen.forget()
            self.offer_to_auto(s, player, offered)
        else:
            self._chosen.keep(s, player, chosen.key)
        return chosen

    def state_shape(self, state: BgkState) -> tuple[object, ...]:
        return shape(state)

    def auto_reaction(self, state: BgkState, player: str, rng: Rng) -> Action | None:
        return reaction(self, state, player, rng)

    def auto_reactions(self, state: BgkState, rng: Rng) -> tuple[str, Action] | None:
        """The first seat of `may_act` whose automatic player reacts now, with its reaction:
        what asking each of them (`auto_reaction`) gives, without asking while no seat builds
        a reaction and no seat wants one (`policy.wanted_reactions`), the commonest moment
        (`rules.simulate` asks this at every move)."""
        if not any_wanted(state) and not any(b.verb == "use" for b in state.buildings.values()):
            return None
        for player in self.may_act(state):
            found = reaction(self, state, player, rng)
            if found is not None:
                return player, found
        return None

    def rules_pages(self) -> list[RulesPage]:
        from rules.by_gods_and_kings.help import rules_pages

        return rules_pages()

    def resample(self, state: BgkState, player: str | None, rng: Rng) -> BgkState:
        """Only the order of the draw pile and the generator's seed are hidden: the party's
        hands and Fields are face up."""
        s = independent_copy(state)
        s.deck = rng.shuffled(s.deck)
        s.rng = Rng(seed=rng.randint(0, 2**62), counter=state.rng.counter)
        return s

    def check_invariants(self, state: BgkState) -> None:
        check(state, self.to_act(state))

    def seat_label(self, state: BgkState, player: str) -> str | None:
        names = [h.name for h in state.heroes_of(player)]
        return ", ".join(names) or None


def _length(sc: ScenarioDef) -> str:
    low, high = sc.shortest(), sc.longest()
    return f"{low} battle{'s' * (low > 1)}" if low == high else f"{low}-{high} battles"


def party_size(option: str, seats: int, cat: Catalogue) -> int:
    size = max(AUTO_PARTY, seats) if option == "auto" else int(option)
    size = min(size, len(cat.characters), MAX_PARTY)
    if size < seats:
        raise IllegalAction(f"A party of {size} cannot give each of the {seats} players a character: "
                            "choose a larger party.")
    return size


def _hand(s: BgkState, uid: str) -> list[str]:
    unit = s.unit(uid)
    assert isinstance(unit, Hero | Npc)
    return unit.hand


def _unique_labels(acts: list[Action]) -> list[Action]:
    labels = unique_texts([a.label for a in acts])
    return [a if lab == a.label else a.model_copy(update={"label": lab}) for a, lab in zip(acts, labels, strict=True)]
