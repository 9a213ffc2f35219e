"""A template loader for the games' packages: it finds templates in ``templates/`` beside each
registered game type's modules (e.g. games/tricknchef/templates/), so a game's templates live in
its package and no setting names a game."""

from __future__ import annotations

import importlib
from pathlib import Path

from django.template.loaders.filesystem import Loader as FilesystemLoader


def game_template_dirs() -> list[Path]:
    """``templates/`` of the packages of every game type's class and pages modules (those that
    have one), in registry order."""
    from games.gametypes import GAME_TYPES  # the registry needs the apps loaded

    dirs: list[Path] = []
    for kind in GAME_TYPES.values():
        for module in (type(kind).__module__, kind.pages):
            name = module.rpartition(".")[0]
            if not name:  # a top-level module: no package of its own
                continue
            package = importlib.import_module(name)
            for root in getattr(package, "__path__", ()):
                folder = Path(root) / "templates"
                if folder.is_dir() and folder not in dirs:
                    dirs.append(folder)
    return dirs


class Loader(FilesystemLoader):
    """The filesystem loader over :func:`game_template_dirs`."""

    def get_dirs(self) -> list[Path]:  # type: ignore[override]
        return game_template_dirs()
