"""Trick-n-Chef's pages (``PAGES``, games.pages.GamePages): its table page
(games/tricknchef/table_views.py) with its deal, pick, play and take addresses, its replay
(games/tricknchef/replay.py) and its score sheet (a box per deal, the total and the place)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from engine.tricknchef.cards import ROUNDS_PER_GAME
from games.pages import SheetLayout


class TrickNChefPages:
    @property
    def table_urls(self) -> list[URLPattern]:
        """The table page's entries, each at its own address under ``/table/<game>/``."""
        from games.tricknchef import table_views

        return [
            path("<uuid:game_id>/deal/", table_views.deal, name="deal"),
            path("<uuid:game_id>/pick/", table_views.pick, name="pick"),
            path("<uuid:game_id>/play/", table_views.play, name="play"),
            path("<uuid:game_id>/take/", table_views.take, name="take"),
        ]

    def enter(self, request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
        from games.tricknchef.table_views import tnc_enter

        return tnc_enter(request, game_id)  # type: ignore[arg-type]

    def results(self, request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
        from games.tricknchef.table_views import tnc_results

        return tnc_results(request, game_id)  # type: ignore[arg-type]

    def undo(self, request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
        from games.tricknchef.table_views import tnc_undo

        return tnc_undo(request, game_id)  # type: ignore[arg-type]

    def event(self, request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
        raise Http404("Trick-n-Chef's entries have their own addresses (deal, pick, play, take)")

    def replay(self, request: HttpRequest, game_id: uuid.UUID, view: Any) -> HttpResponse:
        from games.tricknchef.replay import tnc_replay

        return tnc_replay(request, game_id, view)  # type: ignore[arg-type]

    def live(self, view: Any, *, big: bool = False) -> str:
        from games.tricknchef.live import live_panel

        return live_panel(view, big=big)

    def sheet(self, names: Sequence[str]) -> SheetLayout:
        deals = tuple(_("Deal %(n)s") % {"n": n} for n in range(1, ROUNDS_PER_GAME + 1))
        place = pgettext("finishing place at a table", "Place")
        note = ""
        if len(names) == 3:
            note = _("A table of %(size)s: blue (noodles) goes back to the box.") % {"size": 3}
        return SheetLayout(boxes=(*deals, _("Total"), place), note=note)


PAGES = TrickNChefPages()
