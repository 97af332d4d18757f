"""The shortcuts that keep a Gods of Magic game fast, each checked against the plain way it
replaces: the destinations and places looked for without labels, the per-deck tables, the
automatic player's memo and one-realm reckonings, and the copy that knows the state's fields."""

from __future__ import annotations

import pytest

from rules.core import Rng, who
from rules.gods_of_magic import GAME as GOM
from rules.gods_of_magic import content, copying, magic, moves, policy
from rules.gods_of_magic.content import Suit, cards_of
from rules.gods_of_magic.state import GomState
from tests.support.playout import automatic_positions


def _states(players: int, seed: int, steps: int = 400, options: dict[str, str] | None = None):
    return automatic_positions(GOM, players, [seed], steps, options)


def _many() -> list[GomState]:
    return [*_states(6, 1), *_states(4, 2), *_states(8, 3, 250)]


def _plain_destinations(s: GomState, cid: str) -> list[tuple[str, str]]:
    """The destinations as they were written before `can_move`."""
    owner, r, _i, _d = s.where(cid)
    name = moves.label(s, cid)
    out = []
    if s.suit(cid) == Suit.DESCRIPTOR:
        for o2, r2, host in s.in_play():
            if (o2, r2) != (owner, r) and s.suit(host) != Suit.DESCRIPTOR:
                out.append((f"on.{host}", f"Move {name} under {moves.label(s, host)} · {who(o2)} realm {r2 + 1}"))
        return out
    for seat, o2 in enumerate(s.players):
        for r2 in range(len(s.domains[o2])):
            if (o2, r2) != (owner, r):
                out.append((f"{seat}.{r2}", f"Move {name} to {who(o2)} realm {r2 + 1}"))
    return out


def test_can_move_agrees_with_the_destinations_it_does_not_label():
    checked = 0
    for s in _many()[::3]:
        for owner, r, cid in s.in_play():
            expected = _plain_destinations(s, cid)
            assert magic.move_destinations(s, cid) == expected
            assert magic.can_move(s, owner, r, cid) == bool(expected)
            checked += 1
    assert checked > 3000


def test_the_card_to_move_is_offered_without_labelling_every_destination(monkeypatch):
    s = next(s for s in _states(5, 4, 2000) if s.phase == "play" and len(s.in_play()) > 12)
    expected = magic.move_actions(s)
    monkeypatch.setattr(magic, "move_destinations", lambda *a: pytest.fail("destinations labelled"))
    assert magic.move_actions(s) == expected and expected


def _plain_targets(s: GomState, player: str, cid: str, new_realm: bool = True,
                   skip_realm: int | None = None, skip_host: str | None = None) -> list[tuple[str, str]]:
    """The places and labels as they were written before `places`."""
    name = moves.label(s, cid)
    out: list[tuple[str, str]] = []
    if s.suit(cid) == Suit.DESCRIPTOR:
        for r, host in s.hosts(player):
            if host != skip_host:
                out.append((f"on.{host}", f"Attach {name} to {moves.label(s, host)}, realm {r + 1}"))
        return out
    if s.suit(cid) == Suit.LOCATION and new_realm:
        out.append(("new", f"Start a new realm with {name}"))
    for r, _realm in enumerate(s.domains[player]):
        if r != skip_realm:
            out.append((f"r{r}", f"Add {name} to realm {r + 1}"))
    return out


def test_places_are_the_placement_targets_without_their_labels():
    checked = 0
    for s in _many()[::3]:
        for p in s.players:
            hosts = [h for _r, h in s.hosts(p)]
            for cid in s.hands[p]:
                for kwargs in ({}, {"new_realm": False}, {"skip_realm": 0}, {"new_realm": False, "skip_realm": 1},
                               {"skip_host": hosts[0] if hosts else None}):
                    full = moves.placement_targets(s, p, cid, **kwargs)
                    assert full == _plain_targets(s, p, cid, **kwargs)
                    assert [w for w, _r, _h in moves.places(s, p, cid, **kwargs)] == [w for w, _ in full]
                    checked += 1
                assert moves.can_place(s, p, cid) == bool(moves.placement_targets(s, p, cid))
    assert checked > 5000


def test_the_hand_is_offered_without_labelling_every_place(monkeypatch):
    s = next(s for s in _states(4, 5) if s.phase == "play" and s.building is None and len(s.in_play()) > 4)
    expected = magic.hand_options(s, s.player, "Play a card")
    monkeypatch.setattr(magic, "placement_targets", lambda *a, **k: pytest.fail("places labelled"))
    assert magic.hand_options(s, s.player, "Play a card") == expected and expected


def test_the_deck_tables_hold_what_the_cards_say(monkeypatch):
    s = GOM.setup(["a", "b"], {}, 1)
    cards = cards_of(s.content)
    assert content.short_names(s.content) == {cid: c.short for cid, c in cards.items()}
    assert content.suits_of(s.content) == {cid: c.suit for cid, c in cards.items()}
    assert content.points_and_suits(s.content) == {cid: (c.vp, c.suit) for cid, c in cards.items()}
    cid = s.hands["a"][0]
    assert moves.label(s, cid) == cards[cid].short and s.suit(cid) == cards[cid].suit
    # the tables are read, not the cards (a card's `short` is written once per deck version)
    monkeypatch.setattr(content.CardDef, "short", property(lambda self: pytest.fail("short written again")))
    monkeypatch.setattr(GomState, "cards", property(lambda self: pytest.fail("cards looked up")))
    assert moves.label(s, cid) and s.suit(cid)


def _plain_value(s: GomState, realm: policy.Light, progress: bool = False) -> float:
    """The realm value as it was written before the memo: straight from the cards."""
    cards = s.cards
    if not any(cards[c].suit == Suit.LOCATION for c, _ in realm):
        return 0
    total: float = 0
    suits: set[Suit] = set()
    for c, ds in realm:
        total += cards[c].vp
        suits.add(cards[c].suit)
        for d in ds:
            total += cards[d].vp
            suits.add(Suit.DESCRIPTOR)
    if len(suits) == len(Suit):
        total += policy.COMPLETE_BONUS
    return total + (0.5 * len(suits) if progress else 0)


def test_realm_values_memo_gives_the_plain_value_and_stays_bounded(monkeypatch):
    monkeypatch.setattr(policy, "_values", {})
    monkeypatch.setattr(policy, "_VALUES_MAX", 50)
    checked = 0
    for s in _many()[::5]:
        for p in s.players:
            for realm in policy._light(s, p):
                for extra in ([], [(s.hands[p][0], ())] if s.hands[p] else []):
                    for progress in (False, True):
                        r = [*realm, *extra]
                        assert policy._value(s, r, progress) == _plain_value(s, r, progress)
                        assert policy._value(s, r, progress) == _plain_value(s, r, progress)  # from the memo
                        checked += 1
                        assert len(policy._values) <= 50
    assert checked > 1000


def test_realm_values_memo_is_keyed_on_the_deck_version(monkeypatch):
    monkeypatch.setattr(policy, "_values", {})
    s = next(s for s in _states(3, 2) if any(policy._value(s, r) for r in policy._light(s, "p0")))
    realm = next(r for r in policy._light(s, "p0") if policy._value(s, r))
    other = s.model_copy(update={"content": "another-deck"})
    table = {cid: (vp + 1, suit) for cid, (vp, suit) in content.points_and_suits(s.content).items()}
    monkeypatch.setitem(content._points_by_id, "another-deck", table)
    assert policy._value(other, realm) == policy._value(s, realm) + sum(1 + len(ds) for _c, ds in realm)


def _plain_gain_place(s: GomState, player: str, cid: str, where: str) -> float:
    realms = policy._light(s, player)
    if where == "new":
        return _plain_value(s, [(cid, ())], True) - 1
    if where.startswith("r"):
        r = int(where[1:])
        return _plain_value(s, [*realms[r], (cid, ())], True) - _plain_value(s, realms[r], True)
    for realm in realms:
        for i, (c, ds) in enumerate(realm):
            if c == where[3:]:
                after = list(realm)
                after[i] = (c, (*ds, cid))
                return _plain_value(s, after, True) - _plain_value(s, realm, True)
    return 0


def _plain_gain_remove(s: GomState, owner: str, cid: str) -> float:
    for realm in policy._light(s, owner):
        for i, (c, ds) in enumerate(realm):
            if c == cid:
                after = realm[:i] + realm[i + 1:]
            elif cid in ds:
                after = list(realm)
                after[i] = (c, tuple(d for d in ds if d != cid))
            else:
                continue
            return _plain_value(s, realm) - _plain_value(s, after)
    return 0


def test_gains_read_one_realm_and_agree_with_the_whole_domain_reckoning():
    checked = 0
    for s in _many()[::4]:
        for p in s.players:
            realms = policy._light(s, p)
            for cid in s.hands[p]:
                for where, _r, _h in moves.places(s, p, cid):
                    expected = _plain_gain_place(s, p, cid, where)
                    assert policy._gain_place(s, p, cid, where) == expected
                    assert policy._gain_in(s, realms, cid, where) == expected
                    checked += 1
        losses = policy._owner_losses(s)
        assert len(losses) == len(s.in_play())
        for owner, _r, cid in s.in_play():
            loss = _plain_gain_remove(s, owner, cid)
            assert policy._gain_remove(s, owner, cid) == loss
            assert losses[cid] == (s.where(cid)[0], loss)
            checked += 1
    assert checked > 3000


def test_the_best_play_makes_the_domain_light_once(monkeypatch):
    s = next(s for s in _many() if s.phase == "play" and len(s.hands[s.player]) > 2
             and s.domains[s.player])
    calls = []
    light = policy._light
    monkeypatch.setattr(policy, "_light", lambda *a: calls.append(1) or light(*a))
    monkeypatch.setattr(policy, "_light_realm", lambda *a: pytest.fail("a realm made light again"))
    card, _v = policy._best_play(s, s.player, list(s.hands[s.player]))
    assert card is not None and calls == [1]


def test_the_copy_knows_the_fields_it_copies_flat(monkeypatch):
    fields = GomState.model_fields
    for name in ("players", "deck", "discard", "setup_done", "forbidden"):
        assert fields[name].annotation == list[str], name
    for name, value in (("options", str), ("scores", int), ("setup_played", int)):
        assert fields[name].annotation == dict[str, value], name
    assert fields["hands"].annotation == dict[str, list[str]]
    assert set(copying._BY_FIELD) <= set(fields)
    assert set(Rng.model_fields) == {"seed", "counter", "scripted"}  # `_rng` copies the one list
    # those fields never go through the generic copy
    real = copying._value

    def generic(v):
        assert not isinstance(v, (list, dict, Rng)) or v == [], f"the generic copy took {v!r}"
        return real(v)

    monkeypatch.setattr(copying, "_value", generic)
    s = next(s for s in _states(4, 2) if s.setup_played and s.discard and s.forbidden == [])
    s.rng.script(3)
    c = copying.copy_state(s)
    assert c == s and c.rng.scripted == [3] and c.rng.scripted is not s.rng.scripted
    for name in copying._BY_FIELD:
        assert getattr(c, name) is not getattr(s, name)


def test_a_card_with_a_single_place_is_found_without_labelling_its_places(monkeypatch):
    """The Play plan makes a hand card with one place the whole move at once: it counts the
    places (`one_step`) instead of labelling them all, and offers what the plain way did."""
    from rules.gods_of_magic import plans

    states = [s for s in _many() if s.phase in ("play", "magic") and s.building is None]
    counted = 0
    for s in states:
        for cid in s.hands[s.player]:
            assert sum(1 for _ in moves.places(s, s.player, cid)) == len(magic.target_options(s, s.player, cid))
            counted += 1
    assert counted > 1000
    fast = [magic.play_actions(s, s.player, "Play a card") for s in states]
    real = plans.offer

    def plain(plan, building, choices, one_step=None):
        """`offer` counting the places by making them, as it did before `one_step` counted."""
        making = None if one_step is None else lambda v: len(list(choices(plan.args[1], {plan.args[0]: v})))
        return real(plan, building, choices, one_step=making)

    monkeypatch.setattr(magic, "offer", plain)
    assert fast == [magic.play_actions(s, s.player, "Play a card") for s in states]
    assert sum(1 for acts in fast for a in acts if a.key.startswith("play:")) > 50  # whole moves offered
