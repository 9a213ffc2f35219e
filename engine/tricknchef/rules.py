"""The rules of Trick-n-Chef as small pure functions (docs/rules.md).

Each function decides one thing from plain data, the way OpenSpiel's belote keeps
``_trick_winner`` and ``_finalize_scores`` apart. The referee and the fold call them; the tests
call them directly for the rulebook's worked examples.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from engine.tricknchef.cards import CARD_STARS, CARD_SUIT, CARD_VALUE, COIN_STEP, Card, Suit


class Play(NamedTuple):
    """One card in a trick, in play order."""

    player: str
    card: Card
    coins: int
    value: int
    """The card's value in the trick: printed value + 2 x coins (R4.4)."""


def value_in_trick(card: Card, coins: int) -> int:
    """R4.4: each +2 coin adds 2, each -2 coin subtracts 2; no bounds."""
    return CARD_VALUE[card] + COIN_STEP * coins


def trump_suits(centre: Mapping[Suit, int], suits: Iterable[Suit]) -> tuple[Suit, ...]:
    """R5.1-R5.3: among suits with at least one Chef in the centre, those with the fewest.

    ``suits`` gives the suits in play and the order of the result.
    """
    fewest = 0
    trump: list[Suit] = []
    for suit in suits:
        left = centre[suit]
        if left <= 0:
            continue  # R5.3: a suit whose centre ran out is never trump
        if not trump or left < fewest:
            fewest, trump = left, [suit]
        elif left == fewest:
            trump.append(suit)  # R5.1: tied suits are all trump
    return tuple(trump)


def is_revoke(led: Suit, card: Card, led_cards_held: int) -> bool:
    """R4.3: playing ``card`` breaks the follow-suit rule (the player holds ``led_cards_held``
    cards of the led suit and played another suit)."""
    return led_cards_held > 0 and CARD_SUIT[card] != led


def trick_winner(plays: Sequence[Play], trump: Iterable[Suit]) -> Play:
    """R6.1-R6.3: the highest trump if any trump was played, else the highest of the led suit;
    equal values: the card played last wins."""
    trump = tuple(trump)
    candidates = [p for p in plays if CARD_SUIT[p.card] in trump]
    if not candidates:
        led = CARD_SUIT[plays[0].card]
        candidates = [p for p in plays if CARD_SUIT[p.card] == led]
    best = candidates[0]
    for play in candidates[1:]:
        if play.value >= best.value:  # >=: a later equal card beats an earlier one
            best = play
    return best


def chef_taker(plays: Sequence[Play]) -> Play:
    """R7.1-R7.2: the lowest value of the trick, any suit; equal lowest: the first played."""
    lowest = plays[0]
    for play in plays[1:]:
        if play.value < lowest.value:  # strict: an earlier equal card keeps it
            lowest = play
    return lowest


def coin_payout(
    play_order: Sequence[str], winner: str, taker: str, reserve: int
) -> tuple[str, ...]:
    """R8.2-R8.3: who receives one coin, given the reserve after the trick's coins went back.

    Everyone but the winner and the Chef taker, in play order from the leader, while coins last.
    """
    paid = []
    for player in play_order:
        if reserve == 0:
            break
        if player != winner and player != taker:
            paid.append(player)
            reserve -= 1
    return tuple(paid)


def round_score(won: Iterable[Card], chefs: Mapping[Suit, int], coins: int) -> int:
    """R9.1-R9.2: a player's score for a round.

    Won cards are taken from the lowest printed value up; each gets a Chef of its suit while
    the player has one left, and a card with a Chef scores its stars. Each coin scores 1.
    """
    chefs_left = dict(chefs)
    total = coins
    for card in sorted(won, key=CARD_VALUE.__getitem__):
        suit = CARD_SUIT[card]
        if chefs_left.get(suit, 0) > 0:
            chefs_left[suit] -= 1
            total += CARD_STARS[card]
    return total


class Rank(NamedTuple):
    player: str
    rank: int
    total: int
    last_round: int


def ranking(
    players: Sequence[str], totals: Mapping[str, int], last_round: Mapping[str, int]
) -> list[Rank]:
    """R10.2: by total, then round-3 score; still tied: shared place, competition numbering
    (1, 1, 3). Ties are listed in seat order."""
    seat = {p: i for i, p in enumerate(players)}
    order = sorted(players, key=lambda p: (-totals[p], -last_round[p], seat[p]))
    result: list[Rank] = []
    for position, player in enumerate(order, start=1):
        key = (totals[player], last_round[player])
        if result and (result[-1].total, result[-1].last_round) == key:
            rank = result[-1].rank
        else:
            rank = position
        result.append(Rank(player, rank, totals[player], last_round[player]))
    return result


def most_points(totals: Mapping[str, int]) -> tuple[str, ...]:
    """R3.1: the players who may start rounds 2 and 3 (tied for the most points so far)."""
    best = max(totals.values())
    return tuple(p for p, t in totals.items() if t == best)
