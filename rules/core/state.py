"""One way to copy a game state before changing it (`apply` never changes its input)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

from rules.core.rng import Rng

M = TypeVar("M", bound=BaseModel)

_SHARED: set[type] = {str, int, float, bool, type(None), bytes}
"""Types whose values are shared, not copied: atoms, and (learnt on first sight) tuples and
frozen models, which cannot change."""


def _copy(value: Any) -> Any:
    kind = type(value)
    if kind in _SHARED:
        return value
    if kind is list:
        return [v if type(v) in _SHARED else _copy(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _SHARED else _copy(v) for k, v in value.items()}
    if kind is set:
        return {_copy(v) for v in value}
    if isinstance(value, tuple):  # NamedTuples included: game states keep values in them
        _SHARED.add(kind)
        return value
    if isinstance(value, BaseModel):
        if value.model_config.get("frozen"):
            _SHARED.add(kind)
            return value
        return independent_copy(value)
    raise TypeError(f"cannot copy a {kind.__name__} inside a game state")


def rebuilt(model: M, fields: dict[str, Any]) -> M:
    """A model of the same class as `model` holding `fields`, made without validation: the values
    are (copies of) a valid model's. The building block of `independent_copy` and of the copies
    a game writes by hand for its own state."""
    cls = type(model)
    out = cls.__new__(cls)
    setattr_ = object.__setattr__
    setattr_(out, "__dict__", fields)
    setattr_(out, "__pydantic_fields_set__", set(model.__pydantic_fields_set__))
    extra, private = model.__pydantic_extra__, model.__pydantic_private__
    setattr_(out, "__pydantic_extra__", None if extra is None else _copy(extra))
    setattr_(out, "__pydantic_private__", None if private is None else dict(private))
    return out


def independent_copy(state: M) -> M:
    """A copy of a state that shares nothing mutable with it: lists, dicts and sets are copied,
    models are copied field by field, frozen models and tuples are shared (they cannot change).
    Much cheaper than `model_copy(deep=True)`, and the one copy every game uses."""
    return rebuilt(state, {k: v if type(v) in _SHARED else _copy(v) for k, v in state.__dict__.items()})


ATOMS = (str, int, bool, type(None))
"""The types of field values a copy shares (they cannot change)."""


def copy_fields(model: M, how: Mapping[str, Callable[[Any], Any]], other: Callable[[Any], Any]) -> M:
    """A copy of `model` made field by field: atoms shared, a field named in `how` copied by its
    function, any other by `other`. The building block of the copies a game writes by hand,
    knowing the shape of its state."""
    return rebuilt(model, {k: v if type(v) in ATOMS else how.get(k, other)(v) for k, v in model.__dict__.items()})


def copy_rng(rng: Rng) -> Rng:
    """The generator with its own list of scripted outcomes (all else in it is atoms)."""
    fields = dict(rng.__dict__)
    fields["scripted"] = list(rng.scripted)
    return rebuilt(rng, fields)
