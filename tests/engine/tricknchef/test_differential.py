"""The engine against an independent implementation of the rules
(tests/engine/tricknchef/reference.py, written from docs/rules.md and docs/record-format.md alone,
without reading engine/).

Both read the same records, legal ones cut at every length and adversarial ones (legal records
with one line changed, dropped, repeated, swapped or spoiled), and must agree on everything
``python -m engine replay`` prints: the whole summary of a valid record, and for an invalid one
the line of the first bad event and its code.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.errors import InvalidRecord
from engine.tricknchef.cards import ALL_CARDS, SUITS
from engine.tricknchef.events import dumps
from engine.tricknchef.replay import replay_lines
from engine.tricknchef.simulate import simulate
from engine.tricknchef.summary import summarize
from tests.engine.tricknchef import reference

# Each test replays thousands of records with both implementations: tens of seconds.
pytestmark = pytest.mark.slow


def engine_result(lines: list[str]) -> dict[str, Any]:
    try:
        return summarize(replay_lines(lines))
    except InvalidRecord as error:
        return {"error": error.as_dict()}


def assert_agree(lines: list[str]) -> dict[str, Any]:
    """Check both agree on ``lines``; return the engine's result."""
    ours = engine_result(lines)
    theirs = reference.replay_lines(lines)
    if "error" in ours or "error" in theirs:
        assert "error" in ours and "error" in theirs, (ours, theirs)
        ours_error, their_error = ours["error"], theirs["error"]
        assert (ours_error["event"], ours_error["code"]) == (
            their_error["event"],
            their_error["code"],
        ), (ours_error, their_error, lines[ours_error["event"] or 0])
    else:
        assert ours == theirs
    return ours


def engine_games(count: int) -> list[list[str]]:
    return [
        [dumps(e) for e in simulate(seed, 3 + seed % 2, coin_rate=(0.0, 0.35, 0.9)[seed % 3])]
        for seed in range(count)
    ]


def reference_games(count: int) -> list[list[str]]:
    return [reference.generate(seed, 3 + seed % 2) for seed in range(count)]


@pytest.mark.parametrize("source", [engine_games, reference_games], ids=["engine", "reference"])
def test_both_agree_on_every_prefix_of_random_games(
    source: Callable[[int], list[list[str]]],
) -> None:
    for lines in source(24):
        for cut in range(len(lines) + 1):
            assert_agree(lines[:cut])


@pytest.mark.parametrize("source", [engine_games, reference_games], ids=["engine", "reference"])
def test_both_agree_on_whole_random_games(source: Callable[[int], list[list[str]]]) -> None:
    for lines in source(400):
        assert_agree(lines)


# ----------------------------------------------------------------------------- adversarial


def _mutate_value(rng: random.Random, obj: dict[str, Any], players: list[str]) -> None:
    """Change one field of an event to another plausible (often illegal) value."""
    kind = obj.get("type")
    if kind == "card_played":
        choice = rng.randrange(4)
        if choice == 0:
            obj["card"] = rng.choice(ALL_CARDS)
        elif choice == 1:
            obj["player"] = rng.choice(players)
        elif choice == 2:
            obj["coins"] = obj.get("coins", 0) + rng.choice((-2, -1, 1, 2, 5))
        else:
            obj["card"], obj["coins"] = rng.choice(ALL_CARDS), rng.randint(-3, 3)
    elif kind in ("chef_taken", "chef_chosen"):
        if rng.random() < 0.5:
            obj["suit"] = rng.choice(SUITS)
        else:
            obj["player"] = rng.choice(players)
    elif kind == "round_started":
        choice = rng.randrange(4)
        if choice == 0:
            obj["first_player"] = rng.choice(players)
        elif choice == 1:
            obj["round"] = obj["round"] + rng.choice((-1, 1))
        elif choice == 2:  # swap one card between two hands, or replace one
            hands = obj["hands"]
            a, b = rng.sample(sorted(hands), 2)
            i, j = rng.randrange(len(hands[a])), rng.randrange(len(hands[b]))
            if rng.random() < 0.5:
                hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
            else:
                hands[a][i] = rng.choice(ALL_CARDS)
        else:
            hand = obj["hands"][rng.choice(sorted(obj["hands"]))]
            hand.pop() if rng.random() < 0.5 else hand.append(rng.choice(ALL_CARDS))
    elif kind == "game_started":
        if rng.random() < 0.5:
            obj["players"] = obj["players"][: rng.randint(1, 5)] + ["p9"] * rng.randint(0, 2)
        else:
            obj["suits"] = rng.sample(SUITS, rng.randint(1, 4))


def mutate(rng: random.Random, lines: list[str]) -> list[str]:
    """One adversarial change to a legal record (which may, rarely, stay legal)."""
    lines = list(lines)
    i = rng.randrange(len(lines))
    try:
        players = [*json.loads(lines[0])["players"], "stranger"]
    except (ValueError, KeyError, TypeError):
        players = ["p1", "p2", "p3", "p4", "stranger"]
    kind = rng.randrange(9)
    if kind <= 3:
        try:
            obj = json.loads(lines[i])
            _mutate_value(rng, obj, players)
        except (ValueError, KeyError, TypeError, AttributeError):
            return lines  # a line an earlier change already spoiled
        lines[i] = json.dumps(obj)
    elif kind == 4:
        del lines[i]
    elif kind == 5:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif kind == 6 and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif kind == 7:
        lines[i] = rng.choice(
            [
                "",
                lines[i][: rng.randrange(len(lines[i]))],
                lines[i].replace('"type"', '"kind"'),
                lines[i][:-1] + ',"extra":1}',
                lines[i].replace("}", ',"coins":true}', 1),
                "[]",
                lines[i].replace('"', "'"),
            ]
        )
    else:
        lines = lines[: i + 1] + [lines[i]]  # a repeated last line, then the record stops
    return lines


@pytest.mark.parametrize("source", [engine_games, reference_games], ids=["engine", "reference"])
def test_both_agree_on_adversarial_records(source: Callable[[int], list[list[str]]]) -> None:
    rng = random.Random(2026)
    games = source(60)
    invalid = 0
    for round_ in range(25):
        for lines in games:
            spoiled = mutate(rng, lines)
            if round_ % 5 == 4:
                spoiled = mutate(rng, spoiled)  # two changes: the first one must be reported
            invalid += "error" in assert_agree(spoiled)
    assert invalid > 1000
