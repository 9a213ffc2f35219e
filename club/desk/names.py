"""Names as the club desk compares them (pure: no Django): the members list's search and the
members it suggests merging, whose names are close (the same letters once accents,
punctuation and case are set aside, or one name the start of another: "Olga Petrov" and
"Olga Petrova")."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

MIN_PREFIX: Final = 3
"""A name this short or shorter is the start of too many others to suggest anything."""


def loose_key(name: str) -> str:
    """``name`` without accents, punctuation or case, its words split by single spaces:
    "Zoé  O'Brien-Smith" and "zoe obrien smith" give one key."""
    decomposed = unicodedata.normalize("NFKD", name)
    kept: list[str] = []
    for char in decomposed:
        category = unicodedata.category(char)
        if category.startswith("M"):  # a combining accent
            continue
        if category.startswith(("L", "N")):
            kept.append(char)
        elif category.startswith("Z") or char in "-_/":
            kept.append(" ")
        # other punctuation and symbols ("'", ".", ",") go: O'Brien is OBrien
    return " ".join("".join(kept).casefold().split())


def matches(name: str, query: str) -> bool:
    """The members list's search: every word of the query is in the name, loosely."""
    words = loose_key(query).split()
    key = loose_key(name)
    return all(word in key for word in words)


@dataclass(frozen=True, slots=True)
class Named:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Suggestion:
    """Two members who may be one person (``first``'s name sorts first)."""

    first: Named
    second: Named


def suggested_duplicates(members: Iterable[Named]) -> list[Suggestion]:
    """Pairs of members whose names are close: the same loose key, or one key the start of
    the other's (at a word's end or not: "Olga Petrov", "Olga Petrova"); by name."""
    keyed = sorted(
        ((loose_key(m.name), m) for m in members), key=lambda pair: (pair[0], pair[1].id)
    )
    found: list[Suggestion] = []
    for i, (key, member) in enumerate(keyed):
        if not key:
            continue
        for other_key, other in keyed[i + 1 :]:
            # Sorted keys: every key that starts with this one follows it, side by side.
            if not other_key.startswith(key):
                break
            if other_key == key or len(key) > MIN_PREFIX:
                found.append(Suggestion(member, other))
    return found
