"""The copy of a Gods of Magic state that `apply` changes (it never changes its input).

`rules.core.state.independent_copy` copies any model field by field, asking each value its type;
most of a Gods of Magic state is its domains (a model per realm and per card in play), so they
are copied here by hand, knowing their shape. `copy_state` shares nothing mutable with the
original, exactly like `independent_copy`.

`copy_for_apply` goes further: copy on write of the realms. Most moves change one or two realms
of the eight domains, and copying every realm was a fifth of a move's time, so the copy `apply`
changes keeps the very realms of the state it came from, and the rules replace a realm by a copy
of its own (`own_realm`) just before they change it. Rules code must therefore change a realm
(its cards, their Descriptors) only through `own_realm`; a finished state's realms never change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from rules.core.state import copy_fields, copy_rng, independent_copy, rebuilt
from rules.gods_of_magic.state import GomState, Placed, Realm

_set = object.__setattr__
_new = object.__new__




def _realm(realm: Realm) -> Realm:
    cards = []
    for p in realm.cards:
        placed = _new(Placed)
        _set(placed, "__dict__", {"card": p.card, "descriptors": p.descriptors[:]})
        _set(placed, "__pydantic_fields_set__", set(p.__pydantic_fields_set__))
        _set(placed, "__pydantic_extra__", None)
        _set(placed, "__pydantic_private__", None)
        cards.append(placed)
    return rebuilt(realm, {"cards": cards})


def _value(v: Any) -> Any:
    """A value of a state field (atoms, lists, dicts, models), copied so that nothing mutable is shared."""
    kind = type(v)
    if kind is list:
        return [x if type(x) is str else _value(x) for x in v]
    if kind is dict:
        return {k: x if type(x) is str or type(x) is int else _value(x) for k, x in v.items()}
    if isinstance(v, BaseModel):
        return independent_copy(v)
    return v  # str, int, bool, None: shared


def _domains(v: dict[str, list[Realm]]) -> dict[str, list[Realm]]:
    return {o: [_realm(r) for r in realms] for o, realms in v.items()}


def _hands(v: dict[str, list[str]]) -> dict[str, list[str]]:
    return {o: cards[:] for o, cards in v.items()}


_BY_FIELD: dict[str, Callable[[Any], Any]] = {
    "domains": _domains, "hands": _hands, "rng": copy_rng,
    **{k: list.copy for k in ("players", "deck", "discard", "setup_done", "forbidden")},
    **{k: dict.copy for k in ("options", "scores", "setup_played")},
}
"""How the fields whose type is known are copied: lists of card ids or names and dicts of
atoms copied flat (no look at each item), the domains, hands and chance by hand. Any other
field goes through `_value`."""


def _shared_domains(v: dict[str, list[Realm]]) -> dict[str, list[Realm]]:
    """Each domain's list of realms copied, the realms themselves shared (see `own_realm`)."""
    return {o: realms[:] for o, realms in v.items()}


_FOR_APPLY: dict[str, Callable[[Any], Any]] = {**_BY_FIELD, "domains": _shared_domains}
"""`_BY_FIELD`, except that the realms are shared."""


def copy_state(s: GomState) -> GomState:
    """A copy of `s` sharing nothing mutable with it: the fields of `_BY_FIELD` copied knowing
    their shape, the others as `independent_copy` would."""
    return copy_fields(s, _BY_FIELD, _value)


def copy_for_apply(s: GomState) -> GomState:
    """`copy_state`, except that the realms are the very realms of `s`: the copy may change a
    realm only after `own_realm` gave it one of its own."""
    return copy_fields(s, _FOR_APPLY, _value)


def own_realm(s: GomState, owner: str, r: int) -> Realm:
    """Realm `r` of `owner`'s domain, first replaced by a copy of its own (cards and Descriptors
    included), so that changing it leaves every other state untouched. Every change to a realm
    goes through here."""
    realm = s.domains[owner][r] = _realm(s.domains[owner][r])
    return realm
