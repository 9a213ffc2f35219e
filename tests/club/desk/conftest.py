"""The club's in-process caches are keyed by the club's version, which starts again at 1 in
every test's rolled-back database: each test starts with them empty, so that no test reads
another's club (club.services.state, club.services.reads)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from club.services import reads, state


@pytest.fixture(autouse=True)
def fresh_club_caches() -> Iterator[None]:
    state._FOLDED.clear()
    reads._SEASONS.clear()
    yield
    state._FOLDED.clear()
    reads._SEASONS.clear()
