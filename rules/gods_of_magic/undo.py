"""Undoing a move without keeping a copy of the state (strict storytelling).

An upheld objection restores the state just before the move objected to, and an objection to a
Recombination restores the state in which it began. Instead of a copy of that earlier state, the
state keeps an undo: for each part that differs now, how to get its earlier value back. Parts are
compared as saved (JSON): a list of the same length keeps only its changed entries, a longer or
shorter one its common start and the earlier rest, a dict its changed keys, anything else its
earlier value. A move changes a few realms, hands and counters, so an undo is small.

The undo is relative to the state that holds it: whoever changes that state (a move, a re-deal
of the hidden cards) rebuilds the undo from the earlier state (`before_objection`,
`recombination_start`, then `keep_objection`, `keep_recombination`).
"""

from __future__ import annotations

from typing import Any

from rules.gods_of_magic.state import GomState

OBJECTION_SKIP = frozenset({"objection"})
"""Fields an objection's undo leaves out: the objection itself (the earlier state had none)."""
RECOMBINATION_SKIP = frozenset({"objection", "recombine_undo"})
"""Fields a Recombination's undo leaves out (the state where it began had neither)."""


def plain(s: GomState, skip: frozenset[str] = OBJECTION_SKIP) -> dict[str, Any]:
    """The state as saved (JSON values), without the fields in `skip`."""
    return s.model_dump(mode="json", exclude=set(skip))


def diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The undo that turns `after` back into `before` (both `plain` dumps of the same fields)."""
    return {k: _delta(v, after[k]) for k, v in before.items() if v != after[k]}


def undone(after: dict[str, Any], undo: dict[str, Any]) -> dict[str, Any]:
    """`after` with `undo` applied: the earlier state's fields."""
    out = dict(after)
    for k, d in undo.items():
        out[k] = _back(after[k], d)
    return out


def _delta(old: Any, new: Any) -> dict[str, Any]:
    if isinstance(old, list) and isinstance(new, list):
        if len(old) == len(new):
            return {"at": {str(i): _delta(o, n) for i, (o, n) in enumerate(zip(old, new, strict=True)) if o != n}}
        keep = 0
        for o, n in zip(old, new, strict=False):
            if o != n:
                break
            keep += 1
        return {"keep": keep, "tail": old[keep:]}
    if isinstance(old, dict) and isinstance(new, dict) and old.keys() == new.keys():
        return {"items": {k: _delta(v, new[k]) for k, v in old.items() if v != new[k]}}
    return {"value": old}


def _back(new: Any, d: dict[str, Any]) -> Any:
    if "at" in d:
        out = list(new)
        for i, sub in d["at"].items():
            out[int(i)] = _back(out[int(i)], sub)
        return out
    if "keep" in d:
        return [*new[:d["keep"]], *d["tail"]]
    if "items" in d:
        return {**new, **{k: _back(new[k], sub) for k, sub in d["items"].items()}}
    return d["value"]


def before_objection(s: GomState) -> GomState:
    """The state an upheld objection restores: the one just before the move objected to."""
    assert s.objection is not None, "only an open objection has an earlier state"
    return GomState.model_validate(undone(plain(s), s.objection.undo))


def keep_objection(s: GomState, before: GomState) -> None:
    """Make the open objection of `s` restore `before`."""
    assert s.objection is not None, "only an open objection keeps an earlier state"
    s.objection.undo = diff(plain(before), plain(s))


def recombination_start(s: GomState) -> GomState:
    """The state in which the Recombination under way began (strict storytelling)."""
    assert s.recombine_undo is not None, "no Recombination is kept"
    return GomState.model_validate(undone(plain(s, RECOMBINATION_SKIP), s.recombine_undo))


def keep_recombination(s: GomState, start: GomState) -> None:
    """Make `s` remember `start` as the state in which its Recombination began."""
    s.recombine_undo = diff(plain(start, RECOMBINATION_SKIP), plain(s, RECOMBINATION_SKIP))
