"""Drawing the QR codes of a 250-table round's score sheets: 250 table links and 1,000 seat
links, each drawn once (a cold print), the way the desk drew them before seat links and the way
it draws them now (tournaments/desk/qr.py).

    .venv/bin/python benchmarks/desk_qr.py [--tables 250] [--runs 3]

No database: the drawing alone, in this process (medians of ``--runs``). A benchmark: nothing
passes or fails.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

import segno  # noqa: E402

from tournaments.desk import qr  # noqa: E402


def links(tables: int) -> list[str]:
    """What a round's sheets encode: each table's scorekeeper page and each seat's link (a
    token of the real shape: "<id>.<12 characters>:<43 characters>")."""
    site = "https://club.example.org"
    out = [f"{site}/table/{uuid.uuid4()}/" for _ in range(tables)]
    for n in range(4 * tables):
        nonce = uuid.uuid4().hex[:12]
        signature = (uuid.uuid4().hex + uuid.uuid4().hex)[:43]
        out.append(f"{site}/seat/{100000 + n}.{nonce}:{signature}/")
    return out


def segno_best_mask(url: str) -> str:
    """Before: segno picks the best of the 8 masks, and writes the SVG."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", border=2, xmldecl=False, omitsize=True)
    return out.getvalue().decode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    urls = links(args.tables)
    load = os.getloadavg()[0]
    print(f"{len(urls)} codes ({args.tables} tables and their seats); load average {load:.2f}")
    ways: list[tuple[str, Callable[[str], str]]] = [
        ("segno, best mask, segno's SVG (before)", segno_best_mask),
        ("segno, fixed mask (now: tournaments/desk/qr.py)", qr.draw),
    ]
    for what, draw in ways:
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            for url in urls:
                draw(url)
            times.append(time.perf_counter() - start)
        total = statistics.median(times)
        print(
            f"  {what:42} {total:6.2f} s for all, {total / len(urls) * 1000:5.2f} ms a code"
            f"  (min {min(times):.2f}, max {max(times):.2f})"
        )


if __name__ == "__main__":
    main()
