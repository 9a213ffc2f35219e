"""The seat-phone benchmark's server (benchmarks/phones.py): the site's WSGI application, with
the game type ``$BENCH_REGISTER`` (``MODULE:ATTR``, the benchmark's ``--register``) added to the
registry once Django is set up, as a club adds a game's line to games/gametypes/__init__.py."""

from __future__ import annotations

import importlib
import os

from config.wsgi import application

if os.environ.get("BENCH_REGISTER"):
    from games.gametypes import GAME_TYPES

    module, _, attr = os.environ["BENCH_REGISTER"].partition(":")
    kind = getattr(importlib.import_module(module), attr)
    GAME_TYPES[kind.key] = kind

__all__ = ["application"]
