"""Buttons and select menus generated from a game's legal actions, for any game.

Discord allows 5 rows per message, 5 buttons or 1 select menu per row, 25 options
per select. Ungrouped actions become buttons; actions sharing a `group` become one
select menu; when rows run out, buttons fold into a select and the last groups
merge; a select with more than 25 options pages.
"""

from __future__ import annotations

import math

import discord

from bot.ui import ids
from bot.ui.items import ActionButton, ActionSelect, HandButton, RoutedView
from rules.core import Action

ROWS = 5
PER_ROW = 5
OPTIONS = 25
PAGE_SIZE = 23  # leaves room for "previous" and "next" options
MORE = "More actions"
OTHER = "Other choices"  # the menu that groups merge into when rows run out

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def plan(actions: list[Action], extra_buttons: int = 0) -> tuple[list[Action], list[tuple[str, list[Action]]]]:
    """Split actions into buttons and (placeholder, actions) select groups that fit in 5 rows."""
    buttons = [a for a in actions if a.group is None]
    groups: dict[str, list[Action]] = {}
    for a in actions:
        if a.group is not None:
            groups.setdefault(a.group, []).append(a)
    selects = list(groups.items())

    def rows() -> int:
        return math.ceil((len(buttons) + extra_buttons) / PER_ROW) + len(selects)

    if rows() > ROWS and buttons:
        selects.insert(0, (MORE, buttons))
        buttons = []
    while rows() > ROWS and len(selects) > 1:
        (name_a, acts_a), (name_b, acts_b) = selects[-2], selects[-1]
        selects[-2:] = [(OTHER, _named(name_a, acts_a) + _named(name_b, acts_b))]
    return buttons, selects


def _named(group: str, actions: list[Action]) -> list[Action]:
    """A group's actions for a merged menu, each label prefixed with its group's name (once:
    a group merged before keeps its labels, and so does a label that already starts with what
    the group's name starts with: "Gilbert: equip ..." in "Gilbert: shards and equipment")."""
    if group == OTHER:
        return actions
    head = group.split(": ", 1)[0] + ":"
    return [a if a.label.startswith(head) else a.model_copy(update={"label": f"{group}: {a.label}"[:100]})
            for a in actions]


def page_count(n: int) -> int:
    return 1 if n <= OPTIONS else math.ceil(n / PAGE_SIZE)


def select_options(actions: list[Action], page: int) -> list[discord.SelectOption]:
    if len(actions) <= OPTIONS:
        chosen, pages = actions, 1
    else:
        pages = page_count(len(actions))
        page = max(0, min(page, pages - 1))
        chosen = actions[page * PAGE_SIZE:(page + 1) * PAGE_SIZE]
    opts = [
        discord.SelectOption(label=a.label[:100], value=a.key,
                             description=(a.description or None) and a.description[:100])
        for a in chosen
    ]
    if pages > 1:
        if page > 0:
            opts.insert(0, discord.SelectOption(label=f"« Previous (page {page} of {pages})",
                                                value=f"{ids.PAGE_PREFIX}{page - 1}"))
        if page < pages - 1:
            opts.append(discord.SelectOption(label=f"Next » (page {page + 2} of {pages})",
                                             value=f"{ids.PAGE_PREFIX}{page + 1}"))
    return opts


def action_view(session_id: int, version: int, actions: list[Action], *, hand_button: bool = False,
                pages: dict[int, int] | None = None, seat: int | None = None) -> discord.ui.View:
    """A view (routed by custom id: see bot/ui/items.py) for these actions (and the "My hand"
    button). `seat`: the position whose private view this is (its ids say so); None: the public
    table."""
    view = RoutedView()
    buttons, selects = plan(actions, extra_buttons=1 if hand_button else 0)
    row = 0
    for gi, (placeholder, acts) in enumerate(selects):
        page = (pages or {}).get(gi, 0)
        view.add_item(ActionSelect(ids.select_id(session_id, version, gi, page, seat),
                                   options=select_options(acts, page),
                                   placeholder=placeholder[:150], row=row))
        row += 1
    for i, a in enumerate(buttons):
        view.add_item(ActionButton(ids.action_id(session_id, version, a.key, seat), label=a.label[:80],
                                   style=STYLES[a.style], row=row + i // PER_ROW))
    if hand_button:
        view.add_item(HandButton(ids.hand_id(session_id), row=row + len(buttons) // PER_ROW))
    return view

