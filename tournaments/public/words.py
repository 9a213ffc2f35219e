"""The public pages' words in the reader's language: the page records' statuses, places, round
counts, game progress and decimal separator (tournaments.public.presenters.Words) through
gettext and the active language's number format, and the round clock's sentences.

The presenters stay pure (no Django): the views and the standings page give them WORDS; the
language is the one active when they are called (the request's, or the one the shared
standings are rendered in)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import tzinfo

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.places import place_words
from games.words import word_list
from tournaments.public.clock import Clock

STATUS = {
    "tournament": {
        "registration": gettext_lazy("Registration open"),
        "running": pgettext_lazy("a tournament", "In progress"),
        "finished": pgettext_lazy("a tournament", "Finished"),
    },
    "round": {
        "proposed": gettext_lazy("Proposed: not public yet"),
        "published": gettext_lazy("In play"),
        "closed": gettext_lazy("Complete"),
        "scheduled": gettext_lazy("Scheduled"),
    },
    "game": {
        "not_started": gettext_lazy("Not started"),
        "in_progress": pgettext_lazy("a game", "In progress"),
        "finished": pgettext_lazy("a game", "Finished"),
        "void": gettext_lazy("Voided"),
        "unknown": gettext_lazy("Not public"),
    },
}


class GettextWords:
    """tournaments.public.presenters.Words in the active language."""

    @property
    def decimal(self) -> str:
        return str(formats.get_format("DECIMAL_SEPARATOR"))

    def status(self, kind: str, key: str) -> str:
        label = STATUS[kind].get(key)
        return key if label is None else str(label)

    def place(self, place: int, shared: bool) -> str:
        return place_words(place, shared)

    def round_text(self, status: str, now: int, planned: int) -> str:
        if status == "registration" or now == 0:
            return ngettext("%(counter)s round planned", "%(counter)s rounds planned", planned) % {
                "counter": planned
            }
        return _("Round %(now)s of %(planned)s") % {"now": now, "planned": planned}

    def progress(self, deal: int, trick: int) -> str:
        return _("Deal %(deal)s, trick %(trick)s") % {"deal": deal, "trick": trick}

    def text(self, message: str) -> str:
        return _(message)

    def join(self, items: Sequence[str]) -> str:
        return word_list(items)

    def tie_split(self, tiebreak: str, mine: int, other: str, theirs: int, ahead: bool) -> str:
        values = {"tiebreak": tiebreak, "mine": mine, "other": other, "theirs": theirs}
        if ahead:
            return _("%(tiebreak)s: %(mine)s, ahead of %(other)s's %(theirs)s") % values
        return _("%(tiebreak)s: %(mine)s, behind %(other)s's %(theirs)s") % values

    def tie_shared(self, others: str) -> str:
        return _("level with %(others)s: nothing split them") % {"others": others}


WORDS = GettextWords()


def clock_text(clock: Clock, tz: tzinfo) -> str:
    """ "Round 2 ends at 21:30." (templates/public/_clock.html says the same message)."""
    return _("Round %(round)s ends at %(time)s.") % {
        "round": clock.round,
        "time": f"{clock.ends_at.astimezone(tz):%H:%M}",
    }


def clock_over_text(clock: Clock) -> str:
    return _("Round %(round)s: time is up.") % {"round": clock.round}
