"""Labels shared by the legal actions and the automatic player's shortcut (autoturn.py), so
that both make the very same text."""

from __future__ import annotations

from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.turn import STAT_NAMES

LABEL_LIMIT = 80


def attack_label(foe_name: str, played: str, bonus: str, raw: int) -> str:
    """A basic attack's label: the foe, the card played and the stat added, the raw damage."""
    return f"Hit {foe_name} with {played} + {STAT_NAMES[bonus]} ({raw} before DEF)"


def opening_label(unit_name: str, card: str) -> str:
    """The label of putting `card` on a unit's Field as the battle opens."""
    return f"{unit_name}: open with {cards.name(card)}"


def unique_texts(labels: list[str]) -> list[str]:
    """The labels as offered: each cut to 80 characters, and a label met before numbered
    (`... #2`, `... #3`) so that no two are alike."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        lab = label[:LABEL_LIMIT]
        if lab in seen:
            seen[lab] += 1
            lab = f"{lab[:74]} #{seen[lab]}"
        seen.setdefault(lab, 1)
        out.append(lab)
    return out
