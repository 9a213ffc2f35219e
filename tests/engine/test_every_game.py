"""Every game in the engine's registry passes the checks every game must (tests/engine/
every_game.py), at every table size it allows: the list is the registry's, so a game added to it
is checked without a line here."""

from __future__ import annotations

import pytest

from engine.registry import RULES
from tests.engine.every_game import check_a_random_whole_game, check_statistics

CASES = [(key, size) for key, rules in RULES.items() for size in rules.players]


@pytest.mark.parametrize(("key", "players"), CASES, ids=[f"{k}-{n}" for k, n in CASES])
@pytest.mark.parametrize("seed", range(3))
def test_a_random_whole_game_of_every_game(key: str, players: int, seed: int) -> None:
    check_a_random_whole_game(RULES[key], seed, players)


@pytest.mark.parametrize(("key", "players"), CASES, ids=[f"{k}-{n}" for k, n in CASES])
def test_every_game_mines_its_records_for_statistics(key: str, players: int) -> None:
    check_statistics(RULES[key], 7, players)
