"""Chefs' statistics (engine/chefs/statistics.py, docs/season.md "Statistics"): a hand-built
two-round game whose counts follow from the rules marker by marker, and random whole games (v1
and v2, called for time too) checked against the summary that ``replay`` prints."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.chefs import RULES
from engine.chefs.events import to_json
from engine.chefs.simulate import simulate
from engine.errors import InvalidRecord
from engine.statistics import Feat, PlayerStatistics


def marker(player: str, location: str, circle: int = 1) -> dict[str, Any]:
    return {"type": "marker_placed", "player": player, "location": location, "circle": circle}


def cooked(player: str, steps: int, ingredients: int, chef_card: bool) -> dict[str, Any]:
    return {
        "type": "meal_cooked",
        "player": player,
        "steps": steps,
        "ingredients": ingredients,
        "chef_card": chef_card,
    }


def served(player: str, steps: int, position: int) -> dict[str, Any]:
    return {"type": "meal_served", "player": player, "steps": steps, "position": position}


START: dict[str, Any] = {"type": "game_started", "game": "chefs", "players": ["ann", "ben"]}
# A v1 record, two chefs: 4 ingredient cards at the counter, 1 meal card at each cooker, 2
# cards in each hand (CH2.2-CH2.3). The markers act counter, window, door, wall, service
# (CH4.1).
GAME: list[dict[str, Any]] = [
    START,
    {"type": "round_started", "round": 1, "starting_player": "ann"},
    marker("ann", "window"),
    marker("ben", "counter"),
    marker("ann", "service"),
    marker("ben", "wall"),
    marker("ann", "door"),
    marker("ben", "service", 2),
    {"type": "ingredients_taken", "player": "ben", "count": 2},  # ben holds 4
    cooked("ann", 5, 1, True),  # ann holds 1
    {"type": "cards_exchanged", "player": "ann", "chest": "1:2"},  # ann holds 2
    cooked("ben", 8, 2, False),  # ben holds 2
    served("ann", 5, 5),
    served("ben", 8, 8),
    # Round 2, started by the chef to the left (CH3.2); the table is filled up (CH8.1).
    {"type": "round_started", "round": 2, "starting_player": "ben"},
    marker("ben", "counter"),
    marker("ann", "window"),
    marker("ben", "wall"),
    marker("ann", "service"),
    marker("ben", "service", 2),
    marker("ann", "door"),
    {"type": "ingredients_taken", "player": "ben", "count": 2},  # ben holds 4
    cooked("ann", 20, 2, False),
    {"type": "action_passed", "player": "ann"},  # at the door
    cooked("ben", 6, 1, True),
    served("ann", 20, 25),  # past field 20: the game ends with this round (CH9.1)
    served("ben", 6, 14),
]


def figures(stats: PlayerStatistics) -> dict[str, tuple[int, int]]:
    return {s.code: (s.value, s.sample) for s in stats.statistics}


def test_a_hand_built_game_counts_what_the_rules_say() -> None:
    stats = RULES.statistics(GAME)
    assert set(stats) == {"ann", "ben"}
    assert figures(stats["ann"]) == {
        "chefs.steps": (25, 2),
        "chefs.meals_cooked": (2, 2),
        "chefs.meals_served": (2, 2),
        "chefs.chef_card_used": (1, 2),
        "chefs.actions_passed": (1, 6),  # round 2's door, of 6 markers
        "chefs.games_won": (1, 1),
    }
    assert figures(stats["ben"]) == {
        "chefs.steps": (14, 2),
        "chefs.meals_cooked": (2, 2),
        "chefs.meals_served": (2, 2),
        "chefs.chef_card_used": (1, 2),
        "chefs.actions_passed": (0, 6),
        "chefs.games_won": (0, 1),
    }
    assert stats["ann"].feats == (
        Feat("chefs.most_steps_in_round", 20, 2),
        Feat("chefs.biggest_meal_served", 20, 2),
    )
    assert stats["ben"].feats == (
        Feat("chefs.most_steps_in_round", 8, 1),
        Feat("chefs.biggest_meal_served", 8, 1),
    )


def test_results_only_unfinished_and_playless_records_give_nothing() -> None:
    assert RULES.statistics([START]) == {}
    results = {"type": "results_entered", "positions": {"ann": 21, "ben": 3}}
    assert RULES.statistics([START, results]) == {}
    assert RULES.statistics(GAME[:-1]) == {}
    called: dict[str, Any] = {
        "type": "game_started",
        "game": "chefs",
        "version": 2,
        "players": ["ann", "ben"],
    }
    laid = [
        {"type": "meal_laid", "cooker": c, "steps": 3, "ingredients": 2} for c in ("window", "wall")
    ]
    # Called for time before any marker: finished, but nothing was played.
    playless = [called, *laid, {"type": "game_called"}]
    assert RULES.replay([json.dumps(e) for e in playless])["status"] == "finished"
    assert RULES.statistics(playless) == {}


def test_an_invalid_record_is_refused_at_its_first_bad_object() -> None:
    with pytest.raises(InvalidRecord) as refused:
        RULES.statistics([*GAME[:2], marker("ben", "window")])
    assert refused.value.index == 2
    assert refused.value.code == "wrong_turn"


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from(RULES.players),
    version=st.sampled_from((1, 2)),
)
def test_random_whole_games_agree_with_the_summary(seed: int, players: int, version: int) -> None:
    events = [to_json(e) for e in simulate(seed, players, version=version)]
    summary = RULES.replay([json.dumps(e) for e in events])
    assert summary["status"] == "finished"
    stats = RULES.statistics(events)
    if not any(e["type"] == "marker_placed" for e in events):
        assert stats == {}
        return
    assert list(stats) == summary["players"]
    rounds = summary["state"]["round"]
    ranks = {r["player"]: r["rank"] for r in summary["ranking"]}
    for player, player_stats in stats.items():
        got = figures(player_stats)
        mine = [e for e in events if e.get("player") == player]
        assert got["chefs.steps"] == (summary["positions"][player], rounds)
        cooks = sum(1 for e in mine if e["type"] == "meal_cooked")
        assert got["chefs.meals_cooked"] == (cooks, rounds)
        assert got["chefs.chef_card_used"][1] == cooks
        assert got["chefs.chef_card_used"][0] <= cooks
        meals = [e["steps"] for e in mine if e["type"] == "meal_served"]
        assert got["chefs.meals_served"] == (len(meals), rounds)
        assert sum(meals) == summary["positions"][player]
        markers = sum(1 for e in mine if e["type"] == "marker_placed")
        assert got["chefs.actions_passed"][1] == markers <= 3 * rounds
        assert got["chefs.games_won"] == (int(ranks[player] == 1), 1)
        feats = {f.code: f for f in player_stats.feats}
        if meals:
            assert feats["chefs.biggest_meal_served"].value == max(meals)
            assert (
                feats["chefs.biggest_meal_served"].value <= feats["chefs.most_steps_in_round"].value
            )
        else:
            assert feats == {}
    assert RULES.statistics(events[:-1]) == {}
