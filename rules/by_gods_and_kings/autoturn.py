"""The automatic player's turn chosen from keys alone: the commonest steps of a turn (the
opening card, the card to play and the Field card it pushes off, a basic attack or the
abilities to fire, the ability fired first and its aim, a blow to let land) are weighed on the
keys the seat's actions would have, and only the chosen action is built with its label.

`auto_turn` gives the long way's choice: `policy.turn_choice` over the seat's turn actions
with their labels made unique (game.py), or `policy.choose` over its legal actions while it
builds a move; or None where it does not know that answer (then the game takes the long
way). Tests compare them over played positions.
"""

from __future__ import annotations

from rules.by_gods_and_kings import cards, policy
from rules.by_gods_and_kings.abilities import ability, hand_abilities
from rules.by_gods_and_kings.labels import LABEL_LIMIT, attack_label, opening_label, unique_texts
from rules.by_gods_and_kings.plans import FIRE, PLAY, made, step_action
from rules.by_gods_and_kings.state import BgkState
from rules.by_gods_and_kings.turn import (
    ability_option,
    attack_choices,
    attack_key,
    card_option,
    fire_options,
    opening_keys,
    peek_actor,
    play_options,
    play_values,
)
from rules.core import Action


def auto_turn(s: BgkState, seat: str) -> Action | None:
    """The automatic choice of `seat`, which is to act (and the game not over); None: take
    the long way."""
    phase = s.phase
    building = s.buildings.get(seat)
    if building is not None:
        if phase == "play" and building.verb == "play":
            return _push_off(s, building.args)
        if phase == "deploy" and building.verb == "fire" and list(building.args) == ["ability"]:
            return _aim(s, building.args["ability"])
        return None
    if phase == "play":
        return _play(s)
    if phase == "resolve":
        return _resolve(s)
    if phase == "deploy":
        return _first_ability(s)
    if phase == "opening":
        return _opening(s, seat)
    if phase == "enemy":
        assert s.intent is not None
        return _labelled(made("land", f"Let {s.peek(s.intent.foe).name}'s blow land", style="primary"))
    return None


def _labelled(act: Action, earlier: list[str] | None = None) -> Action:
    """`act` with its label as offered after the labels `earlier` (see `unique_texts`)."""
    label = unique_texts([*earlier, act.label])[-1] if earlier else act.label[:LABEL_LIMIT]  # alone: only cut
    return act if label == act.label else act.model_copy(update={"label": label})


def _play(s: BgkState) -> Action | None:
    """The card step of a play (a hand of two different cards or more); with one, that card is
    chosen by itself and the Field step comes first."""
    hero = peek_actor(s)
    hand = list(dict.fromkeys(hero.hand))
    if len(hand) == 1:
        return _push_off(s, {"card": hand[0]})
    if len(hand) < 2:
        return None
    card = policy._best_card(s, hero, hand)  # what `policy._play_step` picks among those keys
    return _labelled(step_action(PLAY, "card", card_option(card), PLAY.prompts["card"]))


def _opening(s: BgkState, seat: str) -> Action | None:
    """The first Field card of one of the seat's units (the seat's units in the opening's
    order, each hand's different cards in order)."""
    keys = opening_keys(s, seat)
    pick = policy._opening(s, keys)
    if pick is None:
        return None
    at = keys.index(pick)
    labels = [opening_label(s.unit(key.split(":")[1]).name, key.split(":")[2]) for key in keys[:at + 1]]
    name = s.unit(pick.split(":")[1]).name
    return _labelled(Action(key=pick, label=labels[at], group=f"{name}'s first Field card"), labels[:at])


def _push_off(s: BgkState, chosen: dict[str, str]) -> Action | None:
    """The Field card pushed off by the play being built (its card chosen, the Field full)."""
    if list(chosen) != ["card"]:
        return None
    outs = play_values(s, "out")
    pick = policy._play_step(s, [f"play.out:{v}" for v in outs])  # reads the card chosen, or the one card
    if pick is None:
        return None
    value = pick.split(":", 1)[1]
    option = next(o for o in play_options(s, "out", chosen) if o.value == value)
    return _labelled(step_action(PLAY, "out", option, PLAY.prompts["out"] if len(outs) > 1 else None))


def _resolve(s: BgkState) -> Action | None:
    """Fire the Field's abilities when it fires any, else the best basic attack."""
    refs = hand_abilities(s, peek_actor(s))
    if refs:  # offered after every attack, with a label that never reads like theirs
        names = ", ".join(ability(s, r).name for r in refs)
        return _labelled(made("deploy", f"Fire {names}"[:80], style="primary"))
    choices = attack_choices(s)
    if not choices:
        return None
    two = len({b for _, b, _ in choices}) > 1
    # `policy._best_attack` over the keys: the highest bonus stat (the raw damage is the card's
    # value plus it), then the weakest foe, then the lowest id; the first such choice.
    foes = {f.id: f for f in s.peek_foes()}
    at, top = 0, None
    for i, (foe, _, raw) in enumerate(choices):
        score = (raw if two else 0, -foes[foe].hp, -int(foe[1:]))
        if top is None or score > top:
            at, top = i, score
    foe, bonus, _ = choices[at]
    played = cards.name(s.played or "")
    # the labels before it are made only to number a label met again
    labels = [attack_label(foes[f].name, played, b, r) for f, b, r in choices[:at + 1]]
    return _labelled(made(attack_key(foe, bonus, two), group="Basic attack", label=labels[at]), labels[:at])


def _first_ability(s: BgkState) -> Action | None:
    """With two abilities queued or more, the first in the queue fires first; a single one is
    chosen by itself, and only its aim is asked."""
    if len(s.queue) == 1:
        return _aim(s, s.queue[0])
    if len(s.queue) < 2:
        return None
    option = ability_option(s, peek_actor(s), s.queue[0])
    return _labelled(step_action(FIRE, "ability", option, FIRE.prompts["ability"]))


def _aim(s: BgkState, ref: str) -> Action | None:
    """How the ability `ref` is aimed. Its options are made with their labels (their values
    come out of the same work), but only the chosen one becomes an action."""
    offered = fire_options(s, "how", {"ability": ref})
    pick = policy._fire_step(s, [f"fire.how:{o.value}" for o in offered])
    if pick is None:
        return None
    value = pick.split(":", 1)[1]
    at = next(i for i, o in enumerate(offered) if o.value == value)
    group = FIRE.prompts["how"] if len(offered) > 1 else None
    return _labelled(step_action(FIRE, "how", offered[at], group), [o.label for o in offered[:at]])
