"""Players' names as the whole project stores them: one spelling for one name.

A name is written in Unicode's composed form (NFC: ``é`` and ``e`` + a combining accent are the
same name), without leading or trailing whitespace and with each inner run of whitespace
(spaces, tabs, newlines, no-break spaces) as one space. A name with nothing visible in it is no
name. The games API, the record import, the tournaments' registrations (API, organizer desk,
pasted lists and CSV files) all go through :func:`clean_names`, before the engine or the
tournament's domain sees a name.

Pure Python (no Django): the tournament's pure modules may use it too.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from django.utils.translation import gettext as _


class BadName(ValueError):
    """A name that is no name (blank); the message is the user's."""


def normalize_name(name: str) -> str:
    """The name's one spelling: NFC, trimmed, inner whitespace as one space."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def is_blank(name: str) -> bool:
    """Nothing visible: only whitespace, or invisible characters (e.g. a zero-width space)."""
    return not any(ch.isprintable() and not ch.isspace() for ch in name)


def clean_names(names: Iterable[str]) -> list[str]:
    """Each name in its one spelling; raises :class:`BadName` for a blank one."""
    cleaned = []
    for name in names:
        spelt = normalize_name(name)
        if is_blank(spelt):
            raise BadName(_("every player needs a name (one of the names is blank)"))
        cleaned.append(spelt)
    return cleaned
