"""Template filters for lists of words in the page's language (games/words.py)."""

from __future__ import annotations

from collections.abc import Iterable

from django import template

from games.words import word_list

register = template.Library()


@register.filter(name="word_list")
def word_list_filter(words: Iterable[object]) -> str:
    """Names one after the other with the language's list separator ("A, B"; "A、B")."""
    return word_list(words)
