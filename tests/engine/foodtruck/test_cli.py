"""``python -m engine`` with Food Truck records: the game is named on the first line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.registry import RULES, replay_data

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"
EXAMPLE = EXAMPLES / "foodtruck-3p.jsonl"
"""A version 1 record (docs/foodtruck-record-format.md)."""
EXAMPLE_V2 = EXAMPLES / "foodtruck-3p-v2.jsonl"
"""The same game in version 2, what ``simulate`` writes now."""


def test_the_registry_holds_food_truck() -> None:
    rules = RULES["food-truck"]
    assert (rules.name, rules.players) == ("Food Truck", (2, 3, 4, 5))


def test_the_documented_example_replays_to_finished(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLE)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["status"] == "finished"
    assert summary["ranking"][0]["rank"] == 1 and summary["ranking"][0]["tiebreaks"] == []


def test_the_example_is_what_simulate_writes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "food-truck", "--seed", "7", "--players", "3"]) == 0
    assert capsys.readouterr().out == EXAMPLE_V2.read_text()


def test_the_v2_example_replays_to_finished(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLE_V2)]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "finished"


@pytest.mark.parametrize("players", ["2", "5"])
def test_simulate_any_table_size(players: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "food-truck", "--seed", "1", "--players", players]) == 0
    record = capsys.readouterr().out
    assert replay_data(record)["status"] == "finished"


def test_an_invalid_line_is_reported_with_its_index_and_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = EXAMPLE.read_text().splitlines()
    lines[2] = json.dumps({"type": "dish_revealed", "player": "p1", "dish": "sushi"})
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(bad)]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["event"] == 2
    assert error["code"] in {"dish_not_in_pile", "wrong_turn"}


def test_a_cut_record_is_in_progress(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            ["simulate", "--game", "food-truck", "--seed", "2", "--players", "4", "--events", "20"]
        )
        == 0
    )
    summary = replay_data(capsys.readouterr().out)
    assert summary["status"] == "in_progress" and summary["ranking"] == []
    assert summary["state"]["next"]["type"] in {"dish_revealed", "market_taken"}
