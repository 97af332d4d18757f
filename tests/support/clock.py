"""A clock the tests move by hand (turn timers, deadlines)."""


class Clock:
    def __init__(self, now: float = 1_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now
