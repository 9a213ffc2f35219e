"""How the pages write points: the desk's and the public pages' one rule (pure, no Django).
Exact values stay in the API and the CSV; only what a reader sees is rounded."""

from __future__ import annotations

import math
from fractions import Fraction


def figure(value: float | int | Fraction, decimal: str = ".", places: int = 2) -> str:
    """Points as the pages show them: ``places`` decimals at most (the standings: 1,
    STANDINGS_PLACES), halves rounded away from zero, no trailing zeros (4.0 -> "4"), with
    ``decimal`` as the separator (4.5 -> "4,5" in French and Russian)."""
    exact = value if isinstance(value, Fraction) else Fraction(str(value))
    scale = 10**places
    units = math.floor(abs(exact) * scale + Fraction(1, 2))
    whole, part = divmod(units, scale)
    text = str(whole) if not part else f"{whole}.{part:0{places}d}".rstrip("0")
    if units and exact < 0:
        text = "-" + text
    return text.replace(".", decimal)


STANDINGS_PLACES = 1
"""Decimals of the standings' figures on the pages (9.3, 3.8, 2): what a club reads. Exact
values stay in the API and the CSV; the rank always compares exact values (docs/standings.md)."""
