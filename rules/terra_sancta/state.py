"""The state of a game of Terra Sancta and the public view of it (nothing is hidden)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator

from rules.core import Rng
from rules.core.steps import Building
from rules.terra_sancta.board import parse_square, square_name
from rules.terra_sancta.pieces import Piece

PlayStage = Literal["faction", "select", "land", "ability", "over"]
"""The stages of the game: `select` is the move being built (a piece, then its act; see plans.py),
`land` and `ability` come after it has been applied."""
Stage = Literal["faction", "select", "act", "land", "ability", "over"]
"""The stage the table shows: `act` is `select` once the piece is chosen."""


class DieRoll(BaseModel):
    """One die rolled during a turn, kept for the table and the log."""

    model_config = ConfigDict(frozen=True)

    turn: int
    player: str
    sides: int
    value: int
    why: str
    """'start', 'attack', 'shot', 'lightning', 'regrowth', 'poison'."""


class Mark(BaseModel):
    """The last move or attack, highlighted on the board."""

    model_config = ConfigDict(frozen=True)

    frm: int
    to: int
    landed: int | None = None
    """An attack: where the attacker ended."""
    damage: int = 0
    killed: bool = False
    player: str = ""
    turn: int = 0
    """The turn it was made in (0: unknown, a state saved before marks kept it)."""


class TSState(BaseModel):
    players: list[str]
    """Seat order (clockwise)."""
    sides: dict[str, str]
    """player -> 'S', 'W', 'N' or 'E'."""
    factions: dict[str, str]
    """player -> faction id (filled during the faction choice)."""
    content: str = ""
    """The version of the faction sheets this game plays with (`content.FACTIONS`), pinned at
    the start. Empty (a state saved before pinning): read the files."""
    stage: PlayStage
    order: list[str] = []
    """Turn order, starting with the winner of the start roll; filled when play begins."""
    turn_player: str | None = None
    turn: int = 0
    """Turns taken so far (1 during the first turn)."""
    quiet_turns: int = 0
    """Turns in a row without any damage; the game is drawn at QUIET_LIMIT."""
    damaged: bool = False
    """Some piece lost health during the current turn."""
    board: dict[int, Piece] = {}
    alive: list[str] = []
    """Players whose king still stands, in seat order."""
    building: Building | None = None
    """The move being built (see rules.terra_sancta.plans): the piece chosen so far."""
    landing: list[int] = []
    """After a wounding attack with a choice: the squares the attacker may end on."""
    attack_from: int | None = None
    """After a wounding attack with a choice: where the attacker stands until it lands."""
    last_move: Mark | None = None
    last_attack: Mark | None = None
    dice: list[DieRoll] = []
    """Rolls of the current turn and of the other players' turns since this player's last one."""
    start_rolls: list[list[int]] = []
    """The d16 start rolls, one list per round (rerolls among the tied highest)."""
    winner: str | None = None
    draw: bool = False
    king_touched_by_ability: int = 0
    """Counts abilities that ever affected a king (must stay 0; checked by the invariants)."""
    rng: Rng

    @model_validator(mode="before")
    @classmethod
    def _legacy_selection(cls, data: Any) -> Any:
        """A state saved before the step plans kept the chosen piece as `selected` and the choice
        of its move as the stage `act`: that is the same move being built."""
        if not isinstance(data, dict) or ("selected" not in data and data.get("stage") != "act"):
            return data
        data = dict(data)
        selected = data.pop("selected", None)
        if data.get("stage") == "act":
            data["stage"] = "select"
            if selected is not None and data.get("building") is None:
                data["building"] = {"verb": "move", "args": {"piece": square_name(int(selected))}}
        return data

    @property
    def selected(self) -> int | None:
        """The piece chosen for the move under way, or the attacker waiting to land. Derived from
        `building` (and `attack_from`), never stored."""
        if self.building is not None and "piece" in self.building.args:
            return parse_square(self.building.args["piece"])
        return self.attack_from if self.stage == "land" else None

    @property
    def table_stage(self) -> Stage:
        """The stage the table shows: `act` while a piece is chosen."""
        return "act" if self.stage == "select" and self.building is not None else self.stage


class PieceView(BaseModel):
    square: str
    owner: str
    faction: str
    kind: str
    name: str
    hp: int
    max_hp: int


class TSView(BaseModel):
    """The table as everyone sees it."""

    players: list[str]
    sides: dict[str, str]
    factions: dict[str, str]
    faction_names: dict[str, str]
    faction_colours: dict[str, str]
    stage: Stage
    turn_player: str | None
    turn: int
    order: list[str]
    alive: list[str]
    pieces: list[PieceView]
    selected: str | None
    landing: list[str]
    destinations: list[str] = []
    """Where the selected piece may move (empty squares), while its move is chosen."""
    targets: list[str] = []
    """What the selected piece may attack or shoot, while its move is chosen."""
    last_move: list[str] | None
    last_attack: list[str] | None
    """[from, target, landed]."""
    last_attack_text: str | None
    dice: list[DieRoll]
    start_rolls: list[list[int]]
    quiet_turns: int
    winner: str | None
    draw: bool
    viewer: str | None = None
