"""``python -m engine``: the command a club or another implementation uses to check records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.tricknchef.events import dumps
from engine.tricknchef.simulate import simulate


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], input=stdin, capture_output=True, check=False
    )


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("".join(dumps(e) + "\n" for e in simulate(seed=5, players=4)))
    return path


def test_replay_prints_one_json_object_and_exits_0_for_a_finished_game(game_file: Path) -> None:
    done = run("replay", str(game_file))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert result["status"] == "finished"
    assert set(result) == {"status", "players", "rounds", "totals", "ranking", "state"}


def test_replay_reads_standard_input(game_file: Path) -> None:
    done = run("replay", "-", stdin=game_file.read_bytes())
    assert done.returncode == 0
    assert json.loads(done.stdout)["status"] == "finished"


def test_an_invalid_record_exits_non_zero_with_the_line_and_code(game_file: Path) -> None:
    lines = game_file.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if i >= 40 and '"card_played"' in line)
    player = json.loads(lines[index])["player"]
    lines[index] = json.dumps({"type": "chef_taken", "player": player, "suit": "red"})
    done = run("replay", "-", stdin="\n".join(lines).encode())
    assert done.returncode == 1
    error = json.loads(done.stdout)["error"]
    assert (error["event"], error["code"]) == (index, "out_of_order")
    assert "must play a card" in error["message"]
    assert set(json.loads(done.stdout)) == {"error"}


def test_several_files_give_one_line_each_with_the_file_name(
    game_file: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json}\n")
    partial = tmp_path / "partial.jsonl"
    partial.write_text("".join(dumps(e) + "\n" for e in simulate(seed=6, players=3)[:20]))
    done = run("replay", str(game_file), str(bad), str(partial), str(tmp_path / "missing.jsonl"))
    assert done.returncode == 1
    results = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [r["file"] for r in results] == [
        str(game_file),
        str(bad),
        str(partial),
        str(tmp_path / "missing.jsonl"),
    ]
    assert results[0]["status"] == "finished"
    assert results[1]["error"]["event"] == 0
    assert results[1]["error"]["code"] == "bad_json"
    assert results[2]["status"] == "in_progress"
    assert results[3]["error"]["event"] is None
    assert "cannot read" in results[3]["error"]["message"]


def test_several_valid_files_exit_0(game_file: Path) -> None:
    assert run("replay", str(game_file), str(game_file)).returncode == 0


def test_simulate_is_deterministic_and_can_stop_early() -> None:
    first = run("simulate", "--seed", "12", "--players", "3")
    again = run("simulate", "--seed", "12", "--players", "3")
    assert first.returncode == 0
    assert first.stdout == again.stdout
    assert len(first.stdout.splitlines()) == 133
    cut = run("simulate", "--seed", "12", "--players", "3", "--events", "25")
    assert cut.stdout.splitlines() == first.stdout.splitlines()[:25]
    other = run("simulate", "--seed", "13", "--players", "3")
    assert other.stdout != first.stdout


def test_a_simulated_cut_record_replays_as_in_progress() -> None:
    cut = run("simulate", "--seed", "3", "--players", "4", "--events", "77")
    done = run("replay", "-", stdin=cut.stdout)
    assert done.returncode == 0
    assert json.loads(done.stdout)["status"] == "in_progress"


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["simulate", "--seed", "1", "--players", "5"])
    assert stopped.value.code == 2
    with pytest.raises(SystemExit):
        main(["replay"])


def test_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "3", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "events/s" in out
    assert "one incremental event" in out


def test_a_record_names_its_game_on_its_first_line_and_v1_names_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from engine.registry import DEFAULT, RULES, game_of

    assert game_of(['{"type":"game_started","players":["a","b","c","d"]}']) == DEFAULT
    assert game_of(['{"type":"game_started","game":"no-such-game"}']) == DEFAULT
    assert game_of(["not json"]) == DEFAULT and game_of([]) == DEFAULT
    for key, rules in RULES.items():
        players = rules.players[0]
        assert main(["simulate", "--seed", "4", "--players", str(players), "--game", key]) == 0
        record = tmp_path / f"{key}.jsonl"
        record.write_text(capsys.readouterr().out)
        assert game_of(record.read_text().splitlines()) == key
        assert main(["replay", str(record)]) == 0
        assert json.loads(capsys.readouterr().out)["status"] == "finished"
