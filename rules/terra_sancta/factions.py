"""Faction abilities in code. The numbers come from the faction sheets (content.py).

- ranged (the Bots, permanent): shots without moving; generated in movegen.shots, resolved here.
- drain (Children of Darkness, permanent): a melee attacker heals a share of the damage it dealt.
- lightning (Thunderbirds, after the move): a die and a table hurt one enemy piece.
- regrowth (the Grove, after the move): a die heals one wounded piece.

No ability may ever affect a king: every target goes through `_not_a_king`, which counts any
attempt in the state (the invariants require that count to stay 0) and refuses it.
"""

from __future__ import annotations

from rules.core import Event, IllegalAction, who
from rules.terra_sancta.board import square_name
from rules.terra_sancta.combat import describe, heal, hurt, roll
from rules.terra_sancta.content import FactionSheet
from rules.terra_sancta.state import TSState


def _not_a_king(s: TSState, sq: int) -> None:
    if s.board[sq].kind == "K":
        s.king_touched_by_ability += 1
        raise IllegalAction("No special ability can affect a king.")


def has_extra_action(sheet: FactionSheet) -> bool:
    return sheet.ability.timing == "after_move"


def shot_die(sheet: FactionSheet, kind: str) -> int:
    return sheet.ability.pawn_shot_die if kind == "P" else sheet.ability.large_shot_die


def resolve_shot(s: TSState, player: str, sheet: FactionSheet, frm: int, to: int,
                 events: list[Event]) -> tuple[int, int, bool]:
    """A Bot shoots from `frm` at `to`; the shooter stays. Returns (roll, damage, killed)."""
    _not_a_king(s, to)
    sides = shot_die(sheet, s.board[frm].kind)
    value = roll(s, player, sides, "shot")
    target = describe(s, to)
    dealt, killed = hurt(s, to, value, events)
    events.append(Event(
        kind="shot",
        text=f"{who(player)} shoots {target} from {square_name(frm)}: d{sides} = {value}, "
             + ("killed." if killed else f"{dealt} damage."),
        data={"from": square_name(frm), "to": square_name(to), "die": sides, "roll": value,
              "damage": dealt, "killed": killed}))
    return value, dealt, killed


def after_melee(s: TSState, sheet: FactionSheet, attacker_sq: int, dealt: int, events: list[Event]) -> None:
    """Permanent hooks after a melee attack by a piece now standing on `attacker_sq`."""
    if sheet.ability.kind != "drain" or dealt <= 0:
        return
    if s.board[attacker_sq].kind == "K":
        return  # the ability never touches a king, not even to heal it
    gained = heal(s, attacker_sq, dealt * sheet.ability.drain_percent // 100)
    if gained:
        events.append(Event(kind="ability", text=f"{sheet.ability.name}: {describe(s, attacker_sq)} heals {gained}.",
                            data={"ability": "drain", "square": square_name(attacker_sq), "healed": gained}))


def ability_targets(s: TSState, player: str, sheet: FactionSheet) -> list[int]:
    """The squares the faction's extra action may aim at now (kings are never among them)."""
    kind = sheet.ability.kind
    if kind == "lightning":
        return sorted(q for q, p in s.board.items() if p.owner != player and p.kind != "K")
    if kind == "regrowth":
        return sorted(q for q, p in s.board.items() if p.owner == player and p.kind != "K" and p.wounded)
    return []


def has_ability_target(s: TSState, player: str, sheet: FactionSheet) -> bool:
    """`bool(ability_targets(s, player, sheet))`, stopping at the first target."""
    kind = sheet.ability.kind
    if kind == "lightning":
        return any(p.owner != player and p.kind != "K" for p in s.board.values())
    if kind == "regrowth":
        return any(p.owner == player and p.kind != "K" and p.wounded for p in s.board.values())
    return False


def is_ability_target(s: TSState, player: str, sheet: FactionSheet, sq: int) -> bool:
    """`sq in ability_targets(s, player, sheet)`, looking at that square only."""
    p = s.board.get(sq)
    if p is None or p.kind == "K":
        return False
    kind = sheet.ability.kind
    if kind == "lightning":
        return p.owner != player
    if kind == "regrowth":
        return p.owner == player and p.wounded
    return False


def lightning_damage(sheet: FactionSheet, value: int) -> int:
    for row in sheet.ability.table:
        if row.low <= value <= row.high:
            return row.damage
    return 0


def use_ability(s: TSState, player: str, sheet: FactionSheet, sq: int, events: list[Event]) -> int:
    """The extra action aimed at `sq`; returns the damage dealt (0 for a heal)."""
    _not_a_king(s, sq)
    ab = sheet.ability
    if ab.kind == "lightning":
        value = roll(s, player, ab.die, "lightning")
        damage = lightning_damage(sheet, value)
        target = describe(s, sq)
        dealt, killed = hurt(s, sq, damage, events) if damage else (0, False)
        s.damaged = s.damaged or dealt > 0
        outcome = "it misses." if not damage else ("killed." if killed else f"{dealt} damage.")
        events.append(Event(kind="ability", text=f"{ab.name} on {target}: d{ab.die} = {value}, {outcome}",
                            data={"ability": "lightning", "square": square_name(sq), "die": ab.die,
                                  "roll": value, "damage": dealt, "killed": killed}))
        return dealt
    if ab.kind == "regrowth":
        value = roll(s, player, ab.heal_die, "regrowth")
        gained = heal(s, sq, value)
        events.append(Event(kind="ability", text=f"{ab.name} on {describe(s, sq)}: d{ab.heal_die} = {value}, "
                                                 f"heals {gained}.",
                            data={"ability": "regrowth", "square": square_name(sq), "die": ab.heal_die,
                                  "roll": value, "healed": gained}))
        return 0
    raise IllegalAction(f"{sheet.name} have no extra action.")
