"""Guilty Gods' labels: a skill's cost is never cut off, a card's kind is a word (its letter
would read as a sphere: D is divine), and a clipped label ends after a whole word."""

from __future__ import annotations

import re

from rules.core import Rng
from rules.core.text import clip_words
from rules.guilty_gods import GAME
from rules.guilty_gods.content import load_decks


def test_clip_words_ends_after_a_whole_word():
    text = "Sunroot Archer (card 1) (2 seals): +1 damage, restore 1 Gnosis at the end of the turn"
    clipped = clip_words(text, 80)
    assert len(clipped) <= 80 and clipped.endswith("end of…")
    assert clip_words("short", 80) == "short"


def test_every_skill_button_shows_its_whole_cost():
    seen = 0
    for seed in range(12):
        s = GAME.setup(["a", "b"], {}, seed)
        rng = Rng(seed=seed)
        for _ in range(400):
            if GAME.result(s):
                break
            p = GAME.to_act(s)[0]
            for a in GAME.legal_actions(s, p):
                if a.key.startswith("skill:") and a.key != "skill:done":
                    seen += 1
                    assert len(a.label) <= 80
                    assert re.search(r"\((\d+) seals?\)", a.label), a.label
            s = GAME.apply(s, p, GAME.auto_action(s, p, rng).key).state
    assert seen > 20


def test_a_card_names_its_kind_in_a_word():
    card = next(c for d in load_decks().values() for c in d.creatures if c.kind == "defense")
    assert card.short.startswith(f"{card.name} (defense ") and card.short.endswith(f" L{card.level})")
