"""Each game's web pages: the scorekeeper's table page, the public replay and the printed score
sheet (issue 15, "adding a game touches its own package(s) and one registry line").

A game type names its pages module (``GameType.pages``, e.g. ``"games.foodtruck.pages"``); the
module holds ``PAGES``, a :class:`GamePages`. The table, replay and print views look the game's
type up and dispatch to it, so they know no game by name; a game whose table page has entry
addresses of its own gives them as ``table_urls`` (:func:`table_urls`). Trick-n-Chef's pages are
in its package (games/tricknchef/pages.py); the other games' pages (games/<game>/pages.py) are
each a presenter in the frame they share, :mod:`games.pages.frame`.

A spectator's panel of a table (the relay's pages, docs/relay.md) is the game's too: its pages'
``live(view, big=...)`` draws the game *as seen* (a :class:`games.projection.GameView` folded up
to the version the reader is shown) with nothing a hand still holds; :func:`spectator_panel`
keeps each drawing by game, version and language, for every spectator at once.
"""

from __future__ import annotations

import importlib
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.gametypes import GAME_TYPES
from games.recent import Recent


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """The printed score sheet of one table (the desk's "print sheets"): one row per seat with
    a box under each of ``boxes``; ``rounds`` (Crazy Kitchen) adds a table of the game's rounds
    with a box under each of ``round_boxes``."""

    boxes: tuple[str, ...]
    rounds: tuple[str, ...] = ()
    """The rounds' row headings (empty: no rounds table)."""
    round_boxes: tuple[str, ...] = ()
    note: str = ""
    """A line under the sheet (how to fill it in)."""


class GamePages(Protocol):
    """What a game's pages module offers the views (``PAGES`` in the module)."""

    def enter(self, request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
        """GET the scorekeeper's table page."""
        ...

    def results(self, request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
        """GET/POST the results-only form."""
        ...

    def undo(self, request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
        """POST: retract the last entry."""
        ...

    def event(self, request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
        """POST: a play-by-play entry (404 for a game whose page has other URLs for them)."""
        ...

    def replay(self, request: HttpRequest, game_id: uuid.UUID, view: Any) -> HttpResponse:
        """The public replay page of a game (``view``: games.projection.GameView)."""
        ...

    def sheet(self, names: Sequence[str]) -> SheetLayout:
        """The printed score sheet of a table of these entrants (in seat order)."""
        ...

    def live(self, view: Any, *, big: bool = False) -> str:
        """A spectator's panel of the game (the relay's pages, docs/relay.md): ``view`` is the
        game as the spectator is shown it (games.projection.GameView, folded up to that
        version); only what is public at that version: the cards played, never one still in a
        hand. ``big``: the panel alone on its page (the live table view, the big screen).
        HTML, already escaped."""
        ...


def pages_for(game_type: str) -> GamePages:
    """The pages of a game type (by key); KeyError for an unknown one."""
    module = importlib.import_module(GAME_TYPES[game_type].pages)
    pages: GamePages = module.PAGES
    return pages


def table_urls() -> list[URLPattern]:
    """The table page's entry addresses that the registered games' pages give (their optional
    ``table_urls``: URL patterns under ``/table/``, named in the ``table`` namespace)."""
    return [pattern for key in GAME_TYPES for pattern in getattr(pages_for(key), "table_urls", ())]


_panels: Recent[tuple[uuid.UUID, int, str, bool], SafeString] = Recent(4096)


def spectator_panel(
    game_id: uuid.UUID, game_type: str, version: int, *, big: bool = False
) -> SafeString:
    """The game's spectator panel (:meth:`GamePages.live`) at ``version``, in the active
    language: drawn once per game, version and language in this process (a version never
    changes), for every spectator who is shown that version."""
    key = (game_id, version, get_language() or "", big)
    html = _panels.get(key)
    if html is None:
        from games.services.relay import folded  # games.pages is read before the models

        view = folded(game_id, game_type, version)
        html = mark_safe(pages_for(game_type).live(view, big=big))  # noqa: S308 (templates)
        _panels.put(key, html)
    return html


__all__ = ["GamePages", "SheetLayout", "pages_for", "spectator_panel", "table_urls"]
