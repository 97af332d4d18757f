"""The automatic player: completes realms, scores, and strikes at the leader.

It looks one move ahead with a light copy of the realms (tuples, not models), so
that a whole simulated game stays fast.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.core import Action, Rng
from rules.gods_of_magic.content import Suit, points_and_suits
from rules.gods_of_magic.plans import HAND, MOVE, PLAY, RECOMBINE, TRANSFORM, move_value, step_value
from rules.gods_of_magic.scoring import COMPLETE_BONUS, alteration_gain, domain_value, target
from rules.gods_of_magic.state import GomState, Realm

if TYPE_CHECKING:
    from rules.gods_of_magic.game import GodsOfMagic

Light = list[tuple[str, tuple[str, ...]]]
"""A realm as (card, descriptors) pairs."""


def _light(s: GomState, owner: str) -> list[Light]:
    return [[(p.card, tuple(p.descriptors)) for p in r.cards] for r in s.domains[owner]]


def _light_realm(realm: Realm) -> Light:
    return [(p.card, tuple(p.descriptors)) for p in realm.cards]


_values: dict[tuple[str, tuple[tuple[str, tuple[str, ...]], ...], bool], float] = {}
"""`_value` by (deck version, realm, progress): all it depends on, since a deck version never
changes. Emptied when it grows past `_VALUES_MAX` entries."""
_VALUES_MAX = 50_000


def _value(s: GomState, realm: Light, progress: bool = False) -> float:
    """A realm's Visitation value; with `progress`, a little extra per suit towards completion."""
    key = (s.content, tuple(realm), progress)
    found = _values.get(key)
    if found is None:
        if len(_values) >= _VALUES_MAX:
            _values.clear()
        found = _values[key] = _realm_value(s, realm, progress)
    return found


def _realm_value(s: GomState, realm: Light, progress: bool) -> float:
    """`_value` worked out."""
    table = points_and_suits(s.content)
    total: float = 0
    suits: set[Suit] = set()
    located = False
    for c, ds in realm:
        vp, suit = table[c]
        total += vp
        suits.add(suit)
        located = located or suit == Suit.LOCATION
        for d in ds:
            total += table[d][0]
            suits.add(Suit.DESCRIPTOR)
    if not located:
        return 0
    if len(suits) == len(Suit):
        total += COMPLETE_BONUS
    if progress:
        total += 0.5 * len(suits)  # a tie-break towards completing realms
    return total


def _gain_place(s: GomState, player: str, cid: str, where: str) -> float:
    """How much `player`'s domain gains (with progress) when `cid` goes to `where`. Only the
    realm concerned is read."""
    if where == "new" or where.startswith("r"):
        realm = [] if where == "new" else _light_realm(s.domains[player][int(where[1:])])
        return _gain_in(s, [realm], cid, "new" if where == "new" else "r0")
    host = where[3:]
    for placed_realm in s.domains[player]:
        if any(p.card == host for p in placed_realm.cards):
            return _gain_in(s, [_light_realm(placed_realm)], cid, where)
    return 0


def _gain_in(s: GomState, realms: list[Light], cid: str, where: str) -> float:
    """`_gain_place` over realms already made light (all those of the domain, or the one concerned)."""
    if where == "new":
        return _value(s, [(cid, ())], True) - 1  # a new realm is worth a little less than filling one
    if where.startswith("r"):
        realm = realms[int(where[1:])]
        before = _value(s, realm, True)
        return _value(s, [*realm, (cid, ())], True) - before
    host = where[3:]
    for realm in realms:
        for i, (c, ds) in enumerate(realm):
            if c == host:
                after = list(realm)
                after[i] = (c, (*ds, cid))
                return _value(s, after, True) - _value(s, realm, True)
    return 0


def _gain_remove(s: GomState, owner: str, cid: str) -> float:
    """How much `owner`'s domain loses when `cid` (and its Descriptors) leaves play. Only the
    realm holding it is read."""
    for placed_realm in s.domains[owner]:
        for i, p in enumerate(placed_realm.cards):
            if p.card == cid or cid in p.descriptors:
                return _loss(s, placed_realm, i, cid)
    return 0


def _loss(s: GomState, placed_realm: Realm, i: int, cid: str) -> float:
    """What a realm loses when `cid`, its `i`th card or one of that card's Descriptors, leaves it."""
    realm = _light_realm(placed_realm)
    return _value(s, realm) - _value(s, _without(realm, i, cid))


def _without(realm: Light, i: int, cid: str) -> Light:
    """The realm once `cid`, its `i`th card or one of that card's Descriptors, has left it."""
    c, ds = realm[i]
    if c == cid:
        return realm[:i] + realm[i + 1:]
    after = list(realm)
    after[i] = (c, tuple(d for d in ds if d != cid))
    return after


def _owner_losses(s: GomState) -> dict[str, tuple[str, float]]:
    """The owner of every card in play and `_gain_remove` for it, by card, in one look through
    the domains: each realm made light and valued once."""
    out: dict[str, tuple[str, float]] = {}
    for owner, realms in s.domains.items():
        for placed_realm in realms:
            realm = _light_realm(placed_realm)
            value = _value(s, realm)
            for i, (c, ds) in enumerate(realm):
                for cid in (c, *ds):
                    out[cid] = owner, value - _value(s, _without(realm, i, cid))
    return out


def _weight(s: GomState, owner: str, player: str) -> float:
    """How much hurting `owner` is worth to `player`: the leader counts most."""
    if owner == player:
        return -1.0
    top = max(max(s.scores.values()), 1)
    return 0.5 + s.scores[owner] / top


def _best(legal: list[Action], score: Callable[[Action], float | None]) -> Action | None:
    best: Action | None = None
    best_v: float | None = None
    for a in legal:
        v = score(a)
        if v is not None and (best_v is None or v > best_v):
            best, best_v = a, v
    return best


def _place_score(s: GomState, player: str, a: Action, cid: str) -> float | None:
    where = move_value(PLAY, "to", a.key)
    return _gain_place(s, player, cid, where) if where is not None else None


def _best_play(s: GomState, player: str, cards: list[str]) -> tuple[str | None, float]:
    """The hand card whose best placement gains most."""
    from rules.gods_of_magic.moves import places

    best, best_v = None, -1e9
    realms = _light(s, player)
    for cid in cards:
        for where, _r, _host in places(s, player, cid):
            v = _gain_in(s, realms, cid, where)
            if v > best_v:
                best, best_v = cid, v
    return best, best_v


def choose(game: GodsOfMagic, s: GomState, player: str, rng: Rng,
           legal: list[Action] | None = None) -> Action:
    """The automatic player's action among `legal` (default: the legal actions)."""
    if legal is None:
        legal = game.legal_actions(s, player)
    by_key = {a.key: a for a in legal}
    pick = _choose(s, player, legal, by_key)
    return pick if pick is not None else legal[0]


def _choose(s: GomState, player: str, legal: list[Action], by_key: dict[str, Action]) -> Action | None:
    if len(legal) == 1:
        return legal[0]
    if "obj:no" in by_key:
        return by_key["obj:no"]
    if "roll" in by_key:
        return by_key["roll"]
    if "draw:yes" in by_key:
        return by_key["draw:yes"]
    if s.phase == "setup":
        return _setup(s, player, legal, by_key)
    if s.phase == "discard":
        return _best(legal, lambda a: -s.cards[a.key[5:]].vp if a.key.startswith("disc:") else None)
    step = s.step if s.phase == "magic" else "play"
    if s.pending and step == "alter":
        d = s.pending[0]

        def alter(a: Action) -> float | None:
            where = move_value(PLAY, "to", a.key)
            return _alter_score(s, player, d, where[3:]) if where is not None and where.startswith("on.") else None

        return _best(legal, alter)
    if s.pending and step in ("play", "creation", "evoke"):
        cid = s.pending[0]
        return _best(legal, lambda a: _place_score(s, player, a, cid))
    if step in ("play", "creation"):
        cards = [c for a in legal if (c := move_value(PLAY, "card", a.key)) is not None]
        card, v = _best_play(s, player, cards)
        if step == "creation" and "fin" in by_key and v <= 0:
            return by_key["fin"]
        return next((a for a in legal if move_value(PLAY, "card", a.key) == card), None) \
            if card is not None else None
    if step == "alter":
        best: Action | None = None
        best_v = 0.0
        for a in legal:
            picked = move_value(PLAY, "card", a.key)
            if picked is not None:
                d = picked
                for _r, host in s.hosts(player):
                    v = _alter_score(s, player, d, host)
                    if v > best_v:
                        best, best_v = a, v
        return best or by_key.get("skip")
    if step == "imagine":
        return by_key[f"magic:{_imagine(s, player)}"]
    if step == "destroy":
        losses = _owner_losses(s)
        return _best(legal, lambda a: _hurt(s, player, losses[a.key[5:]]) if a.key.startswith("kill:") else None)
    if step == "transform":
        return _transform(s, player, legal)
    if step == "move":
        return _move(s, player, legal)
    if step == "recombine":
        return _recombine(s, player, legal, by_key)
    return None


def _alter_score(s: GomState, player: str, descriptor: str, host: str) -> float:
    """An Alteration's points now (none in a realm of imagination) and what the realm gains."""
    return alteration_gain(s, player, descriptor, host) + _gain_place(s, player, descriptor, f"on.{host}")


def _setup(s: GomState, player: str, legal: list[Action], by_key: dict[str, Action]) -> Action | None:
    def score(a: Action) -> float | None:
        if not a.key.startswith("set:"):
            return None
        _, cid, where = a.key.split(":", 2)
        v = _gain_place(s, player, cid, where)
        if where == "new" and s.domains[player]:
            v -= 6  # one strong realm first
        return v

    best = _best(legal, score)
    if best is None or (score(best) or 0) <= 0:
        return by_key.get("done")
    return best


def _hurt(s: GomState, player: str, owner_loss: tuple[str, float]) -> float:
    """What taking a card out of play is worth to `player`, from its owner and their loss
    (`_owner_losses`)."""
    owner, loss = owner_loss
    return loss * _weight(s, owner, player)


def _imagine(s: GomState, player: str) -> int:
    mine = domain_value(s, player)
    others = [domain_value(s, p) for p in s.players if p != player]
    if s.scores[player] + mine >= target(s) or mine >= max(others):
        return 9
    losses = _owner_losses(s)
    worst = max((_hurt(s, player, losses[cid]) for _o, _r, cid in s.in_play()), default=0)
    if worst >= 10:
        return 3
    return 1


def _transform(s: GomState, player: str, legal: list[Action]) -> Action | None:
    if s.pending:
        old = s.pending[0]
        owner = s.where(old)[0]
        sign = 1 if owner == player else -1

        def replace(a: Action) -> float | None:
            new = step_value(TRANSFORM, "with", a.key)
            return sign * s.cards[new].vp if new is not None else None

        return _best(legal, replace)

    def score(a: Action) -> float | None:
        old = step_value(TRANSFORM, "target", a.key)
        if old is None:
            return None
        owner = s.where(old)[0]
        same = [s.cards[c].vp for c in s.hands[player] if s.suit(c) == s.suit(old)]
        if owner == player:
            return max(same) - s.cards[old].vp
        return (s.cards[old].vp - min(same)) * _weight(s, owner, player)

    return _best(legal, score)


def _move(s: GomState, player: str, legal: list[Action]) -> Action | None:
    if s.pending:
        cid = s.pending[0]
        owner = s.where(cid)[0]
        loss = _gain_remove(s, owner, cid) * _weight(s, owner, player)

        def score(a: Action) -> float | None:
            where = step_value(MOVE, "to", a.key)
            if where is None:
                return None
            if where.startswith("on."):
                dest = s.where(where[3:])[0]
                gain = _gain_place(s, dest, cid, where) if dest == player else -1
                return loss + gain
            seat, r = (int(x) for x in where.split("."))
            dest = s.players[seat]
            gain = _gain_place(s, dest, cid, f"r{r}") if dest == player else -1
            return loss + gain

        return _best(legal, score)

    losses = _owner_losses(s)

    def pick(a: Action) -> float | None:
        cid = step_value(MOVE, "card", a.key)
        if cid is None:
            return None
        owner, loss = losses[cid]
        if owner == player:
            return -loss
        return loss * _weight(s, owner, player) + s.cards[cid].vp

    return _best(legal, pick)


def _recombine(s: GomState, player: str, legal: list[Action], by_key: dict[str, Action]) -> Action | None:
    surplus = len(s.hands[player]) - s.recombine_hand
    to_hand = RECOMBINE.step_key("to", HAND)
    if s.pending:
        cid = s.pending[0]
        if surplus < 0 and to_hand in by_key:
            return by_key[to_hand]
        in_play = s.locate(cid) is not None
        # the same measure as the choice of the card (below), so that the two steps agree
        gain = _move_gain if in_play else _gain_place

        def spot(a: Action) -> str | None:
            where = step_value(RECOMBINE, "to", a.key)
            return where if where != HAND else None

        best = _best(legal, lambda a: gain(s, player, cid, w) if (w := spot(a)) is not None else None)
        if best is not None and (not in_play or _move_gain(s, player, cid, spot(best) or "") > 0):
            return best
        return by_key.get(to_hand) if surplus < 0 else by_key.get(RECOMBINE.back_key)

    def picked(a: Action, from_hand: bool) -> str | None:
        """The card an action picks for a rearrangement, from the hand or from the realms."""
        cid = step_value(RECOMBINE, "card", a.key)
        return cid if cid is not None and (s.locate(cid) is None) == from_hand else None

    if surplus > 0:
        return next((a for a in legal if picked(a, True) is not None), None)
    if surplus < 0:
        return _best(legal, lambda a: -_gain_remove(s, player, c) if (c := picked(a, False)) is not None else None)
    # one improving move between own realms at a time, then finish
    best, best_v = None, 0.0
    if s.recombine_moves < 6:
        for a in legal:
            mine = picked(a, False)
            if mine is not None:
                cid = mine
                r = s.where(cid)[1]
                spots = [f"r{x}" for x in range(len(s.domains[player])) if x != r] \
                    if s.suit(cid) != Suit.DESCRIPTOR else [f"on.{h}" for _x, h in s.hosts(player)]
                for where in spots:
                    v = _move_gain(s, player, cid, where)
                    if v > best_v:
                        best, best_v = a, v
    return best or by_key.get("rc:done")


def _move_gain(s: GomState, player: str, cid: str, where: str) -> float:
    """Exact change of the domain's value when an own card moves within it."""
    before = sum(_value(s, r) for r in _light(s, player))
    realms = _light(s, player)
    moving: tuple[str, tuple[str, ...]] | None = None
    for realm in realms:
        for i, (c, ds) in enumerate(realm):
            if c == cid:
                moving = realm.pop(i)
                break
            if cid in ds:
                realm[i] = (c, tuple(d for d in ds if d != cid))
                moving = (cid, ())
                break
        if moving:
            break
    if where.startswith("r"):
        assert moving is not None, f"{cid} is not in {player}'s realms"
        realms[int(where[1:])].append(moving)
    else:
        host = where[3:]
        for realm in realms:
            for i, (c, ds) in enumerate(realm):
                if c == host:
                    realm[i] = (c, (*ds, cid))
    return sum(_value(s, r) for r in realms) - before
