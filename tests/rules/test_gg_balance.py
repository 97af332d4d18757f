"""The summoner figures of `python -m rules.guilty_gods.balance --summoners` count what happened."""

from __future__ import annotations

from rules.guilty_gods.balance import SummonerUse, _auto, duel, main, tally_summoners

PLAYERS = {"lilium": _auto, "umbra": _auto}


def test_the_tally_counts_each_initiative_after_the_first_and_its_sides_win():
    events: list = []
    s, _ = duel(5, "umbra", PLAYERS, events)
    winner = s.winners[0]
    into: dict[str, SummonerUse] = {}
    tally_summoners(events, winner, into)
    turns = [e.data["turn"] for e in events if e.kind == "turn"]
    chosen = [e.data for e in events if e.kind == "summoner"]
    assert sum(u.turns for u in into.values()) == len(chosen) - 1 == len(turns) - 1
    assert sum(u.won for u in into.values()) == sum(d["player"] == winner for d in chosen[1:])
    sarah = sum(1 for e in events if e.kind == "seals" and "Sarah" in e.text)
    assert into.get("sarah", SummonerUse()).uses["seals_for_damage"] == sarah
    chains = sum(1 for e in events if e.kind == "chain")
    assert sum(u.uses["chain"] for u in into.values()) == chains


def test_the_command_prints_every_summoner(capsys):
    assert main(["--games", "1", "--summoners"]) == 0
    out = capsys.readouterr().out
    for name in ("sarah", "kairos", "astraega", "aizen", "ophiel", "genma"):
        assert f" {name}" in out
