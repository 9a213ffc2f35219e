"""The public pages' shaping, without a database: summaries (plain dicts) in, page records out."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.public.presenters import (
    figure,
    game_state,
    ordinal,
    player_rounds,
    standings_hidden_from_public,
    table_cards,
)


@pytest.mark.parametrize(
    ("number", "text"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"),
     (21, "21st"), (22, "22nd"), (101, "101st"), (111, "111th")],
)  # fmt: skip
def test_ordinal(number: int, text: str) -> None:
    assert ordinal(number) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [(4.0, "4"), (Fraction(7, 3), "2.33"), (2.5, "2.5"), (-0.001, "0"), (0, "0")],
)
def test_figure_has_two_decimals_at_most_and_no_trailing_zeros(
    value: float | Fraction, text: str
) -> None:
    assert figure(value) == text


def _figure_by_fractions(value: float | int | Fraction, decimal: str, places: int) -> str:
    """figure's rule as first written, in Fraction arithmetic: what the integer one must give."""
    exact = value if isinstance(value, Fraction) else Fraction(str(value))
    scale = 10**places
    units = math.floor(abs(exact) * scale + Fraction(1, 2))
    whole, part = divmod(units, scale)
    text = str(whole) if not part else f"{whole}.{part:0{places}d}".rstrip("0")
    if units and exact < 0:
        text = "-" + text
    return text.replace(".", decimal)


NUMBERS = st.one_of(
    st.integers(-10_000, 10_000),
    st.fractions(max_denominator=1_000).filter(lambda f: abs(f) < 10_000),
    st.floats(-10_000, 10_000, allow_nan=False),
    st.sampled_from([0.05, -0.05, 0.15, 2.25, 2.35, -2.45, 9.95, 0.005, 1e-9]),
)


@given(NUMBERS, st.sampled_from([".", ","]), st.integers(0, 3))
def test_figure_rounds_as_exact_arithmetic_does(
    value: float | int | Fraction, decimal: str, places: int
) -> None:
    assert figure(value, decimal, places) == _figure_by_fractions(value, decimal, places)


@pytest.mark.parametrize(
    ("value", "text"),
    [(2.25, "2,3"), (-2.25, "-2,3"), (0.04, "0"), (-0.05, "-0,1"), (Fraction(19, 2), "9,5")],
)
def test_figure_rounds_halves_away_from_zero_with_the_given_separator(
    value: float | Fraction, text: str
) -> None:
    assert figure(value, ",", 1) == text


def test_game_state_shows_progress_only_while_a_game_is_played() -> None:
    assert game_state("finished", 4, 2) == ("finished", "")
    assert game_state("in_progress", None, None) == ("not_started", "")
    assert game_state("in_progress", 2, None) == ("in_progress", "Deal 2, trick 1")
    assert game_state("in_progress", 3, 5) == ("in_progress", "Deal 3, trick 5")


def summary(**settings: Any) -> dict[str, Any]:
    seats = [{"player": p, "name": p.upper()} for p in ("a", "b", "c")]
    result = [
        {"player": "a", "place": 1, "victory_points": 30},
        {"player": "b", "place": 1, "victory_points": 30},
        {"player": "c", "place": 3, "victory_points": 10},
    ]
    table = {"table": 1, "seats": seats, "game": "g1", "result": result, "confirmed": True}
    return {
        "settings": {"scoring": "placement", "rounds": 3, **settings},
        "players": [{"id": s["player"], "name": s["name"], "dropped": s["player"] == "c"}
                    for s in seats],
        "rounds": [
            {"round": 1, "status": "closed", "tables": [table], "byes": []},
            {"round": 2, "status": "proposed", "tables": [table], "byes": []},
        ],
    }  # fmt: skip


def test_a_table_card_marks_shared_places_and_dropped_players() -> None:
    data = summary()
    players = {p["id"]: p for p in data["players"]}
    (card,) = table_cards(data["rounds"][0], players, {"g1": ("finished", "")})
    assert [(s.name, s.place, s.dropped) for s in card.seats] == [
        ("A", "1st (shared)", False),
        ("B", "1st (shared)", False),
        ("C", "3rd", True),
    ]
    assert card.has_result and card.confirmed and card.status_label == "Finished"
    (proposed,) = table_cards(data["rounds"][1], players, {"g1": ("finished", "")})
    assert proposed.game_status == "unknown", "a proposed round shows no game"


def test_a_players_rounds_leave_out_proposed_ones() -> None:
    rounds = player_rounds(summary(), "c", {"g1": ("finished", "")})
    assert [(r.round, r.kind, r.place, r.opponents) for r in rounds] == [
        (1, "table", "3rd", (("a", "A"), ("b", "B")))
    ]


def test_standings_are_hidden_from_the_round_set_until_revealed() -> None:
    assert not standings_hidden_from_public(summary())
    assert standings_hidden_from_public(summary(standings_hidden_from=1))
    assert not standings_hidden_from_public(summary(standings_hidden_from=2))
    revealed = summary(standings_hidden_from=1, standings_revealed=True)
    assert not standings_hidden_from_public(revealed)


def _placed(player: str, place: int, points: int, *tiebreaks: int) -> dict[str, Any]:
    return {"player": player, "place": place, "victory_points": points, "tiebreaks": tiebreaks}


def test_tie_notes_say_which_tie_break_split_a_tie_and_when_nothing_did() -> None:
    from tournaments.public.presenters import tie_notes

    names = {"a": "Léa", "b": "Ben", "c": "Zoë", "d": "Ida"}
    result = [
        _placed("a", 1, 30, 12), _placed("b", 2, 30, 8), _placed("c", 2, 30, 8),
        _placed("d", 4, 20, 9),
    ]  # fmt: skip
    notes = tie_notes(result, names, ("deal 3",))
    assert notes["a"] == "deal 3: 12, ahead of Ben's 8, deal 3: 12, ahead of Zoë's 8"
    assert notes["b"] == "deal 3: 8, behind Léa's 12, level with Zoë: nothing split them"
    assert "d" not in notes  # alone on 20 points
    # a game without tie-breaks (Chefs, Food Truck): equal points share the place
    shared = tie_notes([_placed("a", 1, 5), _placed("b", 1, 5)], names, ())
    assert shared == {
        "a": "level with Ben: nothing split them",
        "b": "level with Léa: nothing split them",
    }
