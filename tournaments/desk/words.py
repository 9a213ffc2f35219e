"""How the desk words a service's message (pure)."""

from __future__ import annotations

from django.utils.text import capfirst


def sentence(message: str) -> str:
    """A service's message as a sentence: capital first, full stop last."""
    text = capfirst(message.strip()) or ""
    return text if text.endswith((".", "!", "?", ")")) else f"{text}."
