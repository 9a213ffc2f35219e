"""Every Trick-n-Chef refusal carries the values its sentence is made of (``params``) so that a
page can say it in its reader's language (games/refusals.py); where one code has several
sentences, ``params["rule"]`` (or ``"where"``) tells them apart. The code and the English
message are unchanged (docs/record-format.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.errors import InvalidRecord, RuleViolation
from engine.jsonline import decode_object, split_lines
from engine.tricknchef.cards import CARD_SUIT, CARD_VALUE
from engine.tricknchef.events import (
    CardPlayed,
    ChefChosen,
    ChefTaken,
    Event,
    GameStarted,
    RoundStarted,
    from_json,
    type_name,
)
from engine.tricknchef.referee import check, legal_cards, legal_pick_suits
from engine.tricknchef.replay import step
from engine.tricknchef.results import check_results
from engine.tricknchef.simulate import simulate
from engine.tricknchef.state import GameState, Phase

NAMES = ("ana", "ben", "cleo", "dev")


def refusal(call: Callable[[], Any]) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        call()
    return caught.value


def refused(state: GameState, event: Event) -> RuleViolation:
    return refusal(lambda: check(state, event))


def game() -> list[Event]:
    return simulate(3, 4, names=NAMES)


def state_at(events: list[Event], phase: Phase, *, led: bool = False) -> GameState:
    """The state before the first event at which the table waits in ``phase`` (with a card
    already led, if ``led``)."""
    state = GameState()
    for event in events:
        if state.phase is phase and (not led or state.led_suit is not None):
            return state
        step(state, event)
    raise AssertionError(f"the game never reaches {phase}")


def test_game_started_refusals() -> None:
    new = GameState()
    v = refused(new, GameStarted(players=("a", "b")))
    assert (v.code, v.params) == ("bad_players", {"rule": "count", "count": 2})
    v = refused(new, GameStarted(players=("a", "", "c")))
    assert (v.code, v.params) == ("bad_players", {"rule": "empty_name"})
    v = refused(new, GameStarted(players=("a", "b", "a")))
    assert (v.code, v.params) == ("bad_players", {"rule": "seated_twice", "players": ["a"]})
    v = refused(new, GameStarted(players=("a", "b", "c")))
    assert (v.code, v.params) == ("bad_suits", {"rule": "suits_missing"})
    v = refused(new, GameStarted(players=("a", "b", "c"), suits=("red", "red", "blue")))
    assert (v.code, v.params) == ("bad_suits", {"rule": "suit_twice"})
    v = refused(new, GameStarted(players=NAMES, suits=("red", "green", "blue")))
    assert (v.code, v.params) == ("bad_suits", {"rule": "four_suits"})
    v = refused(new, GameStarted(players=("a", "b", "c"), suits=("red", "blue")))
    assert (v.code, v.params) == ("bad_suits", {"rule": "three_suits"})
    # An English message unchanged beside its params.
    assert v.message == "with 3 players exactly three suits are in play"


def test_order_refusals_say_what_is_expected() -> None:
    events = game()
    v = refused(GameState(), events[1])
    assert v.code == "out_of_order"
    assert v.params["rule"] == "game_started" and v.params["got"] == "round_started"
    pick = state_at(events, Phase.CHEF_PICK)
    v = refused(pick, CardPlayed(str(pick.expected), sorted(pick.hands[str(pick.expected)])[0]))
    assert v.code == "out_of_order"
    assert v.params == {
        "rule": "chef_chosen",
        "player": pick.expected,
        "round": 1,
        "trick": pick.trick_no,
        "got": "card_played",
    }
    over = GameState()
    for event in events:
        step(over, event)
    v = refused(over, events[2])
    assert (v.code, v.params) == ("game_over", {"got": type_name(events[2])})


def test_round_started_refusals() -> None:
    events = game()
    start = events[1]
    assert isinstance(start, RoundStarted)
    state = GameState()
    step(state, events[0])
    v = refused(state, RoundStarted(round=2, first_player="ana", hands=start.hands))
    assert (v.code, v.params) == ("wrong_round", {"expected": 1, "got": 2})
    v = refused(state, RoundStarted(round=1, first_player="zed", hands=start.hands))
    assert (v.code, v.params) == ("unknown_player", {"player": "zed", "players": list(NAMES)})
    hands = dict(start.hands)
    v = refused(state, RoundStarted(1, "ana", (*start.hands, ("zed", hands["ana"]))))
    assert (v.code, v.params) == ("bad_deal", {"rule": "unknown_hand", "player": "zed"})
    v = refused(state, RoundStarted(1, "ana", start.hands[:3]))
    assert (v.code, v.params) == ("bad_deal", {"rule": "missing_hand", "players": ["dev"]})
    short = tuple((n, c[:9] if n == "ben" else c) for n, c in start.hands)
    v = refused(state, RoundStarted(1, "ana", short))
    assert v.params == {"rule": "hand_size", "player": "ben", "expected": 10, "got": 9}
    twice = tuple((n, (c[0], *c[:9]) if n == "ben" else c) for n, c in start.hands)
    v = refused(state, RoundStarted(1, "ana", twice))
    assert v.params == {"rule": "dealt_twice", "card": hands["ben"][0], "player": "ben"}
    both = tuple((n, (hands["ana"][0], *c[1:]) if n == "ben" else c) for n, c in start.hands)
    v = refused(state, RoundStarted(1, "ana", both))
    assert v.params == {
        "rule": "dealt_to_both",
        "card": hands["ana"][0],
        "holder": "ana",
        "player": "ben",
    }
    three = GameState()
    step(three, GameStarted(players=("a", "b", "c"), suits=("green", "red", "yellow")))
    blue = tuple(f"B{v}" for v in range(1, 11))
    v = refused(three, RoundStarted(1, "a", (("a", blue), ("b", blue), ("c", blue))))
    assert v.params == {"rule": "card_not_in_play", "card": "B1", "player": "a", "suit": "blue"}


def test_a_later_round_is_started_by_the_leader() -> None:
    events = game()
    state = GameState()
    index = 0
    while not (state.phase is Phase.ROUND_START and state.round_no == 1):
        step(state, events[index])
        index += 1
    start = events[index]
    assert isinstance(start, RoundStarted)
    best = max(state.totals.values())
    loser = next(p for p in NAMES if state.totals[p] < best)
    v = refused(state, RoundStarted(2, loser, start.hands))
    assert v.code == "bad_first_player"
    assert v.params == {
        "round": 2,
        "leaders": [p for p in state.players if state.totals[p] == best],
        "points": best,
        "player": loser,
        "player_points": state.totals[loser],
    }


def test_chef_pick_refusals() -> None:
    state = state_at(game(), Phase.CHEF_PICK)
    other = next(p for p in NAMES if p != state.expected)
    v = refused(state, ChefChosen(other, "red"))
    assert v.code == "wrong_turn"
    assert v.params == {
        "rule": "chef_chosen",
        "expected": state.expected,
        "player": other,
        "first_player": state.first_player,
    }
    events = game()
    for index in range(len(events)):
        mid = state_of(events[:index])
        if mid.phase is Phase.CHEF_PICK and mid.picked:
            taken = next(iter(mid.picked))
            v = refused(mid, ChefChosen(str(mid.expected), taken))
            assert v.code == "chef_already_chosen"
            assert v.params == {"suit": taken, "left": legal_pick_suits(mid)}
            break
    else:
        raise AssertionError("no second pick")


def state_of(events: list[Event]) -> GameState:
    state = GameState()
    for event in events:
        step(state, event)
    return state


def test_suit_not_in_play() -> None:
    three = GameState()
    events = simulate(2, 3, names=("a", "b", "c"))
    for event in events:
        if three.phase is Phase.CHEF_PICK:
            break
        step(three, event)
    out = next(s for s in ("green", "red", "yellow", "blue") if s not in three.suits)
    v = refused(three, ChefChosen(str(three.expected), out))
    assert (v.code, v.params) == ("suit_not_in_play", {"suit": out})


def test_card_refusals() -> None:
    events = game()
    state = state_at(events, Phase.PLAY, led=True)
    player = str(state.expected)
    other = next(p for p in NAMES if p != player)
    v = refused(state, CardPlayed(other, sorted(state.hands[other])[0]))
    assert v.code == "wrong_turn"
    assert v.params == {
        "rule": "card_played",
        "expected": player,
        "player": other,
        "trick": state.trick_no,
    }
    elsewhere = sorted(state.hands[other])[0]
    v = refused(state, CardPlayed(player, elsewhere))
    assert v.code == "card_not_in_hand"
    assert v.params == {"player": player, "card": elsewhere, "where": "hand", "holder": other}
    on_table = state.trick[0].card
    v = refused(state, CardPlayed(player, on_table))
    assert v.params == {"player": player, "card": on_table, "where": "trick"}
    coins = state.coins[player] + 1
    legal = legal_cards(state)[0]
    v = refused(state, CardPlayed(player, legal, coins))
    assert v.code == "not_enough_coins"
    assert v.params == {"player": player, "placed": coins, "coins": state.coins[player]}


def test_a_revoke_names_the_player_the_suit_and_the_cards_held() -> None:
    events = game()
    state = GameState()
    for event in events:
        if state.phase is Phase.PLAY and state.led_suit is not None and state.expected:
            illegal = sorted(set(state.hands[state.expected]) - set(legal_cards(state)))
            if illegal:
                break
        step(state, event)
    else:
        raise AssertionError("no revoke possible")
    player, led = str(state.expected), str(state.led_suit)
    v = refused(state, CardPlayed(player, illegal[0]))
    held = sorted(
        (c for c in state.hands[player] if CARD_SUIT[c] == led), key=CARD_VALUE.__getitem__
    )
    assert v.code == "revoke"
    assert v.params == {"player": player, "card": illegal[0], "suit": led, "held": held}
    assert v.message == f"{player} must follow {led}: {led} was led and {player} holds " + (
        ", ".join(held)
    )


def test_chef_take_refusals() -> None:
    events = game()
    state = state_at(events, Phase.CHEF_TAKE)
    taker = str(state.expected)
    lowest = next(p for p in state.trick if p.player == taker)
    other = next(p for p in NAMES if p != taker)
    v = refused(state, ChefTaken(other, "red"))
    assert v.code == "wrong_chef_taker"
    assert v.params == {
        "expected": taker,
        "card": lowest.card,
        "value": lowest.value,
        "player": other,
    }
    empty = next((s for s in state.suits if state.centre[s] == 0), None)
    if empty is None:  # make one: the centre as the rules could leave it
        empty = state.suits[0]
        state.centre[empty] = 0
    v = refused(state, ChefTaken(taker, empty))
    assert v.code == "empty_chef_suit"
    assert v.params["suit"] == empty and empty not in v.params["left"]  # type: ignore[operator]


@pytest.mark.parametrize(
    ("obj", "params"),
    [
        ({"player": "a"}, {"rule": "no_type"}),
        ({"type": "nope"}, {"rule": "unknown_type", "got": '"nope"'}),
        ({"type": "chef_taken", "player": "a"}, {"rule": "missing_field", "field": "suit"}),
        (
            {"type": "round_started", "round": "1", "first_player": "a", "hands": {}},
            {"rule": "wrong_type", "field": "round", "expected": "a whole number"},
        ),
        (
            {"type": "round_started", "round": 1, "first_player": 2, "hands": {}},
            {"rule": "wrong_type", "field": "first_player", "expected": "a string"},
        ),
        (
            {"type": "game_started", "players": ["a", "b", "c"], "x": 1},
            {"rule": "extra_field", "fields": ["x"]},
        ),
        ({"type": "game_started", "players": "abc"}, {"rule": "players_list"}),
        ({"type": "game_started", "players": ["a"], "suits": "red"}, {"rule": "suits_list"}),
        (
            {"type": "round_started", "round": 1, "first_player": "a", "hands": []},
            {"rule": "hands_map"},
        ),
        (
            {"type": "round_started", "round": 1, "first_player": "a", "hands": {"a": "G1"}},
            {"rule": "hand_list", "player": "a"},
        ),
        (
            {"type": "game_started", "players": ["a"], "suits": ["pink"]},
            {"got": "pink"},
        ),
        (
            {"type": "round_started", "round": 1, "first_player": "a", "hands": {"a": [3]}},
            {"rule": "not_a_string", "got": "3"},
        ),
        (
            {"type": "round_started", "round": 1, "first_player": "a", "hands": {"a": ["Q3"]}},
            {"rule": "unknown_card", "got": "Q3"},
        ),
    ],
)
def test_record_format_refusals(obj: dict[str, Any], params: dict[str, Any]) -> None:
    v = refusal(lambda: from_json(obj))
    assert {k: v.params[k] for k in params} == params, v.params


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ('{"a": 1, "a": 2}', "duplicate_key"),
        ("[" * 100000, "too_deep"),
        ("", "empty_line"),
        ("{nope", "invalid"),
        ("[1]", "not_object"),
    ],
)
def test_json_line_refusals(line: str, rule: str) -> None:
    v = refusal(lambda: decode_object(line))
    assert v.params["rule"] == rule


def test_a_line_not_utf8_is_refused_with_its_rule() -> None:
    with pytest.raises(InvalidRecord) as caught:
        split_lines(b"\xff\n")
    assert caught.value.violation.params == {"rule": "not_utf8"}


@pytest.mark.parametrize(
    ("scores", "totals", "params"),
    [
        ({"a": [1, 2, 3], "b": [1, 2, 3], "zed": [1, 1, 1]}, None, {"rule": "not_at_table"}),
        ({"a": [1, 2, 3]}, None, {"rule": "no_scores", "players": ["b"]}),
        ({"a": [1, 2], "b": [1, 2, 3]}, None, {"rule": "three_scores", "player": "a"}),
        (
            {"a": [1, 2, 999], "b": [1, 2, 3]},
            None,
            {"rule": "score", "player": "a", "round": 3, "points": 999},
        ),
        ({"a": [1, 2, 3], "b": [1, 2, 3]}, {"a": 6}, {"rule": "no_total", "player": "b"}),
        (
            {"a": [1, 2, 3], "b": [1, 2, 3]},
            {"a": 7, "b": 6},
            {"rule": "total", "player": "a", "total": 7, "rounds": [1, 2, 3]},
        ),
        (
            {"a": [1, 2, 3], "b": [1, 2, 3]},
            {"a": 6, "b": 6, "zed": 1},
            {"rule": "not_at_table", "players": ["zed"]},
        ),
    ],
)
def test_results_refusals(
    scores: dict[str, Any], totals: dict[str, Any] | None, params: dict[str, Any]
) -> None:
    v = refusal(lambda: check_results(["a", "b"], scores, totals))
    assert v.code == "bad_results"
    assert {k: v.params[k] for k in params} == params, v.params
