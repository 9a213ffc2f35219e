"""A template loader that finds each registered game's templates in its own package: the
``templates/`` folder beside the module of its game type's class (``games/foodtruck/templates/``
holds ``foodtruck/table.html``).

The folders come from :data:`games.gametypes.GAME_TYPES` at every lookup, so a game registered
later (a test's game, under ``tests/``) is found without a setting changing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from django.template.loaders.filesystem import Loader as FilesystemLoader


def game_template_dirs() -> list[Path]:
    """Each registered game type's ``templates/`` folder (beside its class's module), once each,
    in the registry's order; a game without one has none."""
    from games.gametypes import GAME_TYPES  # at lookup time: the registry as it is now

    found: list[Path] = []
    for kind in GAME_TYPES.values():
        module = sys.modules.get(type(kind).__module__)
        filename = getattr(module, "__file__", None)
        if filename is None:
            continue
        folder = Path(filename).resolve().parent / "templates"
        if folder not in found and folder.is_dir():
            found.append(folder)
    return found


class Loader(FilesystemLoader):
    """Django's filesystem loader over the registered games' template folders."""

    def get_dirs(self) -> list[Path]:  # type: ignore[override]
        return game_template_dirs()
