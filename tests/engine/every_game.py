"""What every game's rules must do, whatever the game (engine.registry.Rules): checks shared by
the registry's tests (tests/engine/test_every_game.py) and by a game registered later (the toy
game under tests/highcard/)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from engine.errors import InvalidRecord
from engine.registry import Rules, statistics_of


def lines_of(events: Sequence[dict[str, Any]]) -> list[str]:
    return [json.dumps(e, ensure_ascii=False) for e in events]


def check_a_random_whole_game(rules: Rules, seed: int, players: int) -> None:
    """A simulated game replays to a finished summary with a competition ranking; every shorter
    record is a game in progress; the same record with its keys reordered says the same; any
    line after the end, or a record without its first line, is refused at that line."""
    lines = lines_of(rules.simulate(seed, players))
    summary = rules.replay(lines)
    assert summary["status"] == "finished", summary
    ranks = [entry["rank"] for entry in summary["ranking"]]
    assert ranks and ranks[0] == 1
    for place, (before, rank) in enumerate(zip(ranks, ranks[1:], strict=False), start=2):
        assert rank in (before, place), ranks  # 1, 1, 3: shared places skip

    assert rules.replay(lines) == summary  # a pure fold: the same record, the same answer
    shuffled = []
    rng = random.Random(seed)
    for line in lines:
        items = list(json.loads(line).items())
        rng.shuffle(items)
        shuffled.append(json.dumps(dict(items), ensure_ascii=False))
    assert rules.replay(shuffled) == summary

    for end in range(1, len(lines)):
        assert rules.replay(lines[:end])["status"] == "in_progress", end

    with pytest.raises(InvalidRecord) as after_the_end:
        rules.replay([*lines, lines[-1]])
    assert after_the_end.value.index == len(lines)
    with pytest.raises(InvalidRecord) as headless:
        rules.replay(lines[1:])
    assert headless.value.index == 0


def check_statistics(rules: Rules, seed: int, players: int) -> None:
    """A game of the engine mines its records (engine.registry.MinesStatistics): a simulated
    whole game gives figures for every player (or, in a team game, every member) the record
    names, counts that are not negative under codes of one prefix, the same twice; the record
    cut short, or its first line alone (a results-only game), gives nothing."""
    mines = statistics_of(rules)
    assert mines is not None, f"{rules.key} gives no statistics"
    events = rules.simulate(seed, players)
    stats = mines.statistics(events)
    assert len(stats) == players
    named = json.dumps(events[0])
    assert all(json.dumps(name) in named for name in stats)
    codes = {s.code for figures in stats.values() for s in figures.statistics}
    codes |= {f.code for figures in stats.values() for f in figures.feats}
    assert len({code.split(".")[0] for code in codes}) == 1, codes
    for figures in stats.values():
        assert all(s.value >= 0 and s.sample >= 0 for s in figures.statistics)
    assert mines.statistics(events) == stats
    assert mines.statistics(events[:-1]) == {}
    assert mines.statistics(events[:1]) == {}
