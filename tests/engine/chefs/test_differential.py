"""The Chefs engine against an independent referee (tests/engine/chefs/reference.py, written from
the two docs alone): legal records cut at every length and adversarial ones (one line changed,
dropped, repeated, swapped or spoiled) must get the same verdict: the same summary for a valid
record, the same line and code for an invalid one."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.chefs import ChefsRules
from engine.chefs.events import to_json
from engine.chefs.simulate import simulate
from engine.errors import InvalidRecord
from tests.engine.chefs import reference

RULES = ChefsRules()


def record(seed: int, players: int) -> list[str]:
    # The reference referee knows record v1 (written from its docs): the v1 simulation.
    return [json.dumps(to_json(e)) for e in simulate(seed, players, version=1)]


def ours(lines: list[str]) -> dict[str, Any]:
    try:
        summary = RULES.replay(lines)
    except InvalidRecord as error:
        return {"error": {"event": error.index, "code": error.code}}
    state = summary["state"]
    return {
        "status": summary["status"],
        "players": summary["players"],
        "positions": summary["positions"],
        "rounds": summary["rounds"],
        "ranking": summary["ranking"],
        "counter": state["counter"],
        "hands": state["hands"],
    }


def agree(lines: list[str]) -> dict[str, Any]:
    mine, theirs = ours(lines), reference.replay_lines(lines)
    assert mine == theirs, (mine, theirs, lines)
    return mine


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_prefix_of_legal_games_agrees(players: int) -> None:
    for seed in range(2):
        lines = record(seed, players)
        assert agree(lines)["status"] == "finished"
        for cut in range(seed, len(lines), 3):
            agree(lines[:cut])


def _spoil(rng: random.Random, obj: dict[str, Any], players: list[str]) -> dict[str, Any]:
    obj = dict(obj)
    key = rng.choice([k for k in obj if k != "type"] or ["type"])
    choice = rng.randrange(9)
    if choice == 0:
        obj[key] = rng.choice([-1, 0, 1, 2, 3, 5, 21, "x", None, True, 2.0, [], "p1"])
    elif choice == 1 and "player" in obj:
        obj["player"] = rng.choice([*players, "nobody"])
    elif choice == 2:
        obj["type"] = rng.choice(list(reference.FIELDS))
    elif choice == 3 and "location" in obj:
        obj["location"] = rng.choice([*reference.LOCS, "sink"])
    elif choice == 4 and "chest" in obj:
        obj["chest"] = rng.choice([*reference.CHESTS, "4:5"])
    elif choice == 5 and "steps" in obj:
        obj["steps"] += rng.choice([-1, 1])
    elif choice == 6 and "position" in obj:
        obj["position"] += rng.choice([-1, 1, 20])
    elif choice == 7 and "count" in obj:
        obj["count"] = rng.choice([0, 1, 2, 3])
    elif choice == 8 and "circle" in obj:
        obj["circle"] += rng.choice([-1, 1])
    else:
        obj["extra"] = 1
    return obj


def test_adversarial_records_agree() -> None:
    rng = random.Random(2024)
    verdicts = set()
    for seed in range(50):
        players = rng.choice([2, 3, 4, 5, 6])
        lines = record(seed, players)
        names = [f"p{i}" for i in range(1, players + 1)]
        for _ in range(12):
            bad = list(lines)
            i = rng.randrange(len(bad))
            how = rng.choice([0, 0, 0, 0, 1, 2, 3, 4])
            if how == 0:
                bad[i] = json.dumps(_spoil(rng, json.loads(bad[i]), names))
            elif how == 1:
                del bad[i]
            elif how == 2:
                bad.insert(i, bad[i])
            elif how == 3 and i + 1 < len(bad):
                bad[i], bad[i + 1] = bad[i + 1], bad[i]
            else:
                bad[i] = rng.choice(["", "{", "[]", '{"type": "x"}', "NaN", bad[i] + " "])
            result = agree(bad)
            verdicts.add(result["error"]["code"] if "error" in result else "valid")
    assert len(verdicts) >= 15, sorted(verdicts)
