"""A cheap summary of a state that changes with every move: the guard under which `apply`
reuses the actions `auto_action` has just built for the very same state object (game.py)."""

from __future__ import annotations

from rules.by_gods_and_kings.state import BgkState


def shape(s: BgkState) -> tuple[object, ...]:
    """The phase, whose turn, the piles, the moves being built and every unit's changing
    counts: any move changes at least one of them. The fields are read from the models'
    `__dict__`, which is faster than attribute access on a pydantic model (a test compares
    the summary with the one read through the attributes). Lists are built, then made
    tuples: faster than tuples of generators."""
    d = s.__dict__
    battle = d["battle"]
    votes, buildings = d["votes"], d["buildings"]
    party = []
    for h in d["party"]:
        u = h.__dict__
        party.append((u["hp"], u["shield"], u["miss"], len(u["field"]), len(u["statuses"]), len(u["hand"]),
                      len(u["bag"]), len(u["shards"]), len(u["equipped"]), u["loadout"], u["held"]))
    fight = None
    if battle is not None:
        b = battle.__dict__
        foes = []
        for f in b["foes"]:
            u = f.__dict__
            foes.append((u["hp"], u["shield"], u["miss"], len(u["field"]), len(u["statuses"])))
        npcs = []
        for n in b["npcs"]:
            u = n.__dict__
            npcs.append((u["hp"], u["shield"], u["miss"], len(u["field"]), len(u["statuses"]), len(u["hand"])))
        fight = (b["round"], b["pos"], len(b["order"]), tuple(foes), tuple(npcs))
    return (d["phase"], d["actor"], d["played"], d["area"], d["step"], d["attempt"], d["rng"].__dict__["counter"],
            len(d["deck"]), len(d["discard"]), len(d["stash"]), tuple(d["queue"]), d["intent"], tuple(d["opening"]),
            tuple(d["saving"]), tuple(d["ready"]), tuple(votes.items()) if votes else (),
            tuple([(seat, x.verb, tuple(x.args.items())) for seat, x in buildings.items()]) if buildings else (),
            tuple(party), fight)
