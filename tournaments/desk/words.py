"""How the desk words a service's message (pure)."""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import pgettext

ENDINGS = (".", "!", "?", ")", "。", "！", "？", "）")
"""What already ends a sentence, in the desk's languages (Japanese has its own full stop)."""


def sentence(message: str) -> str:
    """A service's message as a sentence: capital first, full stop last (the language's)."""
    text = capfirst(message.strip()) or ""
    if text.endswith(ENDINGS):
        return text
    return text + pgettext("the full stop that ends a sentence", ".")
