"""A season built once and copied into each later test's database (SQLite).

A club season (tournaments played through the services, the consumer run) takes a second or
more to build, and dozens of tests each start from the same one. :func:`built_once` builds it
the first time a process asks (in that test's database, as before), keeps a copy of the rows the
build wrote, and gives every later test the same database by writing those rows back: the
tests still read and write a real season, and each starts from the very state the first one had.

A copy is written back only into a database that is as the first test's was before its build
(the tables the build wrote, and those their foreign keys point into, hold the same rows):
otherwise the season is built again. Another backend (PostgreSQL) builds it every time: what
its tests check there is the consumer reading what really committed (games.store.read_all).

Between tests, this process's reads of the club are forgotten (tests/club/conftest.py), and the
cache is cleared when a copy is written back: the copy's tournaments have the first one's ids,
and the same version.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import connection, transaction

T = TypeVar("T")

Rows = dict[str, list[tuple[Any, ...]]]

SEQUENCES = "sqlite_sequence"
"""SQLite's AUTOINCREMENT counters: those of the tables the build wrote are written back with
the copy (the first test's ids), never compared (a flushed database keeps its counters)."""


@dataclass(frozen=True)
class _Copy:
    before: Rows
    """The tables the copy needs as they were before the build (written, or pointed into)."""
    after: Rows
    """The tables the build wrote, as it left them (and their SQLite counters)."""
    columns: dict[str, list[str]]
    result: Any


_COPIES: dict[str, _Copy] = {}


def built_once(key: str, build: Callable[[], T], *, again: Callable[[T], T] = lambda r: r) -> T:
    """``build()`` the first time this process asks for ``key``, later its rows written back
    and its result (through ``again``: model instances fetched anew)."""
    if connection.vendor != "sqlite":
        return build()
    kept = _COPIES.get(key)
    if kept is not None and _rows(list(kept.before)) == kept.before:
        _write_back(kept)
        return again(kept.result)
    start = _rows(_tables())
    result = build()
    end = _rows(_tables())
    written = sorted(t for t in end if end[t] != start[t] and t != SEQUENCES)
    needed = sorted(set(written) | _pointed_into(written))
    after = {t: end[t] for t in written}
    if SEQUENCES in end:  # the written tables' counters (a row is a table's name and count)
        after[SEQUENCES] = [row for row in end[SEQUENCES] if row[0] in written]
    _COPIES[key] = _Copy(
        before={t: start[t] for t in needed},
        after=after,
        columns={t: _columns(t) for t in after},
        result=result,
    )
    return result


def _tables() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return sorted(name for (name,) in cursor.fetchall())


def _rows(tables: list[str]) -> Rows:
    found: Rows = {}
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f'SELECT * FROM "{table}" ORDER BY rowid')
            found[table] = [tuple(row) for row in cursor.fetchall()]
    return found


def _columns(table: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(f'PRAGMA table_info("{table}")')
        return [row[1] for row in cursor.fetchall()]


def _pointed_into(tables: list[str]) -> set[str]:
    with connection.cursor() as cursor:
        found = set()
        for table in tables:
            cursor.execute(f'PRAGMA foreign_key_list("{table}")')
            found |= {row[2] for row in cursor.fetchall()}
        return found


def _write_back(kept: _Copy) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        for table, rows in kept.after.items():
            if table == SEQUENCES:  # the written tables' counters replaced by the copy's
                names = [row[0] for row in rows]
                marks = ", ".join("%s" for _ in names)
                cursor.execute(f"DELETE FROM {SEQUENCES} WHERE name IN ({marks})", names)
            elif kept.before.get(table):  # not empty before the build (as now: checked)
                cursor.execute(f'DELETE FROM "{table}"')
            if rows:
                columns = ", ".join(f'"{name}"' for name in kept.columns[table])
                marks = ", ".join("%s" for _ in kept.columns[table])
                cursor.executemany(f'INSERT INTO "{table}" ({columns}) VALUES ({marks})', rows)
    cache.clear()


def copies() -> dict[str, tuple[list[str], list[str]]]:
    """What each kept copy writes and compares (for a look: ``python -m pytest -s``)."""
    return {key: (list(c.after), list(c.before)) for key, c in _COPIES.items()}
