"""The automatic player: a careful player who reads the fight ahead.

The only real decisions of a run are where damage lands, for the enemy and for
yourself. The policy values a fight state (your health and armor, the enemy's)
exactly, treating the two battle cards as independent draws of 1..9: it is the
chance of winning the fight, weighted on a win by how fit you leave it
(`fitness`), with every damage choice made the best way. The value is cached for
the whole process: there are at most 10 x 10 x 10 x 7 fight states.
"""

from __future__ import annotations

from functools import cache

from rules.deathly_thrones.combat import parts_open, take_damage

FITNESS_FLOOR = 0.35
"""The worth of winning a fight with nothing left, against 1.0 with full counters."""
ARMOR_WEIGHT = 0.6
"""How much one point of armor is worth beside one point of health after a fight."""


def fitness(health: int, armor: int) -> float:
    """How well placed you are for the rest of the quest after a won fight (0..1)."""
    score = min(1.0, (health + ARMOR_WEIGHT * armor) / (9 + ARMOR_WEIGHT * 9) * 1.6)
    return FITNESS_FLOOR + (1 - FITNESS_FLOOR) * score


def _end(health: int, armor: int, boss: bool) -> float:
    return 1.0 if boss else fitness(health, armor)


def after_damage(health: int, armor: int, enemy_health: int, enemy_armor: int,
                 target: str, part: str, damage: int, boss: bool) -> float:
    """The value of the fight once `damage` lands on `target`'s `part`."""
    if target == "enemy":
        if part == "health":
            enemy_health = take_damage(enemy_health, damage)[0]
            if enemy_health == 0:
                return _end(health, armor, boss)
        else:
            enemy_armor = take_damage(enemy_armor, damage)[0]
    else:
        if part == "health":
            health = take_damage(health, damage)[0]
            if health == 0:
                return 0.0
        else:
            armor = take_damage(armor, damage)[0]
    return fight_value(health, armor, enemy_health, enemy_armor, boss)


@cache
def fight_value(health: int, armor: int, enemy_health: int, enemy_armor: int, boss: bool) -> float:
    """The fight's worth from here with the best damage choices (0: you die)."""
    total = 0.0
    weight = 0
    for d in range(-8, 9):  # your card minus the enemy's card
        diff = health - enemy_health + d
        if diff > 0:
            target, damage = "enemy", diff - enemy_armor
            parts = parts_open(enemy_health, enemy_armor)
        elif diff < 0:
            target, damage = "you", -diff - armor
            parts = parts_open(health, armor)
        else:
            continue  # a tie is drawn again
        if damage <= 0:
            continue  # nothing changes; the round is as if not drawn
        w = 9 - abs(d)
        total += w * max(after_damage(health, armor, enemy_health, enemy_armor, target, p, damage, boss)
                         for p in parts)
        weight += w
    return total / weight if weight else 0.0


def best_part(health: int, armor: int, enemy_health: int, enemy_armor: int,
              target: str, damage: int, boss: bool) -> str:
    """Where the careful player puts this damage."""
    parts = parts_open(enemy_health, enemy_armor) if target == "enemy" else parts_open(health, armor)
    return max(parts, key=lambda p: after_damage(health, armor, enemy_health, enemy_armor,
                                                 target, p, damage, boss))
