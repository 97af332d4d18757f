"""Faction sheets: pydantic models for content/terra-sancta/factions/*.yaml and their loading."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.core.content import ContentError, Pinned, content_files, content_roots, load_model
from rules.terra_sancta.pieces import KIND_KEYS, PieceKind

GAME_ID = "terra-sancta"


class PieceSheet(BaseModel):
    """How one kind of piece is called and how it differs from the default movement."""

    name: str
    range: int | None = Field(default=None, ge=1, le=11)
    """Rook, bishop, champion: the furthest it may slide (None: to the edge or a piece)."""
    diagonal_step: bool = False
    """Pawn only: it may also move (not attack) one square diagonally."""


class LightningRow(BaseModel):
    low: int = Field(ge=1)
    high: int = Field(ge=1)
    damage: int = Field(ge=0)


class AbilitySheet(BaseModel):
    """The faction's special ability; `kind` selects the code in factions.py, the rest are its numbers."""

    kind: Literal["ranged", "drain", "lightning", "regrowth"]
    name: str
    text: str
    """The ability explained for the players (shown in /game rules)."""
    timing: Literal["permanent", "after_move"]
    # ranged (shots without moving)
    pawn_range: int = 2
    large_range: int = 3
    pawn_shot_die: int = 8
    large_shot_die: int = 16
    # drain (heal the attacker by a share of the damage)
    drain_percent: int = Field(default=50, ge=0, le=100)
    # lightning (an extra d16 strike by a table)
    die: int = 16
    table: list[LightningRow] = []
    # regrowth (heal one wounded piece by a die)
    heal_die: int = 8

    @model_validator(mode="after")
    def _table_covers_die(self) -> AbilitySheet:
        if self.kind == "lightning":
            covered = sorted(v for row in self.table for v in range(row.low, row.high + 1))
            if covered != list(range(1, self.die + 1)):
                raise ValueError(f"the lightning table must cover 1..{self.die} exactly once")
        return self


class FactionSheet(BaseModel):
    id: str
    name: str
    colour: str
    """#rrggbb, the colour of its pieces on the board."""
    summary: str
    pieces: dict[PieceKind, PieceSheet]
    ability: AbilitySheet

    @field_validator("colour")
    @classmethod
    def _hex(cls, v: str) -> str:
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", v):
            raise ValueError("colour must look like #rrggbb")
        return v

    @field_validator("pieces")
    @classmethod
    def _all_kinds(cls, v: dict) -> dict:
        missing = {"pawn", "knight", "bishop", "rook", "champion", "king"} - set(v)
        if missing:
            raise ValueError(f"missing piece(s): {', '.join(sorted(missing))}")
        return v

    def piece(self, kind: str) -> PieceSheet:
        key: PieceKind = KIND_KEYS[kind]
        return self.pieces[key]

    @property
    def rgb(self) -> tuple[int, int, int]:
        return tuple(int(self.colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def load_factions() -> dict[str, FactionSheet]:
    """Every faction sheet by id, in file order, from the content in use now (a server's pack
    applied); raises ContentError naming the file."""
    return _load_factions(tuple(str(r) for r in content_roots()))


@lru_cache(maxsize=4)
def _load_factions(roots: tuple[str, ...]) -> dict[str, FactionSheet]:
    out: dict[str, FactionSheet] = {}
    for path in content_files(GAME_ID, "factions/*.yaml"):
        sheet = load_model(path, FactionSheet)
        if sheet.id in out:
            raise ContentError(f"{path}: faction id `{sheet.id}` is used twice")
        out[sheet.id] = sheet
    if len(out) < 4:
        raise ContentError(f"Terra Sancta needs at least 4 factions in content/{GAME_ID}/factions, found {len(out)}")
    return out


class Factions(BaseModel):
    """The faction sheets a game plays with, pinned when it starts."""

    model_config = ConfigDict(frozen=True)

    sheets: dict[str, FactionSheet]


FACTIONS: Pinned[Factions] = Pinned(GAME_ID, Factions, lambda: Factions(sheets=load_factions()))
"""Every version of the faction sheets this process knows; a state names the one it started with."""


def factions_of(content: str) -> dict[str, FactionSheet]:
    """The sheets of a game: its pinned version, or the files for a state saved before pinning."""
    return FACTIONS.get(content).sheets if content else load_factions()
