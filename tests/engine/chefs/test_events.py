"""The Chefs record v1 read strictly (docs/chefs-record-format.md, "Reading strictly"), and the
command line's view of a Chefs record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.chefs.events import EVENT_TYPES, dumps, from_json, loads
from engine.chefs.simulate import simulate
from engine.cli import main
from engine.errors import BadEvent


def test_every_event_type_round_trips_through_its_json() -> None:
    events = simulate(3, 4)
    assert {type(e) for e in events} == set(EVENT_TYPES.values())
    for event in events:
        assert loads(dumps(event)) == event


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("", "bad_json"),
        ("[1]", "bad_json"),
        ('{"type": "action_passed", "player": NaN}', "bad_json"),
        ('{"type": "action_passed", "player": "a", "player": "b"}', "bad_event"),
        ('{"player": "a"}', "bad_event"),
        ('{"type": "card_played", "player": "a"}', "bad_event"),
        ('{"type": "action_passed"}', "bad_event"),
        ('{"type": "action_passed", "player": "a", "coins": 1}', "bad_event"),
        ('{"type": "ingredients_taken", "player": "a", "count": 2.0}', "bad_event"),
        ('{"type": "ingredients_taken", "player": "a", "count": true}', "bad_event"),
        (
            '{"type": "meal_cooked", "player": "a", "steps": 3, "ingredients": 1, "chef_card": 0}',
            "bad_event",
        ),
        ('{"type": "game_started", "game": "trick-n-chef", "players": ["a", "b"]}', "bad_event"),
        ('{"type": "game_started", "game": "chefs", "players": ["a", 2]}', "bad_event"),
        (
            '{"type": "marker_placed", "player": "a", "location": "sink", "circle": 1}',
            "bad_location",
        ),
        ('{"type": "cards_exchanged", "player": "a", "chest": "4:5"}', "bad_chest"),
        ('{"type": "cards_exchanged", "player": "a", "chest": 12}', "bad_event"),
    ],
)
def test_malformed_lines_are_refused_with_their_code(line: str, code: str) -> None:
    with pytest.raises(BadEvent) as caught:
        loads(line)
    assert caught.value.code == code


def test_fields_are_read_in_the_documented_order() -> None:
    with pytest.raises(BadEvent) as caught:
        from_json({"type": "marker_placed", "player": 1, "location": "sink"})
    assert '"player"' in caught.value.message


def test_replay_on_the_command_line_ranks_a_finished_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--game", "chefs", "--seed", "9", "--players", "5"]) == 0
    path = tmp_path / "chefs.jsonl"
    path.write_text(capsys.readouterr().out)
    assert main(["replay", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "chefs" and summary["status"] == "finished"
    assert {r["player"] for r in summary["ranking"]} == set(summary["players"])
    lines = path.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if '"marker_placed"' in line)
    lines[first] = lines[first].replace('"circle":1', '"circle":2')
    path.write_text("\n".join(lines))
    assert main(["replay", str(path)]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert (error["event"], error["code"]) == (first, "wrong_circle")
