"""What the benchmarks' smoke runs share: the repository, the PostgreSQL server the benchmarks
make their own databases on, a free port for their servers, and dropping those databases."""

from __future__ import annotations

import os
import socket
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432")
"""The server the benchmarks create their databases on (no database name)."""


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on now (the benchmark's server binds it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def drop(*names: str) -> None:
    """Drop the benchmark's databases (those that exist), whoever is still connected."""
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        for name in names:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
