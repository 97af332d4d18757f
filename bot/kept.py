"""A small store of things worth keeping in memory (parsed states, pictures), most recently used
first, safe to share between the event loop and worker threads."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """At most `size` values by key (0: none kept), the least recently used dropped first. A key
    already being made in another thread is waited for, not made twice."""

    def __init__(self, size: int = 64):
        self.size = size
        self._kept: OrderedDict[Hashable, V] = OrderedDict()
        self._making: dict[Hashable, threading.Event] = {}
        self._lock = threading.Lock()

    def find(self, key: Hashable) -> V | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        """The value kept for `key`, else `make()`'s, kept (made outside the lock)."""
        while True:
            with self._lock:
                found = self._kept.get(key)
                if found is not None:
                    self._kept.move_to_end(key)
                    return found
                pending = self._making.get(key)
                mine = pending is None
                if pending is None:
                    pending = self._making[key] = threading.Event()
            if mine:
                break
            pending.wait()  # then from the store (or made here, if that making failed)
        try:
            made = make()
            self.put(key, made)
            return made
        finally:
            with self._lock:
                del self._making[key]
            pending.set()

    def put(self, key: Hashable, value: V) -> None:
        with self._lock:
            if self.size <= 0:
                return
            self._kept[key] = value
            self._kept.move_to_end(key)
            self._trim()

    def forget(self, key: Hashable) -> None:
        with self._lock:
            self._kept.pop(key, None)

    def resize(self, size: int) -> None:
        with self._lock:
            self.size = size
            self._trim()

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)

    def _trim(self) -> None:
        while len(self._kept) > max(self.size, 0):
            self._kept.popitem(last=False)
