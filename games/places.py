"""A place in a ranking, in the reader's language: "1st", "2nd (shared)"; "1er", "1-е", "1位".

One namer for the game pages (the replay's final ranking) and the tournament's public pages
(places at a table, standings). The English suffix picks the message; each language writes its
own ("1st" apart, for French's "1er").
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def ordinal(number: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    if number == 1:
        return pgettext("a place in a ranking", "1st")
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10)
    if suffix == "st":
        text = pgettext("a place in a ranking", "%(number)dst")
    elif suffix == "nd":
        text = pgettext("a place in a ranking", "%(number)dnd")
    elif suffix == "rd":
        text = pgettext("a place in a ranking", "%(number)drd")
    else:
        text = pgettext("a place in a ranking", "%(number)dth")
    return text % {"number": number}


def place_words(place: int, shared: bool) -> str:
    """ "2nd", or "2nd (shared)" when others have the same place."""
    if shared:
        return _("%(place)s (shared)") % {"place": ordinal(place)}
    return ordinal(place)
