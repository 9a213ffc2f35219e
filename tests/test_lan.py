"""The address bin/run finds for the phones (config.lan): the default route's interface's IPv4
address. Unit tests read route tables the test writes; the real thing runs in a network
namespace the test makes (tests/netns.py), never against this machine's own network."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from config.lan import default_route_interfaces, interface_address, lan_address, reachable
from tests.netns import network_namespace
from tests.project import BASE_DIR

HEADER = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"


def route(name: str, destination: str, mask: str, *, flags: str = "0003", metric: int = 0) -> str:
    return f"{name}\t{destination}\t0101A8C0\t{flags}\t0\t0\t{metric}\t{mask}\t0\t0\t0\n"


def test_the_default_routes_are_read_from_the_table_lowest_metric_first() -> None:
    table = (
        HEADER
        + route("docker0", "000011AC", "0000FFFF", flags="0001")  # a network, not the default
        + route("wlan0", "00000000", "00000000", metric=600)
        + route("eth0", "00000000", "00000000", metric=100)
        + route("down0", "00000000", "00000000", flags="0002")  # not up
        + "garbage line\n"
        + route("bad0", "zzzz", "00000000")
    )
    assert default_route_interfaces(table) == ["eth0", "wlan0"]
    assert default_route_interfaces(HEADER) == []
    assert default_route_interfaces("") == []


def test_a_loopback_or_unspecified_address_is_no_answer() -> None:
    assert reachable("192.168.1.20") == "192.168.1.20"
    assert reachable("10.0.0.7") == "10.0.0.7"
    for useless in ("127.0.0.1", "127.0.1.1", "0.0.0.0", "", None, "not an address", "::1"):
        assert reachable(useless) is None


def test_a_default_route_through_loopback_only_finds_nothing(tmp_path: Path) -> None:
    """The kernel's answer for an interface (loopback: asked locally, nothing sent)."""
    assert interface_address("lo") == "127.0.0.1"
    assert interface_address("no-such-if0") is None
    table = tmp_path / "route"
    table.write_text(HEADER + route("lo", "00000000", "00000000"))
    assert lan_address(table) is None
    table.write_text(HEADER)
    assert lan_address(table) is None


FIND = (
    "from pathlib import Path; from config.lan import lan_address; "
    "print(lan_address(), lan_address(Path('/nonexistent/route')))"
)
"""Both ways: /proc/net/route, and the portable UDP probe (a connect() sends nothing)."""


def found_inside(namespace_command: list[str]) -> list[str]:
    done = subprocess.run(
        [*namespace_command, sys.executable, "-c", FIND],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="network namespaces: Linux")
def test_in_a_network_namespace_the_address_is_the_default_routes() -> None:
    with network_namespace(default_route=False) as namespace:
        # An address but no default route: nothing other devices are known to reach.
        assert found_inside(namespace.command([])) == ["None", "None"]
        namespace.add_default_route()
        assert found_inside(namespace.command([])) == [namespace.address, namespace.address]
