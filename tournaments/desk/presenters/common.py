"""What the desk's panels share: role and pairing-method names, the words of a swap note, ordinals
and lists in the language's way, the standings' figures, the spectators' delay in words."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from tournaments import domain, notes
from tournaments.figures import STANDINGS_PLACES
from tournaments.figures import figure as public_figure

ROLE_NAMES = {
    domain.ORGANIZER: gettext_lazy("Organizer"),
    domain.SCOREKEEPER: gettext_lazy("Scorekeeper"),
}
_PLACEHOLDER = re.compile(r"\{|%\(")


def _words_before_values(template: str) -> str:
    """A note's sentence up to its first value ("Changed by hand: ")."""
    return _PLACEHOLDER.split(template, maxsplit=1)[0]


SWAP_NOTE = _words_before_values(str(notes.SENTENCES["swapped"]))
"""How a round's notes word a swap made by hand (the ``swapped`` code, tournaments.notes), in
English."""
SWAPPED_SENTENCE = "Changed by hand: %(a)s and %(b)s swapped."
"""tournaments.notes' msgid for that note, translated by the tournaments' catalogue entry (given
to gettext through this name, so that the desk's catalogue takes no copy of it)."""
TABLE_STATUS = {
    "proposed": pgettext_lazy("table status", "Proposed"),
    "not_started": pgettext_lazy("table status", "Not started"),
    "playing": pgettext_lazy("table status", "In progress"),
    "recording": pgettext_lazy("table status", "Finished: result on its way"),
    "finished": pgettext_lazy("table status", "Finished: to confirm"),
    "confirmed": pgettext_lazy("table status", "Confirmed"),
    "void": pgettext_lazy("table status", "Voided"),
}
"""A table's status on the desk, in the public round page's words where they say the same
(Not started, In progress, Voided: tournaments.public.presenters.GAME_STATUS), with what the
desk adds: whether a finished game's result is in, and confirmed."""
PROGRESS = gettext_lazy("Deal %(deal)s, trick %(trick)s")
"""Where a table's game is (a game's rounds are deals, the tournament's rounds are rounds)."""


def is_swap(note: str) -> bool:
    """Whether a round's note records a swap made by hand (undo the last swap). The summary
    words its notes in the reader's language: in English, or as the catalogue translates
    tournaments.notes' sentence of a swap."""
    here = _words_before_values(_(SWAPPED_SENTENCE))
    return note.startswith(SWAP_NOTE) or bool(here) and note.startswith(here)


PAIRING_METHODS = {
    "random": pgettext_lazy("pairing method", "random"),
    "order": pgettext_lazy("pairing method", "order"),
    "standings": pgettext_lazy("pairing method", "standings"),
    "exhaustive": pgettext_lazy("pairing method", "exhaustive"),
    "local search": pgettext_lazy("pairing method", "local search"),
}
"""How a round was paired (its ``method``), in words: "Proposed random pairing"."""


def ordinal(number: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd" (each language its own way: "1er",
    "2e" in French)."""
    if number == 1:
        text = pgettext("ordinal number: 1", "%(number)dst")
    elif 10 <= number % 100 <= 20 or number % 10 not in (1, 2, 3):
        text = pgettext("ordinal number ending in th", "%(number)dth")
    elif number % 10 == 1:
        text = pgettext("ordinal number ending in 1 (21, 31)", "%(number)dst")
    elif number % 10 == 2:
        text = pgettext("ordinal number ending in 2", "%(number)dnd")
    else:
        text = pgettext("ordinal number ending in 3", "%(number)drd")
    return text % {"number": number}


def and_list(items: Sequence[str]) -> str:
    if len(items) < 2:
        return "".join(items)
    return _("%(items)s and %(last)s") % {
        "items": list_separator().join(items[:-1]),
        "last": items[-1],
    }


def list_separator() -> str:
    """Between the items of a list ("1st, 2nd and 11th"; Japanese: "、")."""
    return pgettext("between the items of a list", ", ")


def standing_figure(value: Any) -> Any:
    """A standings figure as the public standings show it (one decimal at most)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        separator = str(formats.get_format("DECIMAL_SEPARATOR"))
        return public_figure(value, separator, STANDINGS_PLACES)
    return value


def figure(value: Any) -> Any:
    """6.0 shows as 6, 8.63 as 8.63, with the language's decimal separator ("8,63" in French
    and Russian), as on the public standings."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, float):
        return str(value).replace(".", str(formats.get_format("DECIMAL_SEPARATOR")))
    return value


def delay_words(seconds: int) -> str:
    """A relay delay as a setting's value: "5 minutes", "90 seconds" (one set through the API
    in seconds), "none"."""
    if not seconds:
        return pgettext("no spectators' delay", "none")
    if seconds % 60 == 0:
        return ngettext("%(count)d minute", "%(count)d minutes", seconds // 60) % {
            "count": seconds // 60
        }
    return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}


def delay_sentence(number: int, seconds: int) -> str:
    """How late spectators see round ``number`` (its effective delay, in seconds)."""
    if not seconds:
        return _("Spectators see round %(round)s as it is played (no delay).") % {"round": number}
    if seconds % 60 == 0:
        minutes = seconds // 60
        return ngettext(
            "Spectators see round %(round)s %(minutes)d minute late.",
            "Spectators see round %(round)s %(minutes)d minutes late.",
            minutes,
        ) % {"round": number, "minutes": minutes}
    return ngettext(
        "Spectators see round %(round)s %(seconds)d second late.",
        "Spectators see round %(round)s %(seconds)d seconds late.",
        seconds,
    ) % {"round": number, "seconds": seconds}
