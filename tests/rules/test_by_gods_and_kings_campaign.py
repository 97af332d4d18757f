"""By Gods and Kings campaign: saved characters brought into a game (several per person), free
kits for new ones, hirelings, a shard once per game, experience for equipped shards only, loot
kept, and the character sheet."""

from __future__ import annotations

from rules.by_gods_and_kings import GAME as G
from rules.by_gods_and_kings.campaign import CLEAR_BONUS, Character, award_experience, new_character
from rules.by_gods_and_kings.catalogue import cached_catalogue
from rules.by_gods_and_kings.levels import shard_level
from rules.by_gods_and_kings.state import BgkState
from rules.core import Rng

CAT = cached_catalogue()


def play_out(s: BgkState, seed: int = 0) -> BgkState:
    chooser = Rng(seed=seed)
    for _ in range(G.max_steps):
        if G.result(s) is not None:
            return s
        p = chooser.choice(G.to_act(s))
        s = G.apply(s, p, G.auto_action(s, p, chooser).key).state
    raise AssertionError("the scenario never ended")


def test_a_character_made_from_a_kit_wears_and_carries_the_kit():
    c = new_character(CAT, "Ada", "gilbert")
    kit = CAT.characters[0]
    assert (c.kit, c.loadout.main, c.loadout.off, c.shards, c.equipped) == \
        ("gilbert", kit.main, kit.offhand, list(kit.shards), list(kit.equipped))


def test_the_party_is_the_characters_brought_in_seat_order_then_hirelings():
    ada = new_character(CAT, "Ada", "helga")
    bo = new_character(CAT, "Bo", "osric")
    cy = new_character(CAT, "Cy", "pierre")
    out = G.start(["a", "b"], {"party": "5"}, 1, records={"a": [ada, bo], "b": [cy]})
    party = out.state.party
    assert [(h.name, h.seat, h.template, h.record) for h in party[:3]] == [
        ("Ada", "a", "helga", "Ada"), ("Bo", "a", "osric", "Bo"), ("Cy", "b", "pierre", "Cy")]
    # two hirelings with kits nobody brought, dealt round the seats, kept by nobody
    assert [(h.template, h.record) for h in party[3:]] == [("gilbert", None), ("wilma", None)]
    assert [h.seat for h in party[3:]] == ["b", "a"]
    assert all(h.hp > 0 for h in party)


def test_more_characters_than_the_party_option_all_come():
    chars = [new_character(CAT, f"C{i}", k.id) for i, k in enumerate(CAT.characters[:3])]
    s = G.start(["a"], {"party": "1"}, 1, records={"a": chars}).state
    assert [h.name for h in s.party] == ["C0", "C1", "C2"]


def test_a_new_character_takes_the_first_kit_nobody_in_the_party_uses():
    s = G.start(["a", "b"], {"party": "2"}, 1,
                records={"a": [new_character(CAT, "Ada", "gilbert")], "b": [G.new_record("bob")]}).state
    assert [(h.name, h.template) for h in s.party] == [("Ada", "gilbert"), ("bob", "pierre")]
    assert s.party[1].shards == list(CAT.characters[1].shards)


def test_a_shard_exists_once_the_later_character_sets_it_aside_and_gets_it_back():
    first = new_character(CAT, "First", "gilbert")
    second = new_character(CAT, "Second", "gilbert")
    out = G.start(["a", "b"], {"party": "2"}, 1, records={"a": [first], "b": [second]})
    s = out.state
    a, b = s.party
    assert a.shards == ["flames", "bulwark"] and b.shards == [] and b.equipped == []
    assert b.aside == ["flames", "bulwark"] and b.aside_equipped == ["flames", "bulwark"]
    assert [e.kind for e in out.events].count("shard_aside") == 2
    G.check_invariants(s)
    back = G.records_out(s)["b"][0]
    assert isinstance(back, Character)
    assert back.shards == ["flames", "bulwark"] and back.equipped == ["flames", "bulwark"]


def test_only_equipped_shards_gain_experience_battles_won_plus_the_clear_bonus():
    ada = new_character(CAT, "Ada", "helga")  # mercy and maji, both equipped
    ada = ada.model_copy(update={"equipped": ["maji"], "shard_xp": {"maji": 1}})
    s = G.start(["a"], {"party": "4"}, 3, records={"a": [ada]}).state
    s.battles_won = 3
    s.phase, s.outcome = "over", "victory"
    events = []
    award_experience(s, events)
    hero = s.party[0]
    assert hero.shard_xp == {"maji": 1 + 3 + CLEAR_BONUS}
    assert "mercy" not in hero.shard_xp
    assert any(e.kind == "experience" and "Ada" in e.text for e in events)


def test_a_whole_scenario_hands_back_experience_loot_and_the_past():
    ada = new_character(CAT, "Ada", "gilbert")
    s = G.start(["a"], {"party": "4"}, 5, records={"a": [ada]}).state
    s = play_out(s, seed=5)
    assert s.phase == "over"
    won = s.battles_won
    assert won >= 1
    out = G.records_out(s)
    back = out["a"][0]
    assert isinstance(back, Character) and len(out["a"]) == 1  # hirelings are nobody's
    won_it = s.outcome == "victory"  # a lost scenario gives no experience (issue 29)
    assert back.shard_xp == ({sid: won + CLEAR_BONUS for sid in s.party[0].equipped} if won_it else {})
    assert back.adventures == 1
    assert back.cleared == ({s.scenario: 1} if s.outcome == "victory" else {})
    # the record goes into a second game as JSON and keeps its experience
    again = Character.model_validate_json(back.model_dump_json())
    s2 = G.start(["a"], {"party": "4"}, 6, records={"a": [again]}).state
    assert s2.party[0].shard_xp == back.shard_xp and s2.party[0].adventures == 1


def test_loot_claimed_in_camp_is_kept():
    ada = new_character(CAT, "Ada", "gilbert")
    s = G.start(["a"], {"party": "4"}, 5, records={"a": [ada]}).state
    s.stash = ["leather-cap"]
    s.phase, s.ready = "camp", []
    s = G.apply(s, "a", "claim:leather-cap:c0").state
    back = G.records_out(s)["a"][0]
    assert isinstance(back, Character) and "leather-cap" in back.bag


def test_a_loot_shard_someone_in_the_party_holds_does_not_drop_again():
    from rules.by_gods_and_kings import flow
    from tests.rules.test_by_gods_and_kings import battle_state

    for held in (False, True):
        s = battle_state(["kobold"])  # its loot is the Shard of Dawn
        if held:
            s.party[1].shards.append("dawn")
        assert s.battle is not None
        for f in s.battle.foes:
            f.hp = 0
        events: list = []
        flow.battle_over(s, events)
        dropped = [x for e in events if e.kind == "loot" for x in e.data["loot"]]
        assert dropped == ([] if held else ["dawn"])
        G.check_invariants(s)


def test_the_sheet_lists_stats_with_their_sources_gear_shards_and_levels():
    ada = new_character(CAT, "Ada", "gilbert").model_copy(update={"shard_xp": {"flames": 9}})
    sections = dict(G.describe_record(ada))
    assert set(sections) == {"Stats", "Equipment", "Shards", "Bag", "Adventures"}
    assert "Gilbert's kit" in sections["Stats"] and "Rusty Sword" in sections["Stats"]
    level = shard_level(CAT, "flames", 9)
    assert level > 1
    assert f"Shard of Flames: level {level}, 9 experience (equipped)" in sections["Shards"]


def test_kits_are_offered_and_an_unknown_kit_is_refused():
    kinds = [k.value for k in G.record_kinds()]
    assert kinds == [k.id for k in CAT.characters]
    import pytest

    from rules.core import IllegalAction
    with pytest.raises(IllegalAction, match="no starting kit"):
        G.create_record("Ada", "nobody")


def test_saved_characters_re_equip_before_setting_out_and_a_wipe_keeps_that():
    ada = new_character(CAT, "Ada", "helga")  # mercy (+10 HP) and maji equipped
    out = G.start(["a", "b"], {"party": "2"}, 3, records={"a": [ada], "b": [G.new_record("bob")]})
    s = out.state
    assert s.phase == "camp" and s.battle is None and set(G.to_act(s)) == {"a", "b"}
    assert any(e.kind == "camp" for e in out.events)
    full = s.party[0].hp
    s = G.apply(s, "a", "unshard:c0:mercy").state
    s = G.apply(s, "a", "ready").state
    assert s.phase == "camp" and G.to_act(s) == ["b"]  # the scenario waits for everyone
    s = G.apply(s, "b", "ready").state
    assert s.battle is not None and s.visited == [s.scenario_def.start]
    hero = s.party[0]
    assert hero.equipped == ["maji"] and hero.hp == full - 10  # full health as re-equipped
    assert s.origin[0].equipped == ["maji"]  # a wipe starts over from the party as it left
    back = G.records_out(s)["a"][0]
    assert isinstance(back, Character) and back.equipped == ["maji"]


def test_the_reaction_menu_describes_an_ability_at_its_shards_level():
    from rules.by_gods_and_kings.reactions import use_options

    s = G.setup(["a"], {"party": "4"}, 3)  # Gilbert (c0) wears the Shard of the Bulwark
    hero = s.party[0]
    hero.hand = ["H5", "S9"]

    def brace() -> str:
        opts = use_options(s, "a", "ability", {})
        return next(o.description for o in opts if o.value == "c0.bulwark.discard")

    assert "6" in brace() and "10" not in brace()
    hero.shard_xp["bulwark"] = 15  # level 3: +2 power a level above the first
    assert shard_level(CAT, "bulwark", 15) == 3
    assert "10" in brace()
