"""Terra Sancta: the game definition (setup, turn order, actions, view, result)."""

from __future__ import annotations

from rules.core import Action, Event, Game, IllegalAction, Outcome, Result, Rng, who
from rules.core.content import Pinned
from rules.core.game import OptionChoice, OptionSpec
from rules.core.steps import Building
from rules.terra_sancta import factions as ab
from rules.terra_sancta.board import (
    PLAYABLE,
    SIDE_NAMES,
    TERRA_SANCTA,
    parse_square,
    square_name,
    start_layout,
)
from rules.terra_sancta.combat import describe, hurt, roll
from rules.terra_sancta.content import FACTIONS, Factions, FactionSheet, factions_of, load_factions
from rules.terra_sancta.copying import copy_state
from rules.terra_sancta.kept_actions import (
    keep_move_action,
    keep_piece_action,
    kept_move_action,
    kept_piece_action,
)
from rules.terra_sancta.lookup import find_act
from rules.terra_sancta.movegen import Move, can_act, landing_squares, piece_moves
from rules.terra_sancta.pieces import KIND_NAMES, Piece, attack_die, max_health
from rules.terra_sancta.plans import (
    ABILITY_PLANS,
    LAND,
    MOVE,
    PASS,
    SKIP,
    act_fields,
    act_key,
    find_move,
    piece_key,
)
from rules.terra_sancta.policy import choose
from rules.terra_sancta.state import Mark, PieceView, TSState, TSView

QUIET_LIMIT = 60
"""Turns in a row without damage after which the game is a draw."""
TURN_LIMIT = 600
"""Turns after which the game is a draw."""

SIDES_FOR = {2: ("S", "N"), 4: ("S", "W", "N", "E")}


def move_label(m: Move, mover: str, target: Piece | None = None, target_name: str = "") -> str:
    """The menu's words for move `m` of a `mover` (a kind): "Knight b1 to c3", "Attack Rook d5
    (Tank)", "Shoot Pawn c7 (Drone)", "Attack Pawn e4 (Sapling) via e6" (a knight's two paths);
    `target` and its faction's name for it, for an attack or a shot."""
    frm, to = square_name(m.frm), square_name(m.to)
    if m.kind == "move" or target is None:
        return f"{KIND_NAMES[mover]} {frm} to {to}"
    verb = "Shoot" if m.kind == "shot" else "Attack"
    via = f" via {square_name(m.via)}" if m.via is not None else ""  # a knight's two paths
    return f"{verb} {KIND_NAMES[target.kind]} {to} ({target_name[:40]}){via}"


def attack_text(m: Move, mover: str, die: int, target: Piece) -> str:
    """What an attack or shot `m` does, for its menu option: who rolls which die against how
    much health, and the rolls that kill (a roll of at least the target's health)."""
    via = f" via {square_name(m.via)}" if m.via is not None else ""
    how = "shoots" if m.kind == "shot" else "attacks"
    odds = (f"kills on {target.hp}+ ({die - target.hp + 1} in {die})" if target.hp <= die
            else "cannot kill it")
    return f"{KIND_NAMES[mover]} {square_name(m.frm)}{via} {how} with a d{die} against {target.hp}/{target.max_hp}" \
        f" health: {odds}"


_MOVE_TEXT = {False: "Moves to an empty square, no attack",
              True: "Moves to an empty square of Terra Sancta, no attack"}
"""A plain move's description, by whether it ends in Terra Sancta (the blue centre)."""
_PIECE_MENU = MOVE.prompts["piece"]
_ACT_MENU = MOVE.prompts["act"]
_PIECE_PREFIX = f"{MOVE.verb}.piece:"
_ACT_PREFIX = f"{MOVE.verb}.act:"
_PASS_ACTION = Action(key=PASS, label="Pass (no piece can act)")
_BACK_ACTION = Action(key=MOVE.back_key, label=MOVE.back_label, private=MOVE.private_back)
_SKIP_ACTION = Action(key=SKIP, label="Skip")
_LAND_MENU = LAND.prompts["square"]
_LAND_PREFIX = f"{LAND.verb}.square:"


_TARGET_PREFIXES = {kind: f"{plan.verb}.target:" for kind, plan in ABILITY_PLANS.items()}
"""ability kind -> how the keys of its extra action begin (the target's name follows)."""

_CHOSEN: list[tuple[TSState, str, str, Piece, int, tuple[int, Move | None, FactionSheet]]] = []
"""The last step `TerraSancta.chosen_step` made: (state, player, key, the piece, the number of
pieces, what `_move_step` finds for the key); one at most, so no older state is kept alive."""

_PLAYABLE_BY_NAME = {square_name(q): q for q in sorted(PLAYABLE)}


def _square_or_none(name: str) -> int | None:
    """The square named in a key exactly as keys write it (`e5`, never `E5`), or None when it
    is not a square of the board: a key found so is one `legal_actions` offers."""
    return _PLAYABLE_BY_NAME.get(name)


class TerraSancta(Game):
    id = "terra-sancta"
    name = "Terra Sancta"
    summary = "Dreamers' chess for 2 or 4: dice decide every attack, the last king standing wins."
    min_players = 2
    max_players = 4
    state_type = TSState
    options = [
        OptionSpec(key="factions", label="Factions", default="choose", choices=[
            OptionChoice(value="choose", label="Each player chooses"),
            OptionChoice(value="random", label="Dealt at random"),
        ]),
    ]
    simulation_options = ("seat_factions",)  # the faction of each seat, for rules.simulate
    max_steps = 5000
    colour = 0x2B6CB0
    has_private_view = False  # nothing is hidden: the table is every player's view

    # --- typed moves (/move) -------------------------------------------------
    def parse_move_text(self, state, player, text):
        from rules.terra_sancta.notation import parse_line

        return parse_line(self, state, player, text)

    def move_completions(self, state, player, prefix):
        from rules.terra_sancta.notation import completions

        return completions(self, state, player, prefix)

    # --- setup -----------------------------------------------------------
    def check_players(self, count: int) -> None:
        if count not in (2, 4):
            raise IllegalAction("Terra Sancta is played by 2 or 4 players (not 3).")

    def resolve_options(self, options: dict[str, str] | None) -> dict[str, str]:
        """The lobby options, plus `seat_factions` (ids by seat, comma-separated) for simulations."""
        options = dict(options or {})
        seat_factions = options.pop("seat_factions", "")
        out = super().resolve_options(options)
        if seat_factions:
            known = load_factions()
            ids = [f.strip() for f in seat_factions.split(",")]
            bad = [f for f in ids if f not in known]
            if bad:
                raise IllegalAction(f"Unknown faction(s): {', '.join(bad)} (known: {', '.join(known)}).")
            if len(set(ids)) != len(ids):
                raise IllegalAction("Each faction may be taken only once.")
            out["seat_factions"] = ",".join(ids)
        return out

    def sheet(self, s: TSState, player: str) -> FactionSheet:
        return factions_of(s.content)[s.factions[player]]

    def pinned_content(self) -> Pinned[Factions]:
        return FACTIONS

    def setup(self, players, options, seed):
        return self.start(players, options, seed).state

    def start(self, players, options, seed, records=None):
        """The armies, and (when the factions are known) the start rolls and the first turn,
        with their events; with factions to choose, the rolls come after the last choice."""
        self.check_players(len(players))
        opts = self.resolve_options(options)
        rng = Rng(seed=seed)
        sides = dict(zip(players, SIDES_FOR[len(players)], strict=True))
        s = TSState(players=list(players), sides=sides, factions={}, stage="faction", rng=rng,
                    content=FACTIONS.current())
        known = list(factions_of(s.content))
        if opts.get("seat_factions"):
            ids = opts["seat_factions"].split(",")
            if len(ids) != len(players):
                raise IllegalAction(f"seat_factions needs {len(players)} faction ids.")
            s.factions = dict(zip(players, ids, strict=True))
        elif opts["factions"] == "random":
            s.factions = dict(zip(players, rng.shuffled(known)[: len(players)], strict=True))
        events: list[Event] = []
        if len(s.factions) == len(players):
            drawn = ", ".join(f"{who(p)}: {factions_of(s.content)[f].name}" for p, f in s.factions.items())
            events.append(Event(kind="factions", text=f"Factions: {drawn}.", data={"factions": s.factions}))
            self._start_play(s, events)
        else:
            s.turn_player = players[0]
        return Outcome(state=s, events=events)

    def _start_play(self, s: TSState, events: list[Event]) -> None:
        """Place the armies, roll the d16s for the first turn, and begin."""
        for p in s.players:
            for sq, kind in start_layout(s.sides[p]).items():
                s.board[sq] = Piece(p, kind, max_health(kind))
        s.alive = list(s.players)
        contenders = list(s.players)
        while len(contenders) > 1:
            rolls = [roll(s, p, 16, "start") for p in contenders]
            s.start_rolls.append(rolls)
            events.append(Event(kind="dice_rolled", text="Start roll (d16): " + ", ".join(
                f"{who(p)} {r}" for p, r in zip(contenders, rolls, strict=True)),
                data={"players": contenders, "rolls": rolls}))
            best = max(rolls)
            contenders = [p for p, r in zip(contenders, rolls, strict=True) if r == best]
        first = contenders[0]
        i = s.players.index(first)
        s.order = s.players[i:] + s.players[:i]
        events.append(Event(kind="turn_order", text=f"{who(first)} starts; play goes clockwise.",
                            data={"order": s.order}))
        self._begin_turn(s, first, events)

    # --- turns -----------------------------------------------------------
    def _begin_turn(self, s: TSState, player: str, events: list[Event]) -> None:
        while True:
            s.turn += 1
            s.turn_player = player
            if s.stage != "select":
                s.stage = "select"
            if s.building is not None:
                s.building = None
            if s.damaged:
                s.damaged = False
            s.dice = [d for d in s.dice if d.turn >= s.turn - len(s.alive) + 1]  # since my last turn
            if not all(p.kind == "K" for p in s.board.values()):
                return
            # only kings are left: the poison
            value = roll(s, player, 16, "poison")
            loss = 1 if value % 2 else 2
            king_sq = next(q for q, p in s.board.items() if p.owner == player)
            _, killed = hurt(s, king_sq, loss, events)
            events.append(Event(kind="poison", text=f"Poison: {who(player)} rolls {value} and the king loses {loss}"
                                + (" and dies." if killed else "."),
                                data={"player": player, "roll": value, "loss": loss, "killed": killed}))
            if not killed:
                return
            if s.stage == "over":
                return
            player = self._next_player(s, player)

    def _next_player(self, s: TSState, player: str) -> str:
        i = s.order.index(player)
        for step in range(1, len(s.order) + 1):
            nxt = s.order[(i + step) % len(s.order)]
            if nxt in s.alive:
                return nxt
        return player

    def _end_turn(self, s: TSState, events: list[Event]) -> None:
        _clear_move(s)
        if s.stage == "over":
            return
        s.quiet_turns = 0 if s.damaged else s.quiet_turns + 1
        if s.quiet_turns >= QUIET_LIMIT or s.turn >= TURN_LIMIT:
            s.stage = "over"
            s.draw = True
            s.turn_player = None
            why = f"{QUIET_LIMIT} turns without damage" if s.quiet_turns >= QUIET_LIMIT else f"{TURN_LIMIT} turns"
            events.append(Event(kind="game_over", text=f"The game is a draw ({why})."))
            return
        assert s.turn_player is not None  # a turn is running
        self._begin_turn(s, self._next_player(s, s.turn_player), events)

    def _after_action(self, s: TSState, player: str, events: list[Event]) -> None:
        """The move or attack is done: the faction's extra action, or the end of the turn."""
        _clear_move(s)
        if s.stage == "over":
            return
        sheet = self.sheet(s, player)
        if ab.has_extra_action(sheet) and ab.has_ability_target(s, player, sheet):
            s.stage = "ability"
            return
        self._end_turn(s, events)

    # --- play ------------------------------------------------------------
    def to_act(self, state):
        return [state.turn_player] if state.stage != "over" and state.turn_player else []

    def movable(self, s: TSState, player: str) -> list[int]:
        """The squares of `player`'s pieces that can act (each generated only up to its first move)."""
        sheet = self.sheet(s, player)
        board = s.board
        return [q for q in sorted(board) if board[q].owner == player and can_act(board, q, sheet)]

    def legal_actions(self, state, player):
        s: TSState = state
        if s.stage == "over" or player != s.turn_player:
            return []
        if s.stage == "faction":
            taken = set(s.factions.values())
            return [Action(key=f"faction:{f.id}", label=f"Play {f.name}", group="Choose a faction",
                           description=f.summary[:100])
                    for f in factions_of(s.content).values() if f.id not in taken]
        sheet = self.sheet(s, player)
        if s.stage == "select":
            return self._move_actions(s, player, sheet)
        if s.stage == "land":
            # only a path with two or more free squares asks (see movegen.landing_squares)
            return [self.land_action(q) for q in s.landing]
        if s.stage == "ability":
            return [*(self.ability_action(s, q, sheet) for q in ab.ability_targets(s, player, sheet)), _SKIP_ACTION]
        return []

    def land_action(self, q: int) -> Action:
        """Landing on `q` after a wounding attack (the `land` stage), always in the Landing menu:
        the action `offer(LAND, ...)` makes for that square (a test compares them)."""
        name = square_name(q)
        return Action(key=_LAND_PREFIX + name, label=f"Land on {name}", group=_LAND_MENU)

    def ability_action(self, s: TSState, q: int, sheet: FactionSheet) -> Action:
        """The faction's extra action aimed at `q` (the `ability` stage), in the ability's menu:
        the action `offer(plan, ...)` makes for that target (a test compares them)."""
        plan = ABILITY_PLANS[sheet.ability.kind]
        verb = "Lightning at" if sheet.ability.kind == "lightning" else "Regrow"
        p = s.board[q]
        name = square_name(q)
        return Action(key=plan.step_key("target", name), label=f"{verb} {KIND_NAMES[p.kind]} {name} "
                                                                f"({p.hp}/{p.max_hp})",
                      group=sheet.ability.name, style="primary")

    def _move_actions(self, s: TSState, player: str, sheet: FactionSheet) -> list[Action]:
        """The move being built (plans.MOVE): a piece that can act (or Pass when none can), then
        its moves, attacks and shots, and Back. Each action comes from `piece_action` or
        `act_action`, which `find_action` and the automatic player also use for a single key."""
        if s.building is None:
            acts = [self.piece_action(s, q, sheet) for q in self.movable(s, player)]
            return acts or [_PASS_ACTION]
        if s.building.verb != MOVE.verb:
            return [_PASS_ACTION]
        frm = parse_square(s.building.args["piece"])
        return [*(self.act_action(s, m, sheet) for m in piece_moves(s.board, frm, sheet)), _BACK_ACTION]

    def piece_action(self, s: TSState, q: int, sheet: FactionSheet) -> Action:
        """Choosing the piece on `q` (the first step of a move), always in the pieces' menu; `q`
        must hold a piece of the turn player's that can act (the caller knows it: a test compares
        the automatic player's choice with `find_action`'s). `made_piece_action`, kept
        (kept_actions.py) under all it depends on: the square, the piece's kind and health, the
        sheet."""
        piece = s.board[q]
        found = kept_piece_action(q, piece.kind, piece.hp, sheet)
        if found is None:
            found = keep_piece_action(q, piece.kind, piece.hp, sheet, self.made_piece_action(s, q, sheet))
        return found

    def made_piece_action(self, s: TSState, q: int, sheet: FactionSheet) -> Action:
        """`piece_action` made anew."""
        return Action(key=piece_key(q), label=f"{KIND_NAMES[s.board[q].kind]} {square_name(q)}",
                      group=_PIECE_MENU, description=self._piece_text(s, q, sheet))

    def act_action(self, s: TSState, m: Move, sheet: FactionSheet) -> Action:
        """Choosing move `m` of the piece chosen (the second step), always in the moves' menu; `m`
        must be one of that piece's moves on this board. `made_act_action`; for a plain move
        (whose action depends on its two squares and the piece's kind alone) kept (kept_actions.py)."""
        if m.kind != "move":
            return self.made_act_action(s, m, sheet)
        kind = s.board[m.frm].kind
        found = kept_move_action(m.frm, m.to, kind)
        return found if found is not None else keep_move_action(m.frm, m.to, kind, self.made_act_action(s, m, sheet))

    def made_act_action(self, s: TSState, m: Move, sheet: FactionSheet) -> Action:
        """`act_action` made anew."""
        mover = s.board[m.frm].kind
        if m.kind == "move":
            return Action(key=act_key(m), label=move_label(m, mover), group=_ACT_MENU,
                          description=_MOVE_TEXT[m.to in TERRA_SANCTA])
        target = s.board[m.to]
        name = self.sheet(s, target.owner).piece(target.kind).name
        return Action(key=act_key(m), label=move_label(m, mover, target, name), group=_ACT_MENU,
                      description=self._move_text(s, m, sheet))

    def find_action(self, state, player, action):
        """The legal action with this key. A move's step is looked up alone (one piece's moves,
        not every piece's); any other key, or one not found so, goes through `legal_actions`."""
        return self._find(state, player, action.key if isinstance(action, Action) else action)[0]

    def chosen_step(self, s: TSState, player: str, q: int, move: Move | None, sheet: FactionSheet) -> Action:
        """The automatic player's choice of a move's step on `s`: the piece on `q` (`move` None)
        or its act `move`, which the caller found legal (the move generator's, on this board, of
        `player`'s piece on `q`, `sheet` being `player`'s). Its action (`piece_action`,
        `act_action`) is made and, with what `_move_step` would find for its key, kept, so that
        `apply` on this very state object takes the step without checking the key again (a state
        is never changed once made: `apply` copies it). A test compares the kept step with
        `_move_step`'s at every step of many games."""
        action = self.piece_action(s, q, sheet) if move is None else self.act_action(s, move, sheet)
        _CHOSEN[:] = [(s, player, action.key, s.board[q], len(s.board), (q, move, sheet))]
        return action

    def _kept_step(self, s: TSState, player: str, key: str) -> tuple[int, Move | None, FactionSheet] | None:
        """The step `chosen_step` kept for this state object, player and key (None if another)."""
        if _CHOSEN:
            state, who_, kept_key, piece, count, step = _CHOSEN[0]
            if state is s and kept_key == key and who_ == player and len(s.board) == count \
                    and s.board.get(step[0]) is piece:
                return step
        return None

    def _find(self, s: TSState, player: str, key: str) -> tuple[Action, Move | None]:
        """`find_action` for this key, and the move it names when it is the second step of a
        move (its act), so that `apply` makes that move without generating the piece's moves
        again; None for any other key."""
        if s.stage == "select" and player == s.turn_player:
            if s.building is not None and s.building.verb == MOVE.verb and key == _BACK_ACTION.key:
                return _BACK_ACTION, None
            match = self._move_step(s, player, key)
            if match is not None:
                sq, found, sheet = match
                if found is None:
                    return self.piece_action(s, sq, sheet), None
                return self.act_action(s, found, sheet), found
        elif s.stage == "land" and player == s.turn_player and key.startswith(_LAND_PREFIX):
            q = _square_or_none(key[len(_LAND_PREFIX):])
            if q is not None and q in s.landing:
                return self.land_action(q), None
        elif s.stage == "ability" and player == s.turn_player:
            if key == SKIP:
                return _SKIP_ACTION, None
            aimed = self._ability_step(s, player, key)
            if aimed is not None:
                return self.ability_action(s, *aimed), None
        return super().find_action(s, player, key), None

    def _ability_step(self, s: TSState, player: str, key: str) -> tuple[int, FactionSheet] | None:
        """A legal key of the extra action (the `ability` stage) but Skip: (its target, sheet);
        None for any other key. Both `_find` and `apply` use it, so `apply` checks the key
        without building its action or listing every target."""
        sheet = self.sheet(s, player)
        prefix = _TARGET_PREFIXES.get(sheet.ability.kind)
        if prefix is not None and key.startswith(prefix):
            q = _square_or_none(key[len(prefix):])
            if q is not None and ab.is_ability_target(s, player, sheet, q):
                return q, sheet
        return None

    def _move_step(self, s: TSState, player: str, key: str) -> tuple[int, Move | None, FactionSheet] | None:
        """A legal key of a move's two steps (the `select` stage): (the piece's square, None,
        sheet) for choosing the piece, (its square, the move, sheet) for choosing its act; None for
        any other key. Both `_find` and `apply` use it, so `apply` checks a key without building
        its action."""
        if s.building is None:
            if key.startswith(_PIECE_PREFIX):
                q = _square_or_none(key[len(_PIECE_PREFIX):])
                piece = s.board.get(q) if q is not None else None
                sheet = self.sheet(s, player)
                if q is not None and piece is not None and piece.owner == player and can_act(s.board, q, sheet):
                    return q, None, sheet
        elif s.building.verb == MOVE.verb and key.startswith(_ACT_PREFIX):
            sheet = self.sheet(s, player)
            frm = parse_square(s.building.args["piece"])
            fields = act_fields(key[len(_ACT_PREFIX):])
            found = find_act(s.board, frm, sheet, *fields) if fields is not None else None
            if found is not None:
                return frm, found, sheet
        return None

    def _piece_text(self, s: TSState, sq: int, sheet: FactionSheet) -> str:
        p = s.board[sq]
        return f"{sheet.piece(p.kind).name}, health {p.hp}/{p.max_hp}"

    def _move_text(self, s: TSState, m: Move, sheet: FactionSheet) -> str:
        """An attack's or a shot's description (see `attack_text`)."""
        mover = s.board[m.frm].kind
        die = ab.shot_die(sheet, mover) if m.kind == "shot" else attack_die(mover)
        return attack_text(m, mover, die, s.board[m.to])[:100]

    def apply(self, state, player, action, text=None):
        key = action.key if isinstance(action, Action) else action
        match = (self._kept_step(state, player, key) or self._move_step(state, player, key)) \
            if state.stage == "select" and player == state.turn_player else None
        s: TSState
        events: list[Event] = []
        if match is not None:  # a move's step: checked without building its action, and taken
            sq, move, sheet = match  # as `MOVE.handle` takes it (a test compares them)
            s = copy_state(state)
            if move is None:  # the piece: the move being built names it
                s.building = _piece_building(sq)
            else:  # its act: the move is built, and made
                assert state.building is not None
                s.building = None
                self._make_move(s, player, move, sheet, events)
            return Outcome(state=s, events=events)
        aimed = self._ability_step(state, player, key) if state.stage == "ability" and player == state.turn_player \
            else None
        if aimed is not None:  # the extra action: checked without building its action, and taken as
            q, sheet = aimed  # its plan's `handle` takes it (a test compares them)
            s = copy_state(state)
            ab.use_ability(s, player, sheet, q, events)
            self._end_turn(s, events)
            return Outcome(state=s, events=events)
        act, move = self._find(state, player, key)
        key = act.key
        s = copy_state(state)
        tag, _, rest = key.partition(":")
        if tag == "faction":
            s.factions[player] = rest
            events.append(Event(kind="faction", text=f"{who(player)} takes {factions_of(s.content)[rest].name} "
                                f"({SIDE_NAMES[s.sides[player]]}).", data={"player": player, "faction": rest}))
            missing = [p for p in s.players if p not in s.factions]
            if missing:
                s.turn_player = missing[0]
            else:
                self._start_play(s, events)
        elif key == PASS:
            events.append(Event(kind="pass", text=f"{who(player)} cannot act and passes."))
            self._after_action(s, player, events)
        elif key == SKIP:
            self._end_turn(s, events)
        elif (step := MOVE.handle(s.building, key)) is not None:
            s.building = step.building
            if step.done is not None:
                self._do_move(s, player, step.done, events, move)
        elif (step := LAND.handle(None, key)) is not None and step.done is not None:
            self._land(s, player, parse_square(step.done["square"]), events)
            self._after_action(s, player, events)
        else:
            sheet = self.sheet(s, player)
            plan = ABILITY_PLANS.get(sheet.ability.kind)
            step = plan.handle(None, key) if plan is not None else None
            if step is None or step.done is None:  # pragma: no cover - find_action only returns listed keys
                raise IllegalAction("That move is not possible now.")
            ab.use_ability(s, player, sheet, parse_square(step.done["target"]), events)
            self._end_turn(s, events)
        return Outcome(state=s, events=events)

    def _do_move(self, s: TSState, player: str, chosen: dict[str, str], events: list[Event],
                 found: Move | None = None) -> None:
        """Apply the move built (`chosen`: the arguments of plans.MOVE). `found` is that move when
        the caller already has it (`_find` looked it up on the same board); otherwise it is looked
        up among the piece's moves."""
        sheet = self.sheet(s, player)
        move = found if found is not None else find_move(piece_moves(s.board, parse_square(chosen["piece"]), sheet),
                                                         chosen["act"])
        assert move is not None  # find_action checked the key
        self._make_move(s, player, move, sheet, events)

    def _make_move(self, s: TSState, player: str, move: Move, sheet: FactionSheet, events: list[Event]) -> None:
        """Make `move`, one of the moves of `player`'s piece on `move.frm` on this board (`sheet`
        being `player`'s): what `_do_move` does once it has the move (`apply` calls it with the
        move `_move_step` found; a test compares it with the move looked up again)."""
        frm, to = move.frm, move.to
        piece = s.board[frm]
        if move.kind == "move":
            del s.board[frm]
            s.board[to] = piece
            s.last_move = Mark(frm=frm, to=to, player=player, turn=s.turn)
            events.append(Event(kind="move", text=f"{who(player)}: {KIND_NAMES[piece.kind]} {square_name(frm)} → "
                                f"{square_name(to)}.", data={"from": square_name(frm), "to": square_name(to)}))
            self._after_action(s, player, events)
            return
        if move.kind == "shot":
            _, dealt, killed = ab.resolve_shot(s, player, sheet, frm, to, events)
            s.damaged = True
            s.last_attack = Mark(frm=frm, to=to, landed=frm, damage=dealt, killed=killed, player=player, turn=s.turn)
            self._after_action(s, player, events)
            return
        die = attack_die(piece.kind)
        value = roll(s, player, die, "attack")
        target = describe(s, to)
        via = f" via {square_name(move.via)}" if move.via is not None else ""
        at = len(events)
        dealt, killed = hurt(s, to, value, events)
        s.damaged = True
        text = f"{who(player)}: {KIND_NAMES[piece.kind]} {square_name(frm)} attacks {target}{via}: d{die} = {value}, "
        data = {"from": square_name(frm), "to": square_name(to), "die": die, "roll": value, "damage": dealt,
                "killed": killed}
        if killed:
            events.insert(at, Event(kind="attack", text=text + "killed.", data=data))
            del s.board[frm]
            s.board[to] = piece
            ab.after_melee(s, sheet, to, dealt, events)
            s.last_attack = Mark(frm=frm, to=to, landed=to, damage=dealt, killed=True, player=player, turn=s.turn)
            self._after_action(s, player, events)
            return
        events.append(Event(kind="attack", text=text + f"{dealt} damage, it survives.", data=data))
        options = landing_squares(s.board, move)
        ab.after_melee(s, sheet, frm, dealt, events)
        s.last_attack = Mark(frm=frm, to=to, landed=frm, damage=dealt, killed=False, player=player, turn=s.turn)
        if len(options) == 1:
            self._land(s, player, options[0], events)
            self._after_action(s, player, events)
            return
        s.stage = "land"
        s.attack_from = frm
        s.landing = options

    def _land(self, s: TSState, player: str, sq: int, events: list[Event]) -> None:
        assert s.last_attack is not None  # landing follows a wounding attack
        frm = s.attack_from if s.attack_from is not None else s.last_attack.frm
        if sq != frm:
            s.board[sq] = s.board.pop(frm)
            events.append(Event(kind="land", text=f"{who(player)} lands on {square_name(sq)}.",
                                data={"square": square_name(sq)}))
        la = s.last_attack  # with `landed` now `sq`: `la.model_copy(update={"landed": sq})` made directly
        s.last_attack = Mark(frm=la.frm, to=la.to, landed=sq, damage=la.damage, killed=la.killed, player=la.player,
                             turn=la.turn)

    # --- views and result ------------------------------------------------
    def view(self, state, player):
        s: TSState = state
        sheets = factions_of(s.content)
        pieces = [PieceView(square=square_name(q), owner=p.owner, faction=s.factions[p.owner], kind=p.kind,
                            name=sheets[s.factions[p.owner]].piece(p.kind).name, hp=p.hp, max_hp=p.max_hp)
                  for q, p in sorted(s.board.items())]
        la = s.last_attack
        moved, attacked = _just_made(s)
        destinations: list[str] = []
        targets: list[str] = []
        if s.selected is not None and s.selected in s.board and s.turn_player and not s.landing:
            for m in piece_moves(s.board, s.selected, self.sheet(s, s.board[s.selected].owner)):
                (destinations if m.kind == "move" else targets).append(square_name(m.to))
        return TSView(
            players=s.players, sides=s.sides, factions=s.factions,
            faction_names={p: sheets[f].name for p, f in s.factions.items()},
            faction_colours={p: sheets[f].colour for p, f in s.factions.items()},
            stage=s.table_stage, turn_player=s.turn_player, turn=s.turn, order=s.order, alive=s.alive, pieces=pieces,
            selected=square_name(s.selected) if s.selected is not None else None,
            landing=[square_name(q) for q in s.landing],
            destinations=sorted(set(destinations)), targets=sorted(set(targets)),
            last_move=[square_name(moved.frm), square_name(moved.to)] if moved else None,
            last_attack=[square_name(attacked.frm), square_name(attacked.to),
                         square_name(attacked.landed if attacked.landed is not None else attacked.frm)]
            if attacked else None,
            last_attack_text=(f"{who(la.player)} hit {square_name(la.to)} for {la.damage}"
                              + (" and killed it" if la.killed else "")) if la else None,
            dice=s.dice, start_rolls=s.start_rolls, quiet_turns=s.quiet_turns, winner=s.winner,
            draw=s.draw, viewer=player)

    def result(self, state):
        s: TSState = state
        if s.stage != "over":
            return None
        tags = {f"{p}.faction": s.factions.get(p, "") for p in s.players}
        if s.winner:
            return Result(winners=[s.winner], summary=f"{who(s.winner)} is the last king standing.",
                          scores={p: float(p == s.winner) for p in s.players}, tags=tags)
        return Result(winners=[], summary="The game is a draw: nobody took Terra Sancta.",
                      scores={p: 0.0 for p in s.players}, tags=tags)

    def auto_action(self, state, player, rng):
        return choose(self, state, player, rng)

    def rules_pages(self):
        from rules.terra_sancta.help import rules_pages

        return rules_pages()

    def seat_label(self, state, player):
        f = state.factions.get(player)
        return factions_of(state.content)[f].name if f else None

    def check_invariants(self, state):
        s: TSState = state
        assert s.king_touched_by_ability == 0, "an ability affected a king"
        for sq, p in s.board.items():
            assert 0 <= sq < 144, f"piece off the board: {sq}"
            assert 1 <= p.hp <= max_health(p.kind), f"health out of bounds on {square_name(sq)}: {p.hp}"
            assert p.owner in s.alive, f"{p.owner} has no king but still has pieces"
        for owner in s.alive:
            kings = [q for q, x in s.board.items() if x.owner == owner and x.kind == "K"]
            assert len(kings) == 1, f"{owner} is alive with {len(kings)} kings"
        if s.building is not None:  # a piece chosen for the move: the turn player's, able to act
            assert s.stage == "select" and s.building.verb == MOVE.verb, f"a move built at stage {s.stage}"
            assert list(s.building.args) == ["piece"], f"a move built with {s.building.args}"
            piece = s.board.get(parse_square(s.building.args["piece"]))
            assert piece is not None and piece.owner == s.turn_player, \
                f"the move under way names no piece of {s.turn_player}: {s.building.args}"
        if s.stage == "over":
            assert s.draw or s.winner in s.players


def _just_made(s: TSState) -> tuple[Mark | None, Mark | None]:
    """The last move and the last attack as the board highlights them: only the one made last,
    and only while it is the move just made (in this turn or the one before: not after a pass).
    A mark saved without its turn (0, before marks kept it) is older than any mark with one;
    when neither has a turn both are shown, as then."""
    moved, attacked = s.last_move, s.last_attack
    if all(m is None or not m.turn for m in (moved, attacked)):
        return moved, attacked
    latest = max((m for m in (moved, attacked) if m is not None), key=lambda m: m.turn, default=None)
    if latest is None or latest.turn < s.turn - 1:
        return None, None
    return (latest, None) if latest is moved else (None, latest)


_BUILDINGS: dict[int, Building] = {}


def _piece_building(sq: int) -> Building:
    """`Building(verb=MOVE.verb, args={"piece": square_name(sq)})`, the move being built once its
    piece is chosen, made once per square: a Building is frozen, and states already share it
    (copying.py), so every state choosing that square may share one."""
    found = _BUILDINGS.get(sq)
    if found is None:
        found = _BUILDINGS[sq] = Building(verb=MOVE.verb, args={"piece": square_name(sq)})
    return found


def _clear_move(s: TSState) -> None:
    """No move under way any more: no move being built, no landing to choose. Each field is
    written only when it holds something (so the end of a turn after an action, which both
    clear, writes nothing twice); the state is the same as after writing all three."""
    if s.building is not None:
        s.building = None
    if s.landing:
        s.landing = []
    if s.attack_from is not None:
        s.attack_from = None


GAME = TerraSancta()
