"""Gods of Magic panels: the table embed within Discord's limits, the hand panel, the dice panel."""

from __future__ import annotations

from bot.render import RenderContext, get_renderer, to_text
from bot.render.panel import DESCRIPTION_MAX, FIELD_VALUE_MAX, FIELDS_MAX
from rules.core import Rng, who
from rules.gods_of_magic import GAME as G
from rules.gods_of_magic.state import Placed, Realm

R = get_renderer("gods-of-magic")


def _played(n: int, seed: int, steps: int):
    s = G.setup([f"p{i}" for i in range(n)], {}, seed)
    rng = Rng(seed=seed)
    events = []
    for _ in range(steps):
        if G.result(s):
            break
        p = G.to_act(s)[0]
        out = G.apply(s, p, G.auto_action(s, p, rng).key)
        s, events = out.state, events + out.events
    return s, events


def _size(panel) -> int:
    return len(panel.title) + len(panel.description) + len(panel.footer) + sum(
        len(f.name) + len(f.value) for f in panel.fields)


def test_table_shows_domains_marks_scores_counts_and_phase():
    s, _ = _played(3, 5, 40)
    s.domains["p0"] = [Realm(cards=[Placed(card=c) for c in ("E01",)])] + s.domains["p0"]
    for zone in (s.deck, s.discard, *s.hands.values(), *[
            [d for realm in rs for p in realm.cards for d in (p.card, *p.descriptors)]
            for o, rs in s.domains.items() if o != "p0"]):
        if "E01" in zone:
            zone.remove("E01")
    [panel] = R.table(G.view(s, None), RenderContext())
    text = to_text(panel)
    assert "💭 imagination" in text and "🐉 Pirates 1" in text
    assert f"Deck {len(s.deck)}" in text and f"discard {len(s.discard)}" in text
    assert who(s.player) in panel.description and "phase" in panel.description.lower()
    for p in s.players:
        assert any(who(p) in f.name and f"{s.scores[p]} VP" in f.name for f in panel.fields)


def test_complete_realm_is_marked():
    s, _ = _played(2, 3, 1)
    s.domains["p0"] = []
    s.deck = [c for c in s.deck if c not in ("L10", "A10", "E10", "D10", "O10")]
    for h in s.hands.values():
        h[:] = [c for c in h if c not in ("L10", "A10", "E10", "D10", "O10")]
    s.domains["p0"] = [Realm(cards=[Placed(card="L10"), Placed(card="A10"), Placed(card="E10", descriptors=["D10"]),
                                    Placed(card="O10")])]
    [panel] = R.table(G.view(s, None), RenderContext())
    assert "✅ complete" in to_text(panel) and "60 VP" in to_text(panel)


def test_eight_players_stay_within_discord_limits():
    for seed in range(3):
        s, _ = _played(8, seed, 250)
        [panel] = R.table(G.view(s, None), RenderContext())
        assert len(panel.fields) <= FIELDS_MAX and len(panel.description) <= DESCRIPTION_MAX
        assert all(len(f.value) <= FIELD_VALUE_MAX for f in panel.fields)
        assert _size(panel.named({f"p{i}": "N" * 32 for i in range(8)})) <= 6000


def test_private_panel_shows_only_the_own_hand():
    s, _ = _played(3, 9, 10)
    panel = R.private(G.view(s, "p1"), RenderContext())
    for c in s.hands["p1"]:
        assert s.cards[c].name in panel.description
    others = {s.cards[c].name for p in ("p0", "p2") for c in s.hands[p]} - {s.cards[c].name for c in s.hands["p1"]}
    assert not any(f" {name} " in panel.description + "\n" for name in others)


def test_dice_roll_gets_its_own_panel():
    s, events = _played(2, 4, 30)
    rolls = [e for e in events if e.kind == "magic_roll"]
    panels = R.events(events, RenderContext())
    assert rolls and len(panels) >= len(rolls)
    first = panels[0]
    assert rolls[0].data["name"] in first.title and rolls[0].data["effect"] in first.description
    assert R.events([e for e in events if e.kind != "magic_roll" and e.kind != "imagination"], RenderContext()) == []


def test_a_rule_text_is_told_once_per_move():
    """Two rolls of one move on the same face (or an Imagination and its roll): the second panel
    names the roll without repeating the rule."""
    s, events = _played(2, 4, 30)
    roll = next(e for e in events if e.kind == "magic_roll")
    first, second = R.events([roll, roll], RenderContext())
    effect = roll.data["effect"]
    assert effect in first.description and effect not in second.description
    assert "rolls" in second.description


def test_the_hand_title_counts_in_words():
    s, _ = _played(2, 4, 0)
    view = G.view(s, "p0")
    one = view.model_copy(update={"hand": view.hand[:1]})
    assert R.private(one, RenderContext()).title == "Your hand (1 card)"
    assert R.private(view, RenderContext()).title == f"Your hand ({len(view.hand)} cards)"
