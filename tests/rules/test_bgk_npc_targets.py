"""Issue 29 item 3: "Players will choose the NPCs target" (rulebook, NPCs). The target step of an
NPC's turn offers what the card played makes it do: a blow offers the foes, a heal of one ally
offers every living ally (characters and NPCs), an ability on a whole side offers that side at
once; the chosen one is the one touched. The automatic player aims a blow at the weakest foe
and a heal at the most wounded ally."""

from __future__ import annotations

import pytest

from rules.by_gods_and_kings import GAME as BGK
from rules.by_gods_and_kings.state import BgkState
from rules.by_gods_and_kings.stats import max_hp
from rules.core import Rng


def _npc_turn(npc: str, hand: list[str], field: list[str]) -> BgkState:
    """The first NPC turn of a seeded Hollow Barrow (Rook beside the party), its NPC made
    `npc` with this hand and Field."""
    s = BGK.setup(["p0"], {"scenario": "hollow-barrow", "party": "4"}, 0)
    chooser = Rng(seed=0)
    while s.phase != "npc":
        s = BGK.apply(s, "p0", BGK.auto_action(s, "p0", chooser).key).state
    s = s.model_copy(deep=True)
    unit = s.battle.npcs[0]
    unit.npc, unit.hand, unit.field = npc, hand, field
    unit.hp = min(unit.hp, max_hp(s, unit))
    return s


def _step(s: BgkState, key: str) -> BgkState:
    return BGK.apply(s, "p0", key).state


def _offered(s: BgkState) -> dict[str, str]:
    return {a.key: a.label for a in BGK.legal_actions(s, "p0") if a.key.startswith("npc.target:")}


def _wound(s: BgkState, uid: str, hp: int) -> None:
    s.unit(uid).hp = hp


def test_an_npc_heal_offers_every_living_ally_by_name_and_heals_the_one_chosen():
    # Brother Aldous: Blessed Candle (ally, heal 10 + Magic) at 15, Rebuke the Dead at 22
    s = _npc_turn("aldous", ["8h", "3c"], ["9s"])  # 9 + 8 = 17: Blessed Candle
    _wound(s, "c1", 5)
    _wound(s, "c3", 9)
    s.party[2].hp = 0  # a fallen character is no target
    s = _step(s, "npc.card:8h")
    offered = _offered(s)
    living = [u for u in s.peek_allies()]
    assert [k.split(":", 1)[1] for k in offered] == [u.id for u in living]
    assert "c2" not in {u.id for u in living} and "n0" in {u.id for u in living}
    for u in living:  # the label names the ally, never its id
        label = offered[f"npc.target:{u.id}"]
        assert u.name in label and "Blessed Candle" in label and u.id not in label.split()
    before = {u.id: u.hp for u in s.party}
    after = _step(s, "npc.target:c3")  # not the most wounded: the players' choice stands
    assert after.phase != "npc" or after.actor != "n0"
    assert after.party[3].hp > before["c3"]
    assert after.party[1].hp == before["c1"]


def test_an_npc_blow_offers_the_foes_and_strikes_the_one_chosen():
    s = _npc_turn("aldous", ["2h", "3c"], ["4s"])  # 4 + 2 = 6: a basic attack
    s = _step(s, "npc.card:2h")
    offered = _offered(s)
    foes = s.peek_foes()
    assert len(foes) > 1
    assert [k.split(":", 1)[1] for k in offered] == [f.id for f in foes]
    assert all(f.name in offered[f"npc.target:{f.id}"] for f in foes)
    last = foes[-1].id
    hp = {f.id: f.hp for f in foes}
    after = _step(s, f"npc.target:{last}")
    assert after.unit(last).hp < hp[last]
    assert all(after.unit(f).hp == h for f, h in hp.items() if f != last)


def test_an_npc_foe_ability_offers_the_foes():
    s = _npc_turn("rook", ["9h", "3c"], ["7s"])  # 7 + 9 = 16: Spade to the Knee (foe)
    s = _step(s, "npc.card:9h")
    offered = _offered(s)
    assert [k.split(":", 1)[1] for k in offered] == [f.id for f in s.peek_foes()]
    assert all("Spade to the Knee" in label for label in offered.values())


def test_an_npc_ability_on_a_whole_side_asks_no_target():
    s = _npc_turn("aldous", ["Kh", "3c"], ["9s", "3s"])  # 9 + 3 + 10 = 22: Rebuke the Dead (every foe)
    hp = {f.id: f.hp for f in s.peek_foes()}
    after = _step(s, "npc.card:Kh")  # its one target filled in by itself
    assert not (after.phase == "npc" and after.actor == "n0")
    assert all(after.unit(f).hp < h for f, h in hp.items())


@pytest.mark.parametrize("card, field, wounded, expected", [
    ("8h", ["9s"], {"c1": 5, "c3": 30}, "c1"),  # a heal: the most wounded (HP missing)
    ("8h", ["9s"], {"c0": 50, "c3": 40}, "c0"),  # 45 missing of 95, not the fewest HP left (c3)
])
def test_the_automatic_player_heals_the_most_wounded_ally(card, field, wounded, expected):
    s = _npc_turn("aldous", [card, "3c"], field)
    for uid, hp in wounded.items():
        _wound(s, uid, hp)
    s = _step(s, f"npc.card:{card}")
    pick = BGK.auto_action(s, "p0", Rng(seed=1))
    assert pick.key == f"npc.target:{expected}"


def test_the_automatic_player_aims_a_blow_at_the_weakest_foe():
    s = _npc_turn("aldous", ["2h", "3c"], ["4s"])
    foes = s.peek_foes()
    s.unit(foes[-1].id).hp = 1
    s = _step(s, "npc.card:2h")
    assert BGK.auto_action(s, "p0", Rng(seed=1)).key == f"npc.target:{foes[-1].id}"
