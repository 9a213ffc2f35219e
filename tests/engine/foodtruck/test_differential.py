"""The engine against an independent reading of the rules (tests/engine/foodtruck/reference.py,
written from the two documents alone): both read the same records, legal ones cut at every
length and adversarial ones (legal records with one line changed, dropped, repeated, moved or
spoiled, or a random event inserted), and must agree on everything ``replay`` prints: the whole
summary of a valid record, and for an invalid one the line of the first bad event and its code.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.errors import InvalidRecord
from engine.foodtruck.events import Event, GameStarted, RoundStarted, dumps
from engine.foodtruck.referee import legal_events
from engine.foodtruck.replay import replay_lines, step
from engine.foodtruck.simulate import simulate
from engine.foodtruck.state import Phase
from engine.foodtruck.summary import summarize
from tests.engine.foodtruck import reference

DISHES = ["burger", "pizza", "hotdog", "sandwich", "dessert", "taco", "fries", "kebab", "sushi"]
BAD = ["Burger", "", 3, None, "hot dog"]
EFFECTS = ["rearrange", "remove", "swap", "under", "copy"]


def engine_result(lines: list[str]) -> dict[str, Any]:
    try:
        return summarize(replay_lines(lines))
    except InvalidRecord as error:
        return {"error": error.as_dict()}


def assert_agree(lines: list[str]) -> dict[str, Any]:
    ours = engine_result(lines)
    theirs = reference.replay_lines(lines)
    if "error" in ours or "error" in theirs:
        assert "error" in ours and "error" in theirs, (ours, theirs, lines)
        where = ours["error"]["event"]
        assert (where, ours["error"]["code"]) == (
            theirs["error"]["event"],
            theirs["error"]["code"],
        ), (ours["error"], theirs["error"], lines[max(0, where - 3) : where + 1])
    else:
        assert ours == theirs
    return ours


def games(count: int, start: int = 0) -> list[list[str]]:
    return [
        [
            dumps(e)
            for e in simulate(
                seed,
                2 + seed % 4,
                company_rate=(0.2, 0.5, 0.9)[seed % 3],
                version=1 + seed % 2,  # both versions of the record format
            )
        ]
        for seed in range(start, start + count)
    ]


def test_legal_records_and_every_prefix_agree() -> None:
    for lines in games(12):
        for cut in range(len(lines) + 1):
            result = assert_agree(lines[:cut])
            assert "error" not in result
        assert result["status"] == "finished"


def random_event(rng: random.Random, players: list[str]) -> dict[str, Any]:
    who = rng.choice([*players, "zed"]) if rng.random() < 0.95 else rng.choice(players)
    kind = rng.choice(["company_played", "dish_revealed", "market_taken", "round_started"])
    dish = rng.choice(DISHES) if rng.random() < 0.95 else rng.choice(BAD)
    if kind == "company_played":
        effect = rng.choice(EFFECTS) if rng.random() < 0.97 else "steal"
        obj: dict[str, Any] = {"type": kind, "player": who, "effect": effect}
        if effect == "remove":
            obj["target"] = rng.choice(players)
            obj["dish"] = dish
            if rng.random() < 0.6:  # v2's field (v1 refuses it); the target, or anyone
                obj["chosen_by"] = obj["target"] if rng.random() < 0.7 else rng.choice(players)
        if effect in ("swap", "under", "steal"):
            obj["dish"] = dish
        if effect == "swap":
            obj["market"] = rng.choice(DISHES)
        return obj
    if kind == "round_started":
        return {
            "type": kind,
            "round": rng.randint(1, 8),
            "first_player": who,
            "market": [rng.choice(DISHES) for _ in range(len(players) + rng.choice([0, 0, 1, -1]))],
            "companies": {p: rng.choice(EFFECTS) for p in players},
        }
    return {"type": kind, "player": who, "dish": dish}


def mutate(lines: list[str], rng: random.Random) -> list[str]:
    lines = list(lines)
    players = json.loads(lines[0])["players"]
    i = rng.randrange(1, len(lines))
    obj = json.loads(lines[i])
    how = rng.randrange(9)
    if how == 0:
        del lines[i]
    elif how == 1:
        lines.insert(i, lines[i])
    elif how == 2 and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif how == 3:
        lines.insert(i, json.dumps(random_event(rng, players)))
    elif how == 4:
        key = rng.choice(sorted(k for k in obj if k != "type"))
        value = obj[key]
        if key in ("player", "target", "first_player", "chosen_by"):
            obj[key] = rng.choice([p for p in [*players, "zed"] if p != value])
        elif key in ("dish", "market") and isinstance(value, str):
            obj[key] = rng.choice([d for d in DISHES if d != value] + BAD)
        elif key == "effect":
            obj[key] = rng.choice([e for e in EFFECTS if e != value])
        elif key == "round":
            obj[key] = value + rng.choice([-1, 1])
        elif key == "market":
            spoiled = list(value)
            spoiled[rng.randrange(len(spoiled))] = rng.choice(DISHES)
            obj[key] = spoiled if rng.random() < 0.8 else spoiled[1:]
        elif key == "companies":
            p = rng.choice(players)
            obj[key][p] = rng.choice(EFFECTS)
        lines[i] = json.dumps(obj)
    elif how == 5:
        obj[rng.choice(["extra", "dish", "target", "market", "chosen_by"])] = "taco"
        lines[i] = json.dumps(obj)
    elif how == 6:
        lines[i] = rng.choice(["", "{", "[1]", '{"type":"dish_revealed","dish":NaN}', "null"])
    elif how == 7:
        j = rng.randrange(1, len(lines))
        lines.insert(j, lines.pop(i))
    else:
        lines = lines[:i] + [json.dumps(random_event(rng, players)) for _ in range(3)]
    return lines


@pytest.mark.slow
def test_adversarial_records_agree() -> None:
    rng = random.Random(15)
    refused = 0
    for lines in games(150, start=1000):
        for _ in range(12):
            spoiled = mutate(lines, rng)
            refused += "error" in assert_agree(spoiled)
    assert refused > 1000


def random_walk(seed: int) -> list[str]:
    """A record that mostly follows the engine's legal moves, with a random (often illegal)
    event now and then: it reaches corners the simulator's strategy avoids (empty piles,
    refused Company cards, removes of stacks) and keeps going where both readings accept."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(2 + seed % 4)]
    lines = [dumps(GameStarted(tuple(players), version=1 + seed % 2))]
    state = replay_lines(lines)
    while state.phase is not Phase.OVER and len(lines) < 400:
        if state.phase is Phase.ROUND_START:
            first = state.marker or rng.choice(players)
            market = tuple(rng.choice(DISHES[:3] + DISHES[5:]) for _ in players)
            companies = tuple((p, rng.choice(sorted(state.seats[p].company_pile))) for p in players)
            event: Event = RoundStarted(state.round_no + 1, first, market, companies)
        else:
            event = rng.choice(legal_events(state))
        if rng.random() < 0.03:
            line = json.dumps(random_event(rng, players))
            lines.append(line)
            if "error" in engine_result(lines):
                return lines
            state = replay_lines(lines)
            continue
        lines.append(dumps(event))
        step(state, event)
    return lines


def test_random_walks_agree() -> None:
    outcomes = {"finished": 0, "in_progress": 0, "error": 0}
    for seed in range(1000):
        result = assert_agree(random_walk(seed))
        outcomes["error" if "error" in result else result["status"]] += 1
    assert outcomes["finished"] > 150 and outcomes["error"] > 150


def test_a_swapped_dish_and_a_bottom_card_agree() -> None:
    # A few hand-made corners, so a quick run (-m "not slow") still compares the readings.
    start = [
        '{"type":"game_started","game":"food-truck","players":["a","b"]}',
        '{"type":"round_started","round":1,"first_player":"a","market":["taco","fries"],'
        '"companies":{"a":"swap","b":"under"}}',
    ]
    assert_agree(
        [
            *start,
            '{"type":"company_played","player":"a","effect":"swap",'
            '"dish":"burger","market":"taco"}',
            '{"type":"dish_revealed","player":"a","dish":"burger"}',
        ]
    )
    assert_agree(
        [
            *start,
            '{"type":"dish_revealed","player":"a","dish":"pizza"}',
            '{"type":"company_played","player":"b","effect":"under","dish":"pizza"}',
            '{"type":"dish_revealed","player":"b","dish":"pizza"}',
        ]
    )
