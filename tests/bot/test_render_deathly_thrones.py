"""The Deathly Thrones renderer: the run panel, the fight round, the end of a run."""

from __future__ import annotations

import rules
from bot.render import RenderContext, get_renderer, to_text
from bot.render.deathly_thrones import DeathlyThronesRenderer, track
from bot.render.panel import FIELD_VALUE_MAX
from rules.core import Card, Rng, Suit
from rules.deathly_thrones.combat import battle_cards
from rules.deathly_thrones.state import Fight

GAME = rules.get_game("deathly-thrones")
CTX = RenderContext(names={"p": "Ann"}, to_act=["p"])


def renderer():
    r = get_renderer("deathly-thrones")
    assert isinstance(r, DeathlyThronesRenderer)
    return r


def choosing_state():
    """The rulebook's weak defense: the Hero draws 1, the skeleton 9: 2 damage to place."""
    s = GAME.setup(["p"], {}, 1)
    mine, theirs = Card(rank=1, suit=Suit.CLUBS), Card(rank=9, suit=Suit.DIAMONDS)
    s.battle_deck = [x for x in battle_cards() if x not in (mine, theirs)] + [theirs, mine]
    card = next(x for x in s.step_deck if x.rank == 12)
    s.step_deck.remove(card)
    s.steps_drawn, s.position, s.visited, s.phase = [card], 3, [3], "fight"
    s.fight = Fight(step=3, enemy="Naked Skeleton", health=2, armor=1, start_health=2, start_armor=1)
    out = GAME.apply(s, "p", "battle")
    return out


def test_start_panel_shows_character_counters_and_track():
    view = GAME.view(GAME.setup(["p"], {"character": "dwarf"}, 2), None)
    panel = renderer().table(view, CTX)[0].named(CTX.names)
    fields = {f.name: f.value for f in panel.fields}
    assert "Ann" in fields["Character"] and "The Dwarf" in fields["Character"]
    assert "♥ **5**" in fields["Health"] and "♠ **3**" in fields["Armor"]
    assert "Step 0 of 40" in fields and fields["Step 0 of 40"].endswith("♛`")
    assert "Draw a step card" in panel.description and "Iron Throne" in panel.title


def test_fight_panel_shows_cards_powers_hits_and_the_choice():
    out = choosing_state()
    panel = renderer().table(GAME.view(out.state, None), CTX)[0]
    fight = next(f for f in panel.fields if f.name.startswith("⚔️ Naked Skeleton"))
    assert "**1**" in fight.value and "**9**" in fight.value
    assert "= **4**" in fight.value and "= **11**" in fight.value
    assert "7 hits on you" in fight.value and "**2 damage**" in fight.value
    assert "Choose" in fight.value
    events = renderer().events(out.events, CTX)
    assert len(events) == 1 and "round 1" in events[0].title
    assert "power 4" in events[0].description and "power 11" in events[0].description


def test_no_event_panel_without_battle_cards():
    s = GAME.setup(["p"], {}, 4)
    out = GAME.apply(s, "p", "step")
    if not any(e.kind == "battle" for e in out.events):
        assert renderer().events(out.events, CTX) == []


def test_private_is_the_table():
    view = GAME.view(choosing_state().state, "p")
    assert renderer().private(view, CTX) == renderer().table(view, CTX)[0]


def test_track_marks():
    s = GAME.setup(["p"], {}, 6)
    for _ in range(4):
        s = GAME.apply(s, "p", GAME.auto_action(s, "p", Rng(seed=1)).key).state
    line = track(GAME.view(s, None))
    assert len(line) == 42 and line.count("●") <= 1


def test_whole_runs_render_within_discord_limits():
    endings = set()
    for seed in range(8):
        s = GAME.setup(["p"], {"character": ["hero", "magician"][seed % 2]}, seed)
        chooser = Rng(seed=seed)
        while GAME.result(s) is None:
            out = GAME.apply(s, "p", GAME.auto_action(s, "p", chooser).key)
            s = out.state
            for panel in renderer().table(GAME.view(s, None), CTX) + renderer().events(out.events, CTX):
                assert len(panel.description) <= 4096
                assert all(len(f.value) <= FIELD_VALUE_MAX for f in panel.fields)
                assert len(panel.fields) <= 25
        text = to_text(renderer().table(GAME.view(s, None), CTX)[0].named(CTX.names))
        # how the run ended is the table's result panel's to say, once (bot/table.py)
        assert "throne is yours" not in text and "has fallen" not in text
        endings.add("won" if GAME.result(s).winners else "dead")
    assert endings == {"won", "dead"}
