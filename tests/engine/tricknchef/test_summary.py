"""What ``replay`` reports about a game at every kind of moment (docs/record-format.md)."""

from __future__ import annotations

import json

from engine.tricknchef.events import ChefTaken, RoundStarted, dumps
from engine.tricknchef.replay import replay, replay_lines
from engine.tricknchef.simulate import simulate
from engine.tricknchef.summary import summarize
from tests.engine.tricknchef.factories import EXAMPLE_DEAL, Table, coins_table

SUITS4 = ("green", "red", "yellow", "blue")


def test_before_the_game_starts_nothing_is_known() -> None:
    assert summarize(replay([])) == {
        "status": "in_progress",
        "players": [],
        "rounds": [],
        "totals": {},
        "ranking": [],
        "state": {
            "round": 0,
            "trick": 0,
            "next": {"type": "game_started", "player": None},
            "trump": [],
            "centre_chefs": {},
            "coins": {},
            "chefs": {},
            "tricks_won": {},
        },
    }


def test_after_game_started_everything_is_zero_and_round_one_is_awaited() -> None:
    out = summarize(Table(players=("a", "b", "c"), suits=("red", "green", "blue")).state)
    assert out["players"] == ["a", "b", "c"]
    assert out["totals"] == {"a": 0, "b": 0, "c": 0}
    zero = {"green": 0, "red": 0, "blue": 0}
    assert out["state"] == {
        "round": 0,
        "trick": 0,
        "next": {"type": "round_started", "player": None},
        "trump": [],
        "centre_chefs": zero,
        "coins": {"a": 0, "b": 0, "c": 0},
        "chefs": {"a": zero, "b": zero, "c": zero},
        "tricks_won": {"a": 0, "b": 0, "c": 0},
    }


def test_during_the_chef_picks_trick_one_and_its_trump_are_shown() -> None:
    table = Table().deal(first="p2", **EXAMPLE_DEAL).picks("red")
    state = summarize(table.state)["state"]
    assert state["round"] == 1
    assert state["trick"] == 1
    assert state["next"] == {"type": "chef_chosen", "player": "p3"}
    assert state["trump"] == list(SUITS4)
    assert state["centre_chefs"] == dict.fromkeys(SUITS4, 4)
    assert state["chefs"]["p2"] == {"green": 0, "red": 1, "yellow": 0, "blue": 0}


def test_mid_trick_coins_placed_are_no_longer_held() -> None:
    table = coins_table()
    table.trick("R2", "R9+2")
    state = summarize(table.state)["state"]
    assert state["trick"] == 3
    assert state["next"] == {"type": "card_played", "player": "p4"}
    assert state["coins"] == {"p1": 0, "p2": 0, "p3": 0, "p4": 2}
    assert state["trump"] == ["green", "yellow"]


def test_while_the_chef_is_awaited_the_trick_is_won_and_its_trump_still_current() -> None:
    table = coins_table()
    table.trick("R2", "R9+2", "R10+1", "R3")
    state = summarize(table.state)["state"]
    assert state["trick"] == 3
    assert state["next"] == {"type": "chef_taken", "player": "p2"}
    assert state["trump"] == ["green", "yellow"]
    assert state["tricks_won"] == {"p1": 1, "p2": 1, "p3": 1, "p4": 0}
    assert state["coins"] == {"p1": 0, "p2": 0, "p3": 0, "p4": 1}  # nothing paid yet
    table.do(ChefTaken("p2", "red"))
    state = summarize(table.state)["state"]
    assert state["trick"] == 4
    assert state["next"] == {"type": "card_played", "player": "p3"}
    assert state["coins"] == {"p1": 1, "p2": 0, "p3": 0, "p4": 2}
    assert state["trump"] == ["green", "red", "yellow"]


def test_between_rounds_the_table_shows_how_the_round_ended() -> None:
    events = simulate(seed=9, players=4)
    second = next(i for i, e in enumerate(events) if isinstance(e, RoundStarted) and e.round == 2)
    state = replay(events[:second])
    out = summarize(state)
    assert out["state"]["round"] == 1
    assert out["state"]["trick"] == 10
    assert out["state"]["next"] == {"type": "round_started", "player": None}
    assert out["state"]["trump"] == []
    assert sum(out["state"]["tricks_won"].values()) == 10
    assert sum(out["state"]["centre_chefs"].values()) == 16 - 10
    assert out["rounds"] == [{"round": 1, "scores": state.round_scores[0]}]
    assert out["totals"] == state.round_scores[0]
    assert out["ranking"] == []
    assert out["status"] == "in_progress"


def test_a_finished_game_is_ranked() -> None:
    events = simulate(seed=9, players=3)
    out = summarize(replay(events))
    assert out["status"] == "finished"
    assert out["state"]["next"] is None
    assert out["state"]["trump"] == []
    assert [r["round"] for r in out["rounds"]] == [1, 2, 3]
    ranks = out["ranking"]
    assert [r["total"] for r in ranks] == sorted((r["total"] for r in ranks), reverse=True)
    assert {r["player"] for r in ranks} == set(out["players"])
    for entry in ranks:
        assert entry["total"] == out["totals"][entry["player"]]
        assert entry["last_round"] == out["rounds"][2]["scores"][entry["player"]]
        assert set(entry) == {"player", "rank", "total", "last_round"}


def test_the_summary_is_plain_json_in_seat_and_suit_order() -> None:
    events = simulate(seed=4, players=3)
    out = summarize(replay_lines([dumps(e) for e in events[:60]]))
    assert json.loads(json.dumps(out)) == out
    assert list(out["totals"]) == out["players"]
    suits = list(out["state"]["centre_chefs"])
    assert suits == [s for s in SUITS4 if s in suits]
