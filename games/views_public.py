"""The public game page, shared by every game: ``replay`` finds the game's type and answers
with its pages (games.pages); ``GAME_STATUS`` is a game's status in words on every game's page.
"""

from __future__ import annotations

import uuid

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import pgettext_lazy

from games import services
from games.pages import pages_for

GAME_STATUS = {
    "in_progress": pgettext_lazy("a game's status", "In progress"),
    "finished": pgettext_lazy("a game's status", "Finished"),
    "void": pgettext_lazy("a game's status", "Voided"),
}


def replay(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """A published game's page, as its game's pages module draws it (games.pages)."""
    try:
        view = services.game_view(game_id=game_id, user=request.user)
    except services.GameNotFound:
        raise Http404("There is no such game, or it is not public.") from None
    return pages_for(view.game_type.key).replay(request, game_id, view)
