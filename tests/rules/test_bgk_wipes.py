"""By Gods and Kings wipes at tables whose characters are saved records that set out from a
camp (issue 29, items 1, 2 and 7): no card is dealt twice after any number of wipes, a new
attempt gets a new opening hand, the last wipe sends the characters home as they set out (no
loot from the lost run), a lost scenario gives no experience; and checked playouts that start
from saved characters."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from rules.by_gods_and_kings import GAME as G
from rules.by_gods_and_kings import cards, flow
from rules.by_gods_and_kings.campaign import Character, new_character
from rules.by_gods_and_kings.catalogue import cached_catalogue
from rules.by_gods_and_kings.effects import lose
from rules.by_gods_and_kings.state import BgkState
from rules.core import Event, Rng
from rules.core.state import independent_copy

CAT = cached_catalogue()


def _records(kits: list[list[str]]) -> dict[str, list[BaseModel]]:
    """Seat p{i} brings one saved character per kit id in kits[i]."""
    return {f"p{i}": [new_character(CAT, f"{k.title()}{i}", k) for k in ks] for i, ks in enumerate(kits)}


def _set_out(kits: list[list[str]], seed: int, options: dict[str, str] | None = None) -> BgkState:
    """A table of saved characters (no hireling unless `options` asks), everyone ready in the
    camp before setting out."""
    players = [f"p{i}" for i in range(len(kits))]
    s = G.start(players, {"party": "1", **(options or {})}, seed, records=_records(kits)).state
    assert s.phase == "camp"
    for p in players:
        s = G.apply(s, p, "ready").state
    assert s.battle is not None and s.phase == "opening"
    return s


def _wipe(s: BgkState) -> BgkState:
    """Every character falls in the battle being fought; the game goes on to the next attempt."""
    s = independent_copy(s)
    events: list[Event] = []
    for h in s.living_heroes():
        lose(s, h, h.hp, events, "a test")
    assert flow.battle_over(s, events)
    return s


def _decks_whole(s: BgkState) -> None:
    G.check_invariants(s)  # among others: every card of the decks exists exactly once
    assert s.count_cards() == s.decks * cards.DECK_SIZE


def test_the_party_that_sets_out_from_a_camp_is_kept_without_its_opening_hands():
    s = _set_out([["gilbert"], ["pierre"]], seed=4, options={"party": "4"})  # two hirelings too
    assert all(h.hand for h in s.party), "the opening hands are dealt"
    assert [h.hand for h in s.origin] == [[]] * 4 and [h.field for h in s.origin] == [[]] * 4
    assert [h.id for h in s.origin] == [h.id for h in s.party]


@pytest.mark.parametrize("kits,decks", [([["gilbert"]], 1), ([["gilbert", "helga"], ["pierre", "osric"]], 2)])
def test_no_card_is_duplicated_after_any_number_of_wipes_from_a_camp(kits, decks):
    s = _set_out(kits, seed=7, options={"attempts": "5"})
    assert s.decks == decks
    _decks_whole(s)
    for attempt in range(2, 6):
        s = _wipe(s)
        assert s.attempt == attempt and s.phase in ("opening", "play", "order", "enemy", "resolve")
        _decks_whole(s)
        assert all(len(h.hand) <= cards.HAND_LIMIT for h in s.party)


def test_a_new_attempt_is_dealt_from_the_new_shuffle_not_the_old_opening_hands():
    s = _set_out([["gilbert", "helga"], ["pierre", "osric"]], seed=11, options={"attempts": "3"})
    first = [list(h.hand) for h in s.party]
    again = _wipe(s)
    assert again.attempt == 2
    dealt = [list(h.hand) for h in again.party]
    assert dealt != first
    # every hand is drawn from the new draw pile (nothing else was dealt in between)
    assert sum(len(h) for h in dealt) + len(again.deck) + len(again.discard) == again.decks * cards.DECK_SIZE


def test_a_state_whose_starting_party_kept_its_hands_is_restarted_without_them():
    """States saved before the fix kept the opening hands in `origin`: the restart drops them."""
    s = _set_out([["gilbert", "helga"], ["pierre", "osric"]], seed=3, options={"attempts": "2"})
    old = independent_copy(s)
    old.origin = [independent_copy(h) for h in s.party]  # the hands kept, as before the fix
    _decks_whole(_wipe(old))


def _play_until(s: BgkState, seed: int, battle: bool) -> BgkState:
    """Play the automatic party on until its next camp (a battle won), or with `battle` until
    the next battle is being fought."""
    chooser = Rng(seed=seed)
    for _ in range(G.max_steps):
        if (s.battle is not None if battle else s.phase == "camp") or G.result(s) is not None:
            return s
        p = G.acting(s)[0]
        s = G.apply(s, p, G.auto_action(s, p, chooser).key).state
    raise AssertionError("the game never got there")


def _camp_after_first_battle(s: BgkState, seed: int) -> BgkState:
    return _play_until(s, seed, battle=False)


def test_the_last_wipe_sends_the_characters_home_as_they_set_out_without_the_loot():
    s = _set_out([["gilbert", "helga"], ["pierre", "osric"]], seed=5, options={"attempts": "1"})
    set_out = {h.id: (h.loadout, list(h.bag), list(h.shards), list(h.equipped), dict(h.shard_xp))
               for h in s.origin}
    s = _camp_after_first_battle(s, seed=5)
    assert s.phase == "camp" and s.battles_won == 1
    s.stash = [*s.stash, "leather-cap", "fine-sword"]
    for p, key in (("p0", "claim:leather-cap:c0"), ("p1", "claim:fine-sword:c2")):
        s = G.apply(s, p, key).state
    assert "leather-cap" in s.party[0].bag and "fine-sword" in s.party[2].bag
    for p in s.players:
        s = G.apply(s, p, "ready").state
    s = _play_until(s, seed=6, battle=True)
    assert s.battle is not None and "leather-cap" in s.party[0].bag
    s = _wipe(s)
    assert G.result(s) is not None and s.outcome == "defeat"
    _decks_whole(s)
    assert s.stash == []
    for h in s.party:
        assert (h.loadout, h.bag, h.shards, h.equipped, h.shard_xp) == set_out[h.id], h.name
    out = G.records_out(s)
    backs = [c for cs in out.values() for c in cs]
    assert len(backs) == 4
    for back in backs:
        assert isinstance(back, Character)
        assert "leather-cap" not in back.bag and "fine-sword" not in back.bag
        assert back.shard_xp == {}, "a lost scenario gives no experience"
        assert back.adventures == 1 and back.cleared == {}


def test_a_lost_scenario_gives_no_experience_even_with_battles_won():
    s = _set_out([["gilbert"]], seed=5, options={"attempts": "1"})
    s = _camp_after_first_battle(s, seed=5)
    assert s.battles_won >= 1
    for p in s.players:
        s = G.apply(s, p, "ready").state
    s = _play_until(s, seed=6, battle=True)
    assert s.battle is not None
    events: list[Event] = []
    s = independent_copy(s)
    for h in s.living_heroes():
        lose(s, h, h.hp, events, "a test")
    flow.battle_over(s, events)
    assert s.outcome == "defeat"
    assert not [e for e in events if e.kind == "experience"]
    assert all(h.shard_xp == {} for h in s.party)


# --- checked playouts from saved characters ------------------------------------------------------
TABLES = [
    ("hollow-barrow", "1", [["gilbert"]], 0), ("hollow-barrow", "1", [["helga"]], 1),
    ("kobold-warren", "1", [["gilbert", "helga"], ["pierre", "osric"]], 2),
    ("sallow-fen", "auto", [["wilma"], ["pierre"]], 3), ("hollow-barrow", "1", [["gilbert", "osric"]], 4),
    ("hollow-barrow", "1", [["pierre"], ["osric"]], 5),
    ("hollow-barrow", "1", [["helga"]], 6),  # the stronger automatic player wipes less: one more table
]
"""(scenario, party option: "1" for the characters brought alone, "auto" adds hirelings, kits
per seat, seed)."""


def _checked_playout(scenario: str, party: str, kits: list[list[str]], seed: int) -> tuple[BgkState, int]:
    players = [f"p{i}" for i in range(len(kits))]
    s = G.start(players, {"party": party, "scenario": scenario, "attempts": "3"}, seed,
                records=_records(kits)).state
    chooser = Rng(seed=seed * 31 + 1)
    wipes = 0
    for _ in range(G.max_steps):
        G.check_invariants(s)
        assert G.load_state(G.dump_state(s)) == s
        if G.result(s) is not None:
            return s, wipes
        p = chooser.choice(G.acting(s))
        legal = G.legal_actions(s, p)
        act = chooser.choice(legal) if chooser.randint(0, 9) == 0 else G.auto_action(s, p, chooser)
        before = s.attempt
        s = G.apply(s, p, act.key).state
        wipes += s.attempt > before
    raise AssertionError("the game never ended")


def test_playouts_from_saved_characters_keep_every_card_through_their_wipes():
    wiped = 0
    for scenario, party, kits, seed in TABLES:
        final, wipes = _checked_playout(scenario, party, kits, seed)
        wiped += wipes
        if final.outcome == "defeat":
            assert all(h.shard_xp == {} for h in final.party)
        out = [c for cs in G.records_out(final).values() for c in cs]
        assert len(out) == sum(len(k) for k in kits)
    assert wiped >= 4, "the tables must go through wipes"
