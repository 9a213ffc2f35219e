"""The Food Truck record format's versions (docs/foodtruck-record-format.md, "Format v2"): v1
records still read and replay identically, and v2 is v1 plus who chose a removed dish.

``data/`` holds v1 records and what the engine printed for them before v2 existed
(``v1-replays.json``, written by the v1 engine of main at ec781f8): simulated games of every
table size, the documented example, a cut record and two lines v1 refuses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.errors import BadEvent, InvalidRecord
from engine.foodtruck.events import CURRENT_VERSION, dumps, loads
from engine.foodtruck.replay import replay_lines
from engine.foodtruck.simulate import simulate
from engine.foodtruck.snapshot import from_snapshot, to_snapshot
from engine.foodtruck.summary import summarize

DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"
V1_REPLAYS: dict[str, Any] = json.loads((DATA / "v1-replays.json").read_text())
SIMULATED = {"v1-sim-1-2p": (1, 2, 0.9), "v1-sim-2-3p": (2, 3, 0.5), "v1-sim-3-4p": (3, 4, 0.9)}
SIMULATED |= {"v1-sim-4-5p": (4, 5, 0.5), "v1-sim-5-4p": (5, 4, 0.2)}


def lines_of(name: str) -> list[str]:
    return (DATA / f"{name}.jsonl").read_text().splitlines()


def replayed(lines: list[str]) -> dict[str, Any]:
    try:
        return summarize(replay_lines(lines))
    except InvalidRecord as error:
        return {"error": error.as_dict()}


def as_v2(lines: list[str]) -> list[str]:
    """A v1 record in v2: ``"version": 2`` on its first line, each remove's ``chosen_by`` its
    target (the player of your choice chooses their own dish, FT6.8)."""
    out = []
    for index, line in enumerate(lines):
        obj = json.loads(line)
        if index == 0:
            obj = {"type": obj["type"], "game": obj["game"], "version": 2, **obj}
        elif obj.get("effect") == "remove":
            obj["chosen_by"] = obj["target"]
        out.append(json.dumps(obj, separators=(",", ":")))
    return out


@pytest.mark.parametrize("name", sorted(V1_REPLAYS))
def test_a_v1_record_replays_as_it_did_before_v2(name: str) -> None:
    before = V1_REPLAYS[name]
    now = replayed(lines_of(name))
    if "error" in before:  # the codes and lines are the contract; messages may be reworded
        assert "error" in now, now
        assert (now["error"]["event"], now["error"]["code"]) == (
            before["error"]["event"],
            before["error"]["code"],
        )
    else:
        assert now == before


def test_the_v1_data_covers_refusals_and_every_table_size() -> None:
    statuses = [V1_REPLAYS[n].get("status", "error") for n in V1_REPLAYS]
    assert {"finished", "in_progress", "error"} <= set(statuses)
    sizes = {len(V1_REPLAYS[n]["players"]) for n in SIMULATED}
    assert sizes == {2, 3, 4, 5}


@pytest.mark.parametrize("name", sorted(SIMULATED))
def test_the_simulator_still_writes_the_same_v1_games(name: str) -> None:
    seed, players, rate = SIMULATED[name]
    events = simulate(seed, players, company_rate=rate, version=1)
    assert [dumps(e) for e in events] == lines_of(name)


@pytest.mark.parametrize("name", [*sorted(SIMULATED), "v1-example-3p", "v1-cut"])
def test_the_same_game_in_v2_replays_to_the_same_summary(name: str) -> None:
    v1 = lines_of(name)
    assert replayed(as_v2(v1)) == replayed(v1)


def test_the_documented_examples_are_one_game_in_two_versions() -> None:
    v1 = (EXAMPLES / "foodtruck-3p.jsonl").read_text().splitlines()
    v2 = (EXAMPLES / "foodtruck-3p-v2.jsonl").read_text().splitlines()
    assert v1 == lines_of("v1-example-3p")
    assert v2 == as_v2(v1)
    assert any('"chosen_by"' in line for line in v2)
    assert replayed(v2) == replayed(v1) and replayed(v1)["status"] == "finished"


def test_new_records_are_v2() -> None:
    first = simulate(7, 3)[0]
    assert CURRENT_VERSION == 2 and dumps(first).startswith(
        '{"type":"game_started","game":"food-truck","version":2,'
    )


def test_v2_refuses_a_remove_without_its_chooser() -> None:
    v2 = as_v2(lines_of("v1-example-3p"))
    index = next(i for i, line in enumerate(v2) if '"chosen_by"' in line)
    obj = json.loads(v2[index])
    del obj["chosen_by"]
    error = replayed([*v2[:index], json.dumps(obj)])["error"]
    assert (error["event"], error["code"]) == (index, "bad_event")
    obj["chosen_by"] = obj["player"] if obj["player"] != obj["target"] else "p9"
    error = replayed([*v2[:index], json.dumps(obj)])["error"]
    assert error["code"] in {"wrong_chooser", "unknown_player"} and error["event"] == index


@pytest.mark.parametrize(
    "line",
    [
        '{"type":"game_started","game":"food-truck","version":3,"players":["a","b"]}',
        '{"type":"game_started","game":"food-truck","version":"2","players":["a","b"]}',
        '{"type":"company_played","player":"a","effect":"copy","chosen_by":"a"}',
        '{"type":"company_played","player":"a","effect":"remove","target":"a","dish":"pizza",'
        '"chosen_by":1}',
    ],
)
def test_the_v2_fields_form(line: str) -> None:
    with pytest.raises(InvalidRecord) as refused:
        replay_lines([line])
    assert refused.value.code == "bad_event"
    with pytest.raises(BadEvent):
        loads(line)


def test_a_snapshot_keeps_the_version_and_an_old_one_is_v1() -> None:
    state = replay_lines(as_v2(lines_of("v1-cut")))
    data = to_snapshot(state)
    assert data["version"] == 2 and from_snapshot(data).version == 2
    del data["version"]  # a snapshot stored before v2
    assert from_snapshot(data).version == 1
