"""Issue 29 item 5: one automatic player, the strong one, everywhere. `rules.simulate`, the balance
runs and a table's automatic seats all use Discard and Sacrifice abilities the same way: the seat
to act takes its own heal, shield or revival first (`Game.auto_action`), and every other seat is
asked first (`auto_reaction`, `auto_reactions` at once). A reaction is wanted only where it helps,
so the automatic player never spends its cards in a loop."""

from __future__ import annotations

from rules.by_gods_and_kings import GAME as BGK
from rules.by_gods_and_kings import balance, policy
from rules.by_gods_and_kings.reactions import by_seat, reaction_refs
from rules.core import Rng
from rules.simulate import automatic_moves, play_one
from tests.support.playout import automatic_positions


def _spent(seed: int, players: int, options: dict[str, str]) -> dict[bool, int]:
    """How many reactions the seats used in a game played by `rules.simulate`, by whether the
    seat was the one the game waited for."""
    s = BGK.setup([f"seat{i + 1}" for i in range(players)], options, seed)
    used = {True: 0, False: 0}
    waited = BGK.to_act(s)
    for player, after, out in automatic_moves(BGK, s, seed):
        if any(e.kind == "use" or e.kind == "spend" for e in out.events):
            used[player in waited] += 1
        waited = BGK.to_act(after)
    return used


def test_the_simulator_uses_reactions_of_the_seat_to_act_and_of_the_others():
    used = _spent(0, 4, {"scenario": "hollow-barrow"})
    assert used[True] > 5 and used[False] > 5


def test_a_solo_character_clears_the_hollow_barrow_with_them():
    """The weak player (no reactions for the seat to act) never cleared it alone (issue 29)."""
    won = [play_one(BGK, ["seat1"], {"scenario": "hollow-barrow", "party": "1"}, seed)[2].outcome
           for seed in range(4)]
    assert "victory" in won


def test_the_balance_runs_play_the_simulators_games():
    options = {"scenario": "sallow-fen", "party": "2"}
    for seed in range(2):
        _, steps, end = play_one(BGK, ["p0", "p1"], options, seed)
        state, played = balance._play(2, seed, {"scenario": "sallow-fen"})
        assert played.actions == steps
        assert BGK.dump_state(state) == BGK.dump_state(end)


def test_a_shield_is_not_wanted_once_it_covers_the_danger():
    """Seed 15 of a solo Hollow Barrow: Gilbert at 35 of 95 HP; shielding himself while his HP
    stays low played on forever (8,000 actions, a shield of 17,000)."""
    s = BGK.setup(["p0"], {"scenario": "hollow-barrow", "party": "1"}, 15)
    chooser = Rng(seed=1)
    while not (s.phase == "play" and s.party[0].hand):
        s = BGK.apply(s, "p0", BGK.auto_action(s, "p0", chooser).key).state
    s = s.model_copy(deep=True)
    hero = s.party[0]
    assert "bulwark" in hero.equipped  # Brace: a Discard shield on an ally
    hero.hp, hero.shield = 30, 0
    assert "c0.bulwark.discard" in policy.wanted_reactions(s, "p0")
    s = s.model_copy(deep=True)
    s.party[0].hp, s.party[0].shield = 30, 20  # 50 of 95 with the shield: out of danger
    assert "c0.bulwark.discard" not in policy.wanted_reactions(s, "p0")


def test_every_seat_is_asked_as_the_table_asks_them():
    """`auto_reactions` gives what asking each seat of `may_act` gives; `by_seat` what
    `reaction_refs` gives each seat."""
    asked = reacted = 0
    for players in (2, 4):
        for s in automatic_positions(BGK, players, range(1), 400, {"scenario": "hollow-barrow"}):
            found = next(((p, a) for p in BGK.may_act(s)
                          if (a := BGK.auto_reaction(s, p, Rng(seed=1))) is not None), None)
            assert BGK.auto_reactions(s, Rng(seed=1)) == found
            seats = by_seat(s)
            for p in s.players:
                assert [(h.id, ref) for h, ref, _ in seats.get(p, [])] == \
                    [(h.id, ref) for h, ref, _ in reaction_refs(s, p)]
            asked += 1
            reacted += found is not None
    assert asked > 500 and reacted > 5


def test_who_needs_help_is_worked_out_as_from_scratch():
    """`policy._need`, kept from one position to the next while HP and shields stay (and never
    in camp, where gear changes the maximum HP), is what working it out anew gives."""
    from rules.by_gods_and_kings.stats import max_hp

    def check(s):
        fallen, wounded, endangered = policy._need(s)
        allies = [*s.party, *(s.battle.npcs if s.battle is not None else [])]
        assert fallen == (s.battle is not None and any(h.hp <= 0 for h in s.party))
        assert wounded == {u.id for u in allies if 0 < u.hp < policy.DANGER * max_hp(s, u)}
        assert endangered == {u.id for u in allies if 0 < u.hp and u.hp + u.shield < policy.DANGER * max_hp(s, u)}

    phases, gear = set(), 0
    for s in automatic_positions(BGK, 3, range(2), 600, {"scenario": "hollow-barrow"}, random_share=10):
        check(s)
        phases.add(s.phase)
        if s.phase == "camp":  # gear put on or taken off: the same HP, another maximum
            for p in BGK.to_act(s):
                for a in BGK.legal_actions(s, p):
                    if a.key.split(":")[0] in ("wear", "wield", "offhand", "remove", "shard", "unshard"):
                        check(s)
                        check(BGK.apply(s, p, a.key).state)
                        gear += 1
    assert {"camp", "play", "enemy"} <= phases and gear > 5
