"""The desk's one way of asking before an action that is hard or impossible to take back
(publish, close, close and pair, finish, stop the clock, discard a proposal).

The action's button posts as any other; its view first asks (:func:`ask_first`): without
``confirmed=1`` nothing changes, and the round panel comes back with a box at its top that says
in words what will happen, a "Yes, ..." button that posts the same action again, confirmed, and
Cancel (a link back to the panel). It works the same with htmx (the panel swapped in, the focus
moved to the box, Escape cancels: static/js/desk.js) and without JavaScript (the whole page, the
box focused by ``autofocus``). No browser ``confirm()``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import domain
from tournaments.desk.answers import respond
from tournaments.desk.http import my_roles

CONFIRMED = "confirmed"
"""The posted field that says the organizer answered Yes in the box."""


@dataclass(frozen=True, slots=True)
class Ask:
    """The box: its question, what will happen, the Yes button's words, and what it posts."""

    question: str
    consequence: str
    yes: str
    url: str
    fields: tuple[tuple[str, str], ...] = ()
    """Hidden fields posted again with the confirmation (besides the version)."""


def confirmed(request: Any) -> bool:
    return bool(request.POST.get(CONFIRMED) == "1")


def ask_first(
    request: Any, tournament_id: uuid.UUID, question: Callable[[], Ask | None]
) -> HttpResponse | None:
    """None once confirmed (go on), or when there is nothing to ask (``question`` gives None:
    the action is refused anyway, saying why); else the round panel (htmx) or the dashboard with
    the box, nothing changed. Only organizers are asked: anyone else is refused by the action."""
    if confirmed(request) or domain.ORGANIZER not in my_roles(request, tournament_id):
        return None
    asking = question()
    if asking is None:
        return None
    return respond(request, tournament_id, "round", asking=asking)


# ----------------------------------------------------------------------------- the questions


def publish(tournament_id: uuid.UUID, round: int) -> Ask:
    return Ask(
        question=_("Publish round %(round)s?") % {"round": round},
        consequence=_(
            "Publishing opens every table to its scorekeepers and shows the tables to the "
            "public. It cannot be undone: a table published by mistake is voided."
        ),
        yes=_("Yes, publish round %(number)s") % {"number": round},
        url=reverse("desk:publish", args=[tournament_id, round]),
    )


def close(tournament_id: uuid.UUID, round: int, summary: Mapping[str, Any]) -> Ask | None:
    """None: the round cannot close (tables missing, or not published): the service says so."""
    found = next((r for r in summary["rounds"] if r["round"] == round), None)
    if found is None or found["status"] != "published" or found["missing"]:
        return None
    return Ask(
        question=_("Close round %(round)s?") % {"round": round},
        consequence=_(
            "Its results become final: they count in the standings, and the next round can be "
            "paired from them. Only the history can undo it."
        ),
        yes=_("Yes, close round %(round)s") % {"round": round},
        url=reverse("desk:close", args=[tournament_id, round]),
    )


def close_and_pair(tournament_id: uuid.UUID, round: int, publish_auto: bool) -> Ask:
    words = {"closed": round - 1, "round": round}
    if publish_auto:
        then = _(
            "Round %(closed)s's results become final and count in the standings; then round "
            "%(round)s is paired and published at once, so its tables open to the scorekeepers "
            "and the public."
        )
    else:
        then = _(
            "Round %(closed)s's results become final and count in the standings; then round "
            "%(round)s is paired, for you to check before you publish it."
        )
    return Ask(
        question=_("Close round %(closed)s and pair round %(round)s?") % words,
        consequence=then % words,
        yes=_("Yes, close and pair round %(number)s") % {"number": round},
        url=reverse("desk:pair", args=[tournament_id]),
        fields=(("round", str(round)), ("close_first", "1")),
    )


def finish(tournament_id: uuid.UUID, summary: Mapping[str, Any]) -> Ask | None:
    if summary["status"] == "finished":
        return None
    planned = summary["settings"]["rounds"]
    played = len(summary["rounds"])
    if played >= planned:
        question = _("Finish the tournament?")
        consequence = _(
            "The standings become final and the tournament is shown as finished everywhere: "
            "no more rounds are paired. Only the history can undo it."
        )
    else:
        question = _("Finish the tournament now, before its last planned round?")
        consequence = ngettext(
            "%(played)s of its %(planned)s rounds is played. The standings become final and "
            "the tournament is shown as finished everywhere: the rounds left are never paired. "
            "Only the history can undo it.",
            "%(played)s of its %(planned)s rounds are played. The standings become final and "
            "the tournament is shown as finished everywhere: the rounds left are never paired. "
            "Only the history can undo it.",
            played,
        ) % {"played": played, "planned": planned}
    return Ask(
        question=question,
        consequence=consequence,
        yes=_("Yes, finish the tournament"),
        url=reverse("desk:finish", args=[tournament_id]),
    )


def stop_clock(tournament_id: uuid.UUID, round: int) -> Ask:
    return Ask(
        question=_("Stop round %(round)s's clock?") % {"round": round},
        consequence=_(
            "Every page (the public ones, the big screen, the desk) stops showing when the round "
            "ends. You may start it again."
        ),
        yes=_("Yes, stop the clock"),
        url=reverse("desk:clock", args=[tournament_id, round]),
        fields=(("stop", "1"),),
    )


def discard_pairing(tournament_id: uuid.UUID, round: int) -> Ask:
    return Ask(
        question=_("Discard round %(round)s's proposal?") % {"round": round},
        consequence=_(
            "The proposed tables and their swaps are discarded; nothing was published. Pairing "
            "again gives the same tables."
        ),
        yes=_("Yes, discard the proposal"),
        url=reverse("desk:undo_pairing", args=[tournament_id, round]),
    )
