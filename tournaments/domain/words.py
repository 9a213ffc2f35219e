"""Words for people from pure code, in the reader's language, without Django.

The pure modules (the domain, the pairing notes, the standings) cannot import Django's
translation, yet their refusals, notes and column titles are read by people in French, Russian
or Japanese. They speak through a :class:`Translator`: anything with ``gettext``, ``ngettext``
and ``pgettext``, as the standard library's ``gettext.NullTranslations`` (English,
:data:`ENGLISH`) and the module ``django.utils.translation`` (the active language) both are.
Calls are written ``t.gettext("...")`` / ``t.ngettext("...", "...", n)``, names makemessages
(xgettext) looks for, so the catalogues hold their text.

A message made before its reader is known (a refusal raised by a decision) is a :data:`Say`: a
function of the translator, called where it is shown (the services, in the request's language).
:func:`gettext_lazy` and :func:`ngettext_lazy` make one from a message and its named
parameters (a parameter may itself be a :data:`Say`, translated with it).
:func:`gettext_noop` marks a constant for the catalogues and returns it as it is (a tie-break's
title): where it is shown, ``gettext(title)`` or ``{% translate title %}`` translates it.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from typing import Any, Final, Protocol


class Translator(Protocol):
    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...


ENGLISH: Final[Translator] = gettext.NullTranslations()
"""The words as written in the code (English; ``ngettext`` picks by n == 1)."""

Say = Callable[[Translator], str]
"""A message not yet in a language: ``say(ENGLISH)``, ``say(django.utils.translation)``."""


def gettext_noop(message: str) -> str:
    """Marks ``message`` for the catalogues (makemessages knows this name) and returns it
    untranslated: it is translated where it is shown."""
    return message


def said(text: str) -> Say:
    """A message that is the same in every language (already translated, or a name)."""
    return lambda t: text


def _fill(t: Translator, text: str, params: dict[str, Any]) -> str:
    if not params:
        return text
    return text % {k: v(t) if callable(v) else v for k, v in params.items()}


def gettext_lazy(message: str, /, **params: Any) -> Say:
    """``message`` with its ``%(name)s`` placeholders filled from ``params``, in the language of
    the translator it is said with (named as Django's helper: makemessages finds it)."""
    return lambda t: _fill(t, t.gettext(message), params)


def ngettext_lazy(singular: str, plural: str, n: int, /, **params: Any) -> Say:
    """As :func:`gettext_lazy`, in the plural form for ``n`` (Russian has three)."""
    return lambda t: _fill(t, t.ngettext(singular, plural, n), params)


def pgettext_lazy(context: str, message: str, /, **params: Any) -> Say:
    """As :func:`gettext_lazy`, for an English word with more than one meaning."""
    return lambda t: _fill(t, t.pgettext(context, message), params)
