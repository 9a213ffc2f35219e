"""Crazy Kitchen's statistics (engine/crazykitchen/statistics.py, docs/season.md "Statistics"):
a team's figures go to each of its members. Hand-built v2 and v1 games whose counts follow from
the rules round by round, and random whole games checked against the ``replay`` summary."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.crazykitchen import RULES
from engine.crazykitchen.events import to_json
from engine.crazykitchen.simulate import simulate_v1
from engine.errors import InvalidRecord
from engine.statistics import Feat, PlayerStatistics


def order(team: str, points: int = 0, penalty: int = 0) -> dict[str, Any]:
    if penalty:
        return {"type": "order_failed", "team": team, "penalty": penalty}
    return {"type": "order_fulfilled", "team": team, "points": points}


def confirmed(customers: str) -> dict[str, Any]:
    return {"type": "round_confirmed", "team": customers}


def done(team: str) -> dict[str, Any]:
    return {"type": "upgrades_done", "team": team}


START = {
    "type": "game_started",
    "game": "crazy-kitchen",
    "version": 2,
    "teams": [
        {"name": "Pizza", "players": ["ann", "bob"], "head_chef": "bob"},
        {"name": "Fries", "players": ["cy", "di"], "head_chef": "cy"},
    ],
    "cooks_first": "Pizza",
}
# Even teams: no compensation (CK1.4). Pizza cooks rounds 1, 3, 5; Fries 2, 4, 6 (CK2.1).
GAME = [
    START,
    order("Pizza", 3),
    order("Pizza", 2),
    order("Pizza", penalty=1),
    confirmed("Fries"),  # round 1: 5 - 1 = 4
    order("Fries", 5),
    order("Fries", penalty=2),
    confirmed("Pizza"),  # round 2: 3
    # After round 2: Fries (3) behind Pizza (4) upgrades first, for up to 4; Pizza for 3.
    {"type": "tool_sped_up", "team": "Fries", "tool": "knife", "cost": 2},
    done("Fries"),
    {"type": "card_taken", "team": "Pizza", "cost": 3},
    done("Pizza"),
    order("Pizza", 6),
    {"type": "order_struck", "team": "Pizza", "order": 1},  # entered by mistake (CK3.5)
    order("Pizza", 4),
    confirmed("Fries"),  # round 3: 4
    order("Fries", penalty=3),
    confirmed("Pizza"),  # round 4: 0, never below (CK3.2)
    # After round 4: Fries (0) behind Pizza (4) first, for up to 4; Pizza for 0.
    {"type": "tool_sped_up", "team": "Fries", "tool": "knife", "cost": 3},
    done("Fries"),
    done("Pizza"),
    order("Pizza", 5),
    confirmed("Fries"),  # round 5: 5
    order("Fries", 7),
    order("Fries", 1),
    confirmed("Pizza"),  # round 6: 8
]
# Totals: Pizza 4 + 4 + 5 = 13, Fries 3 + 0 + 8 = 11: Pizza wins (CK5).
PIZZA = {
    "ck.team_total": (13, 1),
    "ck.round_score": (13, 3),
    "ck.orders_fulfilled": (4, 5),  # 3, 2 | 4 (the struck 6 gone) | 5; one failed
    "ck.order_points": (14, 4),
    "ck.upgrades_bought": (1, 2),
    "ck.games_won": (1, 1),
}
FRIES = {
    "ck.team_total": (11, 1),
    "ck.round_score": (11, 3),
    "ck.orders_fulfilled": (3, 5),  # 5 | - | 7, 1; two failed
    "ck.order_points": (13, 3),
    "ck.upgrades_bought": (2, 2),
    "ck.games_won": (0, 1),
}


def figures(stats: PlayerStatistics) -> dict[str, tuple[int, int]]:
    return {s.code: (s.value, s.sample) for s in stats.statistics}


def test_a_team_s_figures_go_to_each_of_its_members() -> None:
    stats = RULES.statistics(GAME)
    assert list(stats) == ["ann", "bob", "cy", "di"]  # members, not the teams' names
    for member in ("ann", "bob"):
        assert figures(stats[member]) == PIZZA
        assert stats[member].feats == (
            Feat("ck.best_round_score", 5, 5),
            Feat("ck.best_team_total", 13, None),
        )
    for member in ("cy", "di"):
        assert figures(stats[member]) == FRIES
        assert stats[member].feats[0] == Feat("ck.best_round_score", 8, 6)


def round_scored(
    number: int, cooks: str, fulfilled: list[int], penalties: list[int]
) -> dict[str, Any]:
    score = max(0, sum(fulfilled) - sum(penalties))
    return {
        "type": "round_scored",
        "round": number,
        "cooks": cooks,
        "fulfilled": fulfilled,
        "penalties": penalties,
        "score": score,
    }


def test_a_v1_record_has_no_upgrades_and_a_draw_is_no_win() -> None:
    start = {
        "type": "game_started",
        "game": "crazy-kitchen",
        "teams": [
            {"name": "Pizza", "players": ["ann", "bob"]},
            {"name": "Fries", "players": ["cy", "di", "ed"]},
        ],
        "cooks_first": "Fries",
    }
    # Five players: Pizza, the smaller team, gets 15 (CK1.4). Fries 10 + 10 + 10 = 30; Pizza
    # 5 + 0 + 10 + 15 = 30: a draw (CK5.2).
    record = [
        start,
        round_scored(1, "Fries", [4, 6], []),
        round_scored(2, "Pizza", [5, 1], [1]),
        round_scored(3, "Fries", [10], []),
        round_scored(4, "Pizza", [], [2]),
        round_scored(5, "Fries", [12], [2]),
        round_scored(6, "Pizza", [10], []),
    ]
    assert RULES.replay([json.dumps(e) for e in record])["result"] == "draw"
    stats = RULES.statistics(record)
    assert figures(stats["ed"]) == {
        "ck.team_total": (30, 1),
        "ck.round_score": (30, 3),
        "ck.orders_fulfilled": (4, 5),
        "ck.order_points": (32, 4),
        "ck.games_won": (0, 1),
    }
    assert figures(stats["ann"]) == {
        "ck.team_total": (30, 1),  # compensation included
        "ck.round_score": (15, 3),
        "ck.orders_fulfilled": (3, 5),
        "ck.order_points": (16, 3),
        "ck.games_won": (0, 1),
    }
    assert stats["ann"].feats == (
        Feat("ck.best_round_score", 10, 6),
        Feat("ck.best_team_total", 30, None),
    )


def test_results_only_and_unfinished_records_give_nothing() -> None:
    assert RULES.statistics([START]) == {}
    results = {"type": "results_entered", "cooks_first": "Pizza", "scores": [1, 2, 3, 4, 5, 6]}
    assert RULES.statistics([START, results]) == {}
    assert RULES.statistics(GAME[:-1]) == {}


def test_an_invalid_record_is_refused_at_its_first_bad_object() -> None:
    with pytest.raises(InvalidRecord) as refused:
        RULES.statistics([START, order("Fries", 3)])
    assert refused.value.index == 1
    assert refused.value.code == "wrong_team"


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from(RULES.players),
    version=st.sampled_from((1, 2)),
)
def test_random_whole_games_agree_with_the_summary(seed: int, players: int, version: int) -> None:
    if version == 2:
        events = RULES.simulate(seed, players)
    else:
        events = [to_json(e) for e in simulate_v1(seed, players)]
    summary = RULES.replay([json.dumps(e) for e in events])
    stats = RULES.statistics(events)
    members = [p for team in summary["teams"] for p in team["players"]]
    assert list(stats) == members
    ranks = {r["team"]: r["rank"] for r in summary["ranking"]}
    for team in summary["teams"]:
        name = team["name"]
        cooked = [r for r in summary["rounds"] if r["cooks"] == name]
        fulfilled = [p for r in cooked for p in r["fulfilled"]]
        failed = sum(len(r["penalties"]) for r in cooked)
        for member in team["players"]:
            got = figures(stats[member])
            assert got["ck.team_total"] == (summary["totals"][name], 1)
            assert got["ck.round_score"] == (summary["points"][name], 3)
            assert got["ck.orders_fulfilled"] == (len(fulfilled), len(fulfilled) + failed)
            assert got["ck.order_points"] == (sum(fulfilled), len(fulfilled))
            won = summary["result"] == "win" and ranks[name] == 1
            assert got["ck.games_won"] == (int(won), 1)
            if version == 2:
                bought = sum(
                    len([b for b in u["bought"] if b["team"] == name]) for u in summary["upgrades"]
                )
                assert got["ck.upgrades_bought"] == (bought, 2)
            else:
                assert "ck.upgrades_bought" not in got
            assert stats[member] == stats[team["players"][0]]
    assert RULES.statistics(events[:-1]) == {}
