"""Shortcuts of By Gods and Kings that give the long way's answer: events made by hand, the
seat to act found without a set, a character's stats keyed without the party, options and
actions made once."""

from __future__ import annotations

import pytest

from rules.by_gods_and_kings import GAME as BGK
from rules.by_gods_and_kings import cards, plans, stats, turn
from rules.by_gods_and_kings import events as bgk_events
from rules.by_gods_and_kings.gear import Loadout
from rules.by_gods_and_kings.state import BgkState, Hero
from rules.core import Action, Rng
from rules.core.steps import Option
from tests.support.playout import automatic_positions


def _events(players: int, seed: int, steps: int = 600):
    s = BGK.setup([f"p{i}" for i in range(players)], {}, seed)
    chooser, noise = Rng(seed=seed), Rng(seed=seed + 5)
    out = []
    for _ in range(steps):
        if BGK.result(s) is not None:
            break
        p = noise.choice(BGK.acting(s))
        if p in BGK.to_act(s) and noise.randint(0, 3):
            key = BGK.auto_action(s, p, chooser).key
        else:
            key = noise.choice(BGK.legal_actions(s, p)).key
        done = BGK.apply(s, p, key)
        out += done.events
        s = done.state
    return out


def test_events_made_by_hand_are_the_validated_ones(monkeypatch):
    fast = [e for seed in range(2) for e in _events(4, seed)]
    kinds = {e.kind for e in fast}
    assert {"hit", "turn", "card_played", "target_picked", "ability", "status"} <= kinds
    monkeypatch.setattr(bgk_events.Said, "told", classmethod(lambda cls, text, **data: cls(**data).event(text)))
    slow = [e for seed in range(2) for e in _events(4, seed)]
    assert len(fast) == len(slow)
    for a, b in zip(fast, slow, strict=True):
        assert a == b and type(a) is type(b)
        assert a.model_fields_set == b.model_fields_set
        assert type(a.data) is dict and [type(v) for v in a.data.values()] == [type(v) for v in b.data.values()]
    typed = {t.kind: t for t in bgk_events.Said.__subclasses__()}
    for e in fast:
        if e.kind in typed:  # the data reads back as its type, and nothing else is in it
            assert typed[e.kind].of(e).model_dump(mode="json") == e.data


def test_an_events_data_is_its_own():
    field = ["Ah", "2h"]
    e = bgk_events.CardPlayed.told("text", unit="c0", card="2h", field=field)
    field.append("3h")
    assert e.data["field"] == ["Ah", "2h"]
    with pytest.raises(KeyError):
        bgk_events.Hit.told("text", source="c0", target="e0", raw=1, dealt=1)  # a field missing


def _to_act_long_way(s: BgkState) -> list[str]:
    if s.phase == "over":
        return []
    if s.phase in ("play", "resolve", "deploy", "npc"):
        assert s.actor is not None
        seats = {s.seat_of(s.actor)}
    elif s.phase == "enemy":
        assert s.intent is not None
        seats = {s.seat_of(s.intent.target)}
    else:
        return BGK.to_act(s)  # the other phases take the long way themselves
    return [p for p in s.players if p in seats]


def test_the_seat_to_act_is_the_long_ways():
    checked = 0
    for players in (1, 3, 8):
        for s in automatic_positions(BGK, players, range(2), 300):
            assert BGK.to_act(s) == _to_act_long_way(s)
            checked += s.phase in ("play", "resolve", "enemy")
    assert checked > 300


# --- stats keyed without the party ---------------------------------------------------------------
def _mates_matter(s: BgkState) -> list[Hero]:
    out = []
    for hero in s.party:
        asked = {x for sid in hero.equipped for b in s.cat.shards[sid].bonuses for x in b.ally_shard}
        if asked:
            out.append(hero)
    return out


def test_a_characters_stats_follow_the_shards_of_its_mates():
    s = next(iter(automatic_positions(BGK, 8, range(1), 1)))
    cat = s.cat
    asking = next(sid for sid, sh in cat.shards.items() if any(b.ally_shard for b in sh.bonuses))
    wanted = next(b.ally_shard for b in cat.shards[asking].bonuses if b.ally_shard)
    hero, mate = s.party[0].model_copy(deep=True), s.party[1].model_copy(deep=True)
    hero.equipped, hero.id = [asking], "c0"
    results = set()
    for mate_shards in ([], [wanted[0]], ["nothing-asked"], [wanted[-1]]):
        mate.equipped = mate_shards
        party = [hero, mate]
        long_way = stats._hero_base(cat, hero, frozenset(mate_shards))
        assert stats.hero_base(cat, hero, party) == long_way
        results.add(long_way)
    assert len(results) == 2, "a mate's shard changes nothing: the test proves nothing"


def test_stats_with_mates_match_the_long_way_in_played_games():
    seen = 0
    for s in automatic_positions(BGK, 8, range(4), 120):
        for hero in _mates_matter(s):
            others = frozenset(sid for h in s.party if h.id != hero.id for sid in h.equipped)
            assert stats.hero_base(s.cat, hero, s.party) == stats._hero_base(s.cat, hero, others)
            seen += 1
    assert seen > 20


def test_the_stats_key_reads_every_field_of_a_loadout():
    assert set(Loadout.model_fields) == {"main", "off", "body", "head"}


# --- options and actions made once -----------------------------------------------------------------
def test_play_options_are_the_long_ways_and_each_caller_gets_its_own_list():
    checked = 0
    for s in automatic_positions(BGK, 3, range(2), 300):
        if s.phase != "play":
            continue
        hero = s.hero(s.actor or "")
        cards_ = [Option(value=c, label=f"Play {cards.name(c)}") for c in dict.fromkeys(hero.hand)]
        outs = ([Option(value="none", label="The Field has room")] if len(hero.field) < cards.FIELD_SIZE
                else [Option(value=c, label=f"Push {cards.name(c)} off the Field") for c in dict.fromkeys(hero.field)])
        got = turn.play_options(s, "card", {})
        assert got == cards_ and turn.play_options(s, "out", {}) == outs
        got.append(Option(value="x", label="x"))
        assert turn.play_options(s, "card", {}) == cards_
        checked += 1
    assert checked > 50


def test_an_action_made_once_is_the_one_made_the_long_way():
    first = plans.made("atk:e0", "Hit it", group="Basic attack")
    assert first == Action(key="atk:e0", label="Hit it", group="Basic attack")
    assert first.model_fields_set == {"key", "label", "group"}
    assert plans.made("atk:e0", "Hit it", group="Basic attack") is first
    other = plans.made("atk:e0", "Hit it", style="primary")
    assert other is not first and other == Action(key="atk:e0", label="Hit it", style="primary")
