"""`/game rules` for By Gods and Kings, in the project's own words."""

from __future__ import annotations

from rules.by_gods_and_kings.catalogue import cached_catalogue
from rules.by_gods_and_kings.content import RANK_NAMES, Catalogue
from rules.by_gods_and_kings.effects_model import STATUS_KINDS, STATUS_TEXT
from rules.by_gods_and_kings.gear import WEAPON_RULES
from rules.by_gods_and_kings.stats import SMALL_PARTY_HP
from rules.core import RulesPage


def rules_pages() -> list[RulesPage]:
    cat = cached_catalogue()
    return [_idea(), _campaign(), _turn(), _hands(), _enemies(), _damage(), _saves_gear(), _shards(cat),
            _sync(cat), _rulings()]


def _idea() -> RulesPage:
    return RulesPage(title="By Gods and Kings: the idea", body=(
        "A cooperative adventure: a **party** of 1 to 8 characters fights its way through a "
        "**scenario** (battles, dangers that call for saves, rests) with ordinary playing cards and "
        "the **Shards** of the old Gods.\n\n"
        "**Seats and characters**: each person brings their own characters (see *Characters that "
        "last*); the lobby's *Party size* says how many characters play at least (by default 4, or one "
        "per seat when more people sit down), and hirelings from the band fill the gap, dealt round "
        "the seats. The first seat is also the **administrator**: it plays the NPCs' turns.\n\n"
        "**Stats**: HP, DEF, Physical, Magic and SPD, from the character's base values plus its "
        "equipment plus its equipped shards (statuses may lower them).\n\n"
        "**Cards**: one 52-card deck for every two characters (1-2: one, 3-4: two, 5-6: three, 7-8: "
        "four), shuffled together into one draw pile; the discard pile is shuffled back when it runs "
        "out. A card's value is its number; J, Q and K are worth 10, an Ace 1. Hands are face up: "
        "everybody sees everybody's cards, but each player acts for the characters they control.\n\n"
        "**Winning**: clear the scenario's last battle. When every character is down the loot is "
        "lost and the scenario starts over; the lobby's *Attempts* says how often (3 by default). "
        "When the last attempt fails too, the party goes home as it set out, without the loot.\n\n"
        "**Maps and route votes**: a scenario has one objective and a map of areas, each with its "
        "own battles, dangers and rests. When the party finishes an area that opens onto more than "
        "one, every seat votes at the same time for where to go; the area with the most votes wins, "
        "and on a tie the choice of the first seat (in seat order) among the tied areas decides. An "
        "area with only one way on leads there without a vote; the area with no way on holds the "
        "boss, and beating it clears the scenario. A wipe sends the party back to the first area. "
        "The vote tells what the map shows of each way: the places beyond it, a place to rest, or "
        "that it is the last place. Before voting, a seat may **look into** a way: the whole party "
        "reads its description, the enemies of its fights, which saves its dangers call for and "
        "its rests; a save's target and the loot are only found inside.\n\n"
        "**Another path**: some traps, failed, open a way of their own (a trap door, a slide): the "
        "one who failed falls, the party follows, and the rest of that area is skipped."))


def _turn() -> RulesPage:
    return RulesPage(title="A battle and a turn", body=(
        "**Start of a battle**: each character draws up to 5 cards; one whose Field is empty puts one "
        "card from its hand on its Field at once (its player's choice). Cards in hand and on the Field "
        "carry over from battle to battle.\n\n"
        "**Turn order**: every round, all units by SPD, highest first, enemies included. A tie between "
        "a character and an enemy goes to the character; NPCs come after characters and before "
        "enemies. When characters tie, the player of the first of them (in party order) chooses who "
        "goes first, each round (or party order, with the lobby option).\n\n"
        "**A character's turn**:\n"
        "1. Draw a card, unless it already holds 5.\n"
        "2. Play one card from the hand onto the Field (at most 3 cards there).\n"
        "3. The card is a **basic attack** on an enemy you choose: its value plus Physical or Magic, "
        "by the main-hand weapon (sword, spear, axe, greatsword: Physical; runeblade, scythe, club, "
        "staff: Magic; bow or dagger: your choice; bare hands: Physical).\n"
        "4. If the Field now holds a **Flush**, a **Straight** or a **Three of a Kind**, you may fire "
        "the abilities your equipped shards have for it instead; all of them fire, in the order you "
        "choose, and the three Field cards are spent. You may decline and make the basic attack.\n\n"
        "**At any moment** (anyone's turn, an enemy's blow being announced, camp, a save), a living "
        "character may use its **Discard** (a card from its hand) and **Sacrifice** (a card from its "
        "Field) abilities. The ability is picked on the table or in your own view (your DM, or "
        "**My hand**); the card it spends and its aim are chosen in your own view."))


def _hands() -> RulesPage:
    return RulesPage(title="Hands, the Field, NPCs", body=(
        "A **hand** needs exactly three cards on the Field:\n"
        "• **Flush**: all three of one suit.\n"
        "• **Straight**: three ranks in a row (A-2-3 up to J-Q-K; no wrapping past the King).\n"
        "• **Three of a Kind**: three of the same rank.\n"
        "An **Ace is wild** for all three: it takes the suit or rank the hand needs (a Field of "
        "A♠ 7♥ 8♥ is both a Flush and a Straight). As damage it counts 1.\n\n"
        "**A full Field**: playing a card onto a Field of three first pushes one of them (your choice) "
        "to the discard pile. Firing a hand's abilities discards the three cards; a basic attack "
        "leaves them.\n\n"
        "**NPCs** fight beside the party in some battles. They have a hand and a Field like a "
        "character, and the administrator plays their card and picks their target on their turn. They "
        "make no hands and have no Discard or Sacrifice abilities: when their Field's total reaches "
        "one of their thresholds, that ability fires and their Field is discarded; otherwise they "
        "make a basic attack of their Physical plus the card. Their Field has no size limit."))


def _enemies() -> RulesPage:
    ranks = ", ".join(RANK_NAMES.values())
    shares = ", ".join(f"{v}%" for v in SMALL_PARTY_HP.values())
    return RulesPage(title="Enemies", body=(
        f"Enemies come as {ranks}: one ability, up to two, up to three, three or more. They have no "
        "hand, only a Field.\n\n"
        "**Before an enemy's turn** the numbers 1 to 13 are divided among the living characters and "
        "NPCs (characters first, in party order) in runs as even as possible: with four, 1-4, 5-7, "
        "8-10 and 11-13. The table's picture shows who holds what.\n\n"
        "**Its turn**: the top card of the draw pile picks the target (Ace 1, J 11, Q 12, K 13) — "
        "skipped when the enemy is taunted: it then goes for its taunter. A second card goes on its "
        "Field. If the Field's total reaches one of its thresholds, that ability fires (the highest "
        "one reached) and the Field is discarded; otherwise it makes a basic attack of its Physical "
        "plus that card on its target. Example: a Kobold with 6 on its Field draws a 3 (the character "
        "holding 3 is the target), then a King: 16 reaches its threshold of 15, and Kobold Frenzy "
        "fires.\n\n"
        "**Announced blows**: when some character could react, the blow is announced first and waits "
        "for the target's player to let it land, so the party may use Discard and Sacrifice "
        "abilities before it does (lobby option *Enemy blows*: they land at once).\n\n"
        "**Party size**: enemies are written for a party of four. Against one, two or three "
        f"characters every enemy has {shares} of its HP; larger parties meet more enemies, and "
        "bosses with (2 × party + 1) / 9 of their HP."))


def _damage() -> RulesPage:
    lines = "\n".join(f"• **{k}**: {STATUS_TEXT[k].format(amount='N')}." for k in STATUS_KINDS)
    return RulesPage(title="Damage and statuses", body=(
        "**Damage** = the attack minus half the target's DEF (rounded down), at least 1. A shield "
        "takes the damage first. Bleed, poison and a failed save's damage ignore DEF and shields.\n\n"
        "**Falling**: at 0 HP a character does nothing more in the battle. After the battle it gets up "
        "with 1 HP and its Field wiped, unless a shard revived it earlier (then it keeps its Field). "
        "When every character is down, the scenario's loot is lost and the scenario starts over.\n\n"
        "**Statuses** (amount and duration come from what causes them; a duration counts the "
        "bearer's own turns; the same status again keeps the larger amount and duration; all end "
        "with the battle):\n" + lines + "\n"
        "Bleed and poison strike at the start of the bearer's turn; blind flips at the start of its "
        "turn. Stun and paralyze never affect enemies or NPCs. A numbed enemy makes a basic attack "
        "and keeps its Field. **Taunt** makes an enemy aim only at its taunter."))


def _saves_gear() -> RulesPage:
    speed = ", ".join(f"{k} {r.speed:+d}" for k, r in WEAPON_RULES.items())
    two = ", ".join(k for k, r in WEAPON_RULES.items() if r.hands == 2)
    one = ", ".join(k for k, r in WEAPON_RULES.items() if r.hands == 1)
    return RulesPage(title="Saves and equipment", body=(
        "**Saves**: a danger calls for an **Agility** (SPD), **Defensive** (DEF) or **Magical** "
        "(Magic) Save against a target number. Each character called may sacrifice one Field card "
        "to add its value, or take the risk with the stat alone; reaching the target passes. Gilbert "
        "(SPD 11) sacrifices a 7 to make an Agility Save of 18. A failed save's damage never takes "
        "the last HP.\n\n"
        "**Equipment**: a main-hand weapon, a body piece, a headpiece and the off hand.\n"
        f"• Two-handed: {two}. One-handed (each may be dual-wielded): {one}.\n"
        f"• Weapon speed added to SPD: {speed}.\n"
        "• The off hand needs a one-handed main weapon: a shield, or (with an equipped shard that "
        "frees the off hand) a second weapon or an off-hand item.\n"
        "• A dual-wielded off-hand weapon gives half its stats, rounded down (a Rusty Sword's 4 "
        "Physical and 1 Magic become 2 and 0), and never decides a basic attack's bonus. Nothing in "
        "the off hand changes SPD.\n\n"
        "**Camp** (after each battle but the last): claim loot for your characters, equip or "
        "unequip shards, change equipment, use Discard and Sacrifice abilities, then say you are "
        "ready. Loot nobody claimed is lost when everyone is ready."))


def _shards(cat: Catalogue) -> RulesPage:
    lines = []
    for sh in cat.shards.values():
        parts = [a.name for a in sh.abilities]
        lines.append(f"• **{sh.name}** ({sh.kind}{', ' + sh.element if sh.element else ''}): "
                     f"{', '.join(parts) or 'equip only'}")
    body = (
        "Each Shard exists once in a game. A character may own any number but equip at most "
        "**three**, and only between battles. Five kinds: shielding, restorative, manipulation, "
        "damaging, elemental. Their abilities:\n"
        "• **Equip**: always on while equipped (some need another character's shard or a weapon "
        "type: the Shard of the Maji adds Magic while another character has an elemental shard "
        "equipped).\n"
        "• **Discard** / **Sacrifice**: spend a card from the hand / the Field, at any moment.\n"
        "• **Flush** / **Straight** / **Three of a Kind**: on your own turn, when the Field holds it.\n\n"
        + _levels(cat) + "The shards of this content:\n" + "\n".join(lines))
    return RulesPage(title="Shards", body=body[:4000])


def _levels(cat: Catalogue) -> str:
    if not cat.shard_levels:
        return ""
    steps = ", ".join(f"level {i + 2} at {need}" for i, need in enumerate(cat.shard_levels))
    return (
        "**Levels**: a shard that is equipped when its bearer finishes a scenario gains experience; "
        f"shards carried unequipped gain none. Every shard starts at level 1 and climbs ({steps} "
        "experience). Each level above the first makes it stronger in its own way: more damage, "
        "healing, shielding or revival HP for its abilities, stronger bleeds, poisons and lowered "
        "stats, and more of its equip stats. A character's own view (its player's DM, **My hand**) and "
        "`/character view` show each equipped shard's level.\n\n")


def _sync(cat: Catalogue) -> RulesPage:
    table = "\n".join(f"• {' + '.join(x.elements)}: **{x.name}**, damage ×{x.multiplier}"
                      f"{', ' + x.status.describe() if x.status else ''}" for x in cat.syncs)
    body = (
        "Elemental abilities that aim at foes can be **held ready** instead of fired: the "
        "character spends its hand as usual but keeps the ability waiting. Until the start of its "
        "next turn, another character firing an elemental ability may **synchronize** with it: both "
        "strike the second ability's target together, their damage is added and multiplied, DEF "
        "counts once, and the pair's status lands too. If nobody releases it, the held ability "
        "fires on its own at the start of its holder's next turn; it is lost if its holder falls or "
        "the battle ends. A character holds one ability at a time.\n\n"
        "Pierre holds his Thunder Arrow; Gilbert's Flame Blade releases it: **Wildfire**, three-fold "
        "damage.\n\n" + table)
    return RulesPage(title="Elemental synchronization", body=body[:4000])


def _rulings() -> RulesPage:
    return RulesPage(title="Our rulings", body=(
        "Where the rulebook is silent, this table plays so:\n"
        "• A full Field: a fourth card pushes one of the three (your choice) to the discard pile; a "
        "hand's abilities spend the three cards.\n"
        "• Damage = attack − DEF ÷ 2 (rounded down), at least 1.\n"
        "• An enemy whose Field reaches several thresholds fires the highest.\n"
        "• A hand never goes above 5 cards (draws stop there).\n"
        "• Characters tied on SPD: the player of the first of them chooses the order, every round.\n"
        "• A blinded unit turns up the deck's top card as its turn begins; a 9 to King sends "
        "whatever it tries that turn, basic attack or ability, wide.\n"
        "• Statuses, shields and held abilities end with the battle; a save's statuses carry into "
        "the next battle.\n"
        "• A wipe restarts the scenario from its beginning: the party as it entered, full HP, a fresh "
        "shuffle, no loot.\n"
        "• Dead characters keep their hand; their Field is wiped after the battle."))


def _campaign() -> RulesPage:
    return RulesPage(title="Characters that last", body=(
        "Characters can belong to you and come back game after game, in this server.\n\n"
        "**Making one**: `/character create` with a name and a starting kit (the kit gives its "
        "base stats, equipment and shards). `/character view` shows the sheet: each stat and where "
        "it comes from, what is worn and carried, every shard with its level and experience. "
        "`/character retire` lets one go for good.\n\n"
        "**Forming the party**: in the lobby, *Choose character* lets each person bring one or "
        "several of their characters; without a choice the one used last comes, and somebody with "
        "none gets a new one, named after them, with the first kit nobody else in the party uses. "
        "When the party size asks for more characters than were brought, hirelings from the band "
        "fill it: they fight like the others but nobody keeps them. Before setting out, everyone may "
        "change shards and equipment (a camp); the scenario begins when all are ready.\n\n"
        "**Tasks between scenarios**: in that camp each of your characters (not the hirelings) "
        "may take one task (guarding a cart, mending nets ...) for its reward: experience for its equipped shards, "
        "an item for its bag, or both. Each task is done once; some are offered only to characters "
        "who have cleared a given scenario. The sheet lists the tasks done, and a task's reward "
        "stays even if the scenario is then lost. *Our rule*: the rulebook gives shard experience "
        "for completed scenarios and leaves what tasks pay open; a task is a job completed in "
        "camp, so its experience is earned when it is done, by the shards equipped then.\n\n"
        "**One of each shard**: a shard exists once in a game. If two characters at the table own "
        "the same shard, the one later in the party leaves it aside for this scenario and gets it "
        "back afterwards; loot never drops a shard somebody in the party already holds.\n\n"
        "**What is kept** when the scenario is cleared: loot claimed in camp, the equipment worn "
        "and carried, and experience for the shards **equipped at the end**: one point for each "
        "battle won in the last attempt, two more for clearing it. When the last attempt fails, "
        "the characters go home just as they set out: no loot from the lost run, no experience "
        "from it (the rulebook gives it only for completed scenarios; tasks done before setting "
        "out keep theirs). A game ended early with `/game end` "
        "keeps nothing new. A game left open simply waits: the party "
        "can stop mid-scenario and go on another day, even after the bot restarts."))
