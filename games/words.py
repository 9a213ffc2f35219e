"""Lists of words in the reader's language: names one after the other with the language's
separator (", "; "、" in Japanese), for every game's pages and the tournaments'."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext, pgettext


def word_list(words: Iterable[object]) -> str:
    """Names or cards one after the other, with the language's separator."""
    return gettext(", ").join(str(w) for w in words)


def clause_list(clauses: Iterable[object]) -> str:
    """Parts of a line that themselves hold commas ("Ana (x, y); Ben (z)"), with the
    language's separator between them."""
    return pgettext("the separator between the parts of a list that hold commas", "; ").join(
        str(c) for c in clauses
    )
