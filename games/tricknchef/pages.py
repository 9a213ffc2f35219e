"""Trick-n-Chef's pages: the original table page (games/table/views.py), replay
(games/views_public.py) and score sheet (a box per deal, the total and the place)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from engine.tricknchef.cards import ROUNDS_PER_GAME
from games.pages import SheetLayout


class TrickNChefPages:
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

    def sheet(self, names: Sequence[str]) -> SheetLayout:
        deals = tuple(_("Deal %(n)s") % {"n": n} for n in range(1, ROUNDS_PER_GAME + 1))
        place = pgettext("finishing place at a table", "Place")
        note = ""
        if len(names) == 3:
            note = _("A table of %(size)s: blue (noodles) goes back to the box.") % {"size": 3}
        return SheetLayout(boxes=(*deals, _("Total"), place), note=note)


PAGES = TrickNChefPages()
