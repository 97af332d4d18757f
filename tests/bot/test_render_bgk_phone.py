"""By Gods and Kings' table read on a phone (400 px wide): whose turn, what just happened and what
I may do at a glance, one short line per unit, the details in the picture (drawn again only when
what it shows changed) or in the player's private view; the route vote tells what the map shows
of each way; no internal key reaches a player; a reaction's card is chosen in private."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot import table
from bot.kept import Kept
from bot.models import Seat, Session
from bot.render import by_gods_and_kings as bgk
from bot.render.base import RenderContext
from bot.render.panel import to_text
from rules.by_gods_and_kings import GAME
from rules.by_gods_and_kings.content import BattleStep, SaveStep
from rules.by_gods_and_kings.view import RouteView
from rules.core import Rng

PLAYERS = ["a", "b"]
"""Two people, two characters each."""
PHONE_PX = 1600
"""The tallest a mid-game table may be at 400 px (issue 27)."""
TEXT_CHARS = 44
"""Characters of embed text in a line at 400 px."""


def session_of(state, version: int = 7) -> Session:
    session = Session(
        id=1, guild_id=10, channel_id=20, game_id="by-gods-and-kings", status="active", host_id=1000,
        options={}, seats=[Seat(position=i, player_id=p, name=f"Player {i + 1}", user_id=1000 + i)
                           for i, p in enumerate(PLAYERS)],
        state_json=None, version=version, created_at=0.0, updated_at=0.0, table_channel_id=20,
        table_message_id=30)
    session.set_state(state)
    return session


def playout(seed: int = 3, steps: int = 400) -> list:
    """(state, events of the move that made it) along a seeded game of automatic moves."""
    s = GAME.setup(PLAYERS, {"party": "4"}, seed)
    rng = Rng(seed=1)
    out: list[tuple] = [(s, [])]
    for _ in range(steps):
        if GAME.result(s) is not None:
            break
        p = rng.choice(GAME.to_act(s))
        o = GAME.apply(s, p, GAME.auto_action(s, p, rng).key)
        s = o.state
        out.append((s, o.events))
    return out


@pytest.fixture(scope="module")
def game() -> list:
    return playout()


def mid_combat(game: list):
    """A state of the second round of the last battle or later, a character to act, every enemy
    still standing."""
    picks = [(s, e) for s, e in game if s.battle is not None and s.foes and s.battle.round >= 2
             and s.phase in ("play", "resolve") and len(s.party) == 4 and all(f.hp > 0 for f in s.foes)]
    assert picks, "the seeded game reaches a second round"
    return picks[len(picks) // 3]


def phone_lines(text: str) -> int:
    return sum(max(1, -(-len(line) // TEXT_CHARS)) for line in text.split("\n"))


def measure(payload: table.Payload) -> dict[str, int]:
    """Lines, fields, menus and the estimated height at 400 px (issue 27: a line about 20 px, a
    field name 22, a row of buttons or a menu 50, the picture at 400 px wide)."""
    kw = payload.send_kwargs()
    lines = phone_lines(kw["content"]) if kw["content"] else 0
    fields = 0
    for embed in kw["embeds"]:
        d = embed.to_dict()
        lines += 1 + (phone_lines(d["description"]) if d.get("description") else 0) + ("footer" in d)
        for f in d.get("fields", []):
            fields += 1
            lines += phone_lines(f["value"])
    picture = 0
    for f in kw.get("files", []):
        image = Image.open(io.BytesIO(f.fp.getvalue()))
        picture += round(image.height * 400 / image.width)
    rows = payload.view.to_components() if payload.view is not None else []
    menus = sum(1 for r in rows for c in r["components"] if c["type"] == 3)
    height = lines * 20 + fields * 22 + len(rows) * 50 + picture
    return {"lines": lines, "fields": fields, "menus": menus, "rows": len(rows), "height": height}


def test_a_mid_combat_table_reads_in_a_glance(game):
    s, events = mid_combat(game)
    payload = table.table_payload(session_of(s), events)
    embed = payload.panels[0]
    view = GAME.view(s, None)
    assert [f.name for f in embed.fields] == [f"Enemies ({len(view.foes)})", "Party"]
    enemies, party = (f.value.split("\n") for f in embed.fields)
    assert len(enemies) == len(view.foes) and len(party) == len(view.party) + len(view.npcs) == 4
    for line, unit in zip(party, view.party, strict=True):
        assert line.count(unit.name) == 1 and f"{unit.hp}/{unit.max_hp} HP" in line
        assert "hand" not in line and "Field" not in line and "DEF" not in line  # details: DM, picture
    actor = s.unit(s.actor).name
    assert sum(line.startswith("▶ ") for line in enemies + party) == 1
    assert embed.description.startswith(f"{actor}: ") and f"**{actor}**" in embed.description.split("\n")[1]
    assert len(embed.description.split("\n")) <= 3 and "Objective" not in embed.description
    size = measure(payload)
    assert size["height"] < PHONE_PX and size["lines"] <= 30 and size["fields"] <= 3 and size["menus"] <= 2, size


def test_the_terminal_shows_what_the_picture_shows(game):
    s, _ = mid_combat(game)
    text = to_text(bgk.ByGodsAndKingsRenderer(GAME).table(GAME.view(s, None), RenderContext())[0])
    assert "[image" not in text
    view = GAME.view(s, None)
    for foe in view.foes:
        assert f"{foe.name}: Field " in text and "fires at " + ", ".join(foe.abilities) in text


def test_the_private_view_has_the_details_of_my_characters_only(game):
    s, _ = mid_combat(game)
    dm = to_text(table.private_payload(session_of(s), "a").panels[0])
    mine = [h for h in s.party if h.seat == "a"]
    assert dm.startswith(f"== Your characters ({len(mine)}) ==")
    for h in s.party:
        assert (f"-- {h.name}\n" in dm) == (h.seat == "a")
    assert "hand " in dm and "DEF " in dm and "enemy targets: " in dm
    one = GAME.setup(["a"], {"party": "1"}, 3)
    assert to_text(bgk.ByGodsAndKingsRenderer(GAME).private(GAME.view(one, "a"), RenderContext())).startswith(
        "== Your character ==")


INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b|\(0/\d+\)|\(\d+/1\)|·\s*·|·\s*\(|·\s*$|^\s*·|\.;|⟨[^⟩]*…")


def test_no_internal_text_over_a_whole_game(game):
    """No snake_case key (`mini_boss`), no empty or repeated title part, no step counter of a
    place with one step, no '.;', no reference cut inside."""
    renderer = bgk.ByGodsAndKingsRenderer(GAME)
    seen_ranks = set()
    for s, events in game[::3]:
        session = session_of(s)
        payload = table.table_payload(session, events)
        texts = [payload.text(), *(table.private_payload(session, p).text() for p in PLAYERS)]
        for text in texts:
            for line in text.split("\n"):
                assert not INTERNAL.search(line), line
        view = GAME.view(s, None)
        title = renderer.table(view, RenderContext())[0].title
        parts = title.split(" · ")
        assert all(parts) and len(parts) == len(set(parts)), title
        assert view.area == view.scenario or parts[1] == view.area
        seen_ranks |= {f.rank for f in view.foes}
    assert "mini boss" in seen_ranks and "boss" in seen_ranks


def test_a_title_numbers_the_steps_of_a_place_that_has_several(game):
    several = next(s for s, _ in game if len(s.area_def.steps) > 1 and s.step < len(s.area_def.steps))
    view = GAME.view(several, None)
    assert bgk.title(view).endswith(f" ({several.step + 1}/{len(several.area_def.steps)})")
    assert bgk.title(view.model_copy(update={"steps": 1})) == " · ".join(
        dict.fromkeys(x for x in (view.scenario, view.area, view.step_name) if x))


def test_the_route_vote_tells_what_the_map_shows_of_each_way_and_nothing_more(game):
    s, events = next((s, e) for s, e in game if s.phase == "route")
    areas = s.scenario_def.areas
    payload = table.table_payload(session_of(s), events)
    field = next(f for f in payload.panels[0].fields if f.name == "Where next?")
    lines = field.value.split("\n")
    assert len(lines) == len(s.area_def.next)
    for line, aid in zip(lines, s.area_def.next, strict=True):
        beyond = areas[aid].next
        assert line.startswith(f"➡ **{areas[aid].name}**")
        assert ("then " + " or ".join(areas[x].name for x in beyond)) in line if beyond else "the last place" in line
    text = payload.panels[0].model_dump_json()
    for aid in s.area_def.next:  # what waits there is not on the map
        for step in areas[aid].steps:
            assert step.name not in text
            if isinstance(step, BattleStep):
                assert all(s.cat.enemies[e.enemy].name not in field.value for e in step.enemies)
            if isinstance(step, SaveStep):
                assert step.save not in field.value
        assert areas[aid].text not in text


def test_a_way_with_a_rest_and_the_last_place_say_so():
    view = GAME.view(GAME.setup(["a"], {"party": "1"}, 3), None).model_copy(update={"routes": [
        RouteView(id="x", name="The Camp", leads_to=["The Lair"], rest=True, votes=["a"]),
        RouteView(id="y", name="The Lair", ends=True)]})
    text = bgk.routes_text(view, RenderContext(names={"a": "Ada"}))
    assert text == ("➡ **The Camp**: a place to rest, then The Lair · voted by Ada\n"
                    "➡ **The Lair**: the last place")


def reaction_being_built(game: list):
    """A state where a seat has picked a Discard ability and is to choose the card among
    several, and that seat."""
    for s, _ in game:
        for p in PLAYERS:
            for a in GAME.legal_actions(s, p):
                if not a.key.startswith("use.ability:"):
                    continue
                after = GAME.apply(s, p, a.key).state
                cards = [x for x in GAME.legal_actions(after, p) if x.key.startswith("use.card:")]
                if len(cards) > 1:
                    return s, after, p
    raise AssertionError("no reaction with a choice of cards in the seeded game")


def menu_labels(view) -> list[str]:
    labels = []
    for row in view.to_components() if view is not None else []:
        for c in row["components"]:
            labels += [c.get("placeholder") or c.get("label") or ""]
            labels += [o["label"] for o in c.get("options", [])]
    return labels


def test_spending_a_card_is_chosen_in_the_owners_private_view_not_on_the_table(game):
    before, s, owner = reaction_being_built(game)
    session = session_of(s)
    on_table = menu_labels(table.table_view(session))
    in_dm = menu_labels(table.private_payload(session, owner).view)
    assert "Spend which card" not in on_table and "Back" not in on_table
    assert "Spend which card" in in_dm and "Back" in in_dm
    spend = [a.label for a in GAME.legal_actions(s, owner) if a.key.startswith("use.card:")]
    assert spend and all(x not in on_table for x in spend) and all(x in in_dm for x in spend)
    other = next(p for p in PLAYERS if p != owner)
    assert not any(x in menu_labels(table.private_payload(session, other).view) for x in spend)
    # the ability itself is still offered on the table, where the whole party sees the blow coming
    assert any(a.key.startswith("use.ability:") for a in table.public_actions(session_of(before)))


def counting(monkeypatch) -> dict[str, int]:
    drawn = {"pictures": 0, "units": 0}
    real_picture, real_cell = bgk.draw_battlefield, bgk._cell

    def picture(*key):
        drawn["pictures"] += 1
        return real_picture(*key)

    def cell(unit):
        drawn["units"] += 1
        return real_cell(unit)

    monkeypatch.setattr(bgk, "draw_battlefield", picture)
    monkeypatch.setattr(bgk, "_cell", cell)
    bgk.BATTLEFIELDS.clear()
    bgk.CELLS.clear()
    return drawn


def test_the_picture_is_drawn_again_only_when_what_it_shows_changed(game, monkeypatch):
    drawn = counting(monkeypatch)
    renderer = bgk.ByGodsAndKingsRenderer(GAME)
    before, s, _ = reaction_being_built(game)
    first = renderer.table(GAME.view(before, None), RenderContext())[0].image_png
    assert drawn == {"pictures": 1, "units": len(before.foes) + len(before.party) + len(before.npcs)}
    # a reaction being built, and a hand that changed: nothing the picture shows
    assert renderer.table(GAME.view(s, None), RenderContext())[0].image_png == first
    other = before.model_copy(deep=True)
    other.party[0].hand = other.party[0].hand[:-1]
    assert renderer.table(GAME.view(other, None), RenderContext())[0].image_png == first
    assert drawn["pictures"] == 1
    # one enemy hurt: a new picture, in which only that enemy is drawn again
    hurt = before.model_copy(deep=True)
    hurt.foes[0].hp -= 1
    assert renderer.table(GAME.view(hurt, None), RenderContext())[0].image_png != first
    assert drawn["pictures"] == 2 and drawn["units"] == len(before.foes) + len(before.party) + len(before.npcs) + 1


def test_a_whole_game_draws_a_picture_per_battlefield_shown(game, monkeypatch):
    drawn = counting(monkeypatch)
    monkeypatch.setattr(bgk, "BATTLEFIELDS", Kept(size=len(game)))  # none forgotten
    renderer = bgk.ByGodsAndKingsRenderer(GAME)
    shown = set()
    for s, _ in game:
        view = GAME.view(s, None)
        renderer.table(view, RenderContext())
        key = bgk.picture_key(view)
        if key is not None:
            shown.add(key)
    assert drawn["pictures"] == len(shown) < 0.9 * len(game)


def test_the_picture_is_phone_sized_and_its_text_readable(game, monkeypatch):
    sizes: list[int] = []
    real = bgk.font
    def recorded(size: int):
        sizes.append(size)
        return real(size)

    monkeypatch.setattr(bgk, "font", recorded)
    bgk.BATTLEFIELDS.clear()
    bgk.CELLS.clear()
    bgk._palette.cache_clear()
    s, _ = mid_combat(game)
    png = bgk.ByGodsAndKingsRenderer(GAME).table(GAME.view(s, None), RenderContext())[0].image_png
    assert png is not None
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == 400 and image.height <= 500
    assert sizes and min(sizes) >= 12  # px at 400 px wide


def test_no_picture_out_of_battle(game):
    s, _ = next((s, e) for s, e in game if s.phase == "camp")
    panel = bgk.ByGodsAndKingsRenderer(GAME).table(GAME.view(s, None), RenderContext())[0]
    assert panel.image_png is None and not any(f.name.startswith("Enemies") for f in panel.fields)
    party = next(f for f in panel.fields if f.name == "Party")
    assert len(party.value.split("\n")) == len(s.party) + len(s.npcs)
    assert "**Objective**" in panel.description  # told in camp and at a fork, not in battle


def test_a_units_line_names_two_statuses_and_the_private_view_explains_each():
    from rules.by_gods_and_kings.view import StatusView

    burn, poison, stun = (StatusView(kind="burn", amount=3, turns=2), StatusView(kind="poison", amount=5, turns=1),
                          StatusView(kind="stun", amount=0, turns=1))
    assert bgk.explained(burn) == "🔥burn: DEF lowered by 3 (2 turns)"
    assert bgk.explained(poison) == "☠poison: loses 5 HP at the start of each turn (1 turn)"
    s = GAME.setup(["a"], {"party": "1"}, 3)
    hero = GAME.view(s, "a").party[0].model_copy(update={"statuses": [burn, poison, stun]})
    line = bgk.unit_line(hero, True, RenderContext(names={"a": "Ada"}))
    assert line == f"▶ **{hero.name}** (Ada) · {hero.hp}/{hero.max_hp} HP · 🔥burn 3 · ☠poison 5 · +1 more"
    assert bgk.unit_line(hero.model_copy(update={"hp": 0}), False, RenderContext()) == f"**{hero.name}** (a) · fallen"
    details = bgk.unit_text(hero, False).split("\n")
    assert details[2:5] == [bgk.explained(burn), bgk.explained(poison), "💫stun: draws no card (1 turn)"]


def test_the_rules_say_where_the_card_of_a_reaction_is_chosen_and_what_a_vote_shows():
    text = "\n".join(p.body for p in GAME.rules_pages())
    assert "the card it spends and its aim are chosen in your own view" in text
    assert "The vote tells what the map shows of each way" in text
