"""The shared cache (``CACHE_URL``, Redis) that a dead Redis cannot take down.

What the cache holds can always be made again (tournaments.public.standings_page, the desk's QR
drawings, a phone's "where" line, the API's login throttle), so a Redis that is down, refuses,
or hangs must cost a slower page, never an error. :class:`RedisCache` is Django's Redis backend
with a circuit breaker in front of it:

- Redis is asked with short socket timeouts (:data:`CONNECT_TIMEOUT`, :data:`READ_TIMEOUT`), so
  a Redis that never answers (a black-holed host, a stopped process) holds a request for at
  most a second;
- the first Redis error (refused, timed out, out of memory, read-only...) opens the breaker:
  for :data:`RETRY_SECONDS` this process asks Redis nothing and serves from a cache in its own
  memory (Django's LocMemCache) instead, then asks Redis again, once; so a dead Redis costs one
  short timeout per process every RETRY_SECONDS, not one per request;
- it logs once when Redis fails (a warning) and once when it answers again (then this
  process's memory is emptied, so nothing from the outage outlives it), never per request;
- :meth:`RedisCache.health` tells ``/health/`` (config.health) which of the two serves.

The breaker's state is per process (each process finds out for itself) and per Redis address,
shared by the backend instances Django makes per thread. What the fallback changes while Redis
is down is documented in docs/operations.md ("When Redis is down"): each process renders the
standings for itself, and the login throttle counts per process.

Not django-redis with ``IGNORE_EXCEPTIONS``: it swallows the errors (a get is a miss, a set is
lost), so every request still waits for its own failed connection, the log gets a line per
request, and the login throttle, which stores its counts in the cache, stops counting at all.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any, TypeVar
from urllib.parse import urlsplit

import environ
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

T = TypeVar("T")

CONNECT_TIMEOUT = 0.5
"""Seconds to wait for Redis to accept a connection (on the same network it takes
milliseconds). ``?socket_connect_timeout=`` in CACHE_URL overrides it."""
READ_TIMEOUT = 1.0
"""Seconds to wait for Redis to answer a command (the largest entry, a thousand players'
standings, comes in milliseconds). ``?socket_timeout=`` in CACHE_URL overrides it."""
RETRY_SECONDS = 10.0
"""Seconds a process serves from its own memory after a Redis error before it asks Redis
again. ``?retry_seconds=`` in CACHE_URL overrides it."""
FALLBACK_ENTRIES = 1000
"""Entries the fallback (this process's memory) keeps: LocMemCache drops a third of them, the
oldest, when it is full."""

DJANGO_REDIS = "django.core.cache.backends.redis.RedisCache"
BACKEND = f"{__name__}.RedisCache"
_BASE_OPTIONS = ("TIMEOUT", "KEY_PREFIX", "VERSION", "KEY_FUNCTION")


def cache_from_url(url: str) -> dict[str, Any]:
    """``CACHES["default"]`` from CACHE_URL, as django-environ reads it (``redis://`` and
    ``rediss://`` use Django's Redis backend, ``locmemcache://`` each process's memory), with
    Django's Redis backend replaced by :class:`RedisCache`.

    django-environ lowercases every query option for Django's Redis backend, Django's own
    (``?key_prefix=``, ``?timeout=``) included, which Django would then ignore: those are put
    back in capitals; the others (``?socket_timeout=``...) stay as redis-py names them."""
    config: dict[str, Any] = environ.Env.cache_url_config(url)
    if config.get("BACKEND") == DJANGO_REDIS:
        config["BACKEND"] = BACKEND
        for name in _BASE_OPTIONS:
            if name.lower() in config:
                config[name] = config.pop(name.lower())
    return config


def where(servers: str | list[str] | tuple[str, ...]) -> str:
    """The Redis server(s) as a log line may show them: host, port and database, never the
    password a URL may carry."""
    if isinstance(servers, str):
        servers = [servers]
    shown = []
    for server in servers:
        parts = urlsplit(server)
        host = parts.hostname or parts.path or "?"
        port = f":{parts.port}" if parts.port else ""
        database = parts.path if parts.hostname and parts.path not in ("", "/") else ""
        shown.append(f"{host}{port}{database}")
    return ", ".join(shown)


class Breaker:
    """Whether one Redis address is to be asked, in this process: closed (ask it), or open
    since a failure until ``retry_at`` (serve from memory; the first request after that asks
    Redis again, and either closes the breaker or keeps it open for another interval)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._lock = threading.Lock()
        self.failure: str | None = None
        """What went wrong (the error's class and message) while open; None while closed."""
        self.since: datetime | None = None
        self.retry_at = 0.0

    @property
    def open(self) -> bool:
        return self.failure is not None

    def skip(self) -> bool:
        """Whether to leave Redis alone for now (open, and not yet time to try again)."""
        return self.failure is not None and time.monotonic() < self.retry_at

    def failed(self, error: Exception, retry_seconds: float) -> None:
        with self._lock:
            self.retry_at = time.monotonic() + retry_seconds
            if self.failure is not None:
                return  # still down: said already
            self.failure = f"{error.__class__.__name__}: {error}"
            self.since = datetime.now(UTC)
        logger.warning(
            "The cache (Redis at %s) failed (%s): this process serves from its own memory "
            "meanwhile (pages are computed, the login throttle counts per process) and asks "
            "Redis again every %g s.",
            self.name,
            self.failure,
            retry_seconds,
        )

    def succeeded(self) -> bool:
        """Close the breaker; True if it was open (the caller then forgets the outage)."""
        with self._lock:
            if self.failure is None:
                return False
            failure, since = self.failure, self.since
            self.failure = self.since = None
        down = (datetime.now(UTC) - since).total_seconds() if since else 0.0
        logger.warning(
            "The cache (Redis at %s) answers again after %.0f s down (%s): shared again.",
            self.name,
            down,
            failure,
        )
        return True

    def describe(self) -> str:
        since = self.since.isoformat(timespec="seconds") if self.since else "?"
        return (
            f"degraded: Redis at {self.name} failed ({self.failure}) at {since}; this process "
            "serves from its own memory meanwhile"
        )


_BREAKERS: dict[str, Breaker] = {}
_BREAKERS_LOCK = threading.Lock()


def breaker_for(name: str) -> Breaker:
    """This process's breaker for a Redis address (one for every thread's backend)."""
    with _BREAKERS_LOCK:
        if name not in _BREAKERS:
            _BREAKERS[name] = Breaker(name)
        return _BREAKERS[name]


def forget_outages() -> None:
    """Close every breaker of this process without a word (tests: a port one test found dead
    may be another test's live one)."""
    with _BREAKERS_LOCK:
        _BREAKERS.clear()


class RedisCache(DjangoRedisCache):
    """Django's Redis cache, short timeouts, and this process's memory while Redis fails."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        self.retry_seconds = float(options.pop("retry_seconds", RETRY_SECONDS))
        options.setdefault("socket_connect_timeout", CONNECT_TIMEOUT)
        options.setdefault("socket_timeout", READ_TIMEOUT)
        super().__init__(server, {**params, "OPTIONS": options})
        self.where = where(server if isinstance(server, list) else re.split("[;,]", server))
        self.breaker = breaker_for(self.where)
        fallback = {key: params[key] for key in _BASE_OPTIONS if key in params}
        # LocMemCache keeps its entries per name, for the whole process: every thread's
        # backend shares one fallback.
        self.fallback = LocMemCache(
            f"redis-fallback:{self.where}",
            {**fallback, "OPTIONS": {"MAX_ENTRIES": FALLBACK_ENTRIES}},
        )

    def _either(self, redis: Callable[[], T], memory: Callable[[], T]) -> T:
        if self.breaker.skip():
            return memory()
        try:
            result = redis()
        except RedisError as error:
            self.breaker.failed(error, self.retry_seconds)
            return memory()
        if self.breaker.open and self.breaker.succeeded():
            self.fallback.clear()
        return result

    def health(self) -> str:
        """``ok`` if Redis answers a PING (a closed breaker), else what failed and since when
        (``degraded: ...``). Asks Redis unless the breaker says to leave it alone for now."""
        self._either(lambda: self._cache.get_client(None, write=True).ping(), lambda: None)
        return self.breaker.describe() if self.breaker.open else "ok"

    # Every operation of Django's Redis backend (the others, get_or_set, decr, incr_version,
    # the async ones, are built on these), each with this process's memory to fall back on.

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return self._either(
            lambda: super(RedisCache, self).add(key, value, timeout, version),
            lambda: self.fallback.add(key, value, timeout, version),
        )

    def get(self, key: Any, default: Any | None = None, version: int | None = None) -> Any:
        return self._either(
            lambda: super(RedisCache, self).get(key, default, version),
            lambda: self.fallback.get(key, default, version),
        )

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        self._either(
            lambda: super(RedisCache, self).set(key, value, timeout, version),
            lambda: self.fallback.set(key, value, timeout, version),
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._either(
            lambda: super(RedisCache, self).touch(key, timeout, version),
            lambda: self.fallback.touch(key, timeout, version),
        )

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._either(
            lambda: super(RedisCache, self).delete(key, version),
            lambda: self.fallback.delete(key, version),
        )

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        keys = list(keys)
        return self._either(
            lambda: super(RedisCache, self).get_many(keys, version),
            lambda: self.fallback.get_many(keys, version),
        )

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._either(
            lambda: super(RedisCache, self).has_key(key, version),
            lambda: self.fallback.has_key(key, version),
        )

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        return self._either(
            lambda: super(RedisCache, self).incr(key, delta, version),
            lambda: self.fallback.incr(key, delta, version),
        )

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        return self._either(
            lambda: super(RedisCache, self).set_many(data, timeout, version),
            lambda: self.fallback.set_many(data, timeout, version),
        )

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        keys = list(keys)
        self._either(
            lambda: super(RedisCache, self).delete_many(keys, version),
            lambda: self.fallback.delete_many(keys, version),
        )

    def clear(self) -> None:
        self.fallback.clear()
        self._either(lambda: super(RedisCache, self).clear(), lambda: None)
