"""The automatic player: plays towards the hands its shards fire, hits the weakest enemy,
heals and revives with its reactions when an ally is in danger, and passes saves cheaply.

It reads the game only through the state and the legal actions; every choice it returns is
one of `legal_actions(state, player)`.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from rules.by_gods_and_kings import cards, weigh
from rules.by_gods_and_kings.abilities import ability, field_abilities
from rules.by_gods_and_kings.content import RestStep
from rules.by_gods_and_kings.enemy import fighter_abilities
from rules.by_gods_and_kings.memo import catalogue_memo
from rules.by_gods_and_kings.reactions import by_seat
from rules.by_gods_and_kings.state import BgkState, Hero, Npc
from rules.by_gods_and_kings.stats import hero_base, max_hp, stat
from rules.core import Action, Rng

if TYPE_CHECKING:
    from rules.by_gods_and_kings.game import ByGodsAndKings

DANGER = 0.4
"""An ally below this share of its HP is worth a healing reaction."""


def choose(game: ByGodsAndKings, s: BgkState, seat: str, rng: Rng,
           legal: list[Action] | None = None) -> Action:
    """The automatic choice among `legal` (the seat's legal actions, built here when not given)."""
    if legal is None:
        legal = game.legal_actions(s, seat)
    assert legal, f"{seat} has no legal action"
    wanted = wanted_reactions(s, seat) if seat not in s.buildings else None
    if wanted:  # a Discard or Sacrifice ability first, when an ally needs it
        react = reaction_among(s, wanted, legal)
        if react is not None:
            return react
    by_key = {a.key: a for a in legal}
    pick = _route(s, [a.key for a in legal], rng) if s.phase == "route" else _pick(s, seat, legal)
    if pick is not None and pick in by_key:
        return by_key[pick]
    forward = [a for a in legal if not a.key.endswith(".back")]
    return forward[0] if forward else legal[0]


def turn_choice(s: BgkState, seat: str, turn: list[Action]) -> Action | None:
    """The choice among a seat's turn actions alone (no move being built, not the route
    vote), when it is one of them; else None (then `choose` weighs every legal action). The
    reactions that `legal_actions` adds after the turn actions never change it: every branch
    of `_pick` keeps only keys of its own kind, and none of them starts with 'use.'."""
    pick = _pick(s, seat, turn)
    return next((a for a in turn if a.key == pick), None) if pick is not None else None


def route_choice(s: BgkState, votes: list[Action], rng: Rng) -> Action | None:
    """The vote among a seat's route votes alone (no move being built), or None; the one
    `choose` makes among all the legal actions, with the same draws of `rng`: `_route` keeps
    only the votes' keys, and none of the reactions offered after them is one."""
    pick = _route(s, [a.key for a in votes], rng)
    return next((a for a in votes if a.key == pick), None) if pick is not None else None


def _pick(s: BgkState, seat: str, legal: list[Action]) -> str | None:
    keys = [a.key for a in legal]
    building = s.buildings.get(seat)
    if building is not None and building.verb == "use":
        return _use_step(s, keys, building.args.get("ability"))
    if any(k.startswith("play.") for k in keys):
        return _play_step(s, keys)
    if any(k.startswith("fire.") for k in keys):
        return _fire_step(s, keys)
    if any(k.startswith("npc.") for k in keys):
        return _npc_step(s, keys)
    if s.phase == "resolve":
        if "deploy" in keys:
            return "deploy"
        return _best_attack(s, [k for k in keys if k.startswith("atk:")])
    if s.phase == "opening":
        return _opening(s, [k for k in keys if k.startswith("open:")])
    if s.phase == "save":
        return _save(s, [k for k in keys if k.startswith("save:")])
    if s.phase == "camp":
        return _camp(s, seat, keys)
    if s.phase == "enemy":
        return "land"
    return next((k for k in keys if not k.startswith("use.")), None)


# --- cards --------------------------------------------------------------------------------------
def _potential(field: list[str]) -> int:
    """How close a Field is to a hand: pairs of cards that could belong to one. Looked up under
    the cards in sorted order: the sum runs over every two cards and `_pair` does not depend on
    their order, so every order of the same cards (the opening weighs one hand's cards in as
    many orders as it has cards) shares one entry."""
    return _potential_of(tuple(sorted(field)))


@cache
def _potential_of(field: tuple[str, ...]) -> int:
    """`_potential`, worked out once per Field (a few cards out of one deck of codes): the sum
    of `_pair` over every two cards of it."""
    return sum([_pair(a, b) for i, a in enumerate(field) for b in field[i + 1:]])


_pair = weigh.pair
"""What two Field cards add to its potential (weigh.py)."""


def _field_score(s: BgkState, hero: Hero, field: list[str], card: str) -> float:
    fired = len(field_abilities(s, hero, field))
    return fired * 100 + _potential(field) * 5 + cards.value(card)


def _play_options(s: BgkState, hero: Hero, card: str) -> tuple[tuple[float, str], ...]:
    """(score, the Field card pushed off or 'none') for each way of playing `card`. Remembered
    per catalogue for all a score depends on: whether the character is numb, its equipped
    shards, its Field and the card (the card and push-off steps weigh the same plays)."""
    key = (hero.has("numb"), tuple(hero.equipped), tuple(hero.field), card)
    memo = catalogue_memo(s.cat, "play_options")
    found = memo.get(key)
    if found is None:
        found = memo[key] = weigh.plays(s.cat, *key)
    return found


def _weigh_plays(s: BgkState, hero: Hero, card: str) -> list[tuple[float, str]]:
    outs = ["none"] if len(hero.field) < cards.FIELD_SIZE else list(dict.fromkeys(hero.field))
    scored = []
    for out in outs:
        field = [c for c in hero.field]
        if out != "none":
            field.remove(out)
        scored.append((_field_score(s, hero, [*field, card], card), out))
    return scored


def _best_card(s: BgkState, hero: Hero, offered: list[str]) -> str:
    """The first card of `offered` whose best play scores highest (weigh.py)."""
    return weigh.best_card(s.cat, hero.has("numb"), tuple(hero.equipped), hero.field, offered)


def _play_step(s: BgkState, keys: list[str]) -> str | None:
    assert s.actor is not None
    hero = s.hero(s.actor)
    cards_offered = [k.split(":", 1)[1] for k in keys if k.startswith("play.card:")]
    if cards_offered:
        return f"play.card:{_best_card(s, hero, cards_offered)}"
    building = s.buildings.get(hero.seat)
    card = building.args.get("card") if building is not None else None
    if card is None:  # a hand of one card: its play is chosen by itself, the Field step first
        hand = list(dict.fromkeys(hero.hand))
        if len(hand) != 1:
            return None
        card = hand[0]
    offered = {k.split(":", 1)[1] for k in keys if k.startswith("play.out:")}
    scored = [(sc, out) for sc, out in _play_options(s, hero, card) if out in offered]
    return f"play.out:{max(scored)[1]}" if scored else None


def _best_attack(s: BgkState, keys: list[str]) -> str | None:
    assert s.actor is not None
    hero = s.hero(s.actor)
    bonuses: dict[str, int] = {}

    def score(key: str) -> tuple[int, int, int]:
        parts = key.split(":")
        foe = s.unit(parts[1])
        if len(parts) > 2 and parts[2] not in bonuses:
            bonuses[parts[2]] = stat(s, hero, parts[2])
        bonus = bonuses[parts[2]] if len(parts) > 2 else 0
        return (bonus, -foe.hp, -int(foe.id[1:]))
    return max(keys, key=score) if keys else None


def _opening(s: BgkState, keys: list[str]) -> str | None:
    def score(key: str) -> tuple[int, int]:
        _, uid, card = key.split(":")
        unit = s.unit(uid)
        assert isinstance(unit, Hero | Npc)
        partners = _potential([card, *[c for c in unit.hand if c != card]])
        return (partners, -cards.value(card))
    return max(keys, key=score) if keys else None


# --- abilities ------------------------------------------------------------------------------------
def _target_score(s: BgkState, value: str) -> float:
    """Prefer synchronizations, then weak foes, then wounded or fallen allies."""
    parts = value.split(".")
    mode, target = parts[0], parts[-1]
    bonus = 1000 if mode == "sync" else (-500 if mode == "hold" else 0)
    if target in ("all", "self", "none") or target[0] not in "cen":
        return bonus
    unit = s.unit(target)
    if target[0] == "e":
        return bonus - unit.hp
    if not unit.alive:
        return bonus + 200
    return bonus + (max_hp(s, unit) - unit.hp)


def _fire_step(s: BgkState, keys: list[str]) -> str | None:
    refs = [k.split(":", 1)[1] for k in keys if k.startswith("fire.ability:")]
    if refs:
        return f"fire.ability:{refs[0]}"
    hows = [k.split(":", 1)[1] for k in keys if k.startswith("fire.how:")]
    if not hows:
        return None
    return f"fire.how:{max(hows, key=lambda h: _target_score(s, h))}"


def _npc_step(s: BgkState, keys: list[str]) -> str | None:
    assert s.actor is not None
    npc = s.unit(s.actor)
    assert isinstance(npc, Npc)
    offered = [k.split(":", 1)[1] for k in keys if k.startswith("npc.card:")]
    if offered:
        limits = [a.threshold for a in fighter_abilities(s, npc)]
        now = cards.total(npc.field)

        def score(card: str) -> tuple[int, int]:
            total = now + cards.value(card)
            fires = max((t for t in limits if total >= t), default=0)
            return (fires, -cards.value(card) if not fires else cards.value(card))
        return f"npc.card:{max(offered, key=score)}"
    targets = [k.split(":", 1)[1] for k in keys if k.startswith("npc.target:")]
    return f"npc.target:{max(targets, key=lambda t: _npc_aim(s, t))}" if targets else None


def _npc_aim(s: BgkState, target: str) -> int:
    """How good an NPC's target is: the weakest foe for a blow, the most wounded ally for help
    (the first of them on a tie: `max` keeps the first)."""
    if target in ("all", "self"):
        return 0
    unit = s.peek(target)
    if target[0] == "e":
        return -unit.hp
    return max_hp(s, unit) - unit.hp


def _use_step(s: BgkState, keys: list[str], ref: str | None = None) -> str | None:
    """The next step of a reaction: the cheapest card, then the best aim (`ref`: the reaction,
    'unit.shard.trigger', when known)."""
    spend = [k for k in keys if k.startswith("use.card:")]
    if spend:
        return min(spend, key=lambda k: cards.value(k.split(":", 1)[1]))
    aims = [k for k in keys if k.startswith("use.target:")]
    if aims:
        return max(aims, key=lambda k: _aim_score(s, ref, k.split(":", 1)[1]))
    return next((k for k in keys if k.startswith("use.ability:")), None)


# --- the map ----------------------------------------------------------------------------------------
HURT = 0.6
"""A party below this share of its HP (all characters together) looks for a rest."""


def _route(s: BgkState, keys: list[str], rng: Rng) -> str | None:
    """A wounded party heads for an area with a rest (else the way with the fewest battles to
    the end); a healthy one picks any way at random."""
    ways = [k for k in keys if k.startswith("route:")]
    if not ways:
        return None
    sc = s.scenario_def
    hp = sum(h.hp for h in s.party) / max(1, sum(max_hp(s, h) for h in s.party))
    if hp < HURT:
        def score(key: str) -> tuple[bool, int]:
            area = sc.areas[key.split(":", 1)[1]]
            return (any(isinstance(x, RestStep) for x in area.steps), -sc.shortest(key.split(":", 1)[1]))
        return max(ways, key=score)
    return rng.choice(ways)


# --- saves and camp -----------------------------------------------------------------------------------
def _save(s: BgkState, keys: list[str]) -> str | None:
    from rules.by_gods_and_kings.camp import SAVE_STATS, save_step

    step = save_step(s)
    field = SAVE_STATS[step.save][0]
    if not keys:
        return None
    uid = keys[0].split(":")[1]
    hero = s.hero(uid)
    own = stat(s, hero, field)
    if own >= step.target:
        return f"save:{uid}:risk"
    enough = [k for k in keys if k.split(":")[1] == uid and k.split(":")[2] != "risk"
              and own + cards.value(k.split(":")[2]) >= step.target]
    if enough:
        return min(enough, key=lambda k: cards.value(k.split(":")[2]))
    return f"save:{uid}:risk"


def _camp(s: BgkState, seat: str, keys: list[str]) -> str | None:
    claims = [k for k in keys if k.startswith("claim:")]
    if claims:
        def need(key: str) -> tuple[int, int]:
            _, thing, uid = key.split(":")
            hero = s.hero(uid)
            return (len(hero.equipped) if thing in s.cat.shards else len(hero.bag), int(uid[1:]))
        return min(claims, key=need)
    for prefix in ("shard:", "wear:", "offhand:"):
        found = [k for k in keys if k.startswith(prefix)]
        if prefix != "shard:":
            found = [k for k in found if _slot_empty(s, k)]
        if found:
            return found[0]
    return "ready"


def _slot_empty(s: BgkState, key: str) -> bool:
    verb, uid, item = key.split(":")
    slot = "off" if verb == "offhand" else s.cat.items[item].slot
    return getattr(s.hero(uid).loadout, slot) is None


# --- reactions ------------------------------------------------------------------------------------------
Need = tuple[bool, frozenset[str], frozenset[str]]
"""What calls for a reaction: whether a character has fallen in battle, the allies below
`DANGER` of their HP (a heal helps), and those below it with their shield counted (a shield
helps)."""

_NEED: tuple[object, tuple[object, ...], Need] = (None, (), (False, frozenset(), frozenset()))
"""The last state `_need` worked out (kept alive, so the ids in its key stay its own), what its
answer depends on, and the answer."""


def _need(s: BgkState) -> Need:
    """The `Need` of `s` (kept for the last state: every seat asks about the same one)."""
    global _NEED
    last = _NEED
    if last[0] is s:
        return last[2]
    cat, party, battle = s.cat, s.party, s.battle
    npcs = battle.npcs if battle is not None else ()
    # The answer depends on the allies' HP and shields and on their maximum HP, which changes
    # only in camp (gear and shards) and at the end (experience): there, never kept. The game
    # and its attempt are told apart by the attempt and the party as it set out (`origin`, replaced whole,
    # kept alive by the state kept with the answer, so its id is its own).
    marker = id(s) if s.phase in ("camp", "over") else 0
    key = (id(s.origin), s.attempt, marker, battle is None, *[(h.hp, h.shield) for h in party],
           *[(n.hp, n.shield, n.npc) for n in npcs])
    if last[1] == key:
        _NEED = (s, key, last[2])
        return last[2]
    fallen = battle is not None and any(h.hp <= 0 for h in party)
    wounded, endangered = [], []
    # max_hp, written out: no status lowers HP, so it is the sheet's before statuses
    tops = [(h, hero_base(cat, h, party).hp) for h in party] + [(n, cat.npcs[n.npc].stats.hp) for n in npcs]
    for unit, top in tops:
        if 0 < unit.hp < DANGER * top:
            wounded.append(unit.id)
            if unit.hp + unit.shield < DANGER * top:
                endangered.append(unit.id)
    found = (fallen, frozenset(wounded), frozenset(endangered))
    _NEED = (s, key, found)
    return found


def wanted_reactions(s: BgkState, seat: str) -> list[str]:
    """The seat's reactions worth using now ('unit.shard.trigger', in party order): a revival
    when a character has fallen in battle; a heal when an ally it may heal is below `DANGER`
    of its HP; a shield when one it may shield is, its shield counted. Each use helps someone
    (HP gained below the maximum, a shield grown), so the automatic player never spends its
    cards in a loop that helps nobody. Worked out from the state alone (no legal action is
    built), for every seat at once: every seat asks about the same state at each move."""
    global _WANTED
    last = _WANTED
    if last[0] is not s:
        last = _WANTED = (s, _wanted_by_seat(s))
    return last[1].get(seat, [])


def any_wanted(s: BgkState) -> bool:
    """Whether any seat's `wanted_reactions` holds one."""
    global _WANTED
    last = _WANTED
    if last[0] is not s:
        last = _WANTED = (s, _wanted_by_seat(s))
    return bool(last[1])


_WANTED: tuple[object, dict[str, list[str]]] = (None, {})
"""The last state `wanted_reactions` looked at, and its answer for every seat."""


def _wanted_by_seat(s: BgkState) -> dict[str, list[str]]:
    fallen, wounded, endangered = _need(s)
    out: dict[str, list[str]] = {}
    if not (fallen or wounded):
        return out
    for h, ref, ab in (x for usable in by_seat(s).values() for x in usable):
        if ab.target == "fallen":
            want = fallen
        elif ab.effect.heal or ab.effect.shield:
            needy = wounded if ab.effect.heal else endangered
            want = h.id in needy if ab.target == "self" else bool(needy)
        else:
            want = False
        if want:
            out.setdefault(h.seat, []).append(f"{h.id}.{ref}")
    return out


def _aim_score(s: BgkState, ref: str | None, value: str) -> float:
    """How good a reaction's target is: a shield (without a heal) goes where HP and shield
    together fall furthest short of the maximum, anything else as `_target_score` says."""
    if ref is not None and value[0] in "cn":
        ab = ability(s, ref.split(".", 1)[1])
        if ab.effect.shield and not ab.effect.heal:
            unit = s.peek(value)
            if unit.alive:
                return max_hp(s, unit) - unit.hp - unit.shield
    return _target_score(s, value)


def reaction(game: ByGodsAndKings, s: BgkState, seat: str, rng: Rng) -> Action | None:
    """Use a Discard or Sacrifice ability when an ally has fallen or is in danger (or finish
    one being built); else let the moment pass."""
    building = s.buildings.get(seat)
    if building is None and not wanted_reactions(s, seat):  # the commonest answer, first
        return None
    if building is not None and building.verb != "use":  # another move being built: it comes first
        return None
    wanted = wanted_reactions(s, seat) if building is None else []
    if building is None and not wanted:
        return None
    legal = game.legal_actions(s, seat)
    if building is not None:
        step = _use_step(s, [a.key for a in legal], building.args.get("ability"))
        found = next((a for a in legal if a.key == step), None)
    else:
        found = reaction_among(s, wanted, legal)
    if found is not None:  # the actions it was chosen among, kept for its `apply`
        game.offer_to_auto(s, seat, legal)
    return found


def reaction_among(s: BgkState, wanted: list[str], legal: list[Action]) -> Action | None:
    """The first step of the first reaction `wanted` (`wanted_reactions`) among the seat's
    `legal` actions, or None."""
    keys = [a.key for a in legal]
    if any(k.startswith("use.ability:") for k in keys):
        key: str | None = f"use.ability:{wanted[0]}"
    else:  # a single reaction: its first steps are already chosen
        key = _use_step(s, [k for k in keys if k.startswith("use.")], wanted[0])
    return next((a for a in legal if a.key == key), None)
