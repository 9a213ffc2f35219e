"""The shared cache (config.cache): Redis while it answers; this process's memory, one log line
and a degraded /health/ while it does not (refused, or hung); Redis again once it is back.

The pages and the API with a dead cache: tests/web/test_dead_cache.py."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis

from config.cache import RedisCache, forget_outages
from tests.caches import CACHE_DB, cache_config, dead_port, redis_proxy, silent_listener

LOGGER = "config.cache"


def backend_of(config: dict[str, Any]) -> RedisCache:
    """The backend as Django's cache handler makes it from ``CACHES[alias]``."""
    params = dict(config)
    assert params.pop("BACKEND") == "config.cache.RedisCache"
    return RedisCache(params.pop("LOCATION"), params)


@pytest.fixture(autouse=True)
def _no_outage_left() -> Iterator[None]:
    forget_outages()
    yield
    forget_outages()


def cache_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER]


def until(found: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not found():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.fixture
def direct(redis_url: str) -> Iterator[redis.Redis]:
    """The tests' Redis, database CACHE_DB, as redis-py sees it (to check what the cache put
    there); the keys the test made are deleted afterwards."""
    parts = urlsplit(redis_url)
    client = redis.Redis(parts.hostname or "127.0.0.1", parts.port or 6379, db=CACHE_DB)
    made: list[str] = []
    client.made = made  # type: ignore[attr-defined]
    yield client
    for prefix in made:
        keys = list(client.scan_iter(f"{prefix}:*"))
        if keys:
            client.delete(*keys)
    client.close()


def every_operation(cache: RedisCache) -> dict[str, Any]:
    """Each operation once, and what it gave."""
    cache.set("a", {"page": "<p>1</p>"}, 60)
    cache.set_many({"b": 2, "c": 3}, 60)
    return {
        "get": cache.get("a"),
        "missing": cache.get("nothing", "default"),
        "add taken": cache.add("a", "other", 60),
        "add free": cache.add("d", 4, 60),
        "get_many": cache.get_many(["a", "b", "c", "nothing"]),
        "incr": cache.incr("b", 5),
        "has_key": cache.has_key("c"),
        "touch": cache.touch("c", 60),
        "get_or_set": cache.get_or_set("e", lambda: "made", 60),
        "delete": cache.delete("d"),
        "after delete": cache.get("d"),
    }


EXPECTED = {
    "get": {"page": "<p>1</p>"},
    "missing": "default",
    "add taken": False,
    "add free": True,
    "get_many": {"a": {"page": "<p>1</p>"}, "b": 2, "c": 3},
    "incr": 7,
    "has_key": True,
    "touch": True,
    "get_or_set": "made",
    "delete": True,
    "after delete": None,
}


def test_a_good_redis_is_the_cache(
    redis_url: str, direct: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    config = cache_config(urlsplit(redis_url).port or 6379)
    direct.made.append(config["KEY_PREFIX"])  # type: ignore[attr-defined]
    cache = backend_of(config)
    assert every_operation(cache) == EXPECTED
    # In Redis (Django's keys: prefix, version, key), not in this process's memory.
    assert direct.exists(f"{config['KEY_PREFIX']}:1:a")
    assert cache.fallback.get("a") is None
    assert cache.health() == "ok"
    cache.delete_many(["a", "b"])
    assert not direct.exists(f"{config['KEY_PREFIX']}:1:a")
    assert cache_lines(caplog) == []


def test_a_dead_redis_is_replaced_by_this_process_memory(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level("INFO", logger=LOGGER)
    cache = backend_of(cache_config(dead_port()))
    for _ in range(20):  # as many requests
        assert every_operation(cache) == EXPECTED
        cache.clear()
    [line] = cache_lines(caplog)  # once, not per request
    assert "failed (ConnectionError" in line and "its own memory" in line
    assert cache.health().startswith("degraded: Redis at 127.0.0.1:")


def test_a_hung_redis_costs_one_timeout_per_interval_not_per_request(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A Redis that accepts and never answers: the first request waits for the read timeout
    (0.2 s here), the next ones do not ask it at all until the interval is over."""
    caplog.set_level("INFO", logger=LOGGER)
    with silent_listener() as hung:
        cache = backend_of(cache_config(hung.port, socket_timeout=0.2, retry_seconds=60))
        for number in range(50):
            cache.set("page", number, 60)
            assert cache.get("page") == number
        assert hung.accepted == 1
        [line] = cache_lines(caplog)
        assert "failed (TimeoutError" in line
        assert "degraded" in cache.health()
        assert hung.accepted == 1  # /health/ too leaves it alone within the interval


def test_redis_back_is_the_cache_again(
    redis_url: str, direct: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO", logger=LOGGER)
    with redis_proxy(redis_url) as proxy:
        config = cache_config(proxy.port, retry_seconds=0.2)
        direct.made.append(config["KEY_PREFIX"])  # type: ignore[attr-defined]
        key = f"{config['KEY_PREFIX']}:1:page"
        cache = backend_of(config)
        cache.set("page", "before", 60)
        assert direct.get(key) is not None

        proxy.stop()  # Redis goes down
        cache.set("page", "during", 60)
        assert cache.get("page") == "during"  # from this process's memory
        assert cache.health().startswith("degraded")
        assert direct.get(key) is not None  # Redis was not written meanwhile
        assert cache.get("page") == "during"

        proxy.start()  # and comes back: asked again after retry_seconds
        until(lambda: cache.health() == "ok", "the cache to find Redis again")
        assert cache.fallback.get("page") is None  # the outage's copies are gone
        assert cache.get("page") == "before"  # Redis's (set before the outage)
        cache.set("page", "after", 60)
        assert direct.exists(key) and cache.get("page") == "after"

    down, back = cache_lines(caplog)
    assert "failed" in down and "answers again" in back
