"""Self-checks of the reference implementation (tests/engine/tricknchef/reference.py) alone.

No engine import: these tests only make sure the reference itself says what docs/rules.md and
docs/record-format.md say, so that it can be trusted as the other side of differential tests.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.engine.tricknchef import reference as ref

# --------------------------------------------------------------------------------------------
# Building records by hand
# --------------------------------------------------------------------------------------------


def line(**fields: Any) -> str:
    return json.dumps(fields)


def game_started(players: list[str], suits: list[str] | None = None) -> str:
    if suits is None:
        return line(type="game_started", players=players)
    return line(type="game_started", players=players, suits=suits)


def round_started(number: int, first: str, hands: dict[str, list[str]]) -> str:
    return line(type="round_started", round=number, first_player=first, hands=hands)


def pick(player: str, suit: str) -> str:
    return line(type="chef_chosen", player=player, suit=suit)


def play(player: str, card: str, coins: int = 0) -> str:
    if coins:
        return line(type="card_played", player=player, card=card, coins=coins)
    return line(type="card_played", player=player, card=card)


def take(player: str, suit: str) -> str:
    return line(type="chef_taken", player=player, suit=suit)


def greens(*values: int) -> list[str]:
    return [f"G{v}" for v in values]


P4 = ["ana", "ben", "cleo", "dev"]
P3 = ["ana", "ben", "cleo"]
PICKS4 = [pick("ana", "green"), pick("ben", "red"), pick("cleo", "yellow"), pick("dev", "blue")]

# Example 1 deal: the four reds 1, 3, 7, 10 are in four different hands.
DEAL_EX1 = {
    "ana": ["R7", *greens(1, 2, 3, 4, 5, 6, 7, 8, 9)],
    "ben": ["R1", "G10", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"],
    "cleo": ["R10", "Y9", "Y10", "B1", "B2", "B3", "B4", "B5", "B6", "B7"],
    "dev": ["R3", "R2", "R4", "R5", "R6", "R8", "R9", "B8", "B9", "B10"],
}


def ex1_lines() -> list[str]:
    return [
        game_started(P4),
        round_started(1, "ana", DEAL_EX1),
        *PICKS4,
        play("ana", "R7"),
        play("ben", "R1"),
        play("cleo", "R10"),
        play("dev", "R3"),
    ]


# Three green tricks won by ana in which the Chef taken is blue each time, so that trick 4 has
# blue (1 token left, the others 4) as the only trump. Played from the three deals below.
PRELUDE_BLUE_ONLY_TRUMP = [
    # trick 1, all suits trump (R5.2): G10 wins, G1 (ben) takes a blue Chef
    play("ana", "G10"), play("ben", "G1"), play("cleo", "G4"), play("dev", "G7"),
    take("ben", "blue"),
    # trick 2, blue only trump (3 left), nobody plays blue: G9 wins (led), Y1 (dev) is lowest
    play("ana", "G9"), play("ben", "G2"), play("cleo", "G5"), play("dev", "Y1"),
    take("dev", "blue"),
    # trick 3, blue only trump (2 left): G8 wins, G3 (ben) is lowest
    play("ana", "G8"), play("ben", "G3"), play("cleo", "G6"), play("dev", "Y7"),
    take("ben", "blue"),
]  # fmt: skip

DEAL_EX2 = {
    "ana": ["G10", "G9", "G8", "R1", "B1", "B2", "B3", "B4", "Y2", "Y3"],
    "ben": ["G1", "G2", "G3", "R3", "R2", "R4", "R5", "R6", "B5", "Y4"],
    "cleo": ["G4", "G5", "G6", "R7", "R8", "R9", "R10", "B6", "Y5", "Y6"],
    "dev": ["G7", "Y10", "Y9", "Y8", "Y7", "Y1", "B7", "B8", "B9", "B10"],
}
DEAL_EX3 = {
    "ana": ["G10", "G9", "G8", "R1", "R5", "R6", "B1", "B2", "B3", "Y2"],
    "ben": ["G1", "G2", "G3", "B5", "Y4", "Y3", "B4", "B6", "Y5", "Y6"],
    "cleo": ["G4", "G5", "G6", "R2", "R3", "R4", "R7", "R8", "R9", "R10"],
    "dev": ["G7", "Y1", "Y7", "Y8", "Y9", "Y10", "B7", "B8", "B9", "B10"],
}
DEAL_EX4 = {
    "ana": ["G10", "G9", "G8", "R1", "B1", "B2", "B3", "B4", "Y2", "Y3"],
    "ben": ["G1", "G2", "G3", "R3", "R2", "R4", "R5", "R6", "B5", "Y4"],
    "cleo": ["G4", "G5", "G6", "R7", "R8", "R9", "B6", "Y5", "Y6", "Y8"],
    "dev": ["G7", "Y1", "Y7", "R10", "Y10", "Y9", "B7", "B8", "B9", "B10"],
}


def blue_only_prefix(deal: dict[str, list[str]]) -> list[str]:
    return [game_started(P4), round_started(1, "ana", deal), *PICKS4, *PRELUDE_BLUE_ONLY_TRUMP]


# Example 5: a whole 3-player round, each player dealt one whole suit. ana wins exactly
# G4, G10, G8, G1 and ends with two green Chefs (her pick and trick 4's), no other Chef.
HANDS_EX5 = {
    "ana": [f"G{v}" for v in range(1, 11)],
    "ben": [f"R{v}" for v in range(1, 11)],
    "cleo": [f"Y{v}" for v in range(1, 11)],
}
TRICKS_EX5 = [
    # (plays in order, chef taker, suit taken)          trump   winner  lowest
    ([("ana", "G4"), ("ben", "R1"), ("cleo", "Y2")], "ben", "green"),  # all    ana     ben
    ([("ana", "G10"), ("ben", "R10"), ("cleo", "Y3")], "cleo", "green"),  # G    ana     cleo
    ([("ana", "G8"), ("ben", "R2"), ("cleo", "Y9")], "ben", "green"),  # G      ana     ben
    ([("ana", "G1"), ("ben", "R9"), ("cleo", "Y10")], "ana", "green"),  # G     ana     ana
    ([("ana", "G2"), ("ben", "R8"), ("cleo", "Y1")], "cleo", "yellow"),  # R,Y  ben     cleo
    ([("ben", "R3"), ("cleo", "Y8"), ("ana", "G3")], "ben", "yellow"),  # Y     cleo    ben (tie)
    ([("cleo", "Y7"), ("ana", "G5"), ("ben", "R4")], "ben", "yellow"),  # Y     cleo    ben
    ([("cleo", "Y4"), ("ana", "G6"), ("ben", "R5")], "cleo", "yellow"),  # Y    cleo    cleo
    ([("cleo", "Y5"), ("ana", "G7"), ("ben", "R6")], "cleo", "red"),  # R       ben     cleo
    ([("ben", "R7"), ("cleo", "Y6"), ("ana", "G9")], "cleo", "red"),  # R       ben     cleo
]


def ex5_lines() -> list[str]:
    lines = [
        game_started(P3, ["yellow", "green", "red"]),
        round_started(1, "ana", HANDS_EX5),
        pick("ana", "green"),
        pick("ben", "red"),
        pick("cleo", "yellow"),
    ]
    for plays, taker, suit in TRICKS_EX5:
        lines += [play(p, c) for p, c in plays]
        lines.append(take(taker, suit))
    return lines


def replay(lines: list[str]) -> dict[str, Any]:
    return ref.replay_lines(lines)


def error_of(lines: list[str]) -> tuple[int, str]:
    result = replay(lines)
    assert "error" in result, result
    return result["error"]["event"], result["error"]["code"]


# --------------------------------------------------------------------------------------------
# The rulebook's worked examples
# --------------------------------------------------------------------------------------------


def test_example_1_four_reds_all_trump() -> None:
    lines = ex1_lines()
    state = replay(lines)["state"]
    assert state["trump"] == ["green", "red", "yellow", "blue"]  # R5.2
    assert state["tricks_won"] == {"ana": 0, "ben": 0, "cleo": 1, "dev": 0}  # red 10 wins
    assert state["next"] == {"type": "chef_taken", "player": "ben"}  # red 1 takes the Chef
    assert state["trick"] == 1
    after = replay([*lines, take("ben", "green")])["state"]
    assert after["trick"] == 2
    assert after["next"] == {"type": "card_played", "player": "cleo"}  # R4.1
    assert after["trump"] == ["green"]  # green now has the fewest tokens (3)
    assert after["centre_chefs"] == {"green": 3, "red": 4, "yellow": 4, "blue": 4}
    # R8.2: ana and dev neither won nor took the Chef.
    assert after["coins"] == {"ana": 1, "ben": 0, "cleo": 0, "dev": 1}
    assert after["chefs"]["ben"] == {"green": 1, "red": 1, "yellow": 0, "blue": 0}


def test_example_2_off_suit_ten_cannot_win() -> None:
    lines = blue_only_prefix(DEAL_EX2)
    assert replay(lines)["state"]["trump"] == ["blue"]
    lines += [play("ana", "R1"), play("ben", "R3"), play("cleo", "R7"), play("dev", "Y10")]
    state = replay(lines)["state"]
    assert state["trump"] == ["blue"]
    assert state["tricks_won"] == {"ana": 3, "ben": 0, "cleo": 1, "dev": 0}  # red 7 wins
    assert state["next"] == {"type": "chef_taken", "player": "ana"}  # red 1


def test_example_3_only_trump_card_wins() -> None:
    lines = blue_only_prefix(DEAL_EX3)
    lines += [play("ana", "R1"), play("ben", "B5"), play("cleo", "R7"), play("dev", "Y10")]
    state = replay(lines)["state"]
    assert state["trump"] == ["blue"]
    assert state["tricks_won"] == {"ana": 3, "ben": 1, "cleo": 0, "dev": 0}  # blue 5 wins
    assert state["next"] == {"type": "chef_taken", "player": "ana"}  # red 1


def test_example_4_coins_change_the_value() -> None:
    lines = blue_only_prefix(DEAL_EX4)
    assert replay(lines)["state"]["coins"] == {"ana": 0, "ben": 1, "cleo": 3, "dev": 2}
    lines += [play("ana", "R1"), play("ben", "R3"), play("cleo", "R9", 2)]
    mid = replay(lines)["state"]
    assert mid["coins"] == {"ana": 0, "ben": 1, "cleo": 1, "dev": 2}  # placed coins left hands
    lines.append(play("dev", "R10", 1))  # value 12, played last, still loses to 13
    state = replay(lines)["state"]
    assert state["tricks_won"] == {"ana": 3, "ben": 0, "cleo": 1, "dev": 0}
    assert state["next"] == {"type": "chef_taken", "player": "ana"}
    assert state["coins"] == {"ana": 0, "ben": 1, "cleo": 1, "dev": 1}  # still out while awaited
    after = replay([*lines, take("ana", "red")])["state"]
    assert after["coins"] == {"ana": 0, "ben": 2, "cleo": 1, "dev": 2}  # R8
    assert after["trump"] == ["blue"]


def test_equal_values_last_wins_first_takes_the_chef() -> None:
    lines = blue_only_prefix(DEAL_EX4)  # coins: ben 1, cleo 3, dev 2
    lines += [
        play("ana", "R1"),  # 1
        play("ben", "R3", -1),  # 1: ties ana's 1, ana played first (R7.2)
        play("cleo", "R8", -1),  # 6
        play("dev", "R10", -2),  # 6: ties cleo's 6, dev played last (R6.3)
    ]
    state = replay(lines)["state"]
    assert state["tricks_won"] == {"ana": 3, "ben": 0, "cleo": 0, "dev": 1}
    assert state["next"] == {"type": "chef_taken", "player": "ana"}
    assert state["coins"] == {"ana": 0, "ben": 0, "cleo": 2, "dev": 0}
    after = replay([*lines, take("ana", "blue")])["state"]
    assert after["coins"] == {"ana": 0, "ben": 1, "cleo": 3, "dev": 0}
    assert after["next"] == {"type": "card_played", "player": "dev"}
    # blue ran dry (R5.3): the other three suits, tied on 4 tokens, are all trump.
    assert after["centre_chefs"] == {"green": 4, "red": 4, "yellow": 4, "blue": 0}
    assert after["trump"] == ["green", "red", "yellow"]


def test_example_5_scoring_a_round() -> None:
    result = replay(ex5_lines())
    assert result["status"] == "in_progress"
    state = result["state"]
    assert state["round"] == 1 and state["trick"] == 10
    assert state["next"] == {"type": "round_started", "player": None}
    assert state["trump"] == []
    assert state["centre_chefs"] == {"green": 0, "red": 2, "yellow": 0}
    assert state["coins"] == {"ana": 6, "ben": 3, "cleo": 3}
    assert state["chefs"] == {
        "ana": {"green": 2, "red": 0, "yellow": 0},
        "ben": {"green": 2, "red": 1, "yellow": 2},
        "cleo": {"green": 1, "red": 2, "yellow": 3},
    }
    assert state["tricks_won"] == {"ana": 4, "ben": 3, "cleo": 3}
    # ana: green 1 and 4 carry her two Chefs (1 + 2 stars) + 6 coins.
    assert result["rounds"] == [{"round": 1, "scores": {"ana": 9, "ben": 12, "cleo": 15}}]
    assert result["totals"] == {"ana": 9, "ben": 12, "cleo": 15}
    assert result["ranking"] == []


def test_round_2_needs_a_leader_on_points() -> None:
    lines = ex5_lines()
    hands = {"ana": HANDS_EX5["cleo"], "ben": HANDS_EX5["ana"], "cleo": HANDS_EX5["ben"]}
    assert error_of([*lines, round_started(2, "ana", hands)]) == (len(lines), "bad_first_player")
    ok = replay([*lines, round_started(2, "cleo", hands)])
    assert ok["state"]["round"] == 2 and ok["state"]["trick"] == 1
    assert ok["state"]["next"] == {"type": "chef_chosen", "player": "cleo"}
    assert ok["state"]["trump"] == ["green", "red", "yellow"]
    assert ok["state"]["coins"] == {"ana": 0, "ben": 0, "cleo": 0}


def test_ranking_competition_style() -> None:
    game = ref.Game()
    game.players = ["a", "b", "c", "d"]
    game.rounds = [
        {"round": 1, "scores": {"a": 5, "b": 9, "c": 7, "d": 1}},
        {"round": 2, "scores": {"a": 5, "b": 1, "c": 5, "d": 1}},
        {"round": 3, "scores": {"a": 4, "b": 4, "c": 2, "d": 1}},
    ]
    # totals a 14, b 14, c 14, d 3; round 3: a 4, b 4, c 2
    assert game.ranking() == [
        {"player": "a", "rank": 1, "total": 14, "last_round": 4},
        {"player": "b", "rank": 1, "total": 14, "last_round": 4},
        {"player": "c", "rank": 3, "total": 14, "last_round": 2},
        {"player": "d", "rank": 4, "total": 3, "last_round": 1},
    ]


# --------------------------------------------------------------------------------------------
# generate()
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2, 7, 42, 1234])
def test_generated_games_finish(seed: int, players: int) -> None:
    lines = ref.generate(seed, players)
    assert lines == ref.generate(seed, players)
    # 1 + 3 * (1 + n + 10 * (n + 1)) lines: 166 for 4 players, 133 for 3.
    assert len(lines) == 1 + 3 * (1 + players + 10 * (players + 1))
    result = ref.replay_lines(lines)
    assert result["status"] == "finished", result
    assert result["state"]["next"] is None
    assert [r["round"] for r in result["rounds"]] == [1, 2, 3]
    assert len(result["ranking"]) == players
    assert [e["total"] for e in result["ranking"]] == sorted(result["totals"].values())[::-1]
    for cut in (0, 1, 5, 60, len(lines) - 1):
        assert ref.replay_lines(lines[:cut])["status"] == "in_progress"
    assert error_of([*lines, lines[-1]]) == (len(lines), "game_over")


# --------------------------------------------------------------------------------------------
# Invalid records: the line and the code
# --------------------------------------------------------------------------------------------

BASE = ex1_lines()  # 10 lines: 0 game, 1 round, 2-5 picks, 6-9 trick 1 cards
ANA_R7 = '{"type":"card_played","player":"ana","card":"R7"'  # to be closed by the case
DEAL_NINE_CARDS = {**DEAL_EX1, "dev": DEAL_EX1["dev"][:9]}
DEAL_NO_DEV = {k: v for k, v in DEAL_EX1.items() if k != "dev"}
DEAL_R7_TWICE = {**DEAL_EX1, "dev": ["R7", *DEAL_EX1["dev"][1:]]}


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ([*BASE[:3], ""], (3, "bad_json")),
        ([*BASE[:3], '{"type": "chef_chosen", "player": "ben"'], (3, "bad_json")),
        ([*BASE[:6], ANA_R7 + ',"coins":NaN}'], (6, "bad_json")),
        ([*BASE[:2], "[]"], (2, "bad_json")),
        ([*BASE[:6], ANA_R7 + ',"coin":1}'], (6, "bad_event")),
        ([*BASE[:6], ANA_R7 + ',"coins":1.0}'], (6, "bad_event")),
        ([*BASE[:6], ANA_R7 + ',"coins":true}'], (6, "bad_event")),
        ([*BASE[:6], ANA_R7 + ',"coins":"1"}'], (6, "bad_event")),
        ([*BASE[:6], ANA_R7 + ',"card":"R7"}'], (6, "bad_event")),
        ([*BASE[:6], '{"type":"card_play","player":"ana","card":"R7"}'], (6, "bad_event")),
        ([*BASE[:6], '{"player":"ana","card":"R7"}'], (6, "bad_event")),
        ([*BASE[:6], play("ana", "G11")], (6, "bad_card")),
        ([*BASE[:6], play("ana", "g7")], (6, "bad_card")),
        ([*BASE[:6], play("ana", "R07")], (6, "bad_card")),
        ([*BASE[:2], play("ana", "X3")], (2, "bad_card")),  # format before order
        ([*BASE[:2], pick("ana", "purple")], (2, "bad_suit")),
        ([*BASE[:2], play("ana", "R7")], (2, "out_of_order")),
        ([*BASE[:2], play("zed", "R7")], (2, "out_of_order")),  # order before the name
        ([pick("ana", "green")], (0, "out_of_order")),
        ([BASE[0], BASE[0]], (1, "out_of_order")),
        ([*BASE[:6], take("ben", "green")], (6, "out_of_order")),
        ([*BASE, play("cleo", "Y9")], (10, "out_of_order")),
        ([*BASE, round_started(2, "ana", DEAL_EX1)], (10, "out_of_order")),
        ([game_started(["a", "b"])], (0, "bad_players")),
        ([game_started(["a", "b", "c", "d", "e"])], (0, "bad_players")),
        ([game_started(["a", "b", "a"], ["green", "red", "blue"])], (0, "bad_players")),
        ([game_started(["a", "", "c"], ["green", "red", "blue"])], (0, "bad_players")),
        ([game_started(P3)], (0, "bad_suits")),
        ([game_started(P3, ["green", "red", "yellow", "blue"])], (0, "bad_suits")),
        ([game_started(P3, ["green", "red", "red"])], (0, "bad_suits")),
        ([game_started(P4, ["green", "red", "yellow"])], (0, "bad_suits")),
        ([game_started(P3, ["green", "red", "pink"])], (0, "bad_suit")),
        ([BASE[0], round_started(2, "ana", DEAL_EX1)], (1, "wrong_round")),
        ([BASE[0], round_started(1, "zed", DEAL_EX1)], (1, "unknown_player")),
        ([BASE[0], round_started(1, "ana", DEAL_NINE_CARDS)], (1, "bad_deal")),
        ([BASE[0], round_started(1, "ana", DEAL_NO_DEV)], (1, "bad_deal")),
        ([BASE[0], round_started(1, "ana", DEAL_R7_TWICE)], (1, "bad_deal")),
        ([BASE[0], round_started(1, "ana", {**DEAL_EX1, "zed": []})], (1, "unknown_player")),
        ([*BASE[:2], pick("zed", "green")], (2, "unknown_player")),
        ([*BASE[:2], pick("ben", "green")], (2, "wrong_turn")),
        ([*BASE[:3], pick("ben", "green")], (3, "chef_already_chosen")),
        ([*BASE[:6], play("ben", "R1")], (6, "wrong_turn")),
        ([*BASE[:6], play("ana", "R1")], (6, "card_not_in_hand")),
        ([*BASE[:7], play("ben", "G10")], (7, "revoke")),
        ([*BASE[:6], play("ana", "R7", 1)], (6, "not_enough_coins")),
        ([*BASE[:6], play("ana", "R7", -1)], (6, "not_enough_coins")),
        ([*BASE, take("zed", "green")], (10, "unknown_player")),
        ([*BASE, take("cleo", "green")], (10, "wrong_chef_taker")),
    ],
)  # fmt: skip
def test_invalid_records(lines: list[str], expected: tuple[int, str]) -> None:
    assert error_of(lines) == expected


def test_three_player_errors() -> None:
    lines = ex5_lines()
    # game_started, round_started, 3 picks, then trick 1 at index 5.
    assert error_of([*lines[:2], pick("ana", "blue")]) == (2, "suit_not_in_play")
    hands_with_blue = {**HANDS_EX5, "ana": [*HANDS_EX5["ana"][:9], "B1"]}
    assert error_of([lines[0], round_started(1, "ana", hands_with_blue)]) == (1, "bad_deal")
    # trick 5 starts at 5 + 4 * 4 = 21; its chef_taken is line 24; green is empty by then.
    assert lines[24] == take("cleo", "yellow")
    assert error_of([*lines[:24], take("cleo", "green")]) == (24, "empty_chef_suit")
    assert error_of([*lines[:24], take("cleo", "blue")]) == (24, "suit_not_in_play")
    # ana led trick 1 (line 5); the next card is ben's
    assert error_of([*lines[:6], play("ana", "G5")]) == (6, "wrong_turn")
