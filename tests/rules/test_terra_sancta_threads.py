"""Terra Sancta games played at once in several threads end exactly as when each is played
alone: the automatic player's kept enemy threats are brought up to date in place, so each thread
keeps its own (threats.py `_KeptEnemies`, seats.py `_KeptSeats`)."""

from __future__ import annotations

import sys
import threading

from rules.simulate import play_one
from rules.terra_sancta import GAME


def _finish(players: int, seed: int) -> tuple[int, str]:
    _, steps, state = play_one(GAME, [f"p{i}" for i in range(players)], {}, seed)
    return steps, GAME.dump_state(state)


def test_games_in_threads_end_as_alone():
    jobs = [(2, 1), (2, 2), (4, 3), (4, 4), (2, 1), (4, 3)]  # the same game twice at once, too
    alone = {job: _finish(*job) for job in set(jobs)}
    together: list[tuple[tuple[int, int], tuple[int, str]]] = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter allows
    try:
        threads = [threading.Thread(target=lambda job=job: together.append((job, _finish(*job)))) for job in jobs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert len(together) == len(jobs)
    for job, outcome in together:
        assert outcome == alone[job], job
