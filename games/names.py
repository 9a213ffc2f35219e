"""Players' names as the whole project stores them: one spelling for one name.

A name is written in Unicode's composed form (NFC: ``é`` and ``e`` + a combining accent are the
same name), without leading or trailing whitespace and with each inner run of whitespace
(spaces, tabs, newlines, no-break spaces) as one space. A name with nothing visible in it is no
name, and one holding a lone surrogate (``"\\ud800"`` in JSON: half of a character) or a NUL
is no text: all are refused, for every game, however the name came (PostgreSQL could store
neither of the latter). The games API, the record import, the tournaments' registrations (API,
organizer desk, pasted lists and CSV files) all go through :func:`clean_names`, before the
engine or the tournament's domain sees a name.

Pure Python (no Django): the tournament's pure modules may use it too.
"""

from __future__ import annotations

import functools
import sys
import unicodedata
from collections.abc import Iterable

from django.utils.translation import gettext as _

from engine.jsonline import SURROGATE


class BadName(ValueError):
    """A name that is no name (blank); the message is the user's."""


def normalize_name(name: str) -> str:
    """The name's one spelling: NFC, trimmed, inner whitespace as one space."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def is_blank(name: str) -> bool:
    """Nothing visible: only whitespace, or invisible characters (e.g. a zero-width space)."""
    return not any(ch.isprintable() and not ch.isspace() for ch in name)


@functools.cache
def visible_class() -> str:
    """:func:`is_blank`'s visible characters as a regular expression's character class (its
    body, without the brackets), for the API's schema: ranges of code points, a BMP one as an
    escape (``\\u00e9``), another as itself (Python's, ECMA's with the u flag and Rust's regular
    expressions read both). Built once, from this Python's Unicode tables, as the rule is."""
    ranges: list[tuple[int, int]] = []
    start: int | None = None
    for point in range(sys.maxunicode + 2):
        char = chr(point) if point <= sys.maxunicode else ""
        visible = bool(char) and char.isprintable() and not char.isspace()
        if visible and start is None:
            start = point
        elif not visible and start is not None:
            ranges.append((start, point - 1))
            start = None
    return "".join(
        _point(low) if low == high else f"{_point(low)}-{_point(high)}" for low, high in ranges
    )


def _point(point: int) -> str:
    return f"\\u{point:04x}" if point <= 0xFFFF else chr(point)


def clean_names(names: Iterable[str]) -> list[str]:
    """Each name in its one spelling; raises :class:`BadName` for a blank one, or one holding a
    lone surrogate."""
    cleaned = []
    for name in names:
        if "\x00" in name:
            raise BadName(_("a name cannot hold a NUL character (U+0000)"))
        surrogate = SURROGATE.search(name)
        if surrogate is not None:
            raise BadName(
                _(
                    "a name cannot hold a lone surrogate (%(code_point)s): it is half of a "
                    "character, not text"
                )
                % {"code_point": f"U+{ord(surrogate.group()):04X}"}
            )
        spelt = normalize_name(name)
        if is_blank(spelt):
            raise BadName(_("every player needs a name (one of the names is blank)"))
        cleaned.append(spelt)
    return cleaned
