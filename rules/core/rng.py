"""The project's own seeded random generator.

Every draw is derived from a hash of (seed, counter), so a game replays exactly
from its seed on any Python version. The generator is a small pydantic model
kept inside each game state; `apply` works on a copy of the state, so drawing
(which advances the counter) never touches the caller's state.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from pydantic import BaseModel, Field

T = TypeVar("T")

_MASK64 = (1 << 64) - 1


class Rng(BaseModel):
    seed: int
    """The game's seed, chosen once at setup and kept for replays."""
    counter: int = 0
    """How many 64-bit words have been drawn so far."""
    scripted: list[int] = Field(default_factory=list, exclude=True)
    """Outcomes decided in advance by a test (`script`); never saved with a state."""

    def script(self, *values: int) -> Rng:
        """Decide chance for a test: the next `randint` draws (a die, a choice, a step of a
        shuffle) return these values in order, then the seeded stream goes on. A value outside
        the range asked for raises ValueError, so a script that no longer fits the rules fails
        loudly. Returns self."""
        self.scripted = [*self.scripted, *values]
        return self

    def next64(self) -> int:
        digest = hashlib.blake2b(
            f"{self.seed}:{self.counter}".encode(), digest_size=8
        ).digest()
        self.counter += 1
        return int.from_bytes(digest, "big")

    def randint(self, lo: int, hi: int) -> int:
        """A uniform integer in [lo, hi], without modulo bias."""
        if hi < lo:
            raise ValueError(f"empty range {lo}..{hi}")
        if self.scripted:
            value, self.scripted = self.scripted[0], self.scripted[1:]  # rebinding: copies share none
            if not lo <= value <= hi:
                raise ValueError(f"scripted value {value} is outside {lo}..{hi}")
            self.counter += 1
            return value
        span = hi - lo + 1
        limit = (_MASK64 + 1) - ((_MASK64 + 1) % span)
        while True:
            word = self.next64()
            if word < limit:
                return lo + word % span

    def roll(self, sides: int) -> int:
        """One die with `sides` faces, 1..sides."""
        return self.randint(1, sides)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice from an empty sequence")
        return items[self.randint(0, len(items) - 1)]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(0, i)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out

    def fork(self, salt: str) -> Rng:
        """An independent generator (for example for an automatic player's choices)."""
        digest = hashlib.blake2b(f"{self.seed}:{self.counter}:{salt}".encode(), digest_size=8)
        return Rng(seed=int.from_bytes(digest.digest(), "big"))


def new_seed() -> int:
    """A fresh seed for a new game (from the OS, not from any game's stream)."""
    import secrets

    return secrets.randbits(63)
