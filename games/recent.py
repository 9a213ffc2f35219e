"""A process's few most recent values by key (``Recent``): what a web process keeps of what it
read or drew last, so that the next request for the same thing skips the work (a table's log and
state for its phones, a shared standings page). Bounded, the least recently used going first, and
safe across a server's threads."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most ``size`` values, by key; a value got or put is the most recent."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._kept.get(key)
            if value is not None:
                self._kept.move_to_end(key)
            return value

    def put(self, key: K, value: V, *, unless: Callable[[V], bool] | None = None) -> None:
        """Keep ``value`` for ``key`` (``unless``: not where the value held for it says so, as
        one checked and replaced at once), the oldest beyond ``size`` let go."""
        with self._lock:
            held = self._kept.get(key)
            if held is not None and unless is not None and unless(held):
                return
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def keys(self) -> list[K]:
        """The keys, the least recent first."""
        with self._lock:
            return list(self._kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
