"""Tasks between scenarios (the rulebook: between scenarios players may "assist in completing
additional tasks"; tasks.yaml): in the camp before setting out, each character may take one
task it has not done yet, for its reward (campaign.py's docstring says what is kept)."""

from __future__ import annotations

from rules.by_gods_and_kings.campaign import gain_experience
from rules.by_gods_and_kings.labels import LABEL_LIMIT
from rules.by_gods_and_kings.plans import made
from rules.by_gods_and_kings.state import BgkState, Hero
from rules.core import Action, Event
from rules.core.text import clip_words

TASK_TEXT_MAX = 900
"""The most characters the log line of a task taken holds."""


def setting_out(s: BgkState) -> bool:
    """The camp before the scenario: between scenarios (game.py opens it for saved characters)."""
    return s.phase == "camp" and not s.visited and s.battle is None


def open_tasks(s: BgkState, hero: Hero) -> list[str]:
    """The tasks the character may take now: none for a hireling (no record keeps it) nor when
    it took one in this camp (its tasks differ from those it came with); else each task it has
    not done whose `after` scenario it has cleared, in the content's order."""
    came = next((h for h in s.origin if h.id == hero.id), None)
    if hero.record is None or (came is not None and came.tasks != hero.tasks):
        return []
    return [tid for tid, task in s.cat.tasks.items() if tid not in hero.tasks
            and (task.after is None or hero.cleared.get(task.after, 0) > 0)]


def reward_text(s: BgkState, tid: str) -> str:
    """A task's reward in a few words (an action's label): 'Ward Talisman, +1 shard exp.'."""
    reward = s.cat.tasks[tid].reward
    parts = [s.cat.items[reward.item].name] if reward.item is not None else []
    if reward.experience:
        parts.append(f"+{reward.experience} shard exp.")
    return ", ".join(parts)


def take_task(s: BgkState, hero: Hero, tid: str, events: list[Event]) -> None:
    """The character does the task and gets its reward, kept with it from now on."""
    task = s.cat.tasks[tid]
    hero.tasks = [*hero.tasks, tid]  # a new list (state.GEAR)
    got = []
    if task.reward.item is not None:
        hero.bag = [*hero.bag, task.reward.item]
        got.append(f"{s.cat.items[task.reward.item].name} (in the bag)")
    if task.reward.experience:
        grown = gain_experience(s, hero, task.reward.experience)
        got.append(f"{task.reward.experience} experience for " + (", ".join(grown) or "no equipped shard"))
    events.append(Event(kind="task", text=clip_words(
        f"{hero.name} takes on a task: **{task.name}**. {task.text} Reward: {'; '.join(got)}.".replace("  ", " "),
        TASK_TEXT_MAX), data={"unit": hero.id, "task": tid}))


def task_actions(s: BgkState, hero: Hero, group: str) -> list[Action]:
    """The tasks the character may take now (only in the camp before setting out), offered in
    `group`: the menu of its shards and equipment (no menu more: a seat's camp keeps its rows)."""
    if not setting_out(s):
        return []
    return [made(f"task:{hero.id}:{tid}", clip_words(
        f"{hero.name}: take on {s.cat.tasks[tid].name} ({reward_text(s, tid)})", LABEL_LIMIT), group=group)
        for tid in open_tasks(s, hero)]
