"""The address other devices on this machine's network reach it at: the first IPv4 address of
the interface the default route goes out of (``bin/run`` puts it in every QR code and link).

Nothing is sent to find it. On Linux the default route is read from ``/proc/net/route`` and its
interface's address asked of the kernel (``SIOCGIFADDR``). Where there is no such file (macOS, the
BSDs) a UDP socket is "connected" to ``PROBE`` (192.0.2.1, TEST-NET-1 of RFC 5737, never routed
on the internet): a UDP ``connect()`` only chooses the route and the source address, it sends
no packet, and the address the kernel chose is the one the default route uses.

A loopback or unspecified address is no answer (phones cannot reach it): ``lan_address``
returns None, and the caller falls back to 127.0.0.1 and says so.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
from pathlib import Path

ROUTE_TABLE = Path("/proc/net/route")
PROBE = "192.0.2.1"
"""Where the portable fallback "connects" a UDP socket to (nothing is sent): TEST-NET-1."""
RTF_UP = 0x0001
SIOCGIFADDR = 0x8915  # linux/sockios.h


def default_route_interfaces(table: str) -> list[str]:
    """The interfaces of the default routes (destination and mask 0.0.0.0, up) in a
    ``/proc/net/route`` table, the lowest metric first."""
    routes: list[tuple[int, int, str]] = []
    for position, line in enumerate(table.splitlines()[1:]):
        fields = line.split()
        if len(fields) < 8:
            continue
        name, destination, flags, metric, mask = (
            fields[0],
            fields[1],
            fields[3],
            fields[6],
            fields[7],
        )
        try:
            up = int(flags, 16) & RTF_UP
            default = int(destination, 16) == 0 and int(mask, 16) == 0
            cost = int(metric)
        except ValueError:
            continue
        if up and default:
            routes.append((cost, position, name))
    return [name for _, _, name in sorted(routes)]


def interface_address(name: str) -> str | None:
    """The (first) IPv4 address of the interface ``name``, from the kernel; None if it has none."""
    import fcntl  # POSIX only; only called where /proc/net/route exists

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            answer = fcntl.ioctl(
                probe.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15])
            )
        except OSError:
            return None
    return socket.inet_ntoa(answer[20:24])


def reachable(address: str | None) -> str | None:
    """``address`` if another device could reach it (not loopback, not 0.0.0.0), else None."""
    if not address:
        return None
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return None
    return None if ip.is_loopback or ip.is_unspecified else address


def _probed_address(probe: str = PROBE) -> str | None:
    """The source address the kernel picks for ``probe`` (a UDP connect: nothing is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        try:
            udp.connect((probe, 9))
        except OSError:  # no route at all
            return None
        address: str = udp.getsockname()[0]
    return address


def lan_address(route_table: Path = ROUTE_TABLE) -> str | None:
    """This machine's address on its network (see the module's docstring), or None."""
    try:
        table = route_table.read_text()
    except OSError:
        return reachable(_probed_address())
    for name in default_route_interfaces(table):
        found = reachable(interface_address(name))
        if found:
            return found
    return None
