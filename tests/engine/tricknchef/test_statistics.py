"""Trick-n-Chef's statistics (engine/tricknchef/statistics.py, docs/season.md "Statistics"):
a hand-built game whose figures follow from the rules trick by trick, and random whole games
checked against the summary that ``replay`` prints."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidRecord
from engine.statistics import Feat, PlayerStatistics, Statistic
from engine.tricknchef import RULES
from engine.tricknchef.rules import Play, chef_taker, trick_winner, value_in_trick
from engine.tricknchef.state import CompletedTrick
from engine.tricknchef.statistics import coin_effects

SUITS = ["green", "red", "yellow"]
HANDS = {
    "p1": [f"G{v}" for v in range(1, 11)],
    "p2": [f"R{v}" for v in range(1, 11)],
    "p3": [f"Y{v}" for v in range(1, 11)],
}

# One deal, p1 first; each player holds one whole suit, so nobody can follow and every trick's
# cards are of equal value but for the coins. Trick by trick (R5-R8):
#  1. p1 G1, p2 R1, p3 Y1; every suit trump, all 1: the last played wins (p3), the first
#     played takes the Chef (p1: yellow); p2 gets a coin.
#  2-4. p3 leads Y, then G, R; yellow the only trump (fewest in the centre): p3 wins and takes
#     yellow each time (yellow runs out); p1 and p2 get a coin each.
#  5. p3 Y5, p1 G5 with one +2 coin (7), p2 R5; trump green and red: p1's 7 wins (without the
#     coin R5, played after G5, would win: the coin changed the winner); lowest 5: p3 (first),
#     takes green; p2 gets a coin.
#  6-8. p1 leads G, then R, Y; green the only trump: p1 wins and takes green (green runs out);
#     p2 and p3 get a coin.
#  9. p1 G9, p2 R9, p3 Y9; red the only trump: p2 wins; p1 takes red; p3 gets a coin.
#  10. p2 R10, p3 Y10 with one -2 coin (8), p1 G10; red trump: p2 wins; the lowest is p3's 8
#     (without the coin p2's R10, played first, would be: the coin changed the lowest card);
#     p3 takes red; p1 gets a coin.
TRICKS: list[tuple[list[tuple[str, int]], str]] = [
    ([("G1", 0), ("R1", 0), ("Y1", 0)], "yellow"),
    ([("Y2", 0), ("G2", 0), ("R2", 0)], "yellow"),
    ([("Y3", 0), ("G3", 0), ("R3", 0)], "yellow"),
    ([("Y4", 0), ("G4", 0), ("R4", 0)], "yellow"),
    ([("Y5", 0), ("G5", 1), ("R5", 0)], "green"),
    ([("G6", 0), ("R6", 0), ("Y6", 0)], "green"),
    ([("G7", 0), ("R7", 0), ("Y7", 0)], "green"),
    ([("G8", 0), ("R8", 0), ("Y8", 0)], "green"),
    ([("G9", 0), ("R9", 0), ("Y9", 0)], "red"),
    ([("R10", 0), ("Y10", -1), ("G10", 0)], "red"),
]
OWNER = {card: player for player, cards in HANDS.items() for card in cards}
# Who takes each trick's Chef (the player of the lowest card, worked out above).
TAKERS = ["p1", "p3", "p3", "p3", "p3", "p1", "p1", "p1", "p1", "p3"]
# The deal's scores (R9): p1 won green, red, yellow 5-8 and holds 4 green, 1 yellow, 1 red Chefs
# (10 + 2 + 2 stars) and 3 coins: 17. p2 won the 9s and 10s, holds 1 red Chef (R9: 3 stars) and
# 8 coins: 11. p3 won the 1s to 4s, holds 4 yellow (1+1+1+2), 1 green (G1: 1), 1 red (R1: 1)
# and 3 coins: 10.
DEAL_SCORES = {"p1": 17, "p2": 11, "p3": 10}


def deal(number: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [
        {"type": "round_started", "round": number, "first_player": "p1", "hands": HANDS}
    ]
    events += [
        {"type": "chef_chosen", "player": p, "suit": s} for p, s in zip(HANDS, SUITS, strict=True)
    ]
    for (cards, chef), taker in zip(TRICKS, TAKERS, strict=True):
        for card, coins in cards:
            play: dict[str, Any] = {"type": "card_played", "player": OWNER[card], "card": card}
            if coins:
                play["coins"] = coins
            events.append(play)
        events.append({"type": "chef_taken", "player": taker, "suit": chef})
    return events


START = {"type": "game_started", "players": ["p1", "p2", "p3"], "suits": SUITS}
# p1 leads after every deal, so p1 starts each (R3.1) and the three deals are the same.
GAME = [START, *deal(1), *deal(2), *deal(3)]


def figures(stats: PlayerStatistics) -> dict[str, tuple[int, int]]:
    return {s.code: (s.value, s.sample) for s in stats.statistics}


def test_the_hand_built_game_is_what_the_comments_say() -> None:
    summary = RULES.replay([json.dumps(e) for e in GAME])
    assert summary["status"] == "finished"
    assert summary["rounds"][0]["scores"] == DEAL_SCORES
    assert summary["totals"] == {"p1": 51, "p2": 33, "p3": 30}


def test_a_hand_built_game_counts_what_the_rules_say() -> None:
    stats = RULES.statistics(GAME)
    assert set(stats) == {"p1", "p2", "p3"}
    assert figures(stats["p1"]) == {
        "tnc.tricks_won": (12, 3),  # tricks 5-8 of each deal
        "tnc.chefs_taken.green": (9, 3),
        "tnc.chefs_taken.red": (3, 3),
        "tnc.chefs_taken.yellow": (3, 3),
        "tnc.coins_placed": (3, 3),
        "tnc.coins_changed_winner": (3, 3),
        "tnc.coins_changed_lowest": (0, 3),
        "tnc.deal_score": (51, 3),
        "tnc.score_seat.1": (51, 1),
        "tnc.deal3_comeback": (0, 0),  # leading after deal 2
        "tnc.games_won": (1, 1),
    }
    assert figures(stats["p2"]) == {
        "tnc.tricks_won": (6, 3),
        "tnc.chefs_taken.green": (0, 3),
        "tnc.chefs_taken.red": (0, 3),
        "tnc.chefs_taken.yellow": (0, 3),
        "tnc.coins_placed": (0, 3),
        "tnc.coins_changed_winner": (0, 0),
        "tnc.coins_changed_lowest": (0, 0),
        "tnc.deal_score": (33, 3),
        "tnc.score_seat.2": (33, 1),
        "tnc.deal3_comeback": (0, 1),  # behind after deal 2, not first at the end
        "tnc.games_won": (0, 1),
    }
    assert figures(stats["p3"]) == {
        "tnc.tricks_won": (12, 3),
        "tnc.chefs_taken.green": (3, 3),
        "tnc.chefs_taken.red": (3, 3),
        "tnc.chefs_taken.yellow": (9, 3),
        "tnc.coins_placed": (3, 3),
        "tnc.coins_changed_winner": (0, 3),
        "tnc.coins_changed_lowest": (3, 3),
        "tnc.deal_score": (30, 3),
        "tnc.score_seat.3": (30, 1),
        "tnc.deal3_comeback": (0, 1),
        "tnc.games_won": (0, 1),
    }
    assert stats["p1"].feats == (
        Feat("tnc.best_deal_score", 17, 1),  # every deal 17: the first
        Feat("tnc.best_game_total", 51, None),
        Feat("tnc.most_tricks_in_deal", 4, 1),
    )
    assert stats["p2"].feats[0] == Feat("tnc.best_deal_score", 11, 1)
    assert stats["p2"].feats[2] == Feat("tnc.most_tricks_in_deal", 2, 1)


def play(player: str, card: str, coins: int = 0) -> Play:
    return Play(player, card, coins, value_in_trick(card, coins))


def test_coins_that_change_both_or_neither() -> None:
    # Red the only trump. p2's four -2 coins on R9 (1) make it the lowest card (without them
    # R3 would be) and hand the trick to R8 (without them R9 would win); p1's +2 coin on R3 (5)
    # changes nothing: R3 is neither the winner nor the lowest either way.
    plays = (play("p1", "R3", 1), play("p2", "R9", -4), play("p3", "R8"))
    trick = CompletedTrick(1, 1, ("red",), plays, "p3", "p2", "green", ())
    assert trick_winner(plays, trick.trump).player == "p3"
    assert chef_taker(plays).player == "p2"
    assert [(p.player, w, low) for p, w, low in coin_effects(trick)] == [
        ("p1", False, False),
        ("p2", True, True),
    ]


def test_results_only_and_unfinished_records_give_nothing() -> None:
    assert RULES.statistics([START]) == {}
    results = {"type": "results_entered", "scores": {"p1": [1, 2, 3]}, "totals": {}}
    assert RULES.statistics([START, results]) == {}
    assert RULES.statistics(GAME[:-1]) == {}
    assert RULES.statistics([]) == {}


def test_an_invalid_record_is_refused_at_its_first_bad_object() -> None:
    bad = [*GAME[:5], {"type": "card_played", "player": "p3", "card": "Y1"}]
    with pytest.raises(InvalidRecord) as refused:
        RULES.statistics(bad)
    assert refused.value.index == 5
    assert refused.value.code == "wrong_turn"


def by_code(stats: Mapping[str, PlayerStatistics], code: str) -> dict[str, Statistic]:
    return {p: s for p, st in stats.items() for s in st.statistics if s.code == code}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from(RULES.players))
def test_random_whole_games_agree_with_the_summary(seed: int, players: int) -> None:
    events = RULES.simulate(seed, players)
    summary = RULES.replay([json.dumps(e) for e in events])
    stats = RULES.statistics(events)
    names = summary["players"]
    assert list(stats) == names
    tricks = by_code(stats, "tnc.tricks_won")
    assert sum(s.value for s in tricks.values()) == 30
    assert all(s.sample == 3 for s in tricks.values())
    suits = events[0].get("suits") or ["green", "red", "yellow", "blue"]
    chefs = sum(
        s.value for suit in suits for s in by_code(stats, f"tnc.chefs_taken.{suit}").values()
    )
    assert chefs == 30  # one Chef taken a trick (R7.1)
    placed = by_code(stats, "tnc.coins_placed")
    coins = sum(abs(e.get("coins", 0)) for e in events if e["type"] == "card_played")
    assert sum(s.value for s in placed.values()) == coins
    for code in ("tnc.coins_changed_winner", "tnc.coins_changed_lowest"):
        for player, s in by_code(stats, code).items():
            assert s.sample == placed[player].value
            assert 0 <= s.value <= s.sample
    ranks = {r["player"]: r["rank"] for r in summary["ranking"]}
    after_two = {p: sum(r["scores"][p] for r in summary["rounds"][:2]) for p in names}
    for seat, player in enumerate(names, start=1):
        total = summary["totals"][player]
        got = figures(stats[player])
        assert got[f"tnc.score_seat.{seat}"] == (total, 1)
        assert got["tnc.deal_score"] == (total, 3)
        assert got["tnc.games_won"] == (int(ranks[player] == 1), 1)
        behind = after_two[player] < max(after_two.values())
        assert got["tnc.deal3_comeback"] == (int(behind and ranks[player] == 1), int(behind))
        feats = {f.code: f for f in stats[player].feats}
        best = max(r["scores"][player] for r in summary["rounds"])
        assert feats["tnc.best_deal_score"].value == best
        deal = feats["tnc.best_deal_score"].round
        assert deal is not None and summary["rounds"][deal - 1]["scores"][player] == best
        assert feats["tnc.best_game_total"] == Feat("tnc.best_game_total", total)
        assert 0 <= feats["tnc.most_tricks_in_deal"].value <= 10
    assert sum(s.value for s in by_code(stats, "tnc.games_won").values()) >= 1
    for end in range(len(events) - 10, len(events)):
        assert RULES.statistics(events[:end]) == {}
