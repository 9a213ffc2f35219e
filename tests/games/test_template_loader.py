"""Each game's templates live in its own package (games/<game>/templates/, found by
games.template_loader from the registry at lookup time): every registered game's are found there,
and so are those of a game registered later, from a folder of its own."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from django.template.loader import get_template

from games.gametypes import GAME_TYPES
from games.template_loader import game_template_dirs


def _templates_of(key: str) -> Path:
    module = sys.modules[type(GAME_TYPES[key]).__module__]
    assert module.__file__ is not None
    return Path(module.__file__).resolve().parent / "templates"


@pytest.mark.parametrize("key", list(GAME_TYPES))
def test_a_games_templates_are_found_in_its_package(key: str) -> None:
    folder = _templates_of(key)
    names = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.html"))
    if folder.is_dir():
        assert folder in game_template_dirs()
    for name in names:
        assert Path(get_template(name).origin.name) == folder / name  # type: ignore[attr-defined]


def test_a_game_registered_later_is_found_without_a_setting_changing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "latergame"
    (package / "templates" / "latergame").mkdir(parents=True)
    (package / "templates" / "latergame" / "table.html").write_text("a later game's table\n")
    (package / "gametype.py").write_text("class LaterGame:\n    key = 'later-game'\n")
    spec = importlib.util.spec_from_file_location("latergame_gametype", package / "gametype.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "latergame_gametype", module)
    spec.loader.exec_module(module)

    monkeypatch.setitem(GAME_TYPES, "later-game", module.LaterGame())

    assert get_template("latergame/table.html").render() == "a later game's table\n"
