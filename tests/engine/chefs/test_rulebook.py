"""Every rule of docs/chefs-rules.md played out through the Chefs engine (names carry the rule
number: test_rule_5_4_... is CH5.4)."""

from __future__ import annotations

import pytest

from engine.chefs import results
from engine.chefs.events import (
    ActionPassed,
    CardsExchanged,
    Event,
    GameStarted,
    IngredientsTaken,
    MarkerPlaced,
    MealCooked,
    MealServed,
    RoundStarted,
)
from engine.chefs.replay import step
from engine.chefs.state import ChefsState, Phase
from engine.chefs.summary import summarize
from engine.errors import RuleViolation
from tests.engine.chefs.factories import Table


def refused(table: Table, event: Event, code: str) -> RuleViolation:
    before = summarize(table.state)
    with pytest.raises(RuleViolation) as caught:
        step(table.state, event)
    assert caught.value.code == code, caught.value
    assert summarize(table.state) == before  # a refused event changes nothing
    return caught.value


def phase(table: Table) -> Phase:
    return table.state.phase


def two_chefs_cooking(first: str = "p1") -> Table:
    """2 chefs: p1 window, wall, service; p2 counter, door, service."""
    return Table(2, first).place("window", "counter", "wall", "door", "service", "service")


# ----------------------------------------------------------------------------- 1-2 material, set-up


def test_rule_1_2_markers_act_location_by_location_whatever_the_placing_order() -> None:
    table = Table(3).place("service", "wall", "door", "window", "counter", "service")
    table.place("counter", "door", "wall")
    seen = []
    while phase(table) is Phase.ACTING:
        seen.append(summarize(table.state)["state"]["next"]["location"])
        table.do(ActionPassed(table.expected))
    assert seen == ["counter"] * 2 + ["window"] + ["door"] * 2 + ["wall"] * 2 + ["service"] * 2


@pytest.mark.parametrize("names", [("a",), tuple("abcdefg"), ("a", "a"), ("a", " ")])
def test_rule_2_1_two_to_six_chefs_each_named_once(names: tuple[str, ...]) -> None:
    with pytest.raises(RuleViolation) as caught:
        step(ChefsState(), GameStarted(players=names))
    assert caught.value.code == "bad_players"


@pytest.mark.parametrize(
    ("players", "counter", "meals"), [(2, 4, 1), (3, 6, 2), (4, 6, 2), (5, 8, 3), (6, 8, 3)]
)
def test_rule_2_2_the_table_depends_on_the_number_of_chefs(
    players: int, counter: int, meals: int
) -> None:
    state = Table(players).state
    assert state.counter == counter
    assert state.cookers == [meals, meals]


def test_rule_2_3_two_ingredient_cards_each_and_everyone_by_the_door() -> None:
    state = Table(4).state
    assert state.hands == {"p1": 2, "p2": 2, "p3": 2, "p4": 2}
    assert state.positions == {"p1": 0, "p2": 0, "p3": 0, "p4": 0}
    assert state.ingredient_supply == 60 - 8 - 6


# ----------------------------------------------------------------------------- 3 placing


def test_rule_3_2_any_chef_starts_round_1_then_the_one_to_the_left() -> None:
    table = Table(3, first="p3").place(*["counter"] * 9).pass_all()
    refused(table, RoundStarted(round=2, starting_player="p3"), "wrong_starting_player")
    refused(table, RoundStarted(round=2, starting_player="p2"), "wrong_starting_player")
    refused(table, RoundStarted(round=3, starting_player="p1"), "wrong_round")
    refused(table, RoundStarted(round=2, starting_player="zed"), "unknown_player")
    table.do(RoundStarted(round=2, starting_player="p1"))  # p3's left wraps round to p1
    assert table.expected == "p1"


def test_rule_3_3_one_marker_per_turn_clockwise_until_all_are_down() -> None:
    table = Table(3, first="p2")
    order = []
    for _ in range(9):
        order.append(table.expected)
        table.place("counter")
    assert order == ["p2", "p3", "p1"] * 3
    assert phase(table) is Phase.ACTING


def test_rule_3_3_a_chef_cannot_put_down_a_second_marker_in_their_turn() -> None:
    table = Table(3).place("counter")
    refused(table, MarkerPlaced("p1", "window", 1), "wrong_turn")
    refused(table, IngredientsTaken("p2", 2), "out_of_order")


def test_rule_3_4_markers_fill_the_circles_in_order_and_may_share_a_location() -> None:
    table = Table(2).place("wall", "wall")
    refused(table, MarkerPlaced("p1", "wall", 4), "wrong_circle")
    refused(table, MarkerPlaced("p1", "wall", 2), "wrong_circle")
    refused(table, MarkerPlaced("p1", "window", 0), "wrong_circle")
    table.do(MarkerPlaced("p1", "wall", 3))
    assert table.state.markers[3] == ["p1", "p2", "p1"]


def test_rule_3_5_the_door_takes_five_markers() -> None:
    table = Table(2).place(*["door"] * 5)
    refused(table, MarkerPlaced("p2", "door", 6), "door_full")
    table.place("counter")
    assert phase(table) is Phase.ACTING


# ----------------------------------------------------------------------------- 4 actions


def test_rule_4_1_each_marker_acts_once_in_circle_order_by_its_chef() -> None:
    table = Table(2).place("counter", "counter", "window", "counter", "service", "service")
    assert table.expected == "p1"
    refused(table, IngredientsTaken("p2", 2), "wrong_turn")
    refused(table, MarkerPlaced("p1", "door", 1), "out_of_order")
    table.do(IngredientsTaken("p1", 2))
    assert table.expected == "p2"
    refused(table, MealCooked("p2", 3, 1, False), "out_of_order")


def test_rule_4_2_a_chef_may_pass_at_any_location() -> None:
    table = Table(2).place("counter", "window", "door", "wall", "service", "service").pass_all()
    assert phase(table) is Phase.ROUND_START
    assert table.state.hands == {"p1": 2, "p2": 2}


# ----------------------------------------------------------------------------- 5 counter, cookers


def test_rule_5_1_two_ingredients_or_one_and_never_more_than_lie_there() -> None:
    table = Table(2).place(*["counter"] * 6)
    refused(table, IngredientsTaken("p1", 3), "bad_count")
    refused(table, IngredientsTaken("p1", 0), "bad_count")
    table.do(IngredientsTaken("p1", 2), IngredientsTaken("p2", 1))
    assert table.state.hands == {"p1": 4, "p2": 3}
    table.do(IngredientsTaken("p1", 1))
    refused(table, IngredientsTaken("p2", 1), "not_enough_on_counter")  # out of luck
    table.do(ActionPassed("p2"))


def test_rule_5_2_cooking_puts_in_cards_the_chef_holds_and_takes_the_meal() -> None:
    table = two_chefs_cooking()
    table.do(ActionPassed("p2"))  # counter
    refused(table, MealCooked("p1", 4, 3, False), "not_enough_cards")
    refused(table, MealCooked("p1", 4, 0, False), "bad_ingredients")
    refused(table, MealCooked("p1", 4, -1, True), "bad_ingredients")
    refused(table, MealCooked("p1", 0, 1, False), "bad_steps")
    table.do(MealCooked("p1", 4, 2, False))
    assert table.state.hands["p1"] == 0
    assert table.state.meals["p1"] == [4]
    assert table.state.cookers == [0, 1]


def test_rule_5_3_no_cooking_at_a_cooker_without_meal_cards() -> None:
    table = Table(2).place("window", "window", "service", "service", "service", "service")
    table.do(MealCooked("p1", 2, 1, False))
    refused(table, MealCooked("p2", 2, 1, False), "no_meal_left")
    table.do(ActionPassed("p2"))


def test_rule_5_4_the_chef_card_is_valid_once_at_each_cooker() -> None:
    table = Table(3).place("window", "window", "window", "window", "wall", "wall")
    table.place("wall", "service", "service")
    table.do(MealCooked("p1", 3, 0, True))
    table.do(MealCooked("p2", 3, 0, True))
    refused(table, MealCooked("p3", 3, 0, True), "no_meal_left")  # 2 meals at the window
    table.do(ActionPassed("p3"))
    refused(table, MealCooked("p1", 3, 0, True), "no_meal_left")
    table.do(ActionPassed("p1"))
    # At the wall p2 may use the chef card again (the other cooker), once.
    table.do(MealCooked("p2", 5, 0, True))
    table.do(MealCooked("p3", 5, 1, True))
    refused(table, MealCooked("p1", 5, 1, False), "no_meal_left")
    assert table.state.meals == {"p1": [3], "p2": [3, 5], "p3": [5]}


def test_rule_5_4_not_twice_at_one_cooker_in_a_round() -> None:
    table = Table(3).place("window", "counter", "counter", "window", "counter", "counter")
    table.place("service", "service", "service")
    table.passes(4)
    table.do(MealCooked("p1", 3, 0, True))
    refused(table, MealCooked("p1", 3, 0, True), "chef_card_used")
    table.do(MealCooked("p1", 3, 1, False))
    table.pass_all().next_round()
    table.place("window", *["counter"] * 8)
    table.passes(8)
    table.do(MealCooked("p2", 6, 0, True))  # a new round: the chef card works again


# ----------------------------------------------------------------------------- 6 door


def test_rule_6_1_a_chest_gives_its_second_number_for_its_first() -> None:
    table = Table(2).place("door", "door", "counter", "counter", "service", "service")
    table.do(ActionPassed("p1"), ActionPassed("p2"))
    table.do(CardsExchanged("p1", "1:2"), CardsExchanged("p2", "2:3"))
    assert table.state.hands == {"p1": 3, "p2": 3}
    assert table.state.ingredient_supply == 60 - 4 - 4 - 2


def test_rule_6_2_each_chest_once_a_round() -> None:
    table = Table(2).place("door", "door", "door", "service", "service", "service")
    table.do(CardsExchanged("p1", "2:2"))
    refused(table, CardsExchanged("p2", "2:2"), "chest_taken")
    table.do(CardsExchanged("p2", "1:1"))
    refused(table, CardsExchanged("p1", "1:1"), "chest_taken")


def test_rule_6_3_the_chef_must_hold_the_cards_and_the_deck_must_have_enough() -> None:
    table = Table(2).place("door", "door", "door", "service", "service", "service")
    refused(table, CardsExchanged("p1", "3:4"), "not_enough_cards")
    table.state.ingredient_supply = 0  # every other card is in someone's hand
    refused(table, CardsExchanged("p1", "1:2"), "deck_empty")
    table.do(CardsExchanged("p1", "2:2"))  # the two given come back from the discards


# ----------------------------------------------------------------------------- 7 service


def test_rule_7_1_serving_a_meal_moves_the_chef_by_its_steps() -> None:
    table = two_chefs_cooking()
    table.do(IngredientsTaken("p2", 2), MealCooked("p1", 4, 1, False), ActionPassed("p2"))
    table.do(MealCooked("p1", 2, 1, True))
    refused(table, MealServed("p1", 3, 3), "meal_not_held")
    refused(table, MealServed("p1", 4, 5), "wrong_position")
    table.do(MealServed("p1", 4, 4))
    refused(table, MealServed("p2", 4, 4), "meal_not_held")
    table.do(ActionPassed("p2"))
    assert table.state.positions == {"p1": 4, "p2": 0}
    assert table.state.meals["p1"] == [2]


def test_rule_7_2_served_meals_go_back_to_the_meal_supply() -> None:
    table = Table(2).place("window", "counter", "service", "counter", "counter", "counter")
    assert table.state.meal_supply == 29 - 2
    table.passes(4).do(MealCooked("p1", 5, 1, False), MealServed("p1", 5, 5))
    # one meal served back to the pile, one drawn to fill the window's cooker up again
    assert table.state.cookers == [1, 1]
    assert table.state.meal_supply == 29 - 2


# ----------------------------------------------------------------------------- 8 next round


def test_rule_8_1_the_table_is_filled_up_not_added_to() -> None:
    table = Table(3).place(*["counter"] * 3, "window", *["service"] * 5)
    table.do(IngredientsTaken("p1", 2), IngredientsTaken("p2", 1), ActionPassed("p3"))
    table.do(MealCooked("p1", 2, 1, False))
    assert (table.state.counter, table.state.cookers) == (3, [1, 2])
    table.pass_all()
    assert (table.state.counter, table.state.cookers) == (6, [2, 2])
    assert table.state.meal_supply == 29 - 4 - 1


def test_rule_8_1_a_short_supply_fills_what_it_can() -> None:
    table = Table(2).place(*["counter"] * 2, *["window"] * 1, *["service"] * 3)
    table.do(IngredientsTaken("p1", 2), IngredientsTaken("p2", 2))
    table.state.ingredient_supply = 1
    table.pass_all()
    assert table.state.counter == 1


# ----------------------------------------------------------------------------- 9 end


def race(table: Table, steps: tuple[int, int]) -> Table:
    """A round where p1 and p2 (2 chefs) each cook one meal of ``steps`` and serve it."""
    table.place("window", "wall", "service", "service", "counter", "counter")
    table.passes(2)
    for number in steps:
        table.do(MealCooked(table.expected, number, 1, False))
    for number in steps:
        player = table.expected
        table.do(MealServed(player, number, table.state.positions[player] + number))
    return table


def test_rule_9_1_the_round_is_played_out_and_then_the_game_ends() -> None:
    table = race(Table(2), (20, 5))
    assert phase(table) is Phase.ROUND_START  # exactly on field 20 is not past it
    table.next_round()  # p2 starts: p2's markers come first
    table.place("window", "wall", "counter", "counter", "service", "service")
    table.passes(2)
    table.do(MealCooked("p2", 1, 1, False), MealCooked("p1", 16, 1, False))
    table.do(MealServed("p2", 1, 6))
    assert phase(table) is Phase.ACTING
    table.do(MealServed("p1", 16, 36))
    assert phase(table) is Phase.OVER
    assert summarize(table.state)["state"]["fields"] == {"p1": 16, "p2": 6}
    refused(table, RoundStarted(round=3, starting_player="p1"), "game_over")


def test_rule_9_1_nothing_ends_the_game_mid_round() -> None:
    table = Table(2).place("window", "wall", "service", "service", "service", "service")
    table.do(MealCooked("p1", 25, 1, False), MealCooked("p2", 3, 1, False))
    table.do(MealServed("p1", 25, 25))
    assert phase(table) is Phase.ACTING
    table.do(MealServed("p2", 3, 3), ActionPassed("p1"), ActionPassed("p2"))
    assert phase(table) is Phase.OVER


def test_rule_9_2_the_farthest_wins_and_equal_positions_share_the_place() -> None:
    table = Table(3).place("window", "window", "window", "wall", "wall", "wall")
    table.place("service", "service", "service")
    table.do(MealCooked("p1", 21, 1, False), MealCooked("p2", 21, 1, False))
    table.do(ActionPassed("p3"), MealCooked("p1", 2, 1, False))
    table.do(ActionPassed("p2"), MealCooked("p3", 2, 1, False))
    table.do(MealServed("p1", 21, 21), MealServed("p2", 21, 21), MealServed("p3", 2, 2))
    summary = summarize(table.state)
    assert summary["status"] == "finished"
    assert summary["ranking"] == [
        {"player": "p1", "rank": 1, "points": 21, "tiebreaks": []},
        {"player": "p2", "rank": 1, "points": 21, "tiebreaks": []},
        {"player": "p3", "rank": 3, "points": 2, "tiebreaks": []},
    ]


# ----------------------------------------------------------------------------- 10 results only


def test_rule_10_1_results_only_ranks_final_positions() -> None:
    summary = results(["a", "b", "c"], {"positions": {"a": 12, "b": 23, "c": 12}})
    assert summary["status"] == "finished" and summary["state"] is None
    assert [(r["player"], r["rank"], r["points"]) for r in summary["ranking"]] == [
        ("b", 1, 23),
        ("a", 2, 12),
        ("c", 2, 12),
    ]


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"positions": {"a": 21, "b": 3, "c": 0, "d": 1}}, "d did not play"),
        ({"positions": {"a": 21}}, "no final position for b, c"),
        ({"positions": {"a": 21, "b": -1, "c": 0}}, "whole number"),
        ({"positions": {"a": 21, "b": 2.0, "c": 0}}, "whole number"),
        ({"positions": {"a": 21, "b": True, "c": 0}}, "whole number"),
        ({"positions": {"a": 20, "b": 3, "c": 0}}, "passes field 20"),
        ({"scores": {}}, "a results entry is"),
    ],
)
def test_rule_10_1_results_only_refuses_impossible_entries(
    entry: dict[str, object], words: str
) -> None:
    with pytest.raises(RuleViolation) as caught:
        results(["a", "b", "c"], entry)
    assert caught.value.code == "bad_results"
    assert words in caught.value.message
