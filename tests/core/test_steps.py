"""The core helper for moves built in steps (choose, refine, Back, Confirm)."""

from __future__ import annotations

import pytest

from rules.core.steps import Building, Option, StepPlan

PLAY = StepPlan("play", ["card", "realm"], prompts={"card": "Play a card", "realm": "Where"})
ATTACK = StepPlan("atk", ["card", "support"], confirm=True)


def options(arg, chosen):
    if arg == "card":
        return [Option(value="O22", label="Star (O22)", private=True),
                Option(value="L07", label="Church (L07)", private=True, cost=2)]
    return [Option(value=str(r), label=f"Realm {r} with {chosen['card']}", private=True)
            for r in (1, 2)]


def test_each_step_offers_the_next_argument_and_applies_when_all_are_chosen():
    first = PLAY.actions(None, options)
    assert [a.key for a in first] == ["play.card:O22", "play.card:L07"]
    assert all(a.private and a.group == "Play a card" for a in first)
    assert first[1].description == "costs 2"
    step = PLAY.handle(None, "play.card:O22")
    assert step.done is None and step.building == Building(verb="play", args={"card": "O22"})
    second = PLAY.actions(step.building, options)
    assert [a.key for a in second] == ["play.realm:1", "play.realm:2", "play.back"]
    assert second[0].label == "Realm 1 with O22"
    done = PLAY.handle(step.building, "play.realm:2")
    assert done.building is None and done.done == {"card": "O22", "realm": "2"}


def test_back_undoes_the_last_choice_and_confirm_waits_when_asked():
    step = ATTACK.handle(None, "atk.card:A1")
    step = ATTACK.handle(step.building, "atk.support:S4")
    assert step.done is None  # the plan asks for a Confirm
    acts = ATTACK.actions(step.building, lambda a, c: [])
    assert [a.key for a in acts] == ["atk.ok", "atk.back"]
    back = ATTACK.handle(step.building, "atk.back")
    assert back.building == Building(verb="atk", args={"card": "A1"})
    assert ATTACK.handle(back.building, "atk.back").building is None
    ok = ATTACK.handle(step.building, "atk.ok")
    assert ok.done == {"card": "A1", "support": "S4"} and ok.building is None


def test_whole_move_keys_round_trip_and_other_keys_are_not_the_plans():
    assert PLAY.key(card="O22", realm="2") == "play:O22:2"
    assert PLAY.parse("play:O22:2") == {"card": "O22", "realm": "2"}
    assert PLAY.parse("play:O22") is None and PLAY.parse("draw:1:2") is None
    assert PLAY.handle(None, "roll") is None and PLAY.handle(None, "play.colour:red") is None
    assert ATTACK.actions(Building(verb="play", args={"card": "x"}), options) == []
    with pytest.raises(ValueError):
        PLAY.key(card="has space", realm="1")
    with pytest.raises(ValueError):
        StepPlan("a.b", ["x"])


def test_typed_event_data_round_trips_and_refuses_another_kind():
    from typing import ClassVar

    from rules.core import Event, EventData

    class Rolled(EventData):
        kind: ClassVar[str] = "rolled"
        face: int

    event = Rolled(face=6).event("six", visible_to=["a"])
    assert event.kind == "rolled" and event.data == {"face": 6} and event.visible_to == ["a"]
    same = Event.model_validate_json(event.model_dump_json())  # as the log keeps it
    assert Rolled.of(same).face == 6
    with pytest.raises(ValueError):
        Rolled.of(Event(kind="other", text="x"))
