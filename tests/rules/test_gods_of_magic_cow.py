"""Copy on write of the realms (rules.gods_of_magic.copying): the state `apply` returns keeps
the realms of the state it came from, and the rules copy a realm just before they change it.
If any change to a realm skipped that copy, an earlier state would change: these tests look for
exactly that, over whole games and over every legal move of many positions."""

from __future__ import annotations

from rules.core import Rng
from rules.gods_of_magic import GAME as GOM
from rules.gods_of_magic.copying import copy_for_apply, own_realm
from rules.gods_of_magic.state import GomState, Placed
from tests.support.sharing import mutables

_OPTIONS: list[dict[str, str]] = [{}, {"storytelling": "strict"}]


def _random_game(players: int, seed: int, options: dict[str, str],
                 steps: int = 600) -> list[tuple[GomState, str]]:
    """The states of one game, mostly the automatic player and one move in four at random (so that
    every Magic Table result, Recombinations and votes come up), each with its JSON as it was made."""
    names = [f"p{i}" for i in range(players)]
    s = GOM.setup(names, options, seed)
    chooser = Rng(seed=seed).fork("cow")
    seen = [(s, s.model_dump_json())]
    for _ in range(steps):
        if GOM.result(s) is not None:
            break
        player = GOM.to_act(s)[0]
        if chooser.roll(4) == 1:
            action = chooser.choice(GOM.legal_actions(s, player))
        else:
            action = GOM.auto_action(s, player, chooser)
        s = GOM.apply(s, player, action.key, "a line" if action.text_prompt else None).state
        seen.append((s, s.model_dump_json()))
    return seen


def _unchanged(seen: list[tuple[GomState, str]]) -> None:
    for i, (s, made) in enumerate(seen):
        assert s.model_dump_json() == made, f"state {i} changed after it was made"


def test_no_state_changes_after_it_was_made_over_whole_games():
    moves = 0
    steps: set[str] = set()
    for players, seed in ((2, 1), (3, 2), (5, 3), (8, 4), (8, 5)):
        for options in _OPTIONS:
            seen = _random_game(players, seed, options)
            _unchanged(seen)
            moves += len(seen)
            steps.update(s.step for s, _ in seen)
    assert moves > 1500
    assert {"creation", "transform", "destroy", "move", "alter", "recombine", "evoke"} <= steps


def test_no_legal_move_changes_the_state_it_was_made_from():
    """Every legal move of many positions, each from the same state: none shows in the state
    itself, nor in the states made by the other moves."""
    tried = 0
    for players, seed in ((3, 6), (8, 7)):
        for options in _OPTIONS:
            for s, made in _random_game(players, seed, options, 400)[::3]:
                if GOM.result(s) is not None:
                    continue
                children = []
                for player in GOM.acting(s):
                    for a in GOM.legal_actions(s, player):
                        child = GOM.apply(s, player, a.key, "a line").state
                        children.append((child, child.model_dump_json()))
                        tried += 1
                assert s.model_dump_json() == made
                _unchanged(children)
    assert tried > 2000


def test_the_copy_for_apply_shares_the_realms_and_nothing_else():
    for s, _made in _random_game(4, 8, {"storytelling": "strict"}, 300)[::10]:
        c = copy_for_apply(s)
        assert c == s and c.model_dump_json() == s.model_dump_json()
        for owner, realms in s.domains.items():
            assert c.domains[owner] is not realms
            assert all(a is b for a, b in zip(c.domains[owner], realms, strict=True))
        realms = {id(v) for rs in s.domains.values() for r in rs for v in mutables(r)}  # and their cards
        ours = {id(v) for v in mutables(s, [])} - realms
        assert not any(id(v) in ours for v in mutables(c, []))


def test_an_owned_realm_shares_nothing_with_the_one_it_replaced():
    def described(s: GomState) -> tuple[str, int] | None:
        """A realm holding a card with a Descriptor, if any."""
        return next(((o, r) for o, rs in s.domains.items() for r, realm in enumerate(rs)
                     if any(p.descriptors for p in realm.cards)), None)

    s = next(s for s, _ in _random_game(3, 9, {}, 300) if described(s))
    owner, r = described(s) or ("", 0)
    c = copy_for_apply(s)
    old = c.domains[owner][r]
    mine = own_realm(c, owner, r)
    assert mine == old and mine is not old and c.domains[owner][r] is mine
    assert mine.cards is not old.cards
    assert all(p is not q and p.descriptors is not q.descriptors for p, q in zip(mine.cards, old.cards, strict=True))
    assert all(isinstance(p, Placed) for p in mine.cards)
    mine.cards.clear()
    assert s.domains[owner][r].cards, "the state copied from keeps its realm"
