"""Template helpers to draw Trick-n-Chef cards (templates/cards/card.html)."""

from __future__ import annotations

from typing import Any

from django import template

from engine.cards import CARD_STARS, CARD_SUIT, CARD_VALUE, DISH, SUIT_LETTER

register = template.Library()


@register.filter
def card_info(card: str) -> dict[str, Any]:
    suit = CARD_SUIT[card]
    stars = CARD_STARS[card]
    return {
        "suit": suit,
        "value": CARD_VALUE[card],
        "letter": SUIT_LETTER[suit],
        "stars": stars,
        "stars_text": "★" * stars,
        "label": f"{suit} {DISH[suit]} {CARD_VALUE[card]}, {stars} star{'s' if stars > 1 else ''}",
    }


@register.filter
def coins_text(coins: int) -> str:
    """+2 coins shown as "+4" (each coin is worth 2)."""
    return f"+{2 * coins}" if coins > 0 else f"−{-2 * coins}"


@register.filter
def coins_label(coins: int) -> str:
    side = "+2" if coins > 0 else "−2"
    count = abs(coins)
    return f"{count} coin{'s' if count > 1 else ''} {side}"
