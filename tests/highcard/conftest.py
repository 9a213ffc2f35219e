"""High Card registered for the tests that ask for it: one line, as a club adds a game's
packages to the registry (games/gametypes/__init__.py)."""

from __future__ import annotations

import pytest

from games.gametypes import GAME_TYPES
from tests.highcard.game.gametype import HIGH_CARD, HIGH_CARD_ON_PAPER


@pytest.fixture
def high_card(monkeypatch: pytest.MonkeyPatch) -> str:
    """High Card in the registry for this test (its key): registered after every module was
    imported, as a game added later would be."""
    monkeypatch.setitem(GAME_TYPES, HIGH_CARD.key, HIGH_CARD)
    return HIGH_CARD.key


@pytest.fixture
def high_card_on_paper(monkeypatch: pytest.MonkeyPatch) -> str:
    """High Card in the registry as a game without phones (its key)."""
    monkeypatch.setitem(GAME_TYPES, HIGH_CARD_ON_PAPER.key, HIGH_CARD_ON_PAPER)
    return HIGH_CARD_ON_PAPER.key
