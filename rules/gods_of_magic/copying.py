"""The copy of a Gods of Magic state that `apply` changes (it never changes its input).

`rules.core.state.independent_copy` copies any model field by field, asking each value its type;
most of a Gods of Magic state is its domains (a model per realm and per card in play), so they
are copied here by hand, knowing their shape. The copy shares nothing mutable with the original,
exactly like `independent_copy`."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from rules.core.state import independent_copy
from rules.gods_of_magic.state import GomState, Placed, Realm

_set = object.__setattr__


M = TypeVar("M", bound=BaseModel)


def _model(cls: type[M], fields: dict[str, Any], fields_set: set[str]) -> M:
    """A model of class `cls` with these field values, made without validation (they are copies
    of a valid model's)."""
    out = cls.__new__(cls)
    _set(out, "__dict__", fields)
    _set(out, "__pydantic_fields_set__", set(fields_set))
    _set(out, "__pydantic_extra__", None)
    _set(out, "__pydantic_private__", None)
    return out


def _realm(realm: Realm) -> Realm:
    cards = [_model(Placed, {"card": p.card, "descriptors": list(p.descriptors)}, p.__pydantic_fields_set__)
             for p in realm.cards]
    return _model(Realm, {"cards": cards}, realm.__pydantic_fields_set__)


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


def copy_state(s: GomState) -> GomState:
    """A copy of `s` sharing nothing mutable with it: the domains copied by hand, the other
    fields as `independent_copy` would."""
    fields = {k: {o: [_realm(r) for r in realms] for o, realms in v.items()} if k == "domains" else _value(v)
              for k, v in s.__dict__.items()}
    return _model(GomState, fields, s.__pydantic_fields_set__)
