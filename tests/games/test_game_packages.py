"""A game's package holds its pages' templates and entry addresses: the shared frame finds them
through the registry (games.template_loader, games.pages.table_urls)."""

from __future__ import annotations

import uuid
from pathlib import Path

from django.template import engines
from django.urls import resolve, reverse

import games.tricknchef
from games.gametypes import GAME_TYPES
from games.pages import pages_for
from games.template_loader import game_template_dirs


def test_the_games_templates_are_found_in_their_packages() -> None:
    tricknchef = Path(games.tricknchef.__path__[0]) / "templates"
    assert tricknchef in game_template_dirs()
    assert all(folder.is_dir() for folder in game_template_dirs())
    engine = engines["django"].engine  # type: ignore[attr-defined]
    _template, origin = engine.find_template("tricknchef/table.html")
    assert Path(origin.name).is_relative_to(tricknchef)


def test_each_games_own_table_addresses_are_in_the_table_namespace() -> None:
    game_id = uuid.uuid4()
    for key in GAME_TYPES:
        for pattern in getattr(pages_for(key), "table_urls", ()):
            url = reverse(f"table:{pattern.name}", args=[game_id])
            assert url.startswith(f"/table/{game_id}/")
            assert resolve(url).func is pattern.callback
