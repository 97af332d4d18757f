"""Gods of Magic as a Pantheon game: setup, the turn (draw, play, dice), storytelling, the end."""

from __future__ import annotations

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
from rules.core.text import escape_markdown
from rules.gods_of_magic import magic
from rules.gods_of_magic.content import DECKS, Deck, Suit, load_deck
from rules.gods_of_magic.copying import copy_for_apply, copy_state
from rules.gods_of_magic.moves import (
    can_draw,
    draw,
    label,
    placement_targets,
    play_from_hand,
)
from rules.gods_of_magic.plans import (
    MOVE,
    PLANS,
    PLAY,
    TRANSFORM,
    first_step_key,
    step_prefix,
    take,
)
from rules.gods_of_magic.scoring import check_win, target, winners_by_score
from rules.gods_of_magic.state import (
    DEAL,
    HAND_LIMIT,
    MAGIC_NAMES,
    MAGIC_TEXT,
    SETUP_CARDS,
    DiceInfo,
    GomState,
    MagicRoll,
    Objection,
    realm_cards,
)
from rules.gods_of_magic.undo import (
    before_objection,
    keep_objection,
    keep_recombination,
    recombination_start,
)
from rules.gods_of_magic.view import GomView, build_view

STORY_PREFIXES = (step_prefix(PLAY, "to"), f"{PLAY.verb}:", step_prefix(TRANSFORM, "with"), step_prefix(MOVE, "to"), "kill:")
"""The keys that change a realm (a Recombination's moves tell their story once, at `rc:done`)."""
STORY_PROMPT = "Tell the realm's story in a line"
OBJECTION_SECONDS = 60


def _shape(s: GomState) -> tuple:
    """A cheap summary of a state that changes with every move (a guard for `find_action`)."""
    o = s.objection
    return (s.phase, s.step, s.current, s.turn, s.building, s.plays_left, s.recombine_moves,
            s.rng.counter, len(s.deck), len(s.discard), len(s.forbidden), s.owner_draw,
            None if o is None else (len(o.objections), len(o.stands)),
            tuple(len(h) for h in s.hands.values()), tuple(len(d) for d in s.domains.values()))


class GodsOfMagic(Game[GomState, GomView]):
    id = "gods-of-magic"
    name = "Gods of Magic"
    summary = "Gods build magical realms from a shared deck, roll on the Magic Table and tell their stories."
    min_players = 2
    max_players = 8
    state_type = GomState
    colour = 0x8E44AD
    max_steps = 30_000
    options = [
        OptionSpec(key="target", label="Victory Points to win", default="200", choices=[
            OptionChoice(value="200", label="200 (full game)"),
            OptionChoice(value="100", label="100 (short game)")]),
        OptionSpec(key="storytelling", label="Storytelling", default="off", choices=[
            OptionChoice(value="off", label="Off: a line of story is optional"),
            OptionChoice(value="on", label="On: every realm change asks for a line"),
            OptionChoice(value="strict", label="Strict: a line is required and others may object")]),
    ]

    def __init__(self) -> None:
        load_deck()  # validate the content at start-up

    # --- setup -------------------------------------------------------------------
    def setup(self, players: list[str], options: dict[str, str], seed: int) -> GomState:
        opts = self.resolve_options(options)
        self.check_players(len(players))
        deck = load_deck()
        if len(deck) < DEAL * len(players) + 10:
            raise IllegalAction(f"The deck holds {len(deck)} cards: too few to deal {DEAL} to "
                                f"{len(players)} gods and keep a draw pile.")
        rng = Rng(seed=seed)
        order = rng.shuffled([c.id for c in deck])
        hands = {p: [order.pop() for _ in range(DEAL)] for p in players}
        return GomState(players=list(players), options=opts, content=DECKS.current(), rng=rng,
                        deck=order, hands=hands, domains={p: [] for p in players},
                        scores={p: 0 for p in players}, setup_played={p: 0 for p in players})

    # --- whose move --------------------------------------------------------------
    def to_act(self, state: GomState) -> list[str]:
        s = state
        if s.phase == "over":
            return []
        if s.objection is not None:
            o = s.objection
            return [p for p in o.voters if p not in o.objections and p not in o.stands]
        if s.phase == "setup":
            return [p for p in s.players if p not in s.setup_done]
        if s.phase == "owner_draw":
            assert s.owner_draw is not None, "an owner_draw phase names the owner"
            return [s.owner_draw]
        return [s.player]

    def phase_timeout(self, state: GomState) -> int | None:
        return OBJECTION_SECONDS if state.objection is not None else None

    # --- legal actions -------------------------------------------------------------
    def _context(self, s: GomState) -> str:
        chosen = ",".join(s.building.args.values()) if s.building is not None else ""
        return f"{s.turn}/{s.phase}/{s.step}/{chosen}"

    def _is_story(self, s: GomState, key: str) -> bool:
        if s.phase not in ("play", "magic") or s.objection is not None:
            return False
        return key.startswith(STORY_PREFIXES) or (key == "rc:done" and s.recombine_moves > 0)

    def legal_actions(self, state: GomState, player: str) -> list[Action]:
        s = state
        if player not in self.to_act(s):
            return []
        acts = self._raw_actions(s, player)
        ctx = self._context(s)
        if s.forbidden:
            if s.step == "recombine" and f"{ctx}|rc:moves" in s.forbidden:
                acts = [a for a in acts if a.key == "rc:done"]
            # private: which choices were left may depend on the hand
            acts = [a for a in acts if f"{ctx}|{a.key}" not in s.forbidden] or [
                magic.pass_action("the table objected to every choice left", private=True)]
        mode = s.options.get("storytelling", "off")
        if mode != "off":
            acts = [a.model_copy(update={"text_prompt": STORY_PROMPT, "text_required": mode == "strict"})
                    if self._is_story(s, a.key) else a for a in acts]
        return _unique_labels(acts)

    def _raw_actions(self, s: GomState, player: str) -> list[Action]:
        if s.objection is not None:
            return [Action(key="obj:yes", label="Object to this story", style="danger"),
                    Action(key="obj:no", label="Let it stand", style="success")]
        if s.phase == "setup":
            return self._setup_actions(s, player)
        if s.phase == "discard":
            return [Action(key=f"disc:{c}", label=f"Discard {label(s, c)}", private=True,
                           group=f"Discard down to {HAND_LIMIT} cards") for c in s.hands[player]]
        if s.phase == "play":
            return magic.play_actions(s, player, "Play a card") or [magic.no_play_pass(s, player)]
        if s.phase == "roll":
            return [Action(key="roll", label="Roll the d10", style="primary")]
        if s.phase == "owner_draw":
            return [Action(key="draw:yes", label="Draw a card for the one destroyed", style="primary"),
                    Action(key="draw:no", label="Don't draw")]
        return magic.actions(s, player)

    def _setup_actions(self, s: GomState, player: str) -> list[Action]:
        acts: list[Action] = []
        group = "Place a starting card"
        for cid in s.hands[player]:
            for where, lab in placement_targets(s, player, cid):
                acts.append(Action(key=f"set:{cid}:{where}",
                                   label=lab.replace("Start a new realm", "Start a realm"),
                                   private=True, group=group))
        acts.append(Action(key="done", label="Done placing starting cards", style="success"))
        return acts

    # --- applying --------------------------------------------------------------------
    def apply(self, state: GomState, player: str, action: str | Action,
              text: str | None = None) -> Outcome:
        s0 = state
        act = self.find_action(s0, player, action)
        key = act.key
        events: list[Event] = []
        if s0.objection is not None:
            return Outcome(state=self._vote(s0, player, key, events), events=events)
        story = self._is_story(s0, key)
        mode = s0.options.get("storytelling", "off")
        line = " ".join((text or "").split())[:300]
        if story and mode == "strict" and not line:
            raise IllegalAction("Strict storytelling is on: describe the realm in a line to make this move.")
        s = copy_for_apply(s0)
        token = self._handle(s, player, key, events)
        before: GomState | None = None
        if story:
            if line:
                events.append(Event(kind="story", text=f"{who(player)}: “{escape_markdown(line)}”",
                                    data={"player": player, "text": line}))
            if mode == "strict":
                before = recombination_start(s0) if key == "rc:done" and s0.recombine_undo is not None else s0
                # the context of the state an upheld objection restores (a Recombination's
                # start, without a card picked meanwhile), where the move is then ruled out
                ctx = f"{self._context(before)}|{'rc:moves' if key == 'rc:done' else key}"
                s.objection = Objection(mover=player, text=line, context=ctx,
                                        resume=token or "", voters=[p for p in s.players if p != player])
                events.append(Event(kind="objection_open", text=(
                    f"The other gods have {OBJECTION_SECONDS} seconds to object to {who(player)}'s story."),
                    data={"mover": player}))
                token = None
        if token:
            self._resume(s, token, events)
        if s.exhausted and s.phase != "over":
            self._final_scoring(s, events)
        if mode == "strict":
            _keep_undos(s0, s, before)
        return Outcome(state=s, events=events)

    def _handle(self, s: GomState, player: str, key: str, events: list[Event]) -> str | None:
        if s.phase == "setup":
            self._setup_move(s, player, key, events)
            return None
        if s.phase == "discard":
            cid = key[5:]
            s.hands[player].remove(cid)
            s.discard.append(cid)
            events.append(Event(kind="discard", text=f"{who(player)} discards {label(s, cid)}.",
                                data={"player": player, "card": cid}))
            if len(s.hands[player]) <= HAND_LIMIT:
                s.phase = "play"
            return None
        if s.phase == "play":
            if key == "pass":
                events.append(Event(kind="pass", text=f"{who(player)} plays no card."))
                return "play"
            done = take(s, PLAY, key)
            if done is None:
                return None
            cid = done["card"]
            r = play_from_hand(s, player, cid, done["to"])
            events.append(magic.played_event(s, player, cid, done["to"], r))
            return "play"
        if s.phase == "roll":
            face = s.rng.roll(10)
            s.dice = DiceInfo(player=player, face=face, result=face)
            s.phase = "magic"
            events.append(MagicRoll(player=player, face=face, result=face, name=MAGIC_NAMES[face],
                                    effect=MAGIC_TEXT[face]).event(
                f"{who(player)} rolls {face} on the d10: {MAGIC_NAMES[face]}. {MAGIC_TEXT[face]}"))
            return magic.begin(s, face, events)
        if s.phase == "owner_draw":
            owner = s.owner_draw
            assert owner is not None, "an owner_draw phase names the owner"
            s.owner_draw = None
            if key == "draw:yes":
                draw(s, owner, 1, events, "a card of theirs was destroyed")
            else:
                events.append(Event(kind="pass", text=f"{who(owner)} draws no card."))
            s.phase = "magic"
            return "end"
        return magic.handle(s, player, key, events)

    def _setup_move(self, s: GomState, player: str, key: str, events: list[Event]) -> None:
        if key == "done":
            s.setup_done.append(player)
        else:
            _, cid, where = key.split(":", 2)
            r = play_from_hand(s, player, cid, where)
            s.setup_played[player] += 1
            events.append(Event(kind="card_played", text=(
                f"{who(player)} places {label(s, cid)} in realm {r + 1} to begin their domain."),
                data={"player": player, "card": cid, "realm": r}))
            if s.setup_played[player] >= SETUP_CARDS:
                s.setup_done.append(player)
        if len(s.setup_done) == len(s.players):
            self._first_player(s, events)
            self._start_turn(s, events)

    def _first_player(self, s: GomState, events: list[Event]) -> None:
        contenders = list(s.players)
        while True:
            rolls = {p: s.rng.roll(10) for p in contenders}
            best = max(rolls.values())
            tied = [p for p in contenders if rolls[p] == best]
            shown = ", ".join(f"{who(p)} {v}" for p, v in rolls.items())
            more = " Tie: they roll again." if len(tied) > 1 else f" {who(tied[0])} goes first."
            events.append(Event(kind="first_roll", text=f"Rolls for the first turn: {shown}.{more}",
                                data={"rolls": rolls}))
            if len(tied) == 1:
                s.current = s.players.index(tied[0])
                return
            contenders = tied

    def _start_turn(self, s: GomState, events: list[Event]) -> None:
        s.turn += 1
        s.phase, s.step, s.building, s.forbidden = "play", "", None, []
        s.recombine_undo = None
        p = s.player
        events.append(Event(kind="turn", text=f"Turn {s.turn}: {who(p)}.", data={"player": p, "turn": s.turn}))
        draw(s, p, 1, events, "Draw phase")
        if len(s.hands[p]) > HAND_LIMIT:
            s.phase = "discard"

    def _resume(self, s: GomState, token: str, events: list[Event]) -> None:
        """Go on after a finished move (immediately, or once an objection window let it stand)."""
        s.building = None
        if token == "last":
            self._last_visitation_held(s, events)
        elif token == "play":
            s.phase = "roll"
        elif token == "creation" and s.plays_left > 0:
            s.step = "creation"
        elif token.startswith("owner:"):
            owner = token[6:]
            if can_draw(s):
                s.phase, s.owner_draw = "owner_draw", owner
            else:
                events.append(Event(kind="pass", text=f"No card is left for {who(owner)} to draw."))
                self._end_turn(s, events)
        else:
            self._end_turn(s, events)

    def _end_turn(self, s: GomState, events: list[Event]) -> None:
        s.step, s.recombine_undo = "", None
        winners = check_win(s)
        if winners:
            self._finish(s, winners, "target", events)
            return
        if s.exhausted:
            return  # no next turn: the caller holds the last Visitation (_final_scoring)
        s.current = (s.current + 1) % len(s.players)
        self._start_turn(s, events)

    def _final_scoring(self, s: GomState, events: list[Event]) -> None:
        """The deck is exhausted: every god scores once more, and the game ends."""
        magic.visitation(s, events)
        self._finish(s, winners_by_score(s, list(s.players)), "deck", events)

    def _last_visitation_held(self, s: GomState, events: list[Event]) -> None:
        """The deck ran out at a Visitation's own draw: that Visitation was the last scoring (the
        house rule's single last scoring, not a second one). Its win check, then the end."""
        s.step = ""
        winners = check_win(s)
        if winners:
            self._finish(s, winners, "target", events)
        else:
            self._finish(s, winners_by_score(s, list(s.players)), "deck", events)

    def _finish(self, s: GomState, winners: list[str], reason: str, events: list[Event]) -> None:
        s.phase, s.step, s.building, s.winners, s.end_reason = "over", "", None, winners, reason
        s.objection = None
        events.append(Event(kind="game_over", text=_summary(s), data={"winners": winners}))

    def _vote(self, s0: GomState, player: str, key: str, events: list[Event]) -> GomState:
        s = copy_state(s0)
        o = s.objection
        assert o is not None, "a vote needs an open objection"
        (o.objections if key == "obj:yes" else o.stands).append(player)
        events.append(Event(kind="vote", text=f"{who(player)} {'objects' if key == 'obj:yes' else 'lets it stand'}."))
        n = len(o.voters)
        if len(o.objections) * 2 > n:
            restored = before_objection(s)
            restored.forbidden.append(o.context)
            if restored.step == "recombine":
                restored.recombine_undo = {}  # the Recombination begins again from here
            building = restored.building
            plan = PLANS[building.verb] if building is not None else None
            nxt = plan.next_arg(building) if plan is not None else None
            going_on = [a.key for a in self.legal_actions(restored, o.mover)
                        if plan is not None and nxt is not None and a.key.startswith(f"{plan.verb}.{nxt}:")]
            if building is not None and not going_on and restored.step != "evoke":
                # every place for the chosen card is ruled out (Back and the ways out are all
                # that is left): rule out choosing that card too (an Evocation's card is the
                # game's choice, not the god's: with no place left, the god passes)
                restored.building = None
                restored.forbidden.append(f"{self._context(restored)}|{first_step_key(building)}")
            events.append(Event(kind="objection_upheld", text=(
                f"Most gods object: {who(o.mover)}'s move is undone and they must choose another.")))
            return restored
        if len(o.stands) * 2 >= n:
            s.objection = None
            events.append(Event(kind="objection_rejected", text=f"{who(o.mover)}'s story stands."))
            if o.resume:
                self._resume(s, o.resume, events)
            if s.exhausted and s.phase != "over":
                self._final_scoring(s, events)
        return s

    def pinned_content(self) -> Pinned[Deck]:
        return DECKS

    # --- views and results ---------------------------------------------------------------
    def view(self, state: GomState, player: str | None) -> GomView:
        return build_view(state, player, self.to_act(state))

    def result(self, state: GomState) -> Result | None:
        s = state
        if s.phase != "over":
            return None
        return Result(winners=list(s.winners or []), scores={p: float(v) for p, v in s.scores.items()},
                      summary=_summary(s), tags={"end": s.end_reason, "target": str(target(s))})

    def auto_action(self, state: GomState, player: str, rng: Rng) -> Action:
        """The automatic player's choice (the actions it chose among are kept for the `apply`
        of that choice: `offer_to_auto`)."""
        from rules.gods_of_magic.policy import choose

        return choose(self, state, player, rng, self.offer_to_auto(state, player, self.legal_actions(state, player)))

    def state_shape(self, state: GomState) -> tuple[object, ...]:
        return _shape(state)

    def rules_pages(self) -> list[RulesPage]:
        from rules.gods_of_magic.help import rules_pages

        return rules_pages()

    def resample(self, state: GomState, player: str | None, rng: Rng) -> GomState:
        from rules.gods_of_magic.hidden import resample

        return resample(state, player, rng)

    def check_invariants(self, state: GomState) -> None:
        s = state
        seen = list(s.deck) + list(s.discard)
        for h in s.hands.values():
            seen += h
        for p, realms in s.domains.items():
            for realm in realms:
                recombining = s.phase == "magic" and s.step == "recombine" and p == s.player
                assert realm.cards or recombining, f"empty realm in {p}'s domain"
                for placed in realm.cards:
                    assert s.suit(placed.card) != Suit.DESCRIPTOR, f"{placed.card} is a Descriptor placed alone"
                    assert all(s.suit(d) == Suit.DESCRIPTOR for d in placed.descriptors)
                seen += realm_cards(realm)
        assert len(seen) == len(s.cards), f"{len(seen)} cards in the game, {len(s.cards)} expected"
        assert set(seen) == set(s.cards), "a card is duplicated or unknown"
        assert all(v >= 0 for v in s.scores.values())


def _keep_undos(s0: GomState, s: GomState, before: GomState | None) -> None:
    """Strict storytelling, after a move from `s0` to `s`: the undos `s` keeps. A Recombination
    under way remembers where it began (the state itself when it begins now), and a move just
    objected to remembers `before`; both are rebuilt for `s` (see rules.gods_of_magic.undo)."""
    if s.phase == "magic" and s.step == "recombine":
        if s0.recombine_undo is None or s0.step != "recombine":
            s.recombine_undo = {}
        else:
            keep_recombination(s, recombination_start(s0))
    else:
        s.recombine_undo = None  # read only while the Recombination is under way
    if before is not None and s.objection is not None:
        keep_objection(s, before)


def _unique_labels(acts: list[Action]) -> list[Action]:
    seen: dict[str, int] = {}
    out = []
    for a in acts:
        lab = a.label[:80]
        if lab in seen:
            seen[lab] += 1
            lab = f"{lab[:74]} #{seen[lab]}"
        seen.setdefault(lab, 1)
        out.append(a if lab == a.label else a.model_copy(update={"label": lab}))
    return out


def _summary(s: GomState) -> str:
    ws = s.winners or []
    if not ws:
        return "The game ended without a winner."
    best = s.scores[ws[0]]
    names = " and ".join(who(w) for w in ws)
    how = "reaches" if s.end_reason == "target" else "leads when the deck runs out with"
    if len(ws) > 1:
        return f"{names} share the victory with {best} VP each (an exact tie)."
    return f"{names} {how} {best} VP and becomes Chief of the Gods of Magic."
