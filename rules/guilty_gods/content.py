"""The decks of Guilty Gods: creature and summoner models, and loading them from content.

Every `content/guilty-gods/<deck>.yaml` is one deck (its id is the file stem): a name, a
theme line, its three summoners and its creatures. A creature entry stands for `copies`
identical cards; the copies of all entries add up to the deck size (52). A server's content
pack may replace a shipped deck or add a new one with the same format. Errors name the file,
the entry and the field (see rules.core.content).

Skills are built from a small vocabulary of effects (`Effect`) that the code implements; the
content combines them. Summoner powers likewise come from a fixed list (`Power`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from rules.core.content import ContentError, Pinned, content_files, content_roots, load_model

GAME_ID = "guilty-gods"
DECK_SIZE = 52
DECK_ID = re.compile(r"[a-z0-9]{1,20}")
MAX_LEVEL = 5

Sphere = Literal["physical", "magical", "supernatural", "divine"]
SPHERES: tuple[Sphere, ...] = ("physical", "magical", "supernatural", "divine")
"""The printed order on an attack card, left to right; a defense card prints them reversed, so
that two cards laid top to top show each sphere facing the same sphere."""
SPHERE_MARKS = {"physical": "P", "magical": "M", "supernatural": "S", "divine": "D"}
SPHERE_LEGEND = "P physical, M magical, S supernatural, D divine"


def marks(spheres: Iterable[str]) -> str:
    """Spheres as letters, always in the attack card's order (P M S D), the order in which they
    meet in combat: the one spelling of the texts, whatever the card's kind."""
    have = set(spheres)
    return "".join(SPHERE_MARKS[s] for s in SPHERES if s in have)

Kind = Literal["attack", "defense"]


class Slot(BaseModel):
    """A combo slot on one side of a card: closed, open for free, or open at a cost in seals."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    open: bool
    cost: int = Field(0, ge=0, le=3)

    @property
    def text(self) -> str:
        if not self.open:
            return "closed"
        return f"+{self.cost}" if self.cost else "open"


def _slot(value: Any) -> Any:
    """`closed`, `open`, a cost (`2` or `+2`), or a mapping as the model has it."""
    if isinstance(value, bool):
        raise ValueError("a slot is `closed`, `open` or a seal cost such as +1")
    if isinstance(value, int):
        return {"open": True, "cost": value}
    if isinstance(value, str):
        text = value.strip().lower()
        if text == "closed":
            return {"open": False}
        if text == "open":
            return {"open": True, "cost": 0}
        if text.lstrip("+").isdigit():
            return {"open": True, "cost": int(text.lstrip("+"))}
        raise ValueError(f"{value!r} is not a slot: use closed, open or a seal cost such as +1")
    return value


SlotField = Annotated[Slot, BeforeValidator(_slot)]


class Effect(BaseModel):
    """What a skill does; the fields combine (a skill may deal damage and heal)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    damage: int = Field(0, ge=0, le=3)
    """Extra damage to the defender (attack cards only)."""
    prevent: int = Field(0, ge=0, le=3)
    """Damage of the attack prevented (defense cards only)."""
    seals: int = Field(0, ge=0, le=3)
    """Divine Seals gained at the end of the move."""
    steal: int = Field(0, ge=0, le=3)
    """Divine Seals taken from the opponent at the end of the move (as many as they have)."""
    heal: int = Field(0, ge=0, le=3)
    """Gnosis restored at the end of the turn (never above the starting 10)."""
    draw: int = Field(0, ge=0, le=3)
    """Cards drawn at the end of the move (never above 7 in hand)."""
    discard: int = Field(0, ge=0, le=2)
    """The opponent discards this many cards at random from their hand."""
    open_slots: bool = False
    """The supported card's closed slots count as open, free (automatic individual supports)."""
    sphere: Sphere | None = None
    """The supported card (all cards of the move, for a group support) also has this sphere
    (automatic supports)."""

    @property
    def modifies_cards(self) -> bool:
        return self.open_slots or self.sphere is not None

    def is_empty(self) -> bool:
        return not (self.damage or self.prevent or self.seals or self.steal or self.heal
                    or self.draw or self.discard or self.modifies_cards)

    def describe(self, group: bool = False) -> str:
        """The effect in words; `group`: a group support's, whose damage and prevention count
        once for the whole move (never once per card), which the text says."""
        parts = []
        if self.sphere:
            parts.append(f"{'every card ' if group else ''}gains the {self.sphere} sphere")
        if self.open_slots:
            parts.append("its closed slots count as open")
        if self.damage:
            parts.append(f"+{self.damage} damage to the whole move, not per card" if group
                         else f"+{self.damage} damage")
        if self.prevent:
            parts.append(f"prevent {self.prevent} damage of the whole attack" if group
                         else f"prevent {self.prevent} damage")
        if self.seals:
            parts.append(f"gain {self.seals} seal{'s' * (self.seals > 1)}")
        if self.steal:
            parts.append(f"steal {self.steal} seal{'s' * (self.steal > 1)}")
        if self.heal:
            parts.append(f"restore {self.heal} Gnosis at the end of the turn")
        if self.draw:
            parts.append(f"draw {self.draw}")
        if self.discard:
            parts.append(f"the opponent discards {self.discard} at random")
        return ", ".join(parts)


class OwnSkill(BaseModel):
    """The skill a creature uses for itself when it attacks or defends successfully."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cost: int = Field(0, ge=0, le=7)
    effect: Effect

    @model_validator(mode="after")
    def _check(self) -> OwnSkill:
        if self.effect.is_empty():
            raise ValueError("the effect does nothing")
        if self.effect.modifies_cards:
            raise ValueError("sphere and open_slots change a card as it is played: only automatic "
                             "supports have them")
        return self

    def describe(self) -> str:
        return f"{self.effect.describe()} ({_cost(self.cost)})"


class SupportSkill(BaseModel):
    """What a creature grants when played as a support (under one card, or beside the move)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    scope: Literal["individual", "group"]
    cost: int | Literal["N"] = Field(0)
    """Seals to pay; N: the level of the supported card (individual supports only)."""
    automatic: bool = False
    """Works as soon as it is played, without a successful attack or defense (paid then)."""
    effect: Effect

    @model_validator(mode="after")
    def _check(self) -> SupportSkill:
        if isinstance(self.cost, int) and not 0 <= self.cost <= 7:
            raise ValueError("cost must be 0-7 or N")
        if self.cost == "N" and self.scope != "individual":
            raise ValueError("a cost of N (the supported card's level) needs an individual support")
        if self.effect.is_empty():
            raise ValueError("the effect does nothing")
        if self.effect.modifies_cards and not self.automatic:
            raise ValueError("sphere and open_slots change a card as it is played: the support "
                             "must be automatic")
        if self.effect.open_slots and self.scope != "individual":
            raise ValueError("open_slots works under one card: the support must be individual")
        return self

    def cost_for(self, level: int) -> int:
        return level if self.cost == "N" else int(self.cost)

    def describe(self) -> str:
        cost = "N seals (the supported card's level)" if self.cost == "N" else _cost(int(self.cost))
        auto = ", Automatic" if self.automatic else ""
        return f"{self.scope.capitalize()}: {self.text()} ({cost}{auto})"

    def text(self) -> str:
        """What the support does, in words (a group support's damage: once for the move)."""
        return self.effect.describe(group=self.scope == "group")


def _cost(n: int) -> str:
    return "free" if n == 0 else f"{n} seal{'s' * (n > 1)}"


class CreatureDef(BaseModel):
    """One creature of a deck (`copies` identical cards)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,12}$")
    """Stable short id, used in action keys."""
    name: str = Field(min_length=1, max_length=32)
    kind: Kind
    spheres: list[Sphere] = Field(min_length=1, max_length=4)
    left: SlotField
    right: SlotField
    seal: bool
    """Its Divine Seal is lit: played (not as a support) it grants a seal at the end of the move."""
    level: int = Field(ge=1, le=MAX_LEVEL)
    copies: int = Field(ge=1, le=8)
    skill: OwnSkill | None = None
    support: SupportSkill
    lore: str = Field("", max_length=120)

    @model_validator(mode="after")
    def _check(self) -> CreatureDef:
        if len(set(self.spheres)) != len(self.spheres):
            raise ValueError("a sphere is listed twice")
        for skill in (self.skill, self.support):
            if skill is None:
                continue
            if self.kind == "attack" and skill.effect.prevent:
                raise ValueError("an attack card cannot prevent damage (prevent is for defense)")
            if self.kind == "defense" and skill.effect.damage:
                raise ValueError("a defense card cannot deal damage (damage is for attack)")
        return self

    @property
    def printed_spheres(self) -> list[Sphere]:
        """The spheres in the order printed on the card (reversed on defense cards)."""
        order = SPHERES if self.kind == "attack" else tuple(reversed(SPHERES))
        return [s for s in order if s in self.spheres]

    @property
    def sphere_marks(self) -> str:
        """Its spheres as letters in the one order of the texts (see `marks`)."""
        return marks(self.spheres)

    @property
    def short(self) -> str:
        """Name with kind, spheres and level, e.g. 'Thornling (attack P L1)': label-sized (the
        kind in a word: its letter would read as a sphere's, D as divine)."""
        return f"{self.name} ({self.kind} {self.sphere_marks} L{self.level})"


Power = Literal["seals_for_damage", "draw", "chain", "protection", "combination",
                "extra_damage", "seal_when_low"]
"""seals_for_damage: seals equal to the damage taken from an attack (Sarah);
draw: may draw one card at the start of the initiative, 7 cards at most (Kairos);
chain: pay `cost` to keep the initiative after spending it (Astraega, Aizen);
protection: pay `cost` to take `amount` less damage from an attack (Astraega);
combination: pay `cost` to open a closed slot in a combo (Aizen);
extra_damage: every successful attack move deals `amount` more (Ophiel);
seal_when_low: take `amount` seal at the start of the initiative with `threshold` or fewer (Genma)."""


class SummonerPower(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    power: Power
    cost: int = Field(0, ge=0, le=7)
    amount: int = Field(1, ge=1, le=3)
    threshold: int = Field(6, ge=0, le=7)


class SummonerDef(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9_-]{1,20}$")
    name: str = Field(min_length=1, max_length=32)
    text: str = Field(min_length=1, max_length=400)
    powers: list[SummonerPower] = Field(min_length=1, max_length=3)

    def power(self, kind: Power) -> SummonerPower | None:
        return next((p for p in self.powers if p.power == kind), None)


class DeckDef(BaseModel):
    """One deck file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=32)
    theme: str = Field(min_length=1, max_length=300)
    summoners: list[SummonerDef] = Field(min_length=3, max_length=3)
    creatures: list[CreatureDef] = Field(min_length=2)

    @model_validator(mode="after")
    def _check(self) -> DeckDef:
        _unique("creatures", "id", [c.id for c in self.creatures])
        _unique("creatures", "name", [c.name for c in self.creatures])
        _unique("summoners", "id", [s.id for s in self.summoners])
        for i, a in enumerate(self.creatures):
            for j, b in enumerate(self.creatures):
                if a.level > b.level and a.copies >= b.copies:
                    raise ValueError(
                        f"creatures.{i} ({a.id}, level {a.level}) has {a.copies} copies and "
                        f"creatures.{j} ({b.id}, level {b.level}) {b.copies}: the higher the level, "
                        "the fewer copies")
        total = sum(c.copies for c in self.creatures)
        if total != DECK_SIZE:
            raise ValueError(f"the copies add up to {total} cards: a deck has {DECK_SIZE}")
        for kind in ("attack", "defense"):
            if not any(c.kind == kind for c in self.creatures):
                raise ValueError(f"the deck has no {kind} card")
        return self

    def cards(self) -> list[str]:
        """The 52 cards of the deck as creature ids (copies repeated), in file order."""
        return [c.id for c in self.creatures for _ in range(c.copies)]


def _unique(where: str, field: str, values: Iterable[str]) -> None:
    seen: dict[str, int] = {}
    for i, v in enumerate(values):
        if v in seen:
            raise ValueError(f"{where}.{i}.{field}: {v!r} is already used by {where}.{seen[v]}")
        seen[v] = i


_cache: dict[tuple[str, ...], dict[str, DeckDef]] = {}


def check_decks(decks: dict[str, DeckDef], paths: dict[str, Path]) -> None:
    """Checks across decks: creature and summoner ids are unique in the whole game."""
    owner: dict[str, str] = {}
    for deck_id, deck in decks.items():
        for i, c in enumerate(deck.creatures):
            if c.id in owner:
                raise ContentError(f"{paths[deck_id]}: at creatures.{i}.id: {c.id!r} is already a "
                                   f"creature of {paths[owner[c.id]]}")
            owner[c.id] = deck_id
        for i, s in enumerate(deck.summoners):
            if s.id in owner:
                raise ContentError(f"{paths[deck_id]}: at summoners.{i}.id: {s.id!r} is already "
                                   f"used in {paths[owner[s.id]]}")
            owner[s.id] = deck_id
    if len(decks) < 2:
        raise ContentError(f"content/{GAME_ID}/ needs at least two decks, found {sorted(decks)}")


def load_decks() -> dict[str, DeckDef]:
    """Every deck in use, by id (the file stem), validated; shipped files and a pack's."""
    roots = tuple(str(r) for r in content_roots())
    if roots not in _cache:
        paths = {p.stem: p for p in content_files(GAME_ID, "*.yaml")}
        for deck_id, path in paths.items():
            if not DECK_ID.fullmatch(deck_id):
                raise ContentError(f"{path}: a deck's file name must be 1-20 characters of a-z "
                                   "and 0-9 (it becomes the deck's id)")
        decks = {deck_id: load_model(path, DeckDef) for deck_id, path in sorted(paths.items())}
        check_decks(decks, paths)
        _cache[roots] = decks
    return _cache[roots]


def clear_cache() -> None:
    _cache.clear()


class Catalogue(BaseModel):
    """What a duel reads from the content: every creature and summoner of the decks, each deck's
    name, summoners and 52 cards. A game pins the version it started with."""

    model_config = ConfigDict(frozen=True)

    cards: dict[str, CreatureDef]
    summoners: dict[str, SummonerDef]
    deck_names: dict[str, str]
    deck_summoners: dict[str, list[str]]
    deck_cards: dict[str, list[str]]


def catalogue_of(decks: dict[str, DeckDef]) -> Catalogue:
    return Catalogue(
        cards={c.id: c for d in decks.values() for c in d.creatures},
        summoners={x.id: x for d in decks.values() for x in d.summoners},
        deck_names={k: d.name for k, d in decks.items()},
        deck_summoners={k: [x.id for x in d.summoners] for k, d in decks.items()},
        deck_cards={k: d.cards() for k, d in decks.items()})


CATALOGUES: Pinned[Catalogue] = Pinned(GAME_ID, Catalogue, lambda: catalogue_of(load_decks()))
"""Every catalogue version this process knows; a state names the one its duel started with."""
