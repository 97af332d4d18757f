"""Gods of Magic: nothing that depends on a hand reaches the public table.

The bot shows on the table `view(state, None)`, every non-private action of every player to act
(label and key: the key travels in a button's custom_id) and every event with `visible_to=None`.
These tests scan whole automatic games for hand cards there, and check with `Game.resample` that
the table (and each player's own view and actions) cannot tell a state from a re-dealt one.
"""

from __future__ import annotations

import json
import re

import pytest

from rules.core import Rng
from rules.gods_of_magic import GAME as G
from rules.gods_of_magic.moves import label
from rules.gods_of_magic.plans import first_step_key
from rules.gods_of_magic.state import GomState
from rules.gods_of_magic.undo import before_objection
from tests.rules.test_gods_of_magic import act, board, keys, roll

# ---------------------------------------------------------------------------------------------
# helpers


def hidden_cards(s: GomState) -> set[str]:
    """Cards in a hand, or picked from a hand for the current move and not placed yet."""
    out = {c for h in s.hands.values() for c in h}
    out |= {c for c in s.pending if s.locate(c) is None and c not in s.discard and c not in s.deck}
    return out


class _Finder:
    """Which of `cards` a key, a text or a JSON dump names: a key by one of its parts, a JSON
    dump by a quoted id, any text by the card's label ('Painting (A3)')."""

    def __init__(self, s: GomState, cards: set[str]):
        self.cards = cards
        self.by_label = {label(s, c): c for c in cards}
        alts = "|".join(re.escape(x) for x in sorted(self.by_label, key=len, reverse=True))
        self.labels = re.compile(rf"(?<![A-Za-z0-9])({alts})(?![A-Za-z0-9])") if cards else None

    def text(self, text: str) -> set[str]:
        return {self.by_label[m.group(1)] for m in self.labels.finditer(text)} if self.labels else set()

    def key(self, key: str) -> set[str]:
        return set(re.split(r"[:./,|]", key)) & self.cards

    def dump(self, data: str) -> set[str]:
        return set(re.findall(r'"([A-Za-z0-9_-]+)"', data)) & self.cards | self.text(data)


def public_actions(s: GomState) -> list[tuple[str, str, str]]:
    """(player, key, label) of every action the table shows."""
    return [(p, a.key, a.label) for p in G.to_act(s) for a in G.legal_actions(s, p) if not a.private]


def leaks_of_state(s: GomState) -> dict[str, str]:
    """Hand cards named by the table in this state: {card: where}."""
    find = _Finder(s, hidden_cards(s))
    out: dict[str, str] = {}
    for p, key, lab in public_actions(s):
        for c in find.key(key) | find.text(lab):
            out.setdefault(c, f"action {key!r} {lab!r} of {p}")
    for c in find.dump(G.view(s, None).model_dump_json()):
        out.setdefault(c, "the public view")
    return out


def leaks_of_events(before: GomState, after: GomState, events) -> dict[str, str]:
    """Hand cards (after the move) named by its public events. Cards that were in play before
    the move were seen by everyone: a public event may say that they went back to a hand."""
    seen = {c for _o, _r, c in before.in_play()}
    find = _Finder(after, hidden_cards(after) - seen)
    out: dict[str, str] = {}
    for e in events:
        if e.visible_to is None:
            for c in find.text(e.text) | find.dump(json.dumps(e.data)):
                out.setdefault(c, f"event {e.kind}: {e.text}")
    return out


def scan_game(seed: int, n: int = 3, max_steps: int = 6000) -> dict[str, str]:
    """Play an automatic game and collect every hand card the table was shown."""
    s = G.setup([f"p{i}" for i in range(n)], {}, seed)
    chooser = Rng(seed=seed)
    found: dict[str, str] = {}
    for _ in range(max_steps):
        for c, where in leaks_of_state(s).items():
            found.setdefault(c, where)
        if G.result(s) is not None:
            return found
        p = chooser.choice(G.to_act(s))
        out = G.apply(s, p, G.auto_action(s, p, chooser).key)
        for c, where in leaks_of_events(s, out.state, out.events).items():
            found.setdefault(c, where)
        s = out.state
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------------------------------------
# the scan of whole games


def test_scan_four_automatic_games_shows_no_hand_card_on_the_table():
    found: dict[str, str] = {}
    for seed in range(4):
        for c, where in scan_game(seed).items():
            found.setdefault(c, where)
    examples = "\n".join(f"{c}: {w}" for c, w in sorted(found.items())[:12])
    assert not found, f"{len(found)} distinct hand cards reached the table, e.g.\n{examples}"


# ---------------------------------------------------------------------------------------------
# the choices after picking a card from the hand


def _public(s: GomState, player: str) -> list[str]:
    return [a.key for a in G.legal_actions(s, player) if not a.private]


def test_play_phase_targets_of_a_picked_card_are_private():
    s = board(hands={"a": ["L03", "E05"]}, realms={"a": [["L01"]]}, phase="play")
    s, _ = act(s, "a", "play.card:L03")
    acts = G.legal_actions(s, "a")
    assert {a.key for a in acts} == {"play.to:new", "play.to:r0", "play.back"}
    assert all(a.private for a in acts), "the targets name the card; a Back would tell one was picked"
    assert _public(s, "a") == [] and "Circus" not in str(public_actions(s))
    assert leaks_of_state(s) == {}


def test_creation_alteration_and_evocation_targets_are_private():
    s = board(hands={"a": ["E05", "D07"]}, realms={"a": [["L01"], ["L02"]]}, deck_top=("O04",))
    s, _ = roll(s, 1)
    s, _ = act(s, "a", "play.card:E05")
    assert _public(s, "a") == [] and leaks_of_state(s) == {}  # the first play of two: no way out yet
    s = board(hands={"a": ["D07"]}, realms={"a": [["L01", "E02"]]})
    s, _ = roll(s, 6)
    s, _ = act(s, "a", "play.card:D07")
    assert _public(s, "a") == ["skip"] and leaks_of_state(s) == {}  # as before the pick
    s, _ = act(s, "a", "skip")  # the way out still works: the Descriptor stays in the hand
    assert s.building is None and s.hands["a"] == ["D07"] and s.player == "b"
    s = board(realms={"a": [["L01"]]}, deck_top=("O04",))
    s, _ = roll(s, 8)
    assert keys(s, "a") == ["play.to:r0"] and _public(s, "a") == [], "the evoked card is still in the hand"
    assert leaks_of_state(s) == {}


def test_recombination_placing_a_hand_card_is_private_and_moving_a_card_in_play_is_public():
    s = board(hands={"a": ["E05"]}, realms={"a": [["L01", "O09"], ["L02"]]})
    s, _ = roll(s, 7)
    s, _ = act(s, "a", "recombine.card:O09")
    assert "recombine.to:r1" in _public(s, "a"), "a card in play: everyone saw it"
    s, _ = act(s, "a", "recombine.back")
    table_before = _public(s, "a")
    s, _ = act(s, "a", "recombine.card:E05")
    assert "recombine.to:r0" in keys(s, "a") and _public(s, "a") == table_before, \
        "the table reads as before the private pick"
    assert leaks_of_state(s) == {}
    picked_again, _ = act(s, "a", "recombine.card:O09")  # a card in play instead: the pick is dropped
    assert picked_again.building is not None and picked_again.building.args == {"card": "O09"}
    assert picked_again.hands["a"] == ["E05"]


def test_transformation_choices_depend_on_the_hand_so_they_are_private():
    s = board(hands={"a": ["E01", "O05"]}, realms={"a": [["L01"]], "b": [["L10", "E10"]]})
    s, _ = roll(s, 2)
    assert "transform.target:E10" in keys(s, "a") and _public(s, "a") == [], "which cards can be transformed tells suits"
    s, _ = act(s, "a", "transform.target:E10")
    assert _public(s, "a") == [] and "transform.back" in keys(s, "a")
    assert G.view(s, None).pending_public == [], "the chosen target tells a suit of the hand"
    assert [c.id for c in G.view(s, "a").pending_private] == ["E10"], "the mover still sees it"
    assert G.view(s, "b").pending_private == []
    s = board(hands={"a": ["O01"]}, realms={"b": [["L10"]]})
    s, _ = roll(s, 2)
    [p] = G.legal_actions(s, "a")
    assert p.key == "pass" and p.private and "suit" in p.label


# ---------------------------------------------------------------------------------------------
# passes and labels that would tell what a hand holds


def test_forced_passes_that_depend_on_the_hand_are_private():
    s = board(hands={"a": ["E05"]}, phase="play")
    [p] = G.legal_actions(s, "a")
    assert p.key == "pass" and p.private and "Location" in p.label
    s = board(hands={"a": ["E05"]}, realms={"b": [["L01"]]})
    s, _ = roll(s, 1)
    [p] = G.legal_actions(s, "a")
    assert p.key == "pass" and p.private
    s = board(hands={"a": []}, phase="play")
    [p] = G.legal_actions(s, "a")
    assert p.key == "pass" and not p.private and "empty" in p.label, "an empty hand is public"


def test_alteration_offers_one_neutral_public_way_out_whatever_the_hand():
    for hand in (["D10"], ["E01"], []):
        s = board(hands={"a": hand}, realms={"a": [["L01", "E07"]]})
        s, _ = roll(s, 6)
        assert _public(s, "a") == ["skip"], hand
        [skip] = [a for a in G.legal_actions(s, "a") if a.key == "skip"]
        assert skip.label == "Play no Descriptor"
    s = board(hands={"a": ["D01"]})
    s, _ = roll(s, 6)
    assert keys(s, "a") == ["skip"]
    s, events = act(s, "a", "skip")
    assert s.player == "b"


def test_evocation_card_that_fits_nowhere_is_named_only_to_its_player():
    s = board(deck_top=("A03",))
    s, events = roll(s, 8)
    assert "A03" in s.hands["a"] and s.player == "b"
    public = [e for e in events if e.visible_to is None]
    mine = [e for e in events if e.visible_to == ["a"]]
    assert any(e.kind == "evocation_kept" for e in public)
    assert not any("A03" in e.text + repr(e.data) or label(s, "A03") in e.text for e in public)
    assert any(e.kind == "evocation_kept_private" and label(s, "A03") in e.text for e in mine)


# ---------------------------------------------------------------------------------------------
# Alteration in a realm of imagination, and the deck running out during a Visitation


def test_alteration_in_a_realm_of_imagination_scores_nothing():
    s = board(hands={"a": ["D10"]}, realms={"a": [["E07", "A02"]]})
    s, _ = roll(s, 6)
    s, _ = act(s, "a", "play.card:D10")
    s, events = act(s, "a", "play.to:on.E07")
    assert s.scores["a"] == 0, "a realm without a Location does not score"
    assert s.domains["a"][0].cards[0].descriptors == ["D10"]
    [e] = [e for e in events if e.kind == "alteration_score"]
    assert e.data["gain"] == 0 and "imagination" in e.text
    # the automatic player knows it: the small host that scores, not the big one that does not
    s = board(hands={"a": ["D01"]}, realms={"a": [["E10"], ["L01"]]})
    s, _ = roll(s, 6)
    assert G.auto_action(s, "a", Rng(seed=0)).key == "play.card:D01"
    s, _ = act(s, "a", "play.card:D01")
    assert G.auto_action(s, "a", Rng(seed=0)).key == "play.to:on.L01"
    s = board(hands={"a": ["D01"]}, realms={"a": [["E10"]]})
    s, _ = roll(s, 6)
    assert G.auto_action(s, "a", Rng(seed=0)).key == "skip", "nothing to score: no Descriptor spent"


def _last_cards_state():
    s = board(realms={"a": [["L10", "E05"]], "b": [["L09"]]}, scores={"a": 20, "b": 30})
    s.discard += s.deck
    s.deck = []
    s.reshuffled = True
    return s


@pytest.mark.parametrize("via", ["roll", "imagination"])
def test_deck_running_out_during_a_visitation_scores_everyone_once(via):
    s = _last_cards_state()
    if via == "roll":
        s, events = roll(s, 9)
    else:
        s, _ = roll(s, 10)
        s, events = act(s, "a", "magic:9")
    assert s.scores == {"a": 20 + 15, "b": 30 + 9}, "one Visitation, not two"
    assert [e.kind for e in events].count("visitation") == 1
    assert [e.kind for e in events].count("exhausted") == 1
    r = G.result(s)
    assert r is not None and r.winners == ["b"] and r.tags["end"] == "deck"
    assert not any(e.kind == "turn" for e in events), "no new turn starts"


def test_deck_running_out_otherwise_scores_once_and_starts_no_turn():
    s = _last_cards_state()
    s, events = roll(s, 4)  # Inspiration finds no card
    assert s.scores == {"a": 35, "b": 39}
    kinds = [e.kind for e in events]
    assert kinds.count("visitation") == 1 and kinds.count("exhausted") == 1 and "turn" not in kinds
    assert G.result(s).tags["end"] == "deck"


def test_deck_running_out_at_a_visitation_that_reaches_the_target():
    s = _last_cards_state()
    s.scores = {"a": 190, "b": 30}
    s, _ = roll(s, 9)
    assert s.scores == {"a": 205, "b": 39}
    r = G.result(s)
    assert r.winners == ["a"] and r.tags["end"] == "target"


# ---------------------------------------------------------------------------------------------
# resample: a state nobody can tell apart from the real one


def _acts(s: GomState, p: str, private_too: bool) -> list[tuple[str, str]]:
    return [(a.key, a.label) for a in G.legal_actions(s, p) if private_too or not a.private]


def _check_resample(s: GomState, viewer: str | None, rng: Rng) -> GomState:
    before = s.model_dump_json()
    r = G.resample(s, viewer, rng)
    assert s.model_dump_json() == before, "resample changed its input"
    G.check_invariants(r)
    assert r.rng.counter == s.rng.counter and r.rng.seed != s.rng.seed
    assert G.view(s, viewer) == G.view(r, viewer)
    assert G.to_act(s) == G.to_act(r)
    for q in G.to_act(s):
        assert _acts(s, q, False) == _acts(r, q, False), f"the table sees {q}'s actions change"
    if viewer is not None:
        assert _acts(s, viewer, True) == _acts(r, viewer, True), "the viewer's own actions change"
        assert r.hands[viewer] == s.hands[viewer]
    return r


RESAMPLE_GAMES = [(2, 5, {}, False), (3, 6, {}, False), (5, 7, {}, False), (3, 8, {}, True), (2, 9, {}, True),
                  (3, 10, {"storytelling": "strict"}, True), (5, 11, {"storytelling": "strict"}, True)]


@pytest.mark.parametrize("n,seed,opts,mixed", RESAMPLE_GAMES,
                         ids=[f"{n}p-s{seed}{'-strict' if o else ''}{'-mixed' if m else ''}"
                              for n, seed, o, m in RESAMPLE_GAMES])
def test_resample_is_indistinguishable_along_automatic_games(n, seed, opts, mixed):
    """At every step: every viewer's view, the table's actions and the viewer's own actions are
    the same in a re-dealt state. `mixed`: a random legal move now and then (objections too)."""
    players = [f"p{i}" for i in range(n)]
    s = G.setup(players, opts, seed)
    chooser, rng = Rng(seed=seed), Rng(seed=seed + 1000)
    differed = 0
    for _step in range(G.max_steps):
        if G.result(s) is not None:
            break
        for viewer in [None, *players]:
            r = _check_resample(s, viewer, rng)
            hidden = [q for q in players if q != viewer]
            differed += r.deck != s.deck or any(r.hands[q] != s.hands[q] for q in hidden)
        p = chooser.choice(G.to_act(s))
        legal = G.legal_actions(s, p)
        randomly = mixed and (s.objection is not None or chooser.randint(0, 3) == 0)
        a = chooser.choice(legal) if randomly else G.auto_action(s, p, chooser)
        s = G.apply(s, p, a.key, "A line of story." if a.text_prompt else None).state
    else:
        pytest.fail("the game did not end")
    assert differed > 0


def test_resample_redeals_hidden_hands_and_the_deck_with_the_same_counts():
    s = G.setup(["a", "b", "c"], {}, 3)
    r = G.resample(s, "a", Rng(seed=1))
    assert r.hands["a"] == s.hands["a"] and r.discard == s.discard
    assert {p: len(h) for p, h in r.hands.items()} == {p: len(h) for p, h in s.hands.items()}
    assert len(r.deck) == len(s.deck)
    assert sorted(r.deck + r.hands["b"] + r.hands["c"]) == sorted(s.deck + s.hands["b"] + s.hands["c"])
    assert r.hands["b"] != s.hands["b"] and r.deck != s.deck
    t = G.resample(s, None, Rng(seed=1))
    assert all(t.hands[p] != s.hands[p] for p in "abc")


def test_resample_keeps_a_picked_card_a_valid_choice():
    # b is placing a card picked from the hand: a redealt hand still holds a card that can go there
    s = board(hands={"a": ["O01"], "b": ["L03", "E05", "D02", "O07"]}, realms={"b": [["L01"], ["L02"]]},
              phase="play", current=1)
    s, _ = act(s, "b", "play.card:E05")
    for seed in range(30):
        r = _check_resample(s, "a", Rng(seed=seed))
        assert r.pending[0] in r.hands["b"] and keys(r, "b")[-1] == "play.back"
    # the Alteration's Descriptor stays a Descriptor; a Transformation's hand keeps the suit
    s = board(hands={"b": ["D02", "E05"]}, realms={"b": [["L01", "E03"]]}, current=1)
    s, _ = roll(s, 6, "b")
    s, _ = act(s, "b", "play.card:D02")
    for seed in range(30):
        r = _check_resample(s, None, Rng(seed=seed))
        assert r.suit(r.pending[0]).value == "descriptor" and r.pending[0] in r.hands["b"]
    s = board(hands={"b": ["E01", "O05"]}, realms={"a": [["L01", "E10"]]}, current=1)
    s, _ = roll(s, 2, "b")
    s, _ = act(s, "b", "transform.target:E10")
    for seed in range(30):
        r = _check_resample(s, "a", Rng(seed=seed))
        assert any(r.suit(c).value == "entity" for c in r.hands["b"])


def test_resample_in_strict_storytelling_remaps_the_snapshot_and_forbidden_moves():
    s = board(players=("a", "b", "c"), hands={"a": ["E05", "O05"], "b": ["A01", "A02"]},
              realms={"a": [["L01"]]}, phase="play", options={"storytelling": "strict"})
    s, _ = act(s, "a", "play:E05:r0", "Witches brew in the volcano.")
    s, _ = act(s, "b", "obj:yes")
    for viewer in (None, "b"):
        r = _check_resample(s, viewer, Rng(seed=4))
        snap = before_objection(r)
        G.check_invariants(snap)
    s, _ = act(s, "c", "obj:yes")
    assert s.forbidden
    r = _check_resample(s, None, Rng(seed=4))
    assert len(r.forbidden) == len(s.forbidden)


@pytest.mark.parametrize("n,seed", [(2, 3), (3, 4), (4, 12)])
def test_the_table_reads_the_same_while_a_card_of_the_hand_is_being_placed(n, seed):
    """Picking a card of the hand is private, so the table's controls must not change with it:
    no public Back (it would tell that a card fits), and the public way out of an Alteration
    or a Creation (skip, finish) stays. Along automatic games with random moves mixed in, every
    state where a god is placing a card offers the table the same actions as the same state
    before the pick."""
    players = [f"p{i}" for i in range(n)]
    s = G.setup(players, {}, seed)
    chooser = Rng(seed=seed)
    compared = 0
    for _step in range(G.max_steps):
        if G.result(s) is not None:
            break
        p = chooser.choice(G.to_act(s))
        if s.building is not None:
            before = s.model_copy(update={"building": None})
            picked = {a.key: a for a in G.legal_actions(before, p)}.get(first_step_key(s.building))
            if picked is not None and picked.private:  # a pick only its player saw
                assert _public(s, p) == _public(before, p), (s.step, s.building)
                compared += 1
        legal = G.legal_actions(s, p)
        a = chooser.choice(legal) if chooser.randint(0, 2) == 0 else G.auto_action(s, p, chooser)
        s = G.apply(s, p, a.key, "A line of story." if a.text_prompt else None).state
    assert compared >= 5
