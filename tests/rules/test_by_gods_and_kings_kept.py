"""The seventh round of speed work on By Gods and Kings, each shortcut against the long way:
the automatic player's turn move applied without checking its key again (chosen.py), event
data taken from the keywords as given (events.Said.told), a lowered stat sheet and an enemy's
intent made without validation (stats._lowered, enemy.announce)."""

from __future__ import annotations

from itertools import permutations

import pytest
from pydantic import ValidationError

from rules.by_gods_and_kings import GAME as BGK
from rules.by_gods_and_kings import (
    cards,
    copying,
    cow,
    legality,
    options,
    policy,
    reactions,
    stats,
    turn,
    weigh,
)
from rules.by_gods_and_kings import events as bgk_events
from rules.by_gods_and_kings.content import Stats
from rules.by_gods_and_kings.reactions import target_options
from rules.by_gods_and_kings.state import GEAR, PLACE, Hero, Intent, Status
from rules.core import IllegalAction, Rng
from rules.core.steps import Option
from tests.support.playout import automatic_positions

GAMES = ((1, range(2), 0), (4, range(3), 25), (8, range(3), 20))
"""(players, seeds, percent of random moves) of the games whose positions are checked."""


def _positions():
    for players, seeds, wander in GAMES:
        yield from automatic_positions(BGK, players, seeds, 300, random_share=wander)


# --- the automatic player's choice, kept for its apply ----------------------------------------------
def test_a_kept_choice_is_applied_as_the_long_way_applies_it():
    """Right after `auto_action`, `apply` takes the choice without checking it; the key and
    step it takes are those of the check, and the move ends in the same state and events."""
    taken = 0
    phases = set()
    for s in _positions():
        seat = BGK.to_act(s)[0]
        action = BGK.auto_action(s, seat, Rng(seed=taken))
        kept = BGK._chosen.kept is not None
        assert kept == (legality.checks_keys(s, seat) and not action.key.startswith("use."))
        fast = BGK._legal_key(s, seat, action.key)
        assert BGK._chosen.kept is None, "a kept choice is taken once"
        long_way = BGK._legal_key(s, seat, action.key)
        assert fast == long_way
        if kept:
            BGK.auto_action(s, seat, Rng(seed=taken))
            quick = BGK.apply(s, seat, action.key)
            slow = BGK.apply(s, seat, action.key)
            assert quick.state == slow.state and quick.events == slow.events
            taken += 1
            phases.add(s.phase)
    assert taken > 1500 and phases == legality.TURN_PHASES | {"opening", "route"}


def test_a_kept_choice_is_only_for_its_state_seat_and_key():
    s = next(x for x in automatic_positions(BGK, 4, range(1), 200) if x.phase == "resolve")
    seat = BGK.to_act(s)[0]
    other = next(p for p in s.players if p != seat)
    chosen = BGK.auto_action(s, seat, Rng(seed=1)).key
    for state, player, key in (
        (s, seat, "atk:e9"),
        (s, other, chosen),
        (s.model_copy(), seat, chosen),
    ):
        BGK.auto_action(s, seat, Rng(seed=1))
        assert BGK._chosen.take(state, player, key) is None
    BGK.auto_action(s, seat, Rng(seed=1))
    with pytest.raises(IllegalAction):
        BGK.apply(s, seat, "atk:e9")
    assert BGK._chosen.kept is None
    BGK.auto_action(s, seat, Rng(seed=1))
    assert BGK._chosen.take(s, seat, chosen) is not None


def test_a_kept_choice_is_not_taken_once_its_state_changed_in_place():
    s = next(x for x in automatic_positions(BGK, 4, range(1), 200) if x.phase == "enemy")
    seat = BGK.to_act(s)[0]
    key = BGK.auto_action(s, seat, Rng(seed=1)).key
    s.phase = "resolve"  # a caller changing a state in place (the game never does)
    with pytest.raises(IllegalAction):
        BGK.apply(s, seat, key)


# --- event data ---------------------------------------------------------------------------------
def test_event_data_is_in_the_order_of_its_fields_however_it_is_named():
    made = bgk_events.Hit.told("text", hp=3, dealt=2, raw=4, target="e0", source="c0")
    assert list(made.data) == list(bgk_events.Hit.model_fields)
    assert made.data == bgk_events.Hit(source="c0", target="e0", raw=4, dealt=2, hp=3).model_dump(
        mode="json"
    )
    field = ["Ah"]
    played = bgk_events.CardPlayed.told("text", unit="c0", card="Ah", field=field)
    field.append("2h")
    assert played.data["field"] == ["Ah"]


def test_the_events_of_games_hold_their_data_as_the_validated_events_do():
    """Every typed event's data, key order included (the order of a saved or sent event),
    is its type's dump; an intent's data is the intent's."""
    kinds = set()
    for players, seeds, _ in GAMES:
        names = [f"p{i}" for i in range(players)]
        for seed in seeds:
            s, chooser = BGK.setup(names, {}, seed), Rng(seed=seed)
            for _ in range(300):
                if BGK.result(s) is not None:
                    break
                p = BGK.to_act(s)[0]
                done = BGK.apply(s, p, BGK.auto_action(s, p, chooser).key)
                typed = {t.kind: t for t in bgk_events.Said.__subclasses__()} | {"intent": Intent}
                for e in done.events:
                    if e.kind in typed:
                        dump = typed[e.kind].model_validate(e.data).model_dump(mode="json")
                        assert list(e.data.items()) == list(dump.items()), e.kind
                        kinds.add(e.kind)
                s = done.state
    assert {"hit", "turn", "card_played", "target_picked", "ability", "status", "intent"} <= kinds


# --- models made without validation ----------------------------------------------------------------
def test_a_lowered_sheet_is_the_validated_one():
    lowered = 0
    for s in _positions():
        for unit in [*s.party, *(s.battle.foes if s.battle is not None else [])]:
            if isinstance(unit, Hero):
                base = stats.hero_base(s.cat, unit, s.party)
            else:
                base = stats.foe_base(s.cat, unit.enemy, len(s.party))
            sheet = stats._lowered(base, unit)
            assert sheet == stats.sheet(s, unit)
            if sheet is not base:
                valid = Stats(**sheet.__dict__)
                assert sheet == valid and sheet.model_fields_set == valid.model_fields_set
                assert list(sheet.__dict__) == list(valid.__dict__)
                lowered += 1
    assert lowered > 300


def test_an_intent_is_the_validated_one():
    seen = 0
    for s in _positions():
        if s.intent is not None:
            valid = Intent(**s.intent.__dict__)
            assert s.intent == valid and s.intent.model_fields_set == valid.model_fields_set
            assert list(s.intent.__dict__) == list(valid.__dict__)
            seen += 1
    assert seen > 300


# --- the generator, copied on write ---------------------------------------------------------------
def test_during_apply_the_generator_is_copied_once_and_only_for_its_state():
    s = next(x for x in automatic_positions(BGK, 4, range(1), 60) if x.battle is not None)
    assert s.own_rng() is s.rng  # outside apply: the state's own
    copy, shared = copying.copy_for_move(s)
    cow.WRITING.begin(copy, shared)
    try:
        assert copy.rng is s.rng and s.own_rng() is s.rng
        mine = copy.own_rng()
        assert mine is not s.rng and mine == s.rng and mine.scripted is not s.rng.scripted
        assert copy.own_rng() is mine and copy.rng is mine
        mine.randint(0, 9)
        assert mine.counter == s.rng.counter + 1
    finally:
        cow.WRITING.end()


def test_no_state_changes_when_a_later_move_draws_from_the_generator():
    """Moves that shuffle (the discard pile into the deck, a wipe's fresh deck) or pick a
    character for a save draw from the generator: the states before them keep theirs."""
    drawn = 0
    for players, seed in ((1, 0), (1, 1), (2, 0), (8, 0)):
        s = BGK.setup([f"p{i}" for i in range(players)], {"attempts": "5"}, seed)
        chooser = Rng(seed=seed)
        while BGK.result(s) is None:
            text = s.model_dump_json()
            p = BGK.to_act(s)[0]
            after = BGK.apply(s, p, BGK.auto_action(s, p, chooser).key).state
            assert s.model_dump_json() == text
            if after.rng.counter != s.rng.counter:
                assert after.rng is not s.rng
                drawn += 1
            else:
                assert after.rng is s.rng
            s = after
    assert drawn > 5


# --- frozen statuses, shared by the copies ----------------------------------------------------------
def test_a_changed_status_is_the_one_pydantic_makes():
    """A status that changes is replaced by `cow.changed` (statuses are frozen and shared): the
    very values and fields set of pydantic's `model_copy` with that update."""
    seen = 0
    for s in _positions():
        for unit in [*s.party, *(s.battle.foes if s.battle is not None else [])]:
            for st in unit.statuses:  # made by hand (effects.taunt, set_status) as validated
                if st.kind == "taunt":
                    valid = Status(kind="taunt", turns=st.turns, source=st.source)
                else:
                    valid = Status(kind=st.kind, amount=st.amount, turns=st.turns, source=st.source)
                assert list(st.__dict__.items()) == list(valid.__dict__.items())
                assert st.model_fields_set == valid.model_fields_set
                for update in (
                    {"turns": st.turns - 1},
                    {"amount": st.amount + 2, "turns": st.turns + 1},
                ):
                    mine, long_way = cow.changed(st, **update), st.model_copy(update=update)
                    assert mine == long_way and list(mine.__dict__.items()) == list(
                        long_way.__dict__.items()
                    )
                    assert mine.model_fields_set == long_way.model_fields_set
                    assert mine.model_fields_set is not st.model_fields_set
                    seen += 1
    assert seen > 500


def test_a_status_is_never_changed_in_place():
    s = next(
        x
        for x in automatic_positions(BGK, 4, range(1), 300)
        if x.battle is not None and any(f.statuses for f in x.battle.foes)
    )
    st = next(st for f in s.battle.foes for st in f.statuses)
    with pytest.raises(ValidationError):
        st.turns = 5


# --- a character's gear, shared by the copies -------------------------------------------------------
def test_no_camp_move_changes_the_state_it_was_applied_to():
    """A character's gear (state.GEAR) is shared by the copies of a state: every camp move,
    and the experience shards gain at the end, replace it whole. Every legal camp move of every
    camp reached (claims, shards, equipment) leaves the state before it as it was."""
    moves, kinds = 0, set()
    for players, seeds, wander in GAMES:
        for s in automatic_positions(
            BGK, players, seeds, 700, {"attempts": "1"}, random_share=wander
        ):
            if s.phase != "camp":
                continue
            text = s.model_dump_json()
            for seat in s.players:
                for action in BGK.legal_actions(s, seat):
                    after = BGK.apply(s, seat, action.key).state
                    assert s.model_dump_json() == text, action.key
                    changed = [
                        name
                        for h, h2 in zip(s.party, after.party, strict=True)
                        for name in GEAR
                        if getattr(h, name) != getattr(h2, name)
                    ]
                    kinds.add(action.key.split(":")[0])
                    moves += bool(changed)
    assert moves > 100 and {"claim", "shard", "unshard", "wear"} <= kinds, kinds


def test_the_experience_at_the_end_changes_no_earlier_state():
    ended = 0
    for players, seed in ((1, 0), (2, 1), (4, 2), (8, 0)):
        s = BGK.setup([f"p{i}" for i in range(players)], {}, seed)
        chooser = Rng(seed=seed)
        while BGK.result(s) is None:
            text, p = s.model_dump_json(), BGK.to_act(s)[0]
            after = BGK.apply(s, p, BGK.auto_action(s, p, chooser).key).state
            assert s.model_dump_json() == text
            s = after
        ended += any(h.shard_xp for h in s.party)
    assert ended >= 3


# --- options made once ----------------------------------------------------------------------------
def _offered_options(s):
    """The aims, targets and NPC targets offered in a position (options.option at work)."""
    out = []
    if s.phase == "deploy":
        out += [turn.fire_options(s, "how", {"ability": ref}) for ref in s.queue]
    if s.phase == "npc":
        out.append(turn.npc_options(s, "target", {}))
    if s.battle is not None:
        out += [
            target_options(s, s.party[0], kind)
            for kind in ("foes", "allies", "self", "foe", "ally", "fallen")
        ]
    return out


def test_options_made_once_are_the_plain_ones(monkeypatch):
    positions = [s for s in _positions() if s.phase in ("deploy", "npc") or s.battle is not None][
        ::3
    ]
    fast = [_offered_options(s) for s in positions]
    for module in (turn, reactions):
        monkeypatch.setattr(module, "option", lambda value, label: Option(value=value, label=label))
    slow = [_offered_options(s) for s in positions]
    assert fast == slow and sum(len(o) for x in fast for o in x) > 5000
    assert options.option("e0", "At Kobold") is options.option("e0", "At Kobold")


def test_a_fields_potential_is_the_same_in_every_order_and_worked_out_once():
    hand = ["Ah", "7s", "9d", "9d", "Kh"]
    plain = policy._potential_of.__wrapped__(tuple(hand))
    before = policy._potential_of.cache_info()
    orders = list(permutations(hand))
    assert all(policy._potential(list(order)) == plain for order in orders)
    after = policy._potential_of.cache_info()
    assert after.misses - before.misses <= 1 and after.hits - before.hits >= len(orders) - 1
    assert all(
        weigh.pair(a, b) == weigh.pair(b, a) for a in cards.full_deck(1) for b in cards.full_deck(1)
    )


def test_a_units_place_is_the_number_of_its_id():
    ids = [f"{side}{i}" for side in "cen" for i in range(100)] + ["c07", "e000"]
    assert all(PLACE[uid] == int(uid[1:]) for uid in ids)
    with pytest.raises(ValueError):
        PLACE["cx"]
    assert len(PLACE) == 3 * 64, "an id read by hand is not added to the table"
