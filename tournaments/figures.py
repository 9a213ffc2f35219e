"""How the pages write points: the desk's and the public pages' one rule (pure, no Django).
Exact values stay in the API and the CSV; only what a reader sees is rounded."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction


def figure(value: float | int | Fraction, decimal: str = ".", places: int = 2) -> str:
    """Points as the pages show them: ``places`` decimals at most (the standings: 1,
    STANDINGS_PLACES), halves rounded away from zero, no trailing zeros (4.0 -> "4"), with
    ``decimal`` as the separator (4.5 -> "4,5" in French and Russian). A float counts as the
    decimal it prints as (0.15 is 0.15, not the binary value just below it).

    In integers (a thousand players' rows have several figures each: Fraction arithmetic cost
    a quarter of a render): ``units = floor(|value| * scale + 1/2)`` as ``(2|n| scale + d) //
    2d`` for ``value = n/d``."""
    if isinstance(value, int):
        num, den = value, 1
    elif isinstance(value, Fraction):
        num, den = value.numerator, value.denominator
    else:
        num, den = Decimal(str(value)).as_integer_ratio()
    scale = 10**places
    units = (2 * abs(num) * scale + den) // (2 * den)
    whole, part = divmod(units, scale)
    text = str(whole) if not part else f"{whole}{decimal}{part:0{places}d}".rstrip("0")
    if units and num < 0:
        text = "-" + text
    return text


STANDINGS_PLACES = 1
"""Decimals of the standings' figures on the pages (9.3, 3.8, 2): what a club reads. Exact
values stay in the API and the CSV; the rank always compares exact values (docs/standings.md)."""
