"""Record v2 of Crazy Kitchen (docs/crazykitchen-record-format.md, "Format v2") and its rules
(docs/crazykitchen-rules.md CK1.5, CK3.4-CK3.6, CK4.3-CK4.6, CK7): the orders as the phones
enter them, the customers' confirmation, the upgrades bought within each team's budget; and v1
records read and replay exactly as before (v1_records.json: records and their replays written
by the v1 engine, main at ec781f8, before v2 existed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.crazykitchen import RULES
from engine.crazykitchen.events import (
    CardTaken,
    Event,
    GameStarted,
    OrderFailed,
    OrderFulfilled,
    OrderStruck,
    RoundConfirmed,
    RoundReturned,
    RoundScored,
    Team,
    ToolSpedUp,
    UpgradesDone,
    dumps,
    loads,
)
from engine.crazykitchen.replay import step
from engine.crazykitchen.simulate import simulate, simulate_v1
from engine.crazykitchen.state import KitchenState
from engine.crazykitchen.summary import summarize
from engine.errors import BadEvent, InvalidRecord, RuleViolation

PIZZA = Team("Pizza", ("ann", "bob"), "ann")
FRIES = Team("Fries", ("cy", "di", "ed"), "di")
START = GameStarted((PIZZA, FRIES), "Pizza", None, 2)
HERE = Path(__file__).parent
EXAMPLE = HERE.parents[2] / "docs" / "examples" / "crazykitchen-v2.jsonl"


def game(*events: Event) -> KitchenState:
    state = KitchenState()
    for event in (START, *events):
        step(state, event)
    return state


def refused(state: KitchenState, event: Event, code: str) -> RuleViolation:
    before = summarize(state)
    with pytest.raises(RuleViolation) as caught:
        step(state, event)
    assert caught.value.code == code, caught.value
    assert summarize(state) == before
    return caught.value


def round_of(cooks: str, customers: str, *orders: int) -> list[Event]:
    """A round: positive numbers fulfilled, negative ones failed, then confirmed."""
    out: list[Event] = [
        OrderFulfilled(cooks, v) if v > 0 else OrderFailed(cooks, -v) for v in orders
    ]
    return [*out, RoundConfirmed(customers)]


def two_rounds(pizza: tuple[int, ...], fries: tuple[int, ...]) -> list[Event]:
    return [*round_of("Pizza", "Fries", *pizza), *round_of("Fries", "Pizza", *fries)]


# ----------------------------------------------------------------------------- CK7: versions


def test_rule_7_1_v1_records_read_and_replay_as_the_v1_engine_did() -> None:
    cases = json.loads((HERE / "v1_records.json").read_text())
    assert len(cases) >= 10 and any("error" in c["replay"] for c in cases)
    for case in cases:
        try:
            got: dict[str, Any] = RULES.replay(case["record"])
        except InvalidRecord as error:
            got = {"error": error.as_dict()}
        assert got == case["replay"]
        if "error" not in got:  # and each line writes back as it was read
            assert [dumps(loads(line)) for line in case["record"]] == case["record"]


def test_rule_7_1_v1_games_keep_their_summary_keys() -> None:
    for seed in range(5):
        state = KitchenState()
        for event in simulate_v1(seed, 5):
            step(state, event)
        summary = summarize(state)
        assert "version" not in summary and "current" not in summary
        assert all("head_chef" not in t for t in summary["teams"])
        assert all(
            set(u) == {"after_round", "points", "order", "limits"} for u in summary["upgrades"]
        )


def test_rule_7_2_a_v2_record_says_so_on_its_first_line() -> None:
    line = dumps(START)
    assert json.loads(line)["version"] == 2
    assert loads(line) == START
    assert json.loads(line)["teams"][0] == {
        "name": "Pizza",
        "players": ["ann", "bob"],
        "head_chef": "ann",
    }


@pytest.mark.parametrize("version", [1, 3, 0])
def test_rule_7_2_only_v2_is_named(version: int) -> None:
    obj = json.loads(dumps(START))
    obj["version"] = version
    with pytest.raises(BadEvent) as caught:
        loads(json.dumps(obj))
    assert caught.value.code == "wrong_version"


def test_rule_7_2_v1_and_v2_teams_have_their_own_fields() -> None:
    v1 = json.loads(dumps(START))
    del v1["version"]
    with pytest.raises(BadEvent) as caught:
        loads(json.dumps(v1))  # head_chef is no v1 field
    assert caught.value.code == "bad_event"
    for team in v1["teams"]:
        del team["head_chef"]
    v2 = {**v1, "version": 2}
    with pytest.raises(BadEvent) as caught:
        loads(json.dumps(v2))  # v2 names the head chefs
    assert caught.value.params["field"] == "head_chef"


def test_rule_7_3_the_versions_do_not_mix() -> None:
    v1 = KitchenState()
    step(v1, GameStarted((Team("Pizza", ("ann", "bob")), Team("Fries", ("cy", "di"))), "Pizza"))
    error = refused(v1, OrderFulfilled("Pizza", 3), "wrong_version")
    assert error.params["type"] == "order_fulfilled"
    refused(game(), RoundScored(1, "Pizza", (3,), (), 3), "wrong_version")


@pytest.mark.parametrize(
    "line",
    [
        '{"type": "order_fulfilled", "team": "Pizza"}',
        '{"type": "order_fulfilled", "team": "Pizza", "points": 2, "round": 1}',
        '{"type": "order_failed", "team": "Pizza", "penalty": "2"}',
        '{"type": "round_confirmed"}',
        '{"type": "tool_sped_up", "team": "Pizza", "tool": "oven"}',
        '{"type": "card_taken", "team": "Pizza", "cost": 2.0}',
    ],
)
def test_rule_7_3_v2_events_are_read_strictly(line: str) -> None:
    with pytest.raises(BadEvent) as caught:
        loads(line)
    assert caught.value.code == "bad_event"


def test_rule_7_4_simulated_games_are_v2_and_round_trip() -> None:
    for seed in range(30):
        events = simulate(seed, 4 + seed % 9)
        assert isinstance(events[0], GameStarted) and events[0].version == 2
        assert [loads(dumps(e)) for e in events] == events
        summary = RULES.replay([dumps(e) for e in events])
        assert summary["status"] == "finished" and summary["version"] == 2
        assert len(summary["upgrades"]) == 2
        for upgrade in summary["upgrades"]:
            assert upgrade["done"] == upgrade["order"]
            assert all(upgrade["spent"][t] <= upgrade["limits"][t] for t in upgrade["limits"])


def test_rule_7_4_the_example_record_replays(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLE)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["status"] == "finished" and summary["version"] == 2
    assert {u["after_round"]: u["bought"] != [] for u in summary["upgrades"]} == {2: True, 4: True}


# ----------------------------------------------------------------------------- CK1.5


def test_rule_1_5_each_team_has_a_head_chef_among_its_players() -> None:
    summary = summarize(game())
    assert [(t["name"], t["head_chef"]) for t in summary["teams"]] == [
        ("Pizza", "ann"),
        ("Fries", "di"),
    ]
    stranger = GameStarted((Team("Pizza", ("ann", "bob"), "cy"), FRIES), "Pizza", None, 2)
    error = refused(KitchenState(), stranger, "bad_teams")
    assert error.params == {
        "game": "crazy-kitchen",
        "rule": "head_chef",
        "team": "Pizza",
        "player": "cy",
    }


# ----------------------------------------------------------------------------- CK3.4-CK3.6


def test_rule_3_4_the_cooks_enter_each_order_as_it_is_checked() -> None:
    state = game(OrderFulfilled("Pizza", 3), OrderFailed("Pizza", 2), OrderFulfilled("Pizza", 5))
    current = summarize(state)["current"]
    assert current["cooks"] == "Pizza" and current["customers"] == "Fries"
    assert current["orders"] == [
        {"kind": "fulfilled", "value": 3},
        {"kind": "failed", "value": 2},
        {"kind": "fulfilled", "value": 5},
    ]
    error = refused(state, OrderFulfilled("Fries", 2), "wrong_team")
    assert error.params["team"] == "Pizza" and error.params["rule"] == "cooks"
    refused(state, OrderFulfilled("Soup", 2), "unknown_team")
    refused(state, OrderFulfilled("Pizza", 0), "bad_order_value")
    refused(state, OrderFailed("Pizza", 0), "bad_penalty")


def test_rule_3_4_no_more_orders_than_order_cards() -> None:
    state = game(*[OrderFulfilled("Pizza", 1)] * 57)
    refused(state, OrderFailed("Pizza", 1), "too_many_orders")


def test_rule_3_5_the_cooks_strike_an_order_entered_by_mistake() -> None:
    state = game(OrderFulfilled("Pizza", 3), OrderFailed("Pizza", 2), OrderStruck("Pizza", 1))
    assert summarize(state)["current"]["orders"] == [{"kind": "failed", "value": 2}]
    error = refused(state, OrderStruck("Pizza", 2), "no_such_order")
    assert error.params["count"] == 1
    refused(state, OrderStruck("Pizza", 0), "no_such_order")
    refused(state, OrderStruck("Fries", 1), "wrong_team")


def test_rule_3_6_the_customers_confirm_the_round_and_it_is_scored() -> None:
    state = game(*round_of("Pizza", "Fries", 3, 2, 5, -2, -1))
    summary = summarize(state)
    assert summary["rounds"] == [
        {"round": 1, "cooks": "Pizza", "fulfilled": [3, 2, 5], "penalties": [2, 1], "score": 7}
    ]
    assert summary["current"]["cooks"] == "Fries" and summary["current"]["orders"] == []
    error = refused(state, RoundConfirmed("Fries"), "wrong_team")
    assert error.params == {"game": "crazy-kitchen", "rule": "customers", "team": "Pizza"}


def test_rule_3_6_a_returned_round_is_corrected_before_it_is_confirmed() -> None:
    state = game(OrderFulfilled("Pizza", 4), RoundReturned("Fries"))
    assert summarize(state)["current"]["returned"] is True
    refused(state, RoundConfirmed("Fries"), "returned")
    refused(state, RoundReturned("Fries"), "returned")
    step(state, OrderStruck("Pizza", 1))
    step(state, OrderFulfilled("Pizza", 2))
    step(state, RoundConfirmed("Fries"))
    assert summarize(state)["rounds"][0]["fulfilled"] == [2]


def test_rule_3_6_an_empty_round_scores_nothing() -> None:
    assert summarize(game(RoundConfirmed("Fries")))["rounds"][0]["score"] == 0


# ----------------------------------------------------------------------------- CK4.3-CK4.6


def test_rule_4_5_the_team_behind_upgrades_first_then_the_other() -> None:
    state = game(*two_rounds((6,), (8,)))  # Pizza 6, Fries 8: Pizza first, for up to 8
    nxt = summarize(state)["state"]["next"]
    assert nxt == {"type": "upgrades", "after_round": 2, "team": "Pizza"}
    error = refused(state, ToolSpedUp("Fries", "oven", 2), "wrong_team")
    assert error.params["team"] == "Pizza" and error.params["rule"] == "upgrades"
    error = refused(state, OrderFulfilled("Pizza", 3), "out_of_order")
    assert error.params["rule"] == "upgrades"
    step(state, UpgradesDone("Pizza"))
    assert summarize(state)["state"]["next"]["team"] == "Fries"
    refused(state, UpgradesDone("Pizza"), "wrong_team")
    step(state, UpgradesDone("Fries"))
    assert summarize(state)["state"]["next"]["type"] == "orders"


def test_rule_4_6_upgrades_come_only_at_the_breaks() -> None:
    error = refused(game(), CardTaken("Pizza", 1), "out_of_order")
    assert error.params["rule"] == "no_upgrades"
    refused(game(), UpgradesDone("Pizza"), "out_of_order")


def test_rule_4_3_an_upgrade_over_the_budget_is_refused() -> None:
    state = game(*two_rounds((6,), (8,)), ToolSpedUp("Pizza", "oven", 3), CardTaken("Pizza", 4))
    error = refused(state, CardTaken("Pizza", 2), "over_budget")
    assert error.params == {
        "game": "crazy-kitchen",
        "team": "Pizza",
        "limit": 8,
        "spent": 7,
        "cost": 2,
        "round": 2,
    }
    step(state, CardTaken("Pizza", 1))  # exactly the limit
    step(state, UpgradesDone("Pizza"))
    refused(state, ToolSpedUp("Fries", "knife", 7), "over_budget")  # up to Pizza's 6
    step(state, ToolSpedUp("Fries", "knife", 6))
    upgrade = summarize(state)["upgrades"][0]
    assert upgrade["spent"] == {"Pizza": 8, "Fries": 6}
    assert upgrade["bought"] == [
        {"team": "Pizza", "kind": "tool", "tool": "oven", "cost": 3},
        {"team": "Pizza", "kind": "card", "tool": None, "cost": 4},
        {"team": "Pizza", "kind": "card", "tool": None, "cost": 1},
        {"team": "Fries", "kind": "tool", "tool": "knife", "cost": 6},
    ]


def test_rule_4_3_points_are_not_spent_and_compensation_does_not_count() -> None:
    state = game(*two_rounds((6,), (8,)), UpgradesDone("Pizza"), UpgradesDone("Fries"))
    assert summarize(state)["points"] == {"Pizza": 6, "Fries": 8}
    assert summarize(state)["totals"] == {"Pizza": 21, "Fries": 8}  # Pizza: 15 compensation
    refused(game(*two_rounds((), ())), CardTaken("Pizza", 1), "over_budget")  # limit 0


def test_rule_4_4_a_tool_costs_its_lowest_uncrossed_number() -> None:
    state = game(*two_rounds((6,), (8,)), ToolSpedUp("Pizza", "oven", 2))
    error = refused(state, ToolSpedUp("Pizza", "oven", 1), "bad_cost")
    assert error.params["least"] == 2 and error.params["rule"] == "crossed"
    step(state, ToolSpedUp("Pizza", "oven", 2))  # the same tool, several times
    step(state, ToolSpedUp("Pizza", "sink", 1))
    refused(state, ToolSpedUp("Pizza", "spoon", 1), "unknown_tool")
    refused(state, ToolSpedUp("Pizza", "knife", 0), "bad_cost")
    refused(state, CardTaken("Pizza", 0), "bad_cost")
    step(state, UpgradesDone("Pizza"))
    refused(state, ToolSpedUp("Fries", "oven", 1), "bad_cost")  # crossed by either team


def test_rule_4_6_round_6_ends_the_game_without_a_break() -> None:
    done = [UpgradesDone("Pizza"), UpgradesDone("Fries")]
    state = game(*two_rounds((), ()), *done, *two_rounds((1,), ()), *reversed(done))
    state_before = summarize(state)
    assert state_before["upgrades"][1]["order"] == ["Fries", "Pizza"]
    for event in two_rounds((2,), (3,)):
        step(state, event)
    summary = summarize(state)
    assert summary["status"] == "finished" and summary["current"] is None
    assert summary["state"]["next"] is None
    refused(state, UpgradesDone("Pizza"), "game_over")
