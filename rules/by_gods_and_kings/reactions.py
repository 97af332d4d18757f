"""Discard and Sacrifice abilities: usable at any moment, on anyone's turn, in camp and during a
save, by any living character that is not numbed.

A reaction is built in steps (plans.USE): the ability, the card spent (from the hand for
Discard, from the Field for Sacrifice; skipped when only one card fits), the target.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.abilities import HOW_TEXT, use
from rules.by_gods_and_kings.content import ShardAbility
from rules.by_gods_and_kings.effects_model import Target
from rules.by_gods_and_kings.levels import hero_shard_level, levelled
from rules.by_gods_and_kings.memo import catalogue_memo
from rules.by_gods_and_kings.options import option
from rules.by_gods_and_kings.state import BgkState, Hero
from rules.core import Event
from rules.core.steps import Option

REACTION_TRIGGERS = ("discard", "sacrifice")


def target_options(s: BgkState, user: Hero, kind: Target) -> list[Option]:
    """Who an ability of this kind may aim at now (empty: nobody, the ability is not usable)."""
    if kind in ("foes", "allies"):
        pool = s.peek_foes() if kind == "foes" else s.peek_allies()
        who = "every foe" if kind == "foes" else "every ally"
        return [option("all", f"At {who}")] if pool else []
    if kind == "self":
        return [option("self", f"On {user.name}")]
    if kind == "foe":
        return [option(f.id, f"At {f.name}") for f in s.peek_foes()]
    if kind == "ally":
        return [option(u.id, f"On {u.name}") for u in s.peek_allies()]
    return [option(h.id, f"Revive {h.name}") for h in s.party if not h.alive]


def target_values(s: BgkState, kind: Target) -> list[str]:
    """The values of `target_options` (for any user: only `self` names it, by a fixed value),
    without their labels."""
    if kind in ("foes", "allies"):
        pool = s.peek_foes() if kind == "foes" else s.peek_allies()
        return ["all"] if pool else []
    if kind == "self":
        return ["self"]
    if kind == "foe":
        return [f.id for f in s.peek_foes()]
    if kind == "ally":
        return [u.id for u in s.peek_allies()]
    return [h.id for h in s.party if not h.alive]


def has_target(s: BgkState, user: Hero, kind: Target) -> bool:
    """Whether `target_options(s, user, kind)` offers anyone (without building the options)."""
    if kind in ("foes", "foe"):
        return s.any_foe_standing()
    if kind in ("allies", "ally"):
        return bool(s.peek_allies())
    if kind == "self":
        return True
    return any(not h.alive for h in s.party)


def spendable(hero: Hero, trigger: str) -> list[str]:
    pool = hero.hand if trigger == "discard" else hero.field
    return list(dict.fromkeys(pool))


def reaction_refs(s: BgkState, seat: str) -> list[tuple[Hero, str, ShardAbility]]:
    """(character, 'shard.trigger', ability) for every reaction the seat may use now."""
    return list(_reactions(s, (seat,)))


def _reactions(s: BgkState, seats: Collection[str]) -> Iterator[tuple[Hero, str, ShardAbility]]:
    """The reactions of the characters of these seats, in party order."""
    if s.phase == "over":
        return
    shards = s.cat.shards
    for hero in s.party:
        if hero.seat not in seats or hero.hp <= 0 or hero.has("numb"):  # (not alive)
            continue
        for sid in hero.equipped:
            for ab in shards[sid].abilities:
                if ab.trigger not in REACTION_TRIGGERS or not (hero.hand if ab.trigger == "discard" else hero.field):
                    continue
                if has_target(s, hero, ab.target):
                    yield hero, f"{sid}.{ab.trigger}", ab


Usable = tuple[Hero, str, ShardAbility]
"""A reaction a character may use now: the character, 'shard.trigger', the ability."""

_BY_SEAT: tuple[object, object, object, dict[str, list[Usable]]] = (None, None, None, {})
"""The last state `by_seat` looked at, its phase and draw count (a guard: a state is never
changed once made), and the answer."""


def by_seat(s: BgkState) -> dict[str, list[Usable]]:
    """`reaction_refs` of every seat that has any, found in one look through the party (the
    shards' reactions remembered per equipped shards, whom each kind of target may aim at found
    once) and kept for this state: the seats that may react (`may_act`) and the automatic
    player's reactions ask about the same state at each move. Not for a state being changed
    (in `apply`): `reaction_refs` is."""
    global _BY_SEAT
    d = s.__dict__
    last = _BY_SEAT
    if last[0] is s and last[1] == d["phase"] and last[2] == d["rng"].__dict__["counter"]:
        return last[3]
    found: dict[str, list[Usable]] = {}
    if s.phase != "over":
        memo = catalogue_memo(s.cat, "reaction_abilities")
        aims: dict[Target, bool] = {}
        for hero in s.party:
            if hero.hp <= 0 or (hero.statuses and hero.has("numb")):
                continue
            equipped = tuple(hero.equipped)
            usable = memo.get(equipped)
            if usable is None:
                usable = memo[equipped] = _reaction_abilities(s, equipped)
            for ref, ab in usable:
                if not (hero.hand if ab.trigger == "discard" else hero.field):
                    continue
                aim = aims.get(ab.target)
                if aim is None:  # the same for every character but `self` (always true)
                    aim = aims[ab.target] = has_target(s, hero, ab.target)
                if aim:
                    found.setdefault(hero.seat, []).append((hero, ref, ab))
    _BY_SEAT = (s, d["phase"], d["rng"].__dict__["counter"], found)
    return found


def _reaction_abilities(s: BgkState, equipped: tuple[str, ...]) -> tuple[tuple[str, ShardAbility], ...]:
    """('shard.trigger', ability) of each Discard or Sacrifice ability of these shards, in order."""
    shards = s.cat.shards
    return tuple((f"{sid}.{ab.trigger}", ab) for sid in equipped for ab in shards[sid].abilities
                 if ab.trigger in REACTION_TRIGGERS)


def any_reaction(s: BgkState) -> bool:
    """Whether any seat may use a reaction now (the party looked through once, up to the first)."""
    return next(_reactions(s, frozenset(s.players)), None) is not None


Refs = list[tuple[Hero, str, ShardAbility]]
"""What `reaction_refs` answers."""


def use_options(s: BgkState, seat: str, arg: str, chosen: dict[str, str],
                refs: Refs | None = None) -> list[Option]:
    """The option source of plans.USE; `refs`: the seat's `reaction_refs` when the caller has
    them already for this very state (not changed since)."""
    if refs is None:
        refs = reaction_refs(s, seat)
    if arg == "ability":
        return [Option(value=f"{h.id}.{ref}", label=f"{h.name}: {ab.name} ({HOW_TEXT[ab.trigger]})",
                       description=level_description(s, h, ref, ab))
                for h, ref, ab in refs]
    found = _chosen(s, refs, chosen["ability"])
    if found is None:
        return []
    hero, ab = found
    if arg == "card":
        verb = "discard" if ab.trigger == "discard" else "sacrifice"
        return [Option(value=c, label=f"{ab.name}: {verb} {cards.name(c)}", private=True)
                for c in spendable(hero, ab.trigger)]
    return [o.model_copy(update={"label": f"{ab.name}: {o.label[0].lower()}{o.label[1:]}", "private": True})
            for o in target_options(s, hero, ab.target)]


def level_description(s: BgkState, hero: Hero, ref: str, ab: ShardAbility) -> str:
    """What the ability does at the level the character's shard has (remembered per shard,
    trigger and level: the ability is that shard's, see levels.shard_of). A Discard or
    Sacrifice ability offered as a reaction, or a hand's ability queued to fire (turn.py)."""
    sid = ref.split(".")[0]
    key = (ref, hero_shard_level(s.cat, hero, sid))
    memo = catalogue_memo(s.cat, "level_description")
    found = memo.get(key)
    if found is None:
        found = memo[key] = levelled(s, hero, ab).effect.describe()[:100]
    return found


def _chosen(s: BgkState, refs: list[tuple[Hero, str, ShardAbility]],
            value: str) -> tuple[Hero, ShardAbility] | None:
    for h, ref, ab in refs:
        if f"{h.id}.{ref}" == value:
            return h, ab
    return None


def react(s: BgkState, seat: str, args: dict[str, str], events: list[Event]) -> None:
    """Use a reaction (the arguments were checked against use_options)."""
    found = _chosen(s, reaction_refs(s, seat), args["ability"])
    assert found is not None, "a reaction is used only when it is legal"
    hero, ab = s.hero(found[0].id), found[1]  # reaction_refs reads the party: the one to change
    card = args["card"]
    if ab.trigger == "discard":
        hero.hand.remove(card)
    else:
        hero.field.remove(card)
    s.discard.append(card)
    verb = "discards" if ab.trigger == "discard" else "sacrifices"
    events.append(Event(kind="spend", text=f"{hero.name} {verb} {cards.name(card)}.",
                        data={"unit": hero.id, "card": card, "how": ab.trigger}))
    target = args["target"]
    use(s, hero, ab, ab.trigger, None if target in ("all", "self") else target,
        cards.value(card), events)
