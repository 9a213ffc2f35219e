"""A network namespace a test makes for itself (``ip netns add`` and a veth pair): a machine
on a small network of its own, where the test knows every address. The tests connect only to
it (and to 127.0.0.x), never to this machine's other interfaces.

Inside: loopback, and ``inner`` (the namespace's end of the pair) at ``address``; outside, the
test's end at ``peer``, on a /30 of 10.255.0.0/16 that no route of this machine uses. With
``default_route`` the namespace's default route goes through ``peer``. Without the permission
to make namespaces (not root, no CAP_NET_ADMIN, no ``ip``) the test is skipped, saying so.
"""

from __future__ import annotations

import secrets
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import pytest


@dataclass(frozen=True)
class Namespace:
    name: str
    address: str
    """The namespace's own address (its end of the veth pair)."""
    peer: str
    """The test's end of the pair, outside: the namespace's gateway."""
    inner: str
    """The interface name inside."""

    def run(self, *command: str) -> None:
        ip("netns", "exec", self.name, *command)

    def command(self, command: Sequence[str]) -> list[str]:
        """``command`` run inside the namespace."""
        return ["ip", "netns", "exec", self.name, *command]

    def add_default_route(self) -> None:
        self.run("ip", "route", "add", "default", "via", self.peer)


def ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")


def _free_subnet() -> int:
    """A /30 of 10.255.0.0/16 (its third and fourth octets' base) that no route here covers."""
    routes = subprocess.run(
        ["ip", "-4", "route", "show", "table", "all"], capture_output=True, text=True, timeout=30
    ).stdout
    for _ in range(50):
        base = secrets.randbelow(256 * 64) * 4
        prefix = f"10.255.{base // 256}."
        if prefix not in routes and " 10.0.0.0/8" not in routes and "10.255.0.0" not in routes:
            return base
    pytest.skip("no free 10.255.x.x subnet for a test network namespace")


@contextmanager
def network_namespace(*, default_route: bool = True) -> Iterator[Namespace]:
    if shutil.which("ip") is None:
        pytest.skip("no `ip` command (iproute2): cannot make a network namespace")
    tag = secrets.token_hex(3)
    name = f"tnc-test-{tag}"
    try:
        ip("netns", "add", name)
    except RuntimeError as refused:
        pytest.skip(f"`ip netns add` is not permitted here ({refused})")
    outer, inner = f"tncv{tag}", f"tncp{tag}"
    base = _free_subnet()
    peer = f"10.255.{base // 256}.{base % 256 + 1}"
    address = f"10.255.{base // 256}.{base % 256 + 2}"
    namespace = Namespace(name, address, peer, inner)
    try:
        ip("link", "add", outer, "type", "veth", "peer", "name", inner)
        ip("link", "set", inner, "netns", name)
        ip("addr", "add", f"{peer}/30", "dev", outer)
        ip("link", "set", outer, "up")
        namespace.run("ip", "link", "set", "lo", "up")
        namespace.run("ip", "addr", "add", f"{address}/30", "dev", inner)
        namespace.run("ip", "link", "set", inner, "up")
        if default_route:
            namespace.add_default_route()
        yield namespace
    finally:
        # Deleting the namespace deletes its end of the pair, and so the pair.
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30)
        subprocess.run(["ip", "link", "del", outer], capture_output=True, timeout=30)
