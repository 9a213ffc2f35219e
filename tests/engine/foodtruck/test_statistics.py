"""Food Truck's statistics (engine/foodtruck/statistics.py, docs/season.md "Statistics"): a
hand-built game whose counts follow from the rules turn by turn, and random whole games checked
against the summary that ``replay`` prints."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidRecord
from engine.foodtruck import RULES
from engine.statistics import Feat, PlayerStatistics

EFFECTS = ("rearrange", "remove", "swap", "under", "copy")


def round_started(number: int, first: str, market: list[str]) -> dict[str, Any]:
    effect = EFFECTS[number - 1]
    return {
        "type": "round_started",
        "round": number,
        "first_player": first,
        "market": market,
        "companies": {"ann": effect, "ben": effect},
    }


def dish(player: str, name: str) -> dict[str, Any]:
    return {"type": "dish_revealed", "player": player, "dish": name}


def market(player: str, name: str) -> dict[str, Any]:
    return {"type": "market_taken", "player": player, "dish": name}


START = {"type": "game_started", "game": "food-truck", "version": 2, "players": ["ann", "ben"]}
# Two players: 3 victory points win (FT3.1). Every player starts with 2 burgers, a pizza, a hot
# dog, a sandwich and a dessert (FT2.1-FT2.2).
GAME = [
    START,
    # Round 1: ann plays her rearrange and serves a burger; ben's burger is refused (ann served
    # one, FT4.5): ben is out, takes the taco; ann wins the round.
    round_started(1, "ann", ["taco", "fries"]),
    {"type": "company_played", "player": "ann", "effect": "rearrange"},
    dish("ann", "burger"),
    dish("ben", "burger"),
    market("ben", "taco"),
    # Round 2: ben (out first in round 1, FT4.7) serves a pizza; ann's pizza is refused.
    round_started(2, "ben", ["kebab", "soup"]),
    dish("ben", "pizza"),
    dish("ann", "pizza"),
    market("ann", "kebab"),
    # Round 3: ann hot dog, ben dessert (a joker, FT4.4), ann burger, ben pizza, ann burger
    # again (her own dish: a stack of 2, FT4.3), ben burger refused: ann wins.
    round_started(3, "ann", ["taco", "pie"]),
    dish("ann", "hotdog"),
    dish("ben", "dessert"),
    dish("ann", "burger"),
    dish("ben", "pizza"),
    dish("ann", "burger"),
    dish("ben", "burger"),
    market("ben", "taco"),
    # Round 4: ben sandwich; ann's sandwich refused: ben wins (2 points).
    round_started(4, "ben", ["fries", "soup"]),
    dish("ben", "sandwich"),
    dish("ann", "sandwich"),
    market("ann", "fries"),
    # Round 5: ann burger; ben's refused: ann's third point ends the game.
    round_started(5, "ann", ["kebab", "taco"]),
    dish("ann", "burger"),
    dish("ben", "burger"),
    market("ben", "kebab"),
]


def figures(stats: PlayerStatistics) -> dict[str, tuple[int, int]]:
    return {s.code: (s.value, s.sample) for s in stats.statistics}


def test_a_hand_built_game_counts_what_the_rules_say() -> None:
    stats = RULES.statistics(GAME)
    assert set(stats) == {"ann", "ben"}
    assert figures(stats["ann"]) == {
        "ft.victory_points": (3, 5),
        "ft.dishes_served": (5, 5),  # 1 + 0 + 3 + 0 + 1
        "ft.dishes_refused": (2, 5),  # rounds 2 and 4
        "ft.stacks": (1, 5),  # round 3's second burger
        "ft.company_played": (1, 5),
        "ft.games_won": (1, 1),
    }
    assert figures(stats["ben"]) == {
        "ft.victory_points": (2, 5),
        "ft.dishes_served": (4, 5),  # 0 + 1 + 2 + 1 + 0
        "ft.dishes_refused": (3, 5),  # rounds 1, 3 and 5
        "ft.stacks": (0, 4),
        "ft.company_played": (0, 5),
        "ft.games_won": (0, 1),
    }
    assert stats["ann"].feats == (
        Feat("ft.most_dishes_in_round", 3, 3),
        Feat("ft.tallest_stack", 2, 3),
    )
    assert stats["ben"].feats == (Feat("ft.most_dishes_in_round", 2, 3),)  # no stack


def test_results_only_and_unfinished_records_give_nothing() -> None:
    assert RULES.statistics([START]) == {}
    results = {"type": "results_entered", "victory_points": {"ann": 3, "ben": 0}, "winner": "ann"}
    assert RULES.statistics([START, results]) == {}
    assert RULES.statistics(GAME[:-1]) == {}


def test_an_invalid_record_is_refused_at_its_first_bad_object() -> None:
    with pytest.raises(InvalidRecord) as refused:
        RULES.statistics([*GAME[:3], dish("ben", "burger")])
    assert refused.value.index == 3
    assert refused.value.code == "wrong_turn"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from(RULES.players))
def test_random_whole_games_agree_with_the_summary(seed: int, players: int) -> None:
    events = RULES.simulate(seed, players)
    summary = RULES.replay([json.dumps(e) for e in events])
    stats = RULES.statistics(events)
    assert list(stats) == summary["players"]
    rounds = len(summary["rounds"])
    reveals = sum(1 for e in events if e["type"] == "dish_revealed")
    served = refused = 0
    for player, player_stats in stats.items():
        got = figures(player_stats)
        assert got["ft.victory_points"] == (summary["victory_points"][player], rounds)
        assert got["ft.dishes_served"][1] == rounds
        assert got["ft.stacks"][1] == got["ft.dishes_served"][0]
        assert got["ft.stacks"][0] <= got["ft.stacks"][1]
        # Out once a round unless they won it: by a refused dish, or an empty pile (FT4.8).
        outs = sum(1 for r in summary["rounds"] if player in r["eliminated"])
        assert got["ft.dishes_refused"][0] <= outs == rounds - summary["victory_points"][player]
        plays = sum(1 for e in events if e["type"] == "company_played" and e["player"] == player)
        assert got["ft.company_played"] == (plays, rounds)
        assert got["ft.games_won"] == (int(summary["ranking"][0]["player"] == player), 1)
        served += got["ft.dishes_served"][0]
        refused += got["ft.dishes_refused"][0]
        feats = {f.code: f for f in player_stats.feats}
        if "ft.tallest_stack" in feats:
            assert feats["ft.tallest_stack"].value >= 2
        else:
            assert got["ft.stacks"][0] == 0
    assert served + refused == reveals  # every dish turned over is served or refused
    assert RULES.statistics(events[:-1]) == {}
