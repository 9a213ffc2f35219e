"""Every rule of docs/crazykitchen-rules.md through the engine (names carry the rule number)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.crazykitchen import results
from engine.crazykitchen.events import Event, GameStarted, RoundScored, Team
from engine.crazykitchen.replay import step
from engine.crazykitchen.rules import round_score
from engine.crazykitchen.state import KitchenState
from engine.crazykitchen.summary import summarize
from engine.errors import RuleViolation

PIZZA = Team("Pizza", ("ann", "bob"))
FRIES = Team("French Fries", ("cy", "di", "ed"))
TEAMS = [
    {"name": "Pizza", "players": ["ann", "bob"]},
    {"name": "French Fries", "players": ["cy", "di", "ed"]},
]


def game(*events: Event) -> KitchenState:
    state = KitchenState()
    for event in events:
        step(state, event)
    return state


def refused(state: KitchenState, event: Event, code: str) -> str:
    before = summarize(state)
    with pytest.raises(RuleViolation) as caught:
        step(state, event)
    assert caught.value.code == code, caught.value
    assert summarize(state) == before
    return caught.value.message


def scored(number: int, cooks: str, score: int) -> RoundScored:
    return RoundScored(number, cooks, (score,) if score else (), (), score)


def sheet(pizza: tuple[int, int, int], fries: tuple[int, int, int]) -> list[RoundScored]:
    """Rounds 1-6 with Pizza cooking first."""
    out = []
    for i in range(3):
        out.append(scored(2 * i + 1, "Pizza", pizza[i]))
        out.append(scored(2 * i + 2, "French Fries", fries[i]))
    return out


def start(compensation: int | None = None, teams: tuple[Team, ...] = (PIZZA, FRIES)) -> GameStarted:
    return GameStarted(teams, "Pizza", compensation)


# ----------------------------------------------------------------------------- 1 teams


@pytest.mark.parametrize(
    "teams",
    [
        (PIZZA,),
        (PIZZA, FRIES, Team("Soup", ("x", "y"))),
        (PIZZA, Team("Pizza", ("x", "y"))),
        (PIZZA, Team(" ", ("x", "y"))),
        (PIZZA, Team("Soup", ("ann", "y"))),
        (PIZZA, Team("Soup", ("", "y"))),
    ],
)
def test_rule_1_1_two_named_teams_each_player_in_one(teams: tuple[Team, ...]) -> None:
    refused(KitchenState(), GameStarted(teams, "Pizza"), "bad_teams")


@pytest.mark.parametrize(
    ("sizes", "ok"),
    [
        ((2, 2), True),
        ((2, 3), True),
        ((6, 6), True),
        ((1, 2), False),
        ((1, 1), False),
        ((2, 4), False),
        ((6, 7), False),
    ],
)
def test_rule_1_2_equal_teams_or_one_more_at_least_two_each(
    sizes: tuple[int, int], ok: bool
) -> None:
    a = Team("A", tuple(f"a{i}" for i in range(sizes[0])))
    b = Team("B", tuple(f"b{i}" for i in range(sizes[1])))
    if ok:
        game(GameStarted((a, b), "A"))
    else:
        refused(KitchenState(), GameStarted((a, b), "A"), "bad_teams")


def test_rule_1_3_the_team_that_cooks_first_is_one_of_the_two() -> None:
    refused(KitchenState(), GameStarted((PIZZA, FRIES), "Soup"), "unknown_team")
    assert summarize(game(GameStarted((PIZZA, FRIES), "French Fries")))["state"]["next"] == {
        "type": "round_scored",
        "round": 1,
        "cooks": "French Fries",
    }


def test_rule_1_4_the_smaller_team_gets_15_by_default_counted_only_in_the_total() -> None:
    state = game(start(), *sheet((10, 5, 18), (12, 13, 7)))  # the rulebook's score sheet
    summary = summarize(state)
    assert summary["points"] == {"Pizza": 33, "French Fries": 32}
    assert summary["totals"] == {"Pizza": 48, "French Fries": 32}
    assert summary["compensation"] == {"team": "Pizza", "points": 15}
    assert summary["upgrades"][0]["points"] == {"Pizza": 10, "French Fries": 12}


@pytest.mark.parametrize(("given", "total"), [(0, 33), (20, 53)])
def test_rule_1_4_the_organizer_may_change_or_drop_it(given: int, total: int) -> None:
    state = game(start(given), *sheet((10, 5, 18), (12, 13, 7)))
    assert summarize(state)["totals"]["Pizza"] == total


def test_rule_1_4_no_compensation_with_equal_teams_and_never_negative() -> None:
    even = (PIZZA, Team("Fries", ("cy", "di")))
    refused(KitchenState(), start(15, even), "bad_compensation")
    refused(KitchenState(), start(-1), "bad_compensation")
    summary = summarize(game(start(0, even)))
    assert summary["compensation"] == {"team": None, "points": 0}


# ----------------------------------------------------------------------------- 2 rounds


def test_rule_2_1_six_rounds_and_the_teams_swap_roles_every_round() -> None:
    state = game(start())
    refused(state, scored(1, "French Fries", 3), "wrong_cooks")
    refused(state, scored(2, "Pizza", 3), "wrong_round")
    refused(state, scored(1, "Soup", 3), "unknown_team")
    for event in sheet((1, 2, 3), (4, 5, 6)):
        step(state, event)
    assert summarize(state)["status"] == "finished"
    refused(state, scored(7, "Pizza", 3), "game_over")


def test_rule_2_1_one_game_started_first() -> None:
    refused(KitchenState(), scored(1, "Pizza", 3), "out_of_order")
    refused(game(start()), start(), "out_of_order")


# ----------------------------------------------------------------------------- 3 scoring


def test_rule_3_2_the_rulebook_example_10_minus_3_is_7() -> None:
    assert round_score((3, 2, 5), (2, 1)) == 7
    game(start(), RoundScored(1, "Pizza", (3, 2, 5), (2, 1), 7))


def test_rule_3_2_more_penalties_than_points_writes_0() -> None:
    state = game(start())
    message = refused(state, RoundScored(1, "Pizza", (2,), (3, 1), -2), "wrong_score")
    assert "0 is written" in message
    step(state, RoundScored(1, "Pizza", (2,), (3, 1), 0))
    refused(state, RoundScored(2, "French Fries", (2, 2), (), 5), "wrong_score")


def test_rule_3_1_values_and_penalties_are_1_or_more() -> None:
    state = game(start())
    refused(state, RoundScored(1, "Pizza", (0,), (), 0), "bad_order_value")
    refused(state, RoundScored(1, "Pizza", (3,), (-2,), 1), "bad_penalty")
    step(state, RoundScored(1, "Pizza", (), (), 0))


def test_rule_3_3_no_more_orders_than_order_cards() -> None:
    state = game(start())
    refused(state, RoundScored(1, "Pizza", (1,) * 50, (1,) * 8, 42), "too_many_orders")
    step(state, RoundScored(1, "Pizza", (1,) * 50, (1,) * 7, 43))


# ----------------------------------------------------------------------------- 4 upgrades


def test_rule_4_2_fewer_points_upgrade_first_for_the_others_points() -> None:
    # The rulebook's example: Pizza 6, French Fries 8 over the two rounds.
    state = game(start(), scored(1, "Pizza", 6), scored(2, "French Fries", 8))
    assert summarize(state)["upgrades"] == [
        {
            "after_round": 2,
            "points": {"Pizza": 6, "French Fries": 8},
            "order": ["Pizza", "French Fries"],
            "limits": {"Pizza": 8, "French Fries": 6},
        }
    ]


def test_rule_4_1_upgrades_after_rounds_2_and_4_only_on_those_two_rounds() -> None:
    state = game(start(), *sheet((9, 1, 0), (1, 9, 0))[:5])
    upgrades = summarize(state)["upgrades"]
    assert [u["after_round"] for u in upgrades] == [2, 4]
    assert upgrades[1]["points"] == {"Pizza": 1, "French Fries": 9}
    assert upgrades[1]["order"] == ["Pizza", "French Fries"]
    assert upgrades[0]["order"] == ["French Fries", "Pizza"]


def test_rule_4_1_compensation_does_not_count_for_upgrades() -> None:
    state = game(start(15), scored(1, "Pizza", 5), scored(2, "French Fries", 10))
    assert summarize(state)["upgrades"][0]["limits"] == {"Pizza": 10, "French Fries": 5}


def test_rule_4_2_on_equal_points_the_team_that_cooked_first_goes_first() -> None:
    state = game(GameStarted((PIZZA, FRIES), "French Fries"))
    step(state, scored(1, "French Fries", 4))
    step(state, scored(2, "Pizza", 4))
    assert summarize(state)["upgrades"][0]["order"] == ["French Fries", "Pizza"]


# ----------------------------------------------------------------------------- 5 winning


def test_rule_5_2_most_points_win_and_equal_totals_are_a_draw() -> None:
    won = summarize(game(start(0), *sheet((10, 5, 18), (12, 13, 7))))
    assert won["result"] == "win"
    assert [(r["team"], r["rank"], r["points"]) for r in won["ranking"]] == [
        ("Pizza", 1, 33),
        ("French Fries", 2, 32),
    ]
    drawn = summarize(game(start(1), *sheet((10, 5, 17), (12, 13, 8))))
    assert drawn["result"] == "draw"
    assert [(r["team"], r["rank"], r["points"]) for r in drawn["ranking"]] == [
        ("Pizza", 1, 33),
        ("French Fries", 1, 33),
    ]
    assert all(r["tiebreaks"] == [] for r in drawn["ranking"])


def test_rule_5_2_no_ranking_before_the_end() -> None:
    summary = summarize(game(start(), scored(1, "Pizza", 6)))
    assert (
        summary["status"] == "in_progress"
        and summary["ranking"] == []
        and summary["result"] is None
    )


# ----------------------------------------------------------------------------- 6 results only


def test_rule_6_1_results_only_gives_the_same_summary_shape() -> None:
    summary = results(TEAMS, {"cooks_first": "Pizza", "scores": [10, 12, 5, 13, 18, 7]})
    full = summarize(game(start(), *sheet((10, 5, 18), (12, 13, 7))))
    assert set(summary) == set(full)
    for key in ("totals", "points", "upgrades", "ranking", "result", "status", "compensation"):
        assert summary[key] == full[key]
    assert summary["rounds"][0] == {
        "round": 1,
        "cooks": "Pizza",
        "fulfilled": None,
        "penalties": None,
        "score": 10,
    }


@pytest.mark.parametrize(
    ("teams", "entry", "code"),
    [
        (TEAMS, {"cooks_first": "Pizza", "scores": [1, 2, 3]}, "bad_results"),
        (TEAMS, {"cooks_first": "Pizza", "scores": [1, 2, 3, 4, 5, -6]}, "bad_results"),
        (TEAMS, {"cooks_first": "Pizza", "scores": [1, 2, 3, 4, 5, 6.0]}, "bad_results"),
        (TEAMS, {"cooks_first": "Soup", "scores": [1, 2, 3, 4, 5, 6]}, "unknown_team"),
        (TEAMS, {"scores": [1, 2, 3, 4, 5, 6]}, "bad_results"),
        (
            TEAMS,
            {"cooks_first": "Pizza", "scores": [0] * 6, "compensation": -3},
            "bad_compensation",
        ),
        (TEAMS[:1], {"cooks_first": "Pizza", "scores": [0] * 6}, "bad_teams"),
        ([{"name": "A"}, {"name": "B"}], {"cooks_first": "A", "scores": [0] * 6}, "bad_teams"),
    ],
)
def test_rule_6_1_results_only_refuses_what_the_scoreboard_cannot_hold(
    teams: list[dict[str, Any]], entry: dict[str, Any], code: str
) -> None:
    with pytest.raises(RuleViolation) as caught:
        results(teams, entry)
    assert caught.value.code == code
