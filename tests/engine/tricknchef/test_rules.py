"""The pure rule functions of engine/tricknchef/rules.py, one rule at a time, with plain data."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.tricknchef.cards import ALL_CARDS, CARD_SUIT, CARD_VALUE, SUITS, stars
from engine.tricknchef.rules import (
    Play,
    chef_taker,
    coin_payout,
    most_points,
    ranking,
    round_score,
    trick_winner,
    trump_suits,
    value_in_trick,
)


def plays(*specs: str) -> list[Play]:
    """``plays("a:R3", "b:R9+2")`` in play order."""
    result = []
    for spec in specs:
        player, card = spec.split(":")
        coins = 0
        for sign in "+-":
            if sign in card:
                card, count = card.split(sign)
                coins = int(sign + count)
        result.append(Play(player, card, coins, value_in_trick(card, coins)))
    return result


def test_stars_refuse_values_no_card_has() -> None:
    for value in (0, 11, -1):
        with pytest.raises(ValueError):
            stars(value)


def test_the_four_worked_trick_examples() -> None:
    everything = SUITS
    four_reds = plays("a:R1", "b:R3", "c:R7", "d:R10")
    assert (trick_winner(four_reds, everything).player, chef_taker(four_reds).player) == ("d", "a")
    yellow_ten = plays("a:R3", "b:R1", "c:R7", "d:Y10")
    assert (trick_winner(yellow_ten, ("blue",)).player, chef_taker(yellow_ten).player) == ("c", "b")
    blue_five = plays("a:R7", "b:R1", "c:Y10", "d:B5")
    assert (trick_winner(blue_five, ("blue",)).player, chef_taker(blue_five).player) == ("d", "b")
    coins = plays("a:R10+1", "b:R9+2")
    assert trick_winner(coins, ("blue",)).player == "b"
    assert [p.value for p in coins] == [12, 13]


def test_trump_the_fewest_among_suits_left_in_the_centre() -> None:
    assert trump_suits({"green": 4, "red": 4, "yellow": 4, "blue": 4}, SUITS) == SUITS
    assert trump_suits({"green": 4, "red": 2, "yellow": 3, "blue": 2}, SUITS) == ("red", "blue")
    assert trump_suits({"green": 0, "red": 2, "yellow": 1, "blue": 4}, SUITS) == ("yellow",)
    assert trump_suits({"green": 0, "red": 0, "yellow": 0, "blue": 0}, SUITS) == ()
    three = ("green", "red", "blue")
    assert trump_suits({"green": 1, "red": 1, "blue": 0}, three) == ("green", "red")


def test_winner_highest_trump_even_off_suit_else_led_suit_ties_to_the_last() -> None:
    assert trick_winner(plays("a:R10", "b:B1"), ("blue",)).player == "b"
    assert trick_winner(plays("a:R5", "b:Y10", "c:R6"), ("blue",)).player == "c"
    assert trick_winner(plays("a:R8", "b:R6+1", "c:R4+2"), ("blue",)).player == "c"
    assert trick_winner(plays("a:B8", "b:R6", "c:B6+1"), ("blue",)).player == "c"
    # A negative trump still beats any card that is not trump.
    assert trick_winner(plays("a:R10", "b:B1-3"), ("blue",)).player == "b"
    # Led suit is trump and another trump suit too: the highest of both.
    assert trick_winner(plays("a:R5", "b:G6", "c:R7"), ("green", "red")).player == "c"


def test_chef_taker_lowest_any_suit_ties_to_the_first() -> None:
    assert chef_taker(plays("a:R5", "b:G3", "c:B3")).player == "b"
    assert chef_taker(plays("a:R5", "b:G9-3", "c:B3")).player == "b"
    assert chef_taker(plays("a:R10-5", "b:G3", "c:B1")).player == "a"


def test_coin_payout_skips_winner_and_taker_and_stops_when_empty() -> None:
    order = ["c", "d", "a", "b"]
    assert coin_payout(order, "c", "a", reserve=20) == ("d", "b")
    assert coin_payout(order, "c", "c", reserve=20) == ("d", "a", "b")
    assert coin_payout(order, "c", "c", reserve=2) == ("d", "a")
    assert coin_payout(order, "d", "b", reserve=1) == ("c",)
    assert coin_payout(order, "d", "b", reserve=0) == ()


def test_scoring_chefs_cover_the_lowest_values_first() -> None:
    assert round_score(["G1", "G4", "G8", "G10"], {"green": 2}, 0) == 3
    assert round_score(["G10", "G8", "G4", "G1"], {"green": 2}, 0) == 3  # order won is no matter
    assert round_score(["G1", "G4", "G8", "G10"], {"green": 0}, 0) == 0
    assert round_score(["R7"], {"red": 3}, 0) == 3  # Chefs without a card score nothing
    assert round_score(["R7", "G1"], {"red": 1, "green": 1}, 0) == 3 + 1  # suits apart
    assert round_score(["G1", "G4", "G8", "G10", "B10"], {"green": 2, "blue": 1}, 2) == 3 + 4 + 2


def test_ranking_total_then_round_three_then_shared_competition_ranks() -> None:
    ranks = ranking(
        ["a", "b", "c", "d"], {"a": 20, "b": 25, "c": 20, "d": 20}, {"a": 7, "b": 1, "c": 9, "d": 7}
    )
    assert [(r.player, r.rank) for r in ranks] == [("b", 1), ("c", 2), ("a", 3), ("d", 3)]
    everyone = ranking(["a", "b", "c"], dict.fromkeys("abc", 5), dict.fromkeys("abc", 2))
    assert [r.rank for r in everyone] == [1, 1, 1]


def test_most_points_lists_every_tied_leader() -> None:
    assert most_points({"a": 3, "b": 7, "c": 7}) == ("b", "c")


@st.composite
def tricks(draw: st.DrawFn) -> list[Play]:
    size = draw(st.sampled_from((3, 4)))
    cards = draw(st.lists(st.sampled_from(ALL_CARDS), min_size=size, max_size=size, unique=True))
    result = []
    for i, card in enumerate(cards):
        coins = draw(st.integers(-3, 3))
        result.append(Play(f"p{i}", card, coins, value_in_trick(card, coins)))
    return result


@given(tricks(), st.sets(st.sampled_from(SUITS)))
def test_the_winner_is_a_highest_eligible_card_and_the_last_of_equals(
    trick: list[Play], trump: set[str]
) -> None:
    winner = trick_winner(trick, tuple(trump))
    trumps = [p for p in trick if CARD_SUIT[p.card] in trump]
    eligible = trumps or [p for p in trick if CARD_SUIT[p.card] == CARD_SUIT[trick[0].card]]
    assert winner in eligible
    assert all(p.value <= winner.value for p in eligible)
    assert all(p.value < winner.value for p in eligible[eligible.index(winner) + 1 :])


@given(tricks())
def test_the_chef_taker_is_the_first_lowest_card(trick: list[Play]) -> None:
    taker = chef_taker(trick)
    assert all(p.value >= taker.value for p in trick)
    assert all(p.value > taker.value for p in trick[: trick.index(taker)])


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=12, unique=True), st.integers(0, 5))
def test_a_suits_score_is_bounded_by_its_chefs_and_grows_with_them(
    won: list[str], chefs: int
) -> None:
    per_suit = [round_score(won, {suit: chefs}, 0) for suit in SUITS]
    for suit, score in zip(SUITS, per_suit, strict=True):
        cards = [c for c in won if CARD_SUIT[c] == suit]
        assert 0 <= score <= 4 * min(chefs, len(cards))
        assert round_score(won, {suit: chefs + 1}, 0) >= score
    assert round_score(won, dict.fromkeys(SUITS, chefs), 0) == sum(per_suit)


def test_value_in_trick_is_printed_value_plus_two_per_coin() -> None:
    for card in ALL_CARDS:
        for coins in (-4, 0, 3):
            assert value_in_trick(card, coins) == CARD_VALUE[card] + 2 * coins
