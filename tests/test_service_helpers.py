"""The service helper: skip when a service is down, fail instead when CI requires services."""

from __future__ import annotations

import socket

import pytest

from tests.services import REQUIRE_SERVICES_VAR, require_service


@pytest.fixture
def closed_port() -> int:
    """A local TCP port with nothing listening on it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_an_unreachable_service_skips_the_test(
    closed_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(REQUIRE_SERVICES_VAR, raising=False)
    with pytest.raises(
        pytest.skip.Exception, match=f"Redis is not reachable at 127.0.0.1:{closed_port}"
    ):
        require_service("Redis", "127.0.0.1", closed_port)


def test_an_unreachable_service_fails_the_test_when_services_are_required(
    closed_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(REQUIRE_SERVICES_VAR, "1")
    with pytest.raises(pytest.fail.Exception, match=f"{REQUIRE_SERVICES_VAR}=1 requires it"):
        require_service("Redis", "127.0.0.1", closed_port)


def test_a_listening_service_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRE_SERVICES_VAR, "1")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        require_service("Test server", "127.0.0.1", server.getsockname()[1])
