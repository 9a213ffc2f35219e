"""The toy game registered for the tests here: one line, as a club would add a game's package."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.gametypes import GAME_TYPES
from tests.highcard.game.gametype import HIGH_CARD


@pytest.fixture(autouse=True)
def high_card(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setitem(GAME_TYPES, HIGH_CARD.key, HIGH_CARD)
    yield HIGH_CARD.key
