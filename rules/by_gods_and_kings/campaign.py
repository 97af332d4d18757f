"""The campaign: characters that belong to people and last between sessions.

A saved character (`Character`, the game's record) is made from a starting kit (an entry of
characters.yaml: base stats, equipment, shards) and keeps what happens to it: the loot it
claimed, the equipment it wears, its shards and their experience, the scenarios it cleared.

- **The party**: every seat brings its characters (a person may bring several), in seat order;
  a new character with no kit yet takes the first kit nobody in the party uses. When the party
  option asks for more characters than were brought, the band's hirelings (kits not used yet,
  kept by nobody) fill it up, dealt round the seats.
- **A shard exists once in a game**: a shard already in the party (an earlier character has it)
  is set aside by the later one for this game and comes back to it afterwards.
- **Experience** (the rulebook: shards gain it "upon the completion of scenarios", and only
  those equipped at its end count): when the scenario is cleared, each equipped shard gains a
  point for every battle won in the last attempt and `CLEAR_BONUS` more. A lost scenario gives
  none, and its loot is lost: the characters go home as they set out (flow.wipe).
- **Tasks between scenarios** (the rulebook: between scenarios the players may "assist in
  completing additional tasks"): in the camp before setting out, each saved character (not
  a hireling) may take one task of tasks.yaml it has not done yet (and whose `after`
  scenario it has cleared), for its reward: experience for its equipped shards and/or an
  item in its bag (tasks.py). The record keeps the tasks done; a task's reward is the
  character's even if the scenario is then lost (it was earned before setting out).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from rules.by_gods_and_kings.content import MAX_EQUIPPED, Catalogue, CharacterDef, Stats
from rules.by_gods_and_kings.gear import Loadout, gear_stats
from rules.by_gods_and_kings.state import BgkState, Hero
from rules.core import Event, IllegalAction

CLEAR_BONUS = 2
NAME_MAX = 40


class Character(BaseModel):
    """A saved character (the record a seat brings)."""

    name: Annotated[str, Field(min_length=1, max_length=NAME_MAX)]
    kit: str = ""
    """Its starting kit (a characters.yaml id); "": not made yet (the game gives it a free kit)."""
    loadout: Loadout = Loadout()
    bag: list[str] = Field(default_factory=list)
    shards: list[str] = Field(default_factory=list)
    equipped: list[str] = Field(default_factory=list)
    shard_xp: dict[str, int] = Field(default_factory=dict)
    cleared: dict[str, int] = Field(default_factory=dict)
    """Scenario id -> times cleared."""
    adventures: int = 0
    """Scenarios played to their end (cleared or not)."""
    tasks: list[str] = Field(default_factory=list)
    """The tasks between scenarios it has done (tasks.yaml ids; each is done once)."""


def kit_of(cat: Catalogue, kit: str) -> CharacterDef:
    found = next((c for c in cat.characters if c.id == kit), None)
    if found is None:
        raise IllegalAction(f"There is no starting kit `{kit[:20]}` (kits: "
                            f"{', '.join(c.id for c in cat.characters)}).")
    return found


def new_character(cat: Catalogue, name: str, kit: str) -> Character:
    """A character made from a starting kit, wearing and carrying what the kit gives."""
    k = kit_of(cat, kit)
    return Character(name=name, kit=k.id, loadout=Loadout(main=k.main, off=k.offhand, body=k.body, head=k.head),
                     bag=list(k.bag), shards=list(k.shards), equipped=list(k.equipped))


def check_character(cat: Catalogue, c: Character) -> None:
    """The saved character fits this content (kit, items, shards exist); IllegalAction if not."""
    kit_of(cat, c.kit)
    items = [x for x in (c.loadout.main, c.loadout.off, c.loadout.body, c.loadout.head) if x] + c.bag
    unknown = [x for x in items if x not in cat.items] + [x for x in c.shards if x not in cat.shards]
    if unknown:
        raise IllegalAction(f"{c.name} carries `{unknown[0][:20]}`, which this server's content "
                            "no longer has.")


def hero_from(c: Character, uid: str, seat: str) -> Hero:
    return Hero(id=uid, name=c.name, hp=0, template=c.kit, seat=seat, loadout=c.loadout,
                bag=list(c.bag), shards=list(c.shards), equipped=list(c.equipped),
                shard_xp=dict(c.shard_xp), record=c.name, cleared=dict(c.cleared),
                adventures=c.adventures, tasks=list(c.tasks))


def form_party(cat: Catalogue, players: list[str], brought: dict[str, list[Character]],
               size: int) -> list[Hero]:
    """The party: the characters each seat brought, then hirelings up to `size` (see the
    module's docstring). Kit-less characters get free kits; duplicate shards are set aside."""
    chars = [(p, c) for p in players for c in brought.get(p, [])]
    used = {c.kit for _, c in chars if c.kit}
    free = [k.id for k in cat.characters if k.id not in used]
    party: list[Hero] = []
    for seat, c in chars:
        if not c.kit:
            kit = free.pop(0) if free else cat.characters[len(party) % len(cat.characters)].id
            c = new_character(cat, c.name, kit).model_copy(
                update={"shard_xp": c.shard_xp, "cleared": c.cleared, "adventures": c.adventures,
                        "tasks": c.tasks})
        check_character(cat, c)
        party.append(hero_from(c, f"c{len(party)}", seat))
    hirelings = [k for k in cat.characters if k.id in free]
    while len(party) < size and hirelings:
        k = hirelings.pop(0)
        seat = players[len(party) % len(players)]
        h = hero_from(new_character(cat, k.name, k.id), f"c{len(party)}", seat)
        party.append(h.model_copy(update={"record": None}))
    set_aside_duplicates(party)
    return party


def set_aside_duplicates(party: list[Hero]) -> None:
    """A shard held by an earlier character is set aside by the later one for this game."""
    held: set[str] = set()
    for h in party:
        for sid in list(h.shards):
            if sid in held:
                h.shards.remove(sid)
                if sid in h.equipped:
                    h.equipped.remove(sid)
                    h.aside_equipped.append(sid)
                h.aside.append(sid)
            else:
                held.add(sid)


def aside_events(cat: Catalogue, party: list[Hero]) -> list[Event]:
    holder = {sid: h for h in party for sid in h.shards}
    return [Event(kind="shard_aside", text=(
        f"{cat.shards[sid].name} exists once: {holder[sid].name} carries it, so {h.name} "
        "leaves theirs aside for this scenario."), data={"unit": h.id, "shard": sid})
        for h in party for sid in h.aside if sid in holder]


def award_experience(s: BgkState, events: list[Event]) -> None:
    """The scenario is completed (flow.victory; a lost one gives none): every equipped shard of
    the party gains its experience."""
    gain = s.battles_won + CLEAR_BONUS
    for h in s.own_party():
        grown = gain_experience(s, h, gain)
        if grown:
            events.append(Event(kind="experience", text=(
                f"{h.name}'s equipped shards gain {gain} experience: {', '.join(grown)}."),
                data={"unit": h.id, "gain": gain}))


def gain_experience(s: BgkState, h: Hero, gain: int) -> list[str]:
    """Each equipped shard of `h` gains `gain` experience: their names, with each new level."""
    from rules.by_gods_and_kings.levels import shard_level

    cat = s.cat
    grown = []
    xp = h.shard_xp = dict(h.shard_xp)  # a new dict: a character's gear is replaced whole (state.GEAR)
    for sid in h.equipped:
        before = xp.get(sid, 0)
        xp[sid] = before + gain
        lv0, lv1 = shard_level(cat, sid, before), shard_level(cat, sid, before + gain)
        grown.append(cat.shards[sid].name + (f" (level {lv1}!)" if lv1 > lv0 else ""))
    return grown


def characters_out(s: BgkState) -> dict[str, list[BaseModel]]:
    """Each seat's saved characters as they leave the game (hirelings are kept by nobody)."""
    out: dict[str, list[BaseModel]] = {p: [] for p in s.players}
    over = s.phase == "over"
    for h in s.party:
        if h.record is None:
            continue
        equipped = list(h.equipped)
        for sid in h.aside_equipped:
            if len(equipped) < MAX_EQUIPPED and sid not in equipped:
                equipped.append(sid)
        cleared = dict(h.cleared)
        if over and s.outcome == "victory":
            cleared[s.scenario] = cleared.get(s.scenario, 0) + 1
        out[h.seat].append(Character(
            name=h.record, kit=h.template, loadout=h.loadout, bag=list(h.bag),
            shards=[*h.shards, *h.aside], equipped=equipped, shard_xp=dict(h.shard_xp),
            cleared=cleared, adventures=h.adventures + over, tasks=list(h.tasks)))
    return out


# --- /character: kits and the character sheet ------------------------------------------------
def kit_choices(cat: Catalogue) -> list[tuple[str, str]]:
    """(kit id, label) for every starting kit."""
    return [(k.id, f"{k.name}: {k.text}" if k.text else k.name) for k in cat.characters]


def _stats_line(st: Stats) -> str:
    return (f"HP {st.hp} · DEF {st.defense} · Physical {st.physical} · Magic {st.magic} · "
            f"SPD {st.spd}")


def describe(cat: Catalogue, c: Character) -> list[tuple[str, str]]:
    """The character sheet: stats and where they come from, equipment, shards, bag, past."""
    from rules.by_gods_and_kings.levels import shard_level
    from rules.by_gods_and_kings.stats import hero_base

    if not c.kit:
        return [("A new character", "It gets its starting kit in its first game: the first kit "
                 "nobody else in the party uses.")]
    kit = kit_of(cat, c.kit)
    hero = hero_from(c, "c0", "")
    total = hero_base(cat, hero, [hero])
    sources = [f"{kit.name}'s kit: {kit.base.describe()}"]
    gear = Stats()
    for slot in ("main", "off", "body", "head"):
        item = getattr(c.loadout, slot)
        if item is not None:
            part = gear_stats(cat, Loadout(**{slot: item}))
            gear = gear + part
            sources.append(f"{cat.items[item].name}: {part.describe()}")
    fields = ("hp", "defense", "physical", "magic", "spd")
    rest = {f: getattr(total, f) - getattr(kit.base, f) - getattr(gear, f) for f in fields}
    shards = Stats(**rest)
    if shards.set_fields():
        sources.append(f"equipped shards: {shards.describe()}")
    worn = [f"{slot}: {cat.items[x].name}" for slot, x in
            (("Main hand", c.loadout.main), ("Off hand", c.loadout.off), ("Body", c.loadout.body),
             ("Head", c.loadout.head)) if x]
    shard_lines = []
    for sid in c.shards:
        xp = c.shard_xp.get(sid, 0)
        mark = "equipped" if sid in c.equipped else "carried"
        shard_lines.append(f"{cat.shards[sid].name}: level {shard_level(cat, sid, xp)}, {xp} experience ({mark})")
    past = ", ".join(f"{cat.scenarios[k].name if k in cat.scenarios else k} ×{n}" for k, n in c.cleared.items())
    done = ", ".join(cat.tasks[k].name if k in cat.tasks else k for k in c.tasks)
    return [
        ("Stats", f"{_stats_line(total)}\n" + "\n".join(sources)),
        ("Equipment", "\n".join(worn) or "nothing worn"),
        ("Shards", "\n".join(shard_lines) or "none"),
        ("Bag", ", ".join(cat.items[x].name for x in c.bag) or "empty"),
        ("Adventures", f"{c.adventures} played to the end" + (f"; cleared: {past}" if past else "")
         + (f"; tasks done: {done}" if done else "")),
    ]
