"""Gods of Magic: setup, the turn, every Magic Table result, scoring, the win check, storytelling, views."""

from __future__ import annotations

import json

import pytest

from rules.core import IllegalAction, Rng
from rules.core.steps import Building
from rules.gods_of_magic import GAME
from rules.gods_of_magic.state import GomState, Placed, Realm

G = GAME


def board(players=("a", "b"), hands=None, realms=None, phase="roll", current=0, deck_top=(),
          options=None, seed=1, scores=None) -> GomState:
    """A game after setup: `hands` {player: [ids]}, `realms` {player: [[id or (id, [descriptors])]]};
    every other card stays in the deck, `deck_top` drawn first."""
    s = G.setup(list(players), options or {}, seed)
    rest = sorted(s.deck + [c for h in s.hands.values() for c in h])
    for p in players:
        s.hands[p] = []
        s.domains[p] = []
    for p, ids in (hands or {}).items():
        for c in ids:
            rest.remove(c)
            s.hands[p].append(c)
    for p, rs in (realms or {}).items():
        for entries in rs:
            realm = Realm()
            for e in entries:
                cid, descs = (e, []) if isinstance(e, str) else e
                for c in (cid, *descs):
                    rest.remove(c)
                realm.cards.append(Placed(card=cid, descriptors=list(descs)))
            s.domains[p].append(realm)
    for c in deck_top:
        rest.remove(c)
    s.deck = rest + list(reversed(deck_top))
    s.setup_done = list(players)
    s.phase, s.turn, s.current = phase, 0 if phase == "setup" else 1, current
    if scores:
        s.scores.update(scores)
    G.check_invariants(s)
    return s


def act(s: GomState, player: str, key: str, text: str | None = None):
    out = G.apply(s, player, key, text)
    G.check_invariants(out.state)
    return out.state, out.events


def roll(s: GomState, face: int, player: str | None = None):
    """Roll the d10 showing `face` for the current player."""
    s.rng.script(face)
    return act(s, player or s.player, "roll")


def keys(s: GomState, player: str) -> list[str]:
    return [a.key for a in G.legal_actions(s, player)]


# ---------------------------------------------------------------------------------------------
# setup and the turn

def test_setup_deals_ten_and_everyone_places_at_once():
    s = G.setup(["a", "b", "c"], {}, 7)
    assert all(len(h) == 10 for h in s.hands.values()) and len(s.deck) == 170
    assert sorted(G.to_act(s)) == ["a", "b", "c"]
    acts = G.legal_actions(s, "b")
    assert any(a.key == "done" for a in acts)
    assert all(a.private for a in acts if a.key.startswith("set:"))
    # no realm yet: only Locations may be placed
    placed = [a for a in acts if a.key.startswith("set:")]
    assert all(s.suit(a.key.split(":")[1]).value == "location" for a in placed)


def test_setup_three_cards_then_first_player_roll():
    s = board(players=("a", "b"), hands={"a": ["L01", "E01", "D01", "O01"], "b": ["A01"]}, phase="setup")
    s.setup_done = []
    s, _ = act(s, "a", "set:L01:new")
    s, _ = act(s, "a", "set:E01:r0")
    assert "a" in G.to_act(s)
    s, _ = act(s, "a", "set:D01:on.E01")
    assert G.to_act(s) == ["b"], "three cards placed: done automatically"
    assert s.domains["a"][0].cards[1].descriptors == ["D01"]
    s, events = act(s, "b", "done")
    rolls = [e for e in events if e.kind == "first_roll"]
    assert rolls and "goes first" in rolls[-1].text
    assert s.phase in ("play", "discard") and s.turn == 1
    assert any(e.kind == "draw" for e in events)


def test_first_player_ties_are_rerolled():
    for seed in range(200):
        s = board(players=("a", "b", "c", "d"), hands={}, phase="setup", seed=seed)
        s.setup_done = ["a", "b", "c"]
        s, events = act(s, "d", "done")
        rolls = [e for e in events if e.kind == "first_roll"]
        if len(rolls) > 1:
            assert "roll again" in rolls[0].text
            tied = [p for p, v in rolls[0].data["rolls"].items() if v == max(rolls[0].data["rolls"].values())]
            assert sorted(rolls[1].data["rolls"]) == sorted(tied)
            return
    raise AssertionError("no tie in 200 seeds")


def test_draw_phase_over_the_hand_limit_asks_what_to_discard():
    hand = ["A01", "A02", "A03", "A04", "A05", "A06", "A07", "A08", "A09", "A10"]
    s = board(hands={"a": ["L01"], "b": hand}, realms={"a": [["L02"]]}, phase="play", deck_top=("O10",))
    s, _ = act(s, "a", "play.card:L01")
    s, _ = act(s, "a", "play.to:r0")
    s, _ = roll(s, 4)  # Inspiration for a, then b's turn: b draws to 11
    assert s.player == "b" and s.phase == "discard" and len(s.hands["b"]) == 11
    acts = G.legal_actions(s, "b")
    assert all(a.private and a.key.startswith("disc:") for a in acts) and len(acts) == 11
    s, _ = act(s, "b", "disc:A01")
    assert s.phase == "play" and len(s.hands["b"]) == 10 and s.discard[-1] == "A01"


def test_play_phase_new_realm_needs_a_location_and_back_works():
    s = board(hands={"a": ["E05", "L03"]}, phase="play")
    # no realm yet: only a Location can be played, and only to a new realm: one step
    [only] = G.legal_actions(s, "a")
    assert only.key == "play:L03:new" and only.label == "Start a new realm with Circus (L3)" and only.private
    s, events = act(s, "a", "play:L03:new")
    assert s.phase == "roll" and s.domains["a"][0].cards[0].card == "L03" and s.building is None
    assert any(e.kind == "card_played" for e in events)
    # a card with several places takes two steps, and Back undoes the first
    s = board(hands={"a": ["E05", "L03"]}, realms={"a": [["L01"]]}, phase="play")
    assert keys(s, "a") == ["play:E05:r0", "play.card:L03"]
    s, _ = act(s, "a", "play.card:L03")
    assert keys(s, "a") == ["play.to:new", "play.to:r0", "play.back"]
    s, _ = act(s, "a", "play.back")
    s, _ = act(s, "a", "play.card:L03")
    s, _ = act(s, "a", "play.to:new")
    assert s.phase == "roll" and s.domains["a"][1].cards[0].card == "L03"


def test_play_phase_pass_with_reason_when_nothing_fits():
    s = board(hands={"a": ["E05"]}, phase="play")
    [only] = G.legal_actions(s, "a")
    assert only.key == "pass" and "Location" in only.label
    s, _ = act(s, "a", "pass")
    assert s.phase == "roll"


# ---------------------------------------------------------------------------------------------
# the Magic Table

def test_roll_event_names_the_result():
    s = board(hands={"a": ["E05"]}, realms={"a": [["L01"]]})
    s, events = roll(s, 1)
    [e] = [e for e in events if e.kind == "magic_roll"]
    assert e.data["face"] == 1 and e.data["name"] == "Creation"
    assert s.step == "creation"


def test_creation_plays_one_or_two_cards():
    s = board(hands={"a": ["E05", "L03", "O02"]}, realms={"a": [["L01"]]})
    s, _ = roll(s, 1)
    assert "fin" not in keys(s, "a"), "at least one card first"
    s, _ = act(s, "a", "play.card:L03")
    s, _ = act(s, "a", "play.to:new")
    assert s.step == "creation" and "fin" in keys(s, "a")
    s, _ = act(s, "a", "play.card:E05")
    s, _ = act(s, "a", "play.to:r1")
    assert s.player == "b", "two cards played: the turn ends"
    assert [p.card for p in s.domains["a"][1].cards] == ["L03", "E05"]


def test_creation_finish_after_one_and_pass_with_empty_hand():
    s = board(hands={"a": ["E05"]}, realms={"a": [["L01"]]})
    s, _ = roll(s, 1)
    s, _ = act(s, "a", "play:E05:r0")
    assert keys(s, "a") == ["fin"]
    s, _ = act(s, "a", "fin")
    assert s.player == "b"
    s = board(hands={"a": []}, realms={"a": [["L01"]]})
    s, _ = roll(s, 1)
    [p] = G.legal_actions(s, "a")
    assert p.key == "pass" and "empty" in p.label


def test_transformation_replaces_any_card_by_same_suit_and_keeps_descriptors():
    s = board(hands={"a": ["E01", "O05"]}, realms={"a": [["L01"]], "b": [["L10", ("E10", ["D09"])]]})
    s, _ = roll(s, 2)
    ks = keys(s, "a")
    assert "transform.target:E10" in ks and "transform.target:L10" not in ks, "only suits held in hand"
    assert all(a.group for a in G.legal_actions(s, "a")), "targets in play are a select menu"
    s, _ = act(s, "a", "transform.target:E10")
    assert [a.key for a in G.legal_actions(s, "a") if a.private] == ["transform.with:E01", "transform.back"]
    s, events = act(s, "a", "transform.with:E01")
    placed = s.domains["b"][0].cards[1]
    assert placed.card == "E01" and placed.descriptors == ["D09"]
    assert s.discard[-1] == "E10" and "E01" not in s.hands["a"]
    assert any(e.kind == "transformation" for e in events)


def test_transformation_of_a_descriptor_and_pass_without_matching_suit():
    s = board(hands={"a": ["D01"]}, realms={"b": [[("L10", ["D10"])]]})
    s, _ = roll(s, 2)
    s, _ = act(s, "a", "transform.target:D10")
    s, _ = act(s, "a", "transform.with:D01")
    assert s.domains["b"][0].cards[0].descriptors == ["D01"]
    s = board(hands={"a": ["O01"]}, realms={"b": [["L10"]]})
    s, _ = roll(s, 2)
    [p] = G.legal_actions(s, "a")
    assert p.key == "pass" and "suit" in p.label


def test_destruction_takes_descriptors_along_and_owner_may_draw():
    s = board(realms={"a": [["L01"]], "b": [["L10", ("E10", ["D09", "D08"])]]}, deck_top=("O07",))
    s, _ = roll(s, 3)
    s, _ = act(s, "a", "kill:E10")
    assert sorted(s.discard[-3:]) == ["D08", "D09", "E10"]
    assert s.phase == "owner_draw" and G.to_act(s) == ["b"]
    assert G.legal_actions(s, "a") == []
    s, _ = act(s, "b", "draw:yes")
    assert s.hands["b"][0] == "O07" and len(s.hands["b"]) == 2, "its draw, then b's own turn draw"
    assert s.player == "b"


def test_destruction_of_the_last_location_makes_a_realm_of_imagination():
    s = board(realms={"b": [["L10", "E10"], ["L05"]]})
    s, _ = roll(s, 3)
    s, _ = act(s, "a", "kill:L10")
    s, _ = act(s, "b", "draw:no")
    from rules.gods_of_magic.scoring import is_imagination, realm_value
    realm = s.domains["b"][0]
    assert is_imagination(s, realm) and realm_value(s, realm) == 0
    s2 = board(realms={"b": [["L10"], ["L05"]]})
    s2, _ = roll(s2, 3)
    s2, _ = act(s2, "a", "kill:L10")
    assert len(s2.domains["b"]) == 1, "a realm with no card left is gone"


def test_destruction_with_nothing_in_play_is_a_pass():
    s = board()
    s, _ = roll(s, 3)
    [p] = G.legal_actions(s, "a")
    assert p.key == "pass" and "no card" in p.label
    s, _ = act(s, "a", "pass")
    assert s.player == "b"


def test_inspiration_two_cards_or_five_with_a_small_hand():
    s = board(hands={"a": ["A01", "A02", "A03"]})
    s, _ = roll(s, 4)
    assert len(s.hands["a"]) == 5
    s = board(hands={"a": ["A01", "A02"]})
    s, _ = roll(s, 4)
    assert len(s.hands["a"]) == 7


def test_inspiration_with_a_full_hand_goes_over_ten_until_the_next_draw_phase():
    hand = [f"A{i:02d}" for i in range(1, 11)]
    s = board(hands={"a": hand})
    s, _ = roll(s, 4)
    assert len(s.hands["a"]) == 12 and s.player == "b"


def test_transmigration_moves_a_card_with_its_descriptors_to_any_realm():
    s = board(realms={"a": [["L01"]], "b": [["L10", ("E10", ["D09"])]]})
    s, _ = roll(s, 5)
    s, _ = act(s, "a", "move.card:E10")
    ks = keys(s, "a")
    assert "move.to:0.0" in ks and "move.to:1.0" not in ks, "not to its own realm"
    s, _ = act(s, "a", "move.to:0.0")
    moved = s.domains["a"][0].cards[1]
    assert moved.card == "E10" and moved.descriptors == ["D09"]
    assert [p.card for p in s.domains["b"][0].cards] == ["L10"]


def test_transmigration_of_a_descriptor_and_of_a_last_card():
    s = board(realms={"a": [["L01"]], "b": [[("L10", ["D09"])]]})
    s, _ = roll(s, 5)
    s, _ = act(s, "a", "move.card:D09")
    s, _ = act(s, "a", "move.to:on.L01")
    assert s.domains["a"][0].cards[0].descriptors == ["D09"]
    s = board(realms={"a": [["L01"]], "b": [["L10"]]})
    s, _ = roll(s, 5)
    s, _ = act(s, "a", "move.card:L10")
    s, _ = act(s, "a", "move.to:0.0")
    assert s.domains["b"] == [] and len(s.domains["a"][0].cards) == 2


def test_transmigration_without_another_realm_is_a_pass():
    s = board(realms={"a": [["L01", "E01"]]})
    s, _ = roll(s, 5)
    [p] = G.legal_actions(s, "a")
    assert p.key == "pass" and "realm" in p.label


def test_alteration_scores_the_descriptor_and_its_card_at_once():
    s = board(hands={"a": ["D10"]}, realms={"a": [["L01", "E07"]]})
    s, _ = roll(s, 6)
    assert "skip" in keys(s, "a")
    s, _ = act(s, "a", "play.card:D10")
    s, events = act(s, "a", "play.to:on.E07")
    assert s.scores["a"] == 17
    assert s.domains["a"][0].cards[1].descriptors == ["D10"]


def test_alteration_without_a_playable_descriptor_offers_only_the_neutral_skip():
    # no reason given: "no Descriptor in hand" on the public table would tell the hand
    s = board(hands={"a": ["E01"]}, realms={"a": [["L01"]]})
    s, _ = roll(s, 6)
    [p] = G.legal_actions(s, "a")
    assert p.key == "skip" and p.label == "Play no Descriptor" and not p.private
    s = board(hands={"a": ["D01"]})
    s, _ = roll(s, 6)
    [p] = G.legal_actions(s, "a")
    assert p.key == "skip"
    s, events = act(s, "a", "skip")
    assert s.player == "b" and any(e.kind == "pass" for e in events)


def test_recombination_rearranges_and_keeps_the_hand_size():
    s = board(hands={"a": ["E05"]}, realms={"a": [["L01", "O09"], ["L02", ("E01", ["D01"])]]})
    s, _ = roll(s, 7)
    assert "rc:done" in keys(s, "a")
    s, _ = act(s, "a", "recombine.card:E01")
    assert "recombine.to:new" not in keys(s, "a") and "recombine.to:r0" in keys(s, "a"), "no new realm"
    s, _ = act(s, "a", "recombine.to:hand")
    assert sorted(s.hands["a"]) == ["D01", "E01", "E05"]
    assert "rc:done" not in keys(s, "a"), "the hand must end the same size"
    # how many cards are still to put back is said on the table (hand sizes are public)
    assert G.view(s, None).prompt.endswith("2 cards still to put back from the hand.")
    s, _ = act(s, "a", "recombine.card:E05")
    s, _ = act(s, "a", "recombine.to:r1")
    assert G.view(s, None).prompt.endswith("1 card still to put back from the hand.")
    s, _ = act(s, "a", "recombine.card:O09")
    s, _ = act(s, "a", "recombine.to:r1")
    assert len(s.domains["a"][0].cards) == 1
    assert "rc:done" not in keys(s, "a")
    s, _ = act(s, "a", "recombine.card:D01")
    s, _ = act(s, "a", "recombine.to:on.O09")
    assert "back to its size" in G.view(s, None).prompt
    s, _ = act(s, "a", "rc:done")
    assert sorted(s.hands["b"] + s.hands["a"])  # the turn moved on
    assert s.player == "b" and s.hands["a"] == ["E01"]
    assert [p.card for p in s.domains["a"][1].cards] == ["L02", "E05", "O09"]


def test_recombination_ends_after_its_free_moves():
    s = board(realms={"a": [["L01", "O09"], ["L02"]]})
    s, _ = roll(s, 7)
    for _ in range(12):
        s, _ = act(s, "a", "recombine.card:O09")
        s, _ = act(s, "a", "recombine.to:r1" if s.locate("O09")[1] == 0 else "recombine.to:r0")
    assert keys(s, "a") == ["rc:done"]


def test_evocation_plays_the_drawn_card_at_once():
    s = board(realms={"a": [["L01"]]}, deck_top=("E09",))
    s, _ = roll(s, 8)
    assert keys(s, "a") == ["play.to:r0"], "it must be played, no going back"
    s, _ = act(s, "a", "play.to:r0")
    assert s.domains["a"][0].cards[1].card == "E09"


def test_evocation_card_that_fits_nowhere_stays_in_hand():
    s = board(deck_top=("E09",))
    s, events = roll(s, 8)
    assert "E09" in s.hands["a"] and s.player == "b"
    assert any(e.kind == "evocation_kept" for e in events)


def test_visitation_scores_everyone_with_complete_and_imagination_realms():
    complete = ["L10", "A10", "E10", ("O10", ["D10"])]
    s = board(realms={"a": [complete, ["E01", "O01"]], "b": [["L01", "A02"]]}, deck_top=("O05",),
              scores={"a": 5})
    s, events = roll(s, 9)
    assert "O05" in s.hands["a"], "Visitation draws a card first"
    assert s.scores == {"a": 5 + 50 + 10, "b": 3}
    assert any(e.kind == "visitation" for e in events)


def test_visitation_win_check_the_higher_score_wins():
    s = board(realms={"a": [["L10"]], "b": [["L09", "E09"]]}, scores={"a": 195, "b": 190})
    s, _ = roll(s, 9)
    r = G.result(s)
    assert r is not None and r.winners == ["b"] and r.scores == {"a": 205.0, "b": 208.0}
    assert "⟨b⟩" in r.summary


def test_exact_tie_shares_the_victory_and_short_game_target():
    s = board(realms={"a": [["L10"]], "b": [["L09", "E01"]]}, scores={"a": 95, "b": 95},
              options={"target": "100"})
    s, _ = roll(s, 9)
    r = G.result(s)
    assert sorted(r.winners) == ["a", "b"] and "share" in r.summary


def test_imagination_chooses_any_other_result():
    s = board(realms={"a": [["L10"]]})
    s, events = roll(s, 10)
    ks = keys(s, "a")
    assert ks == [f"magic:{n}" for n in range(1, 10)]
    s, events = act(s, "a", "magic:9")
    assert s.scores["a"] == 10
    assert any(e.kind == "imagination" for e in events)


def test_exhausted_deck_reshuffles_once_then_ends_with_a_last_scoring():
    s = board(realms={"a": [["L10"]], "b": [["L09"]]})
    s.discard, s.deck = s.deck[:-2], s.deck[-2:]
    s, _ = roll(s, 4)  # a draws the last 2 cards; b's draw reshuffles the discard pile
    assert s.reshuffled and s.player == "b" and s.phase in ("play", "discard")
    s.discard += s.deck
    s.deck = []
    s.phase = "roll"
    s, events = roll(s, 4, "b")
    assert any(e.kind == "exhausted" for e in events)
    r = G.result(s)
    assert r is not None and r.winners == ["a"] and r.tags["end"] == "deck"


# ---------------------------------------------------------------------------------------------
# storytelling

def test_storytelling_on_asks_for_a_line_and_posts_it():
    s = board(hands={"a": ["E05"]}, realms={"a": [["L01"]]}, phase="play", options={"storytelling": "on"})
    [t] = [x for x in G.legal_actions(s, "a") if x.key == "play:E05:r0"]  # one place: one step
    assert t.text_prompt and not t.text_required
    s2, events = act(s, "a", "play:E05:r0", "Witches dance in the volcano.")
    assert any(e.kind == "story" and "Witches" in e.text for e in events)
    s3, events = act(s, "a", "play:E05:r0")  # a skipped line is fine unless strict
    assert not any(e.kind == "story" for e in events)
    s = board(hands={"a": ["L05"]}, realms={"a": [["L01"]]}, phase="play", options={"storytelling": "on"})
    [a] = [x for x in G.legal_actions(s, "a") if x.key == "play.card:L05"]
    assert a.text_prompt is None, "choosing the card changes no realm yet"


def _strict_move():
    s = board(players=("a", "b", "c"), hands={"a": ["E05", "O05"]}, realms={"a": [["L01"]]},
              phase="play", options={"storytelling": "strict"})
    [t] = [x for x in G.legal_actions(s, "a") if x.key == "play:E05:r0"]
    assert t.text_required
    with pytest.raises(IllegalAction):
        G.apply(s, "a", "play:E05:r0")
    s, _ = act(s, "a", "play:E05:r0", "Witches brew in the volcano.")
    return s


def test_strict_storytelling_majority_objection_undoes_the_move():
    s = _strict_move()
    assert sorted(G.to_act(s)) == ["b", "c"] and G.phase_timeout(s) == 60
    assert s.domains["a"][0].cards[-1].card == "E05", "the move shows while the others decide"
    assert G.auto_action(s, "b", Rng(seed=0)).key == "obj:no"
    s, _ = act(s, "b", "obj:yes")
    s, events = act(s, "c", "obj:yes")
    assert any(e.kind == "objection_upheld" for e in events)
    assert G.to_act(s) == ["a"] and "E05" in s.hands["a"] and len(s.domains["a"][0].cards) == 1
    # E05 had only one place to go: that place, and so that card, are ruled out this turn
    assert keys(s, "a") == ["play:O05:r0"] and G.phase_timeout(s) is None


def test_strict_objection_rules_out_only_the_chosen_spot_when_others_remain():
    s = board(players=("a", "b"), hands={"a": ["L05"]}, realms={"a": [["L01"]]}, phase="play",
              options={"storytelling": "strict"})
    s, _ = act(s, "a", "play.card:L05")
    s, _ = act(s, "a", "play.to:new", "A lake appears.")
    s, _ = act(s, "b", "obj:yes")
    assert s.building == Building(verb="play", args={"card": "L05"})
    assert keys(s, "a") == ["play.to:r0", "play.back"]


def test_strict_storytelling_the_move_stands_without_a_majority():
    s = _strict_move()
    s, _ = act(s, "b", "obj:yes")
    s, events = act(s, "c", "obj:no")
    assert any(e.kind == "objection_rejected" for e in events)
    assert s.objection is None and s.phase == "roll" and G.to_act(s) == ["a"]


# ---------------------------------------------------------------------------------------------
# views

def test_views_never_show_another_hand_and_ignore_the_deck_order():
    s = G.setup(["a", "b", "c"], {}, 11)
    for p in ("a", "b", "c"):
        s, _ = act(s, p, "done")
    for viewer in (None, "a", "b"):
        v = G.view(s, viewer)
        text = v.model_dump_json()
        for other in ("a", "b", "c"):
            if other != viewer:
                assert not any(f'"id":"{c}"' in text for c in s.hands[other])
        shuffled = s.model_copy(deep=True)
        shuffled.deck = list(reversed(shuffled.deck))
        assert G.view(shuffled, viewer) == v
    assert G.view(s, None).hand is None
    assert [c.id for c in G.view(s, "a").hand] == s.hands["a"]


def test_state_round_trips_through_json():
    s = board(hands={"a": ["E05"]}, realms={"a": [["L01", ("E01", ["D01"])]]}, phase="play",
              options={"storytelling": "strict"})
    s, _ = act(s, "a", "play:E05:r0", "A line.")
    assert G.load_state(G.dump_state(s)) == s


def test_a_state_saved_with_pending_cards_loads_as_the_move_being_built():
    """States saved before the step plans kept the chosen card as `pending` and spelled the
    moves an objection ruled out with the old keys."""
    s = board(hands={"a": ["E05", "O05"]}, realms={"a": [["L01"], ["L02"]]}, phase="play",
              options={"storytelling": "strict"})
    s, _ = act(s, "a", "play.card:E05")
    data = json.loads(G.dump_state(s))
    del data["building"]
    data["pending"], data["forbidden"] = ["E05"], ["1/play//E05|to:r0", "1/play//|play:O05"]
    old = G.load_state(json.dumps(data))
    assert old.building == s.building
    assert old.forbidden == ["1/play//E05|play.to:r0", "1/play//|play.card:O05"]
    assert keys(old, "a") == ["play.to:r1", "play.back"]


def test_rules_pages_state_the_tie_and_exhausted_deck_rules():
    text = "\n".join(p.body for p in G.rules_pages())
    assert "tie" in text.lower() and "deck runs out" in text
    assert all(len(p.body) <= 4000 for p in G.rules_pages())


def test_strict_objection_to_a_recombination_restores_its_start():
    s = board(realms={"a": [["L01", "O09"], ["L02"]]}, options={"storytelling": "strict"})
    s, _ = roll(s, 7)
    s, _ = act(s, "a", "recombine.card:O09")
    s, _ = act(s, "a", "recombine.to:r1")
    s, _ = act(s, "a", "rc:done", "The boulder rolls downhill.")
    s, events = act(s, "b", "obj:yes")
    assert any(e.kind == "objection_upheld" for e in events)
    assert [[p.card for p in r.cards] for r in s.domains["a"]] == [["L01", "O09"], ["L02"]]
    assert keys(s, "a") == ["rc:done"], "the table refused the rearrangement: only leaving it as it was"
    s, _ = act(s, "a", "rc:done")
    assert s.player == "b"


# ---------------------------------------------------------------------------------------------
# the automatic player

def _auto(s, player="a"):
    return G.auto_action(s, player, Rng(seed=0)).key


def test_auto_player_completes_a_realm():
    s = board(hands={"a": ["O01", "E10"]}, realms={"a": [["L05", "A05", ("E05", ["D05"])]]}, phase="play")
    assert _auto(s) == "play:O01:r0"  # a single place: one step
    s = board(hands={"a": ["O01", "E10"]}, realms={"a": [["L05", "A05", ("E05", ["D05"])], ["L02"]]},
              phase="play")
    assert _auto(s) == "play.card:O01"
    s, _ = act(s, "a", "play.card:O01")
    assert _auto(s) == "play.to:r0"


def test_auto_player_destroys_the_leaders_best_card():
    s = board(players=("a", "b", "c"), realms={"a": [["L01"]], "b": [["L09", "E10", "A02"]],
                                                "c": [["L10", "E09", "A03"]]}, scores={"b": 150, "c": 20})
    s, _ = roll(s, 3)
    assert _auto(s) == "kill:L09", "the leader's Location takes the whole realm's value with it"


def test_auto_player_scores_at_a_visitation_when_ahead_after_imagination():
    s = board(realms={"a": [["L10", "E10"]], "b": [["L01"]]})
    s, _ = roll(s, 10)
    assert _auto(s) == "magic:9"


def test_auto_player_beats_random_players():
    wins = 0
    for seed in range(10):
        s = G.setup(["auto", "rnd"], {"target": "100"}, seed)
        rng = Rng(seed=seed)
        while G.result(s) is None:
            p = G.to_act(s)[0]
            a = G.auto_action(s, p, rng) if p == "auto" else rng.choice(G.legal_actions(s, p))
            s = G.apply(s, p, a.key).state
        wins += "auto" in G.result(s).winners
    assert wins >= 7


def test_a_descriptors_play_names_the_card_it_attaches_to():
    s = board(hands={"a": ["D07"]}, realms={"a": [["L01", "E02"]]})
    s, _ = roll(s, 6)
    s, _ = act(s, "a", "play.card:D07")
    s, events = act(s, "a", "play.to:on.E02")
    [played] = [e for e in events if e.kind == "card_played"]
    assert "attaches" in played.text and s.cards["E02"].short in played.text
    assert s.cards["D07"].short in played.text
    # a Descriptor with a single host: one step, named in the label too
    s = board(hands={"a": ["D07"]}, realms={"a": [["L01"]]})
    s, _ = roll(s, 6)
    [one, skip] = G.legal_actions(s, "a")
    assert one.key == "play:D07:on.L01" and s.cards["L01"].short in one.label and one.private
    assert skip.key == "skip" and not skip.private
    s, events = act(s, "a", one.key)
    assert s.domains["a"][0].cards[0].descriptors == ["D07"]
    assert any(e.kind == "card_played" and s.cards["L01"].short in e.text for e in events)


def test_a_card_whose_every_place_was_objected_to_is_ruled_out_with_the_ways_out_still_offered():
    """Strict storytelling, an Alteration: the table objects to both places of the picked
    Descriptor. Skip stays offered throughout (the table reads the same while a card is picked),
    so the card itself must be ruled out when only Back and Skip are left; otherwise Back and
    the same pick again were an endless loop for the automatic player."""
    from rules.core import Rng

    s = board(players=("a", "b"), hands={"a": ["D10", "E01"]}, realms={"a": [["L01", "E07"]]},
              options={"storytelling": "strict"})
    s, _ = roll(s, 6)
    s, _ = act(s, "a", "play.card:D10")
    for _ in range(2):
        to = [k for k in keys(s, "a") if k.startswith("play.to:")][0]
        s, _ = act(s, "a", to, "A line.")
        s, _ = act(s, "b", "obj:yes")
    assert s.building is None and keys(s, "a") == ["skip"]
    a = G.auto_action(s, "a", Rng(seed=1))
    s = G.apply(s, "a", a.key).state
    assert G.to_act(s) != ["a"]  # the automatic player ends the Alteration at once


def test_an_objection_to_a_recombination_finished_with_a_card_picked_still_holds():
    """Strict storytelling: Finish the Recombination pressed while a card of the hand was picked
    (it stays offered on the table then). The upheld objection restores the Recombination's start
    and leaves only Finish, as when nothing was picked."""
    for pick in (False, True):
        s = board(hands={"a": ["E05"]}, realms={"a": [["L01", "O09"], ["L02"]]},
                  options={"storytelling": "strict"})
        s, _ = roll(s, 7)
        s, _ = act(s, "a", "recombine.card:O09")
        s, _ = act(s, "a", "recombine.to:r1")
        if pick:
            s, _ = act(s, "a", "recombine.card:E05")
            assert s.building is not None and "rc:done" in keys(s, "a")
        s, _ = act(s, "a", "rc:done", "The boulder rolls downhill.")
        assert s.objection is not None and "E05" not in s.objection.context
        s, events = act(s, "b", "obj:yes")
        assert any(e.kind == "objection_upheld" for e in events)
        assert [[p.card for p in r.cards] for r in s.domains["a"]] == [["L01", "O09"], ["L02"]]
        assert keys(s, "a") == ["rc:done"], pick


def test_an_evocation_objected_to_everywhere_ends_in_a_pass_not_another_card():
    """Strict storytelling: the card of an Evocation is the game's choice. When the table objects
    to every place for it, the god passes (it is not ruled out so that any other card of the hand
    could be played instead)."""
    for seed in range(400):
        s = G.start(["a", "b", "c"], {"storytelling": "strict"}, seed).state
        rng = Rng(seed=seed)
        for _ in range(3000):
            if G.result(s) is not None:
                break
            p = G.to_act(s)[0]
            if s.objection is None and s.phase == "magic" and s.step == "evoke" and s.building is not None:
                while places := [k for k in keys(s, p) if k.startswith("play.to:")]:
                    s = G.apply(s, p, places[0], "a story").state
                    while s.objection is not None:
                        s = G.apply(s, s.objection.voters[len(s.objection.objections) + len(s.objection.stands)],
                                    "obj:yes").state
                assert keys(s, p) == ["pass"], seed
                return
            a = G.auto_action(s, p, rng)
            s = G.apply(s, p, a.key, "a story" if a.text_prompt else None).state
    pytest.fail("no Evocation in 400 games")
