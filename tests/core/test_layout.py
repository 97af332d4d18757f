"""Action -> component layout: within Discord's limits for any number of actions."""

import pytest

from bot.ui import ids
from bot.ui.layout import OPTIONS, action_view, plan, select_options
from rules.core import Action


def _actions(n_buttons: int, groups: dict[str, int]) -> list[Action]:
    out = [Action(key=f"b{i}", label=f"Button {i}") for i in range(n_buttons)]
    for g, n in groups.items():
        out += [Action(key=f"{g}{i}", label=f"{g} {i}", group=g) for i in range(n)]
    return out


@pytest.mark.parametrize("n_buttons,groups", [
    (0, {}), (3, {}), (24, {}), (40, {}), (2, {"a": 3}), (5, {"a": 30, "b": 2, "c": 7, "d": 1, "e": 9}),
    (12, {"a": 100}),
])
def test_views_fit_discord_limits(n_buttons, groups):
    acts = _actions(n_buttons, groups)
    view = action_view(7, 3, acts, hand_button=True)
    rows = view.to_components()
    assert len(rows) <= 5
    offered = set()
    for row in rows:
        comps = row["components"]
        assert len(comps) <= 5
        for c in comps:
            assert len(c["custom_id"]) <= ids.CUSTOM_ID_MAX
            if c["type"] == 3:
                assert len(comps) == 1 and len(c["options"]) <= OPTIONS
                offered |= {o["value"] for o in c["options"]}
            else:
                offered.add(c["custom_id"])
    # every action is reachable on the first page or through paging
    buttons, selects = plan(acts, extra_buttons=1)
    assert len(buttons) + sum(len(a) for _, a in selects) == len(acts)


def test_paging_walks_every_option():
    acts = _actions(0, {"a": 60})
    seen = []
    page = 0
    while True:
        opts = select_options(acts, page)
        seen += [o.value for o in opts if not o.value.startswith(ids.PAGE_PREFIX)]
        nxt = [o.value for o in opts if o.label.startswith("Next")]
        if not nxt:
            break
        page = int(nxt[0][len(ids.PAGE_PREFIX):])
    assert seen == [a.key for a in acts]


def test_groups_keep_their_order_and_buttons_stay_buttons():
    acts = _actions(2, {"a": 3, "b": 4})
    buttons, selects = plan(acts, extra_buttons=1)
    assert [a.key for a in buttons] == ["b0", "b1"]
    assert [(name, [a.key for a in group]) for name, group in selects] == [
        ("a", ["a0", "a1", "a2"]), ("b", ["b0", "b1", "b2", "b3"])]


def test_custom_ids_round_trip_and_reject_garbage():
    p = ids.parse(ids.action_id(12, 5, "play:L07"))
    assert (p.kind, p.session_id, p.version, p.key) == ("action", 12, 5, "play:L07")
    p = ids.parse(ids.select_id(12, 5, 1, 2))
    assert (p.kind, p.group, p.page) == ("select", 1, 2)
    assert ids.parse(ids.lobby_id(3, "start")).key == "start"
    for bad in ["pa:x:1:k", "pa:1:1:", "pl:1:explode", "zz:1", "pa:1:1:bad key"]:
        assert ids.parse(bad) is None


def test_merged_menus_name_each_group_once():
    """Seven groups in five rows: the last three merge into one menu, each label prefixed once
    with its own group's name (a group merged before is not prefixed again)."""
    acts = _actions(0, {g: 2 for g in "abcdefg"})
    _, selects = plan(acts)
    assert len(selects) == 5
    name, merged = selects[-1]
    assert name == "Other choices"
    assert [a.label for a in merged] == ["e: e 0", "e: e 1", "f: f 0", "f: f 1", "g: g 0", "g: g 1"]


def test_a_label_that_names_its_group_is_not_prefixed_again():
    acts = _actions(0, {g: 1 for g in "abcde"})
    acts += [Action(key="eq", label="Gilbert: equip Ember", group="Gilbert: shards and equipment")]
    _, selects = plan(acts)
    assert [a.label for a in selects[-1][1]] == ["e: e 0", "Gilbert: equip Ember"]
