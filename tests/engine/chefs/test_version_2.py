"""Chefs record format v2 (docs/chefs-record-format.md, "Format v2"; docs/chefs-rules.md CH2.4,
CH5.1, CH5.5, CH8.3, CH9.3): the meal cards laid at the cookers, the game called for time, the
counter's two cards; v1 records read and replay as they always did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.chefs import ChefsRules
from engine.chefs.events import (
    ActionPassed,
    Event,
    GameCalled,
    GameStarted,
    IngredientsTaken,
    MarkerPlaced,
    MealCooked,
    MealLaid,
    RoundStarted,
    dumps,
    loads,
)
from engine.chefs.referee import legal_moves, who_lays
from engine.chefs.replay import replay_lines, step
from engine.chefs.simulate import simulate
from engine.chefs.state import ChefsState, Phase
from engine.chefs.summary import summarize
from engine.errors import BadEvent, InvalidRecord, RuleViolation

V1 = Path(__file__).parent / "v1"
EXAMPLE = Path(__file__).parents[3] / "docs" / "examples" / "chefs-v2-3p.jsonl"
RULES = ChefsRules()


class Table2:
    """A v2 game of two chefs (p1, p2): one meal card at each cooker, four at the counter."""

    def __init__(self, window: tuple[int, int] = (3, 2), wall: tuple[int, int] = (5, 3)) -> None:
        self.state = ChefsState()
        self.do(GameStarted(players=("p1", "p2"), version=2))
        self.do(MealLaid("window", *window), MealLaid("wall", *wall))

    def do(self, *events: Event) -> Table2:
        for event in events:
            step(self.state, event)
        return self

    def refused(self, event: Event) -> RuleViolation:
        with pytest.raises(RuleViolation) as caught:
            step(self.state, event)
        return caught.value

    def round(self, *locations: str) -> Table2:
        """Start the next round (p1 first in round 1) and put down the six markers."""
        start = "p2" if self.state.starting == "p1" else "p1"
        self.do(RoundStarted(self.state.round_no + 1, start))
        for location in locations:
            player = self.state.expected
            assert player is not None
            circle = len(
                self.state.markers[("counter", "window", "door", "wall", "service").index(location)]
            )
            self.do(MarkerPlaced(player, location, circle + 1))
        return self


def phase(state: ChefsState) -> Phase:
    """The phase now (a call, so that the type checker does not keep an earlier narrowing)."""
    return state.phase


def lines_of(path: Path) -> list[str]:
    return path.read_text().splitlines()


@pytest.mark.parametrize("name", ["seed3-2p", "seed7-4p", "seed11-6p"])
def test_v1_records_replay_as_before(name: str) -> None:
    """v1 records made before v2 (tests/engine/chefs/v1/) give the same summary, byte for
    byte, and the v1 simulation still draws them."""
    lines = lines_of(V1 / f"{name}.jsonl")
    expected = json.loads((V1 / f"{name}.summary.json").read_text())
    assert RULES.replay(lines) == expected
    assert "version" not in expected and "laid" not in expected["state"]
    seed, players = int(name[4:].split("-")[0]), int(name.split("-")[1][0])
    assert [dumps(e) for e in simulate(seed, players, version=1)] == lines


def test_a_v1_record_holds_no_v2_event() -> None:
    lines = lines_of(V1 / "seed3-2p.jsonl")
    for extra in (
        '{"type":"game_called"}',
        '{"type":"meal_laid","cooker":"window","steps":2,"ingredients":1}',
    ):
        with pytest.raises(InvalidRecord) as caught:
            replay_lines([lines[0], extra])
        assert (caught.value.index, caught.value.code) == (1, "bad_event")
        assert caught.value.violation.params["rule"] == "v2_only"


def test_the_version_is_on_the_first_line_only_as_2() -> None:
    assert loads('{"type":"game_started","game":"chefs","version":2,"players":["a","b"]}') == (
        GameStarted(("a", "b"), 2)
    )
    for bad in ("1", "3", '"2"'):
        with pytest.raises(BadEvent):
            loads(f'{{"type":"game_started","game":"chefs","version":{bad},"players":["a","b"]}}')
    assert (
        dumps(GameStarted(("a", "b")))
        == '{"type":"game_started","game":"chefs","players":["a","b"]}'
    )


def test_rule_2_4_the_set_up_meal_cards_are_laid_window_first_before_round_1() -> None:
    state = ChefsState()
    step(state, GameStarted(("p1", "p2", "p3"), 2))
    assert state.phase is Phase.LAYING and state.owed == [2, 2] and state.cookers == [0, 0]
    with pytest.raises(RuleViolation) as caught:
        step(state, RoundStarted(1, "p1"))
    assert caught.value.code == "out_of_order"
    with pytest.raises(RuleViolation) as caught:
        step(state, MealLaid("wall", 3, 2))
    assert caught.value.code == "wrong_cooker"
    for bad, code in (
        (MealLaid("window", 0, 2), "bad_steps"),
        (MealLaid("window", 2, 0), "bad_ingredients"),
    ):
        with pytest.raises(RuleViolation) as caught:
            step(state, bad)
        assert caught.value.code == code
    for cooker, steps in (("window", 2), ("window", 4), ("wall", 3), ("wall", 6)):
        step(state, MealLaid(cooker, steps, 2))
    assert phase(state) is Phase.ROUND_START and state.laid == [[(2, 2), (4, 2)], [(3, 2), (6, 2)]]
    assert summarize(state)["state"]["laid"]["wall"] == [
        {"steps": 3, "ingredients": 2},
        {"steps": 6, "ingredients": 2},
    ]


def test_rule_5_1_v2_the_counter_gives_two_while_two_are_there() -> None:
    table = Table2().round("counter", "counter", "counter", "window", "service", "service")
    refusal = table.refused(IngredientsTaken("p1", 1))
    assert refusal.code == "must_take_two" and refusal.params["left"] == 4
    assert legal_moves(table.state, "p1")[0] == {
        "type": "ingredients_taken",
        "player": "p1",
        "count": 2,
    }
    table.do(IngredientsTaken("p1", 2), IngredientsTaken("p2", 2))
    assert table.state.counter == 0
    assert legal_moves(table.state, "p1") == [
        {"type": "action_passed", "player": "p1"}
    ]  # out of luck


def test_rule_5_1_v2_one_card_only_when_one_is_left() -> None:
    table = Table2().round("counter", "counter", "counter", "window", "service", "service")
    table.do(IngredientsTaken("p1", 2))
    table.state.counter = 1  # as after a short supply
    assert table.refused(IngredientsTaken("p2", 2)).code == "not_enough_on_counter"
    table.do(IngredientsTaken("p2", 1))


def test_rule_5_5_a_meal_is_one_of_the_cards_at_that_cooker() -> None:
    table = Table2(window=(3, 2), wall=(5, 3)).round(
        "window", "wall", "window", "wall", "door", "door"
    )
    assert table.refused(MealCooked("p1", 50, 2, False)).code == "meal_not_at_cooker"
    wrong = table.refused(MealCooked("p1", 5, 2, False))
    assert wrong.code == "wrong_cooker" and wrong.params["other"] == "wall"
    needs = table.refused(MealCooked("p1", 3, 1, False))
    assert needs.code == "wrong_ingredients" and needs.params["needs"] == [2]
    assert table.refused(MealCooked("p1", 3, 2, True)).code == "wrong_ingredients"
    table.do(MealCooked("p1", 3, 1, True))  # the chef card counts as one of the two
    assert table.state.laid[0] == [] and table.state.meals["p1"] == [3]
    assert table.refused(MealCooked("p1", 3, 2, False)).code == "no_meal_left"


def test_rule_5_5_legal_moves_list_each_way_to_pay_for_each_card() -> None:
    table = Table2(window=(3, 2), wall=(5, 3)).round(
        "window", "wall", "window", "wall", "door", "door"
    )
    moves = legal_moves(table.state, "p1")
    cooked = [
        (m["steps"], m["ingredients"], m["chef_card"]) for m in moves if m["type"] == "meal_cooked"
    ]
    assert cooked == [(3, 2, False), (3, 1, True)]
    assert legal_moves(table.state, "p2") == []  # not p2's marker
    for move in moves:
        trial = Table2(window=(3, 2), wall=(5, 3)).round(
            "window", "wall", "window", "wall", "door", "door"
        )
        step(trial.state, loads(json.dumps(move)))  # every listed move is accepted


def test_rule_8_3_each_refill_is_laid_before_the_next_round() -> None:
    table = Table2(window=(3, 1), wall=(5, 3)).round(
        "window", "counter", "door", "door", "service", "service"
    )
    table.do(IngredientsTaken("p2", 2), MealCooked("p1", 3, 1, False))
    while table.state.phase is Phase.ACTING:
        player = table.state.expected
        assert player is not None
        table.do(ActionPassed(player))
    assert table.state.phase is Phase.LAYING and table.state.owed == [1, 0]
    assert who_lays(table.state) == "p2"  # the phones' convention: the next round's starter
    assert legal_moves(table.state, "p1") == []
    assert {m["cooker"] for m in legal_moves(table.state, "p2")} == {"window"}
    assert table.refused(RoundStarted(2, "p2")).code == "out_of_order"
    table.do(MealLaid("window", 4, 2))
    assert phase(table.state) is Phase.ROUND_START and table.state.cookers == [1, 1]


def test_rule_9_3_the_organizer_calls_the_game_with_the_positions_as_they_stand() -> None:
    table = Table2().round("counter", "counter", "counter", "window", "service", "service")
    table.do(IngredientsTaken("p1", 2), GameCalled())
    summary = summarize(table.state)
    assert summary["status"] == "finished" and summary["called"] is True
    assert [(r["player"], r["rank"], r["points"]) for r in summary["ranking"]] == [
        ("p1", 1, 0),
        ("p2", 1, 0),
    ]
    assert table.refused(GameCalled()).code == "game_over"
    assert legal_moves(table.state, "p2") == []
    with pytest.raises(RuleViolation) as caught:
        step(ChefsState(), GameCalled())
    assert caught.value.code == "out_of_order"


def test_the_example_v2_record_replays() -> None:
    summary = RULES.replay(lines_of(EXAMPLE))
    assert summary["version"] == 2 and summary["status"] == "finished"
    kinds = {json.loads(line)["type"] for line in lines_of(EXAMPLE)}
    assert {"meal_laid", "meal_cooked", "meal_served"} <= kinds


@pytest.mark.parametrize("seed", range(6))
def test_the_simulation_makes_v2_records_whose_moves_are_legal_moves(seed: int) -> None:
    """Every simulated move of a chef is among legal_moves; legal_moves are all accepted."""
    state = ChefsState()
    for event in simulate(seed, 2 + seed % 5):
        obj = json.loads(dumps(event))
        player = obj.get("player") or who_lays(state)
        if obj["type"] not in ("game_started", "round_started", "game_called"):
            assert player is not None
            assert obj in legal_moves(state, player), obj
        step(state, event)
    assert state.version == 2 and state.phase is Phase.OVER
