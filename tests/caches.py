"""Redis as a cache may find it, for the tests of config.cache: a port nobody listens on (dead:
refused at once), a listener that accepts and never answers (hung or black-holed: the timeouts),
and a proxy to the tests' Redis that can be stopped and started again on its port (Redis going
down and coming back). All on 127.0.0.1; each stops by itself at the end of its ``with``."""

from __future__ import annotations

import contextlib
import socket
import threading
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from config.cache import cache_from_url

CACHE_DB = 13
"""The Redis database of these tests' caches (the deploy tests' brokers use 10 to 12)."""


def dead_port() -> int:
    """A port on 127.0.0.1 that was free a moment ago: connecting to it is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def cache_config(port: int, **query: Any) -> dict[str, Any]:
    """``CACHES["default"]`` for CACHE_URL ``redis://127.0.0.1:<port>/13``, through the settings'
    own reading of it (config.cache.cache_from_url), with a key prefix of its own."""
    options = {"key_prefix": f"test-{uuid.uuid4().hex[:12]}", **query}
    url = f"redis://127.0.0.1:{port}/{CACHE_DB}?" + "&".join(f"{k}={v}" for k, v in options.items())
    return cache_from_url(url)


class _Listener:
    """A socket listening on 127.0.0.1 whose connections a thread hands to ``serve``."""

    def __init__(self, port: int = 0) -> None:
        self._server = socket.socket()
        self._server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._server.bind(("127.0.0.1", port))
        self._server.listen(64)
        self.port: int = self._server.getsockname()[1]
        self.accepted = 0
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._server.accept()
            except OSError:  # closed: stop
                return
            with self._lock:
                self.accepted += 1
                self._open.append(conn)
            self.serve(conn)

    def serve(self, conn: socket.socket) -> None:
        """Keep the connection open and say nothing (a Redis that hangs)."""

    def track(self, sock: socket.socket) -> None:
        with self._lock:
            self._open.append(sock)

    def close(self) -> None:
        """Stop listening and cut every connection (as a Redis that dies does)."""
        with contextlib.suppress(OSError):
            self._server.shutdown(socket.SHUT_RDWR)
        self._server.close()
        self._thread.join(timeout=5)
        with self._lock:
            for sock in self._open:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self._open.clear()


@contextlib.contextmanager
def silent_listener() -> Iterator[_Listener]:
    """A "Redis" that accepts connections and never answers; ``accepted`` counts them."""
    listener = _Listener()
    try:
        yield listener
    finally:
        listener.close()


class _Proxy(_Listener):
    def __init__(self, upstream: tuple[str, int], port: int = 0) -> None:
        self.upstream = upstream
        super().__init__(port)

    def serve(self, conn: socket.socket) -> None:
        try:
            redis = socket.create_connection(self.upstream, timeout=5)
        except OSError:
            conn.close()
            return
        redis.settimeout(None)
        self.track(redis)
        for source, sink in ((conn, redis), (redis, conn)):
            threading.Thread(target=_pump, args=(source, sink), daemon=True).start()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            sink.sendall(data)
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)


class RedisProxy:
    """The tests' Redis behind a port of its own, to stop (Redis down) and start again."""

    def __init__(self, redis_url: str) -> None:
        parts = urlsplit(redis_url)
        self.upstream = (parts.hostname or "127.0.0.1", parts.port or 6379)
        self._proxy: _Proxy | None = _Proxy(self.upstream)
        self.port = self._proxy.port

    def stop(self) -> None:
        if self._proxy is not None:
            self._proxy.close()
            self._proxy = None

    def start(self) -> None:
        if self._proxy is None:
            self._proxy = _Proxy(self.upstream, self.port)


@contextlib.contextmanager
def redis_proxy(redis_url: str) -> Iterator[RedisProxy]:
    proxy = RedisProxy(redis_url)
    try:
        yield proxy
    finally:
        proxy.stop()
