"""The Crazy Kitchen record v1 read strictly, random legal games, and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cli import main
from engine.crazykitchen.events import dumps, loads
from engine.crazykitchen.replay import step
from engine.crazykitchen.simulate import simulate
from engine.crazykitchen.state import KitchenState
from engine.crazykitchen.summary import summarize
from engine.errors import BadEvent

START = {
    "type": "game_started",
    "game": "crazy-kitchen",
    "teams": [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}],
    "cooks_first": "A",
}


def test_events_round_trip() -> None:
    for event in simulate(5, 7):
        assert loads(dumps(event)) == event


@pytest.mark.parametrize(
    "change",
    [
        {"game": "chefs"},
        {"teams": {"A": ["a"]}},
        {"teams": [{"name": "A", "players": ["a", 1]}, {"name": "B", "players": []}]},
        {"teams": [{"name": "A", "players": ["a"], "size": 1}, {"name": "B", "players": []}]},
        {"teams": [{"name": "A"}, {"name": "B", "players": []}]},
        {"compensation": 15.0},
        {"compensation": None},
        {"difficulty": "easy"},
    ],
)
def test_malformed_game_started_is_bad_event(change: dict[str, object]) -> None:
    with pytest.raises(BadEvent) as caught:
        loads(json.dumps({**START, **change}))
    assert caught.value.code == "bad_event"


@pytest.mark.parametrize(
    "rest",
    [
        '"fulfilled": [1], "penalties": [], "score": true}',
        '"fulfilled": [1.0], "penalties": [], "score": 1}',
        '"fulfilled": 1, "penalties": [], "score": 1}',
        '"fulfilled": [], "score": 0}',
        '"round": 1, "fulfilled": [], "penalties": [], "score": 0}',
        '"fulfilled": [], "penalties": [], "score": 0, "level": "easy"}',
    ],
)
def test_malformed_round_scored_is_bad_event(rest: str) -> None:
    with pytest.raises(BadEvent) as caught:
        loads('{"type": "round_scored", "round": 1, "cooks": "A", ' + rest)
    assert caught.value.code == "bad_event"


@given(st.integers(0, 100_000), st.integers(4, 12))
def test_random_games_add_up(seed: int, players: int) -> None:
    state = KitchenState()
    for event in simulate(seed, players):
        step(state, event)
    summary = summarize(state)
    assert summary["status"] == "finished"
    sizes = [len(t["players"]) for t in summary["teams"]]
    assert sum(sizes) == players and abs(sizes[0] - sizes[1]) <= 1
    for team in summary["teams"]:
        name = team["name"]
        own = sum(r["score"] for r in summary["rounds"] if r["cooks"] == name)
        bonus = summary["compensation"]["points"] if summary["compensation"]["team"] == name else 0
        assert summary["totals"][name] == own + bonus
        assert [r["cooks"] for r in summary["rounds"]].count(name) == 3
    ranks = summary["ranking"]
    assert ranks[0]["rank"] == 1 and ranks[0]["points"] >= ranks[1]["points"]
    assert (ranks[1]["rank"] == 1) == (summary["result"] == "draw")


def test_replay_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "crazy-kitchen", "--seed", "1", "--players", "7"]) == 0
    path = tmp_path / "ck.jsonl"
    path.write_text(capsys.readouterr().out)
    assert main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "finished"
    lines = path.read_text().splitlines()
    lines[1] = '{"type":"order_fulfilled","team":"Soup","points":2}'  # a v2 record
    path.write_text("\n".join(lines))
    assert main(["replay", str(path)]) == 1
    assert json.loads(capsys.readouterr().out)["error"] == {
        "event": 1,
        "code": "unknown_team",
        "message": '"Soup" is not a team in this game',
    }
