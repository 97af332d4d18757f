"""The rules pages for /game rules, in the project's own words; faction pages come from the sheets."""

from __future__ import annotations

from rules.core import RulesPage
from rules.terra_sancta.content import load_factions
from rules.terra_sancta.pieces import KIND_KEYS, KIND_NAMES

BOARD = """\
**The board** is a cross cut out of a 12x12 grid: files a-l, ranks 1-12, without the four 4x4 \
corners (80 squares). Each faction starts in the 4x4 square in the middle of its side: south e1-h4, \
west a5-d8, north e9-h12, east i5-l8. The blue centre e5-h8 is **Terra Sancta**, the drowned holy \
land everyone wants (its squares play like any other). Two players sit south and north; four \
players sit south, west, north and east, clockwise.

**Set-up** (seen from the owner's side): the two rows nearest the centre hold 8 pawns; then \
knight, bishop, bishop, knight; then the back row: a rook in each corner, the king on the **crown \
square** (marked with a crown: g1, a6, f12, l7) and the champion beside it.

**Who starts**: everyone rolls a d16, the highest starts (the tied highest roll again); play then \
goes clockwise."""

MOVES = """\
Pieces move as in chess, with these changes:
- **Pawn**: steps one square in any orthogonal direction (backwards too) and attacks one square \
diagonally in any direction. No double step, no en passant, no promotion.
- **Knight**: an L that jumps over pieces. To attack it names the path of its L (`via` the square \
where it turns), since two paths reach the same square.
- **Bishop, rook, champion** (the queen): slide diagonally / orthogonally / both until the edge or a \
piece. **King**: one square any way. No castling.
- A faction sheet may change this (see the faction pages).

**A turn**: move one piece or attack with it, then use the faction's extra action if it has one."""

COMBAT = """\
**Attacking** does not capture at once. Roll a **d8** for a pawn, a **d16** for any other piece and \
take that much from the target's health (pawns have 8, the others 16). Wounds stay.
- **Killed**: the attacker takes the target's square.
- **Wounded**: the attacker leaves its square for an empty square of the path it took. A bishop, \
rook or champion picks any square it slid over; a knight falls back along the L it named and stops \
on the first empty square. It stays where it was only if that path has no empty square: a pawn or \
king hitting a neighbour, a slider hitting an adjacent piece, a knight whose two L squares are both \
taken. (A Bot's shot is not melee: the shooter never moves.)
- **A king's death** takes its whole faction off the board at once. The last king standing wins.
- **Only kings left**: at the start of each turn the king is poisoned: roll a d16, lose 1 health \
on an odd roll, 2 on an even one.
- **No ability ever affects a king**: only a melee attack by a piece can hurt one.
- **Draw**: 60 turns in a row without any damage, or 600 turns in all.

**At the table**: pick a piece, then its move or attack, then the landing square if asked, then \
the extra action (or Skip); Back unselects the piece. Or type `/move e2 f4`, `/move f2xc5` \
(attack), `/move e2xg3 via e3` (knight path), `/move f2*f5` (a Bot's shot)."""


def faction_page(sheet) -> RulesPage:
    names = ", ".join(f"{KIND_NAMES[k]}: {sheet.piece(k).name}" for k in KIND_KEYS)
    body = (f"*{sheet.summary}*\n\n**Pieces**: {names}.\n\n"
            f"**{sheet.ability.name}** ({'permanent' if sheet.ability.timing == 'permanent' else 'after the move'}): "
            f"{sheet.ability.text}")
    return RulesPage(title=f"Terra Sancta: {sheet.name}", body=body[:4000])


def rules_pages() -> list[RulesPage]:
    return [
        RulesPage(title="Terra Sancta: the board", body=BOARD),
        RulesPage(title="Terra Sancta: moving", body=MOVES),
        RulesPage(title="Terra Sancta: combat and winning", body=COMBAT),
        *(faction_page(s) for s in load_factions().values()),
    ]
