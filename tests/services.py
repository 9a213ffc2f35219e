"""External services in tests: reachable, or the test skips (or fails, when CI requires them).

A test that needs a service calls :func:`require_service` (or uses a fixture from
``tests/conftest.py`` built on it). When the service does not answer, the test is SKIPPED
with the reason, so a developer without PostgreSQL or Redis can still run the suite; with
``TNC_REQUIRE_SERVICES=1`` in the environment (CI sets it) it FAILS instead, so a missing
service never passes as a skip.
"""

from __future__ import annotations

import os
import socket

import pytest

REQUIRE_SERVICES_VAR = "TNC_REQUIRE_SERVICES"


def services_required() -> bool:
    """True when an unreachable service must fail the test rather than skip it."""
    return os.environ.get(REQUIRE_SERVICES_VAR, "") == "1"


def require_service(name: str, host: str, port: int, *, timeout: float = 2.0) -> None:
    """Return if host:port accepts a connection; otherwise skip, or fail when required."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return
    except OSError as exc:
        reason = f"{name} is not reachable at {host}:{port} ({exc})"
    if services_required():
        pytest.fail(f"{reason}; {REQUIRE_SERVICES_VAR}=1 requires it", pytrace=False)
    pytest.skip(f"{reason}; start it, or set {REQUIRE_SERVICES_VAR}=1 to fail instead")
