"""Every kind of illegal event is refused at its line, with a clear message, and nothing after it
is used (docs/record-format.md, "Reading strictly" and the error codes)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from engine.errors import InvalidRecord
from engine.tricknchef.apply import apply
from engine.tricknchef.cards import CARD_SUIT, deck
from engine.tricknchef.events import CardPlayed, ChefChosen, ChefTaken, Event, dumps
from engine.tricknchef.referee import check
from engine.tricknchef.replay import replay_lines
from engine.tricknchef.simulate import simulate
from engine.tricknchef.state import GameState, Phase

GAME = simulate(seed=21, players=4)
LINES = [dumps(e) for e in GAME]


def rejected(lines: list[str], at: int, code: str) -> str:
    """Assert the record is refused at line ``at`` with ``code``; return the message."""
    with pytest.raises(InvalidRecord) as refused:
        replay_lines(lines)
    assert (refused.value.index, refused.value.code) == (at, code), refused.value.violation
    return refused.value.violation.message


def first_where(
    events: list[Event], wanted: Callable[[GameState, Event], bool]
) -> tuple[int, GameState]:
    """The index of the first event for which ``wanted(state_before, event)``, and that state."""
    state = GameState()
    for index, event in enumerate(events):
        if wanted(state, event):
            return index, state
        check(state, event)
        apply(state, event)
    raise AssertionError("no such event in the game")


def with_line(index: int, line: str, lines: list[str] = LINES) -> list[str]:
    """The record with line ``index`` replaced, and a few valid-looking lines after it (which must
    not matter)."""
    return [*lines[:index], line, *lines[index + 1 :]]


# ----------------------------------------------------------------------------- plays


def test_a_revoke_is_refused_at_its_line_naming_the_suit_to_follow() -> None:
    def can_revoke(state: GameState, event: Event) -> bool:
        if not isinstance(event, CardPlayed) or not state.trick:
            return False
        led = state.led_suit
        hand = state.hands[event.player]
        return any(CARD_SUIT[c] == led for c in hand) and any(CARD_SUIT[c] != led for c in hand)

    index, state = first_where(GAME, can_revoke)
    event = GAME[index]
    assert isinstance(event, CardPlayed)
    off_suit = sorted(c for c in state.hands[event.player] if CARD_SUIT[c] != state.led_suit)[0]
    line = dumps(CardPlayed(event.player, off_suit))
    message = rejected(with_line(index, line), index, "revoke")
    assert message.startswith(f"{event.player} must follow {state.led_suit}")


def test_a_card_dealt_to_someone_else_is_not_in_hand() -> None:
    index, state = first_where(GAME, lambda s, e: isinstance(e, CardPlayed))
    event = GAME[index]
    assert isinstance(event, CardPlayed)
    other = next(p for p in state.players if p != event.player)
    card = sorted(state.hands[other])[0]
    message = rejected(
        with_line(index, dumps(CardPlayed(event.player, card))), index, "card_not_in_hand"
    )
    assert f"is in {other}'s hand" in message


def test_a_card_already_played_is_not_in_hand() -> None:
    plays = [i for i, e in enumerate(GAME) if isinstance(e, CardPlayed)]
    first, later = plays[0], plays[4]  # the same round, the next trick
    played = GAME[first]
    event = GAME[later]
    assert isinstance(played, CardPlayed) and isinstance(event, CardPlayed)
    line = dumps(CardPlayed(event.player, played.card))
    message = rejected(with_line(later, line), later, "card_not_in_hand")
    assert "already played" in message


def test_a_card_out_of_turn_is_refused() -> None:
    index, state = first_where(GAME, lambda s, e: isinstance(e, CardPlayed))
    event = GAME[index]
    assert isinstance(event, CardPlayed)
    other = next(p for p in state.players if p != event.player)
    card = sorted(state.hands[other])[0]
    message = rejected(with_line(index, dumps(CardPlayed(other, card))), index, "wrong_turn")
    assert message == f"it is {event.player}'s turn to play in trick 1, not {other}'s"


def test_more_coins_than_held_are_refused_on_either_side() -> None:
    index, state = first_where(
        GAME, lambda s, e: isinstance(e, CardPlayed) and s.coins.get(e.player, 0) > 0
    )
    event = GAME[index]
    assert isinstance(event, CardPlayed)
    held = state.coins[event.player]
    for coins in (held + 1, -(held + 1)):
        line = dumps(CardPlayed(event.player, event.card, coins))
        message = rejected(with_line(index, line), index, "not_enough_coins")
        assert f"but holds {held}" in message


def test_coins_in_trick_one_are_refused_nobody_holds_any() -> None:
    index, _ = first_where(GAME, lambda s, e: isinstance(e, CardPlayed))
    event = GAME[index]
    assert isinstance(event, CardPlayed)
    rejected(
        with_line(index, dumps(CardPlayed(event.player, event.card, 1))), index, "not_enough_coins"
    )


# ----------------------------------------------------------------------------- Chefs


def test_a_chef_taken_by_someone_other_than_the_lowest_card_is_refused() -> None:
    index, state = first_where(GAME, lambda s, e: isinstance(e, ChefTaken))
    event = GAME[index]
    assert isinstance(event, ChefTaken)
    other = next(p for p in state.players if p != event.player)
    message = rejected(
        with_line(index, dumps(ChefTaken(other, event.suit))), index, "wrong_chef_taker"
    )
    assert f"{event.player} played the lowest card" in message


def test_a_chef_of_an_empty_centre_suit_is_refused() -> None:
    index, state = first_where(
        GAME, lambda s, e: isinstance(e, ChefTaken) and 0 in s.centre.values()
    )
    event = GAME[index]
    assert isinstance(event, ChefTaken)
    empty = next(s for s, n in state.centre.items() if n == 0)
    message = rejected(
        with_line(index, dumps(ChefTaken(event.player, empty))), index, "empty_chef_suit"
    )
    assert f"no {empty} Chef is left in the centre" in message


def test_a_chef_of_a_suit_in_the_box_is_refused() -> None:
    game = simulate(seed=4, players=3)
    lines = [dumps(e) for e in game]
    index, state = first_where(game, lambda s, e: isinstance(e, ChefTaken))
    event = game[index]
    assert isinstance(event, ChefTaken)
    boxed = next(s for s in ("green", "red", "yellow", "blue") if s not in state.suits)
    rejected(
        with_line(index, dumps(ChefTaken(event.player, boxed)), lines), index, "suit_not_in_play"
    )


def test_round_start_picks_out_of_turn_or_twice_are_refused() -> None:
    pick = next(i for i, e in enumerate(GAME) if e.__class__.__name__ == "ChefChosen")
    first = json.loads(LINES[pick])
    second = json.loads(LINES[pick + 1])
    wrong = dict(first, player=second["player"])
    rejected(with_line(pick, json.dumps(wrong)), pick, "wrong_turn")
    twice = dict(second, suit=first["suit"])
    message = rejected(with_line(pick + 1, json.dumps(twice)), pick + 1, "chef_already_chosen")
    assert f"the {first['suit']} Chef was already picked" in message


# ----------------------------------------------------------------------------- deals


def _deal(lines: list[str] = LINES, round_no: int = 1) -> tuple[int, dict[str, object]]:
    index = next(i for i, line in enumerate(lines) if json.loads(line).get("round") == round_no)
    return index, json.loads(lines[index])


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda h: h.update(p1=h["p1"][:9]), "p1 must be dealt 10 cards, not 9"),
        (lambda h: h.update(p1=[*h["p1"][:9], h["p2"][0]]), "was dealt to both"),
        (lambda h: h.update(p1=[*h["p1"][:9], h["p1"][0]]), "was dealt twice"),
        (lambda h: h.pop("p4"), "no hand for p4"),
        (lambda h: h.update(zed=h.pop("p4")), "a hand for 'zed', who is not playing"),
    ],
)
def test_a_bad_deal_is_refused(
    change: Callable[[dict[str, list[str]]], object], words: str
) -> None:
    index, deal = _deal()
    hands = deal["hands"]
    assert isinstance(hands, dict)
    change(hands)
    message = rejected(with_line(index, json.dumps(deal)), index, "bad_deal")
    assert words in message


def test_a_deal_must_be_exactly_the_cards_in_play() -> None:
    game = simulate(seed=2, players=3)
    lines = [dumps(e) for e in game]
    index, deal = _deal(lines)
    suits = json.loads(lines[0])["suits"]
    boxed = next(s for s in ("green", "red", "yellow", "blue") if s not in suits)
    hands = deal["hands"]
    assert isinstance(hands, dict)
    player = next(iter(hands))
    hands[player][0] = deck((boxed,))[0]
    message = rejected(with_line(index, json.dumps(deal), lines), index, "bad_deal")
    assert f"{boxed} is not in play" in message


def test_round_two_started_by_a_player_without_the_most_points_is_refused() -> None:
    index, deal = _deal(round_no=2)
    state = replay_lines(LINES[:index])
    best = max(state.totals.values())
    trailing = next(p for p in state.players if state.totals[p] < best)
    deal["first_player"] = trailing
    message = rejected(with_line(index, json.dumps(deal)), index, "bad_first_player")
    assert f"not {trailing} ({state.totals[trailing]})" in message


def test_an_unknown_first_player_is_refused() -> None:
    index, deal = _deal()
    deal["first_player"] = "zed"
    rejected(with_line(index, json.dumps(deal)), index, "unknown_player")


def test_a_round_number_out_of_sequence_is_refused() -> None:
    index, deal = _deal(round_no=2)
    deal["round"] = 3
    message = rejected(with_line(index, json.dumps(deal)), index, "wrong_round")
    assert message == "the next round is round 2, not round 3"


# ----------------------------------------------------------------------------- order


def test_a_record_must_start_with_game_started() -> None:
    rejected(LINES[1:], 0, "out_of_order")


def test_a_second_game_started_is_out_of_order() -> None:
    rejected([LINES[0], LINES[0]], 1, "out_of_order")


def test_a_card_before_the_chef_picks_are_done_is_out_of_order() -> None:
    card = next(line for line in LINES if '"card_played"' in line)
    message = rejected([LINES[0], LINES[1], card], 2, "out_of_order")
    assert "must pick a Chef for round 1 now" in message


def test_a_card_while_the_chef_is_awaited_is_out_of_order() -> None:
    index, state = first_where(GAME, lambda s, e: isinstance(e, ChefTaken))
    message = rejected(with_line(index, LINES[index + 1]), index, "out_of_order")
    assert "must take a Chef now" in message


def test_a_chef_taken_in_the_middle_of_a_trick_is_out_of_order() -> None:
    index, state = first_where(GAME, lambda s, e: isinstance(e, ChefTaken))
    chef = LINES[index]
    rejected([*LINES[: index - 1], chef], index - 1, "out_of_order")


def test_a_new_round_before_the_last_one_ended_is_out_of_order() -> None:
    index, deal = _deal(round_no=2)
    deal["round"] = 2
    rejected([*LINES[: index - 5], json.dumps(deal)], index - 5, "out_of_order")


def test_a_dropped_line_is_caught_where_the_record_stops_making_sense() -> None:
    index, _ = first_where(GAME, lambda s, e: isinstance(e, ChefTaken))
    broken = LINES[:index] + LINES[index + 1 :]
    rejected(broken, index, "out_of_order")  # the next lead card arrives while a Chef is awaited


def test_nothing_may_follow_the_end_of_the_game() -> None:
    message = rejected([*LINES, LINES[-1]], len(LINES), "game_over")
    assert "the game is over" in message


# ----------------------------------------------------------------------------- the game itself


@pytest.mark.parametrize(
    ("players", "suits", "code"),
    [
        (["a", "b"], None, "bad_players"),
        (["a", "b", "c", "d", "e"], None, "bad_players"),
        (["a", "b", "a", "d"], None, "bad_players"),
        (["a", "", "c"], ["green", "red", "blue"], "bad_players"),
        (["a", "b", "c"], None, "bad_suits"),
        (["a", "b", "c"], ["green", "red", "yellow", "blue"], "bad_suits"),
        (["a", "b", "c", "d"], ["green", "red", "blue"], "bad_suits"),
        (["a", "b", "c"], ["green", "green", "blue"], "bad_suits"),
    ],
)
def test_a_game_needs_3_or_4_named_players_and_matching_suits(
    players: list[str], suits: list[str] | None, code: str
) -> None:
    event: dict[str, object] = {"type": "game_started", "players": players}
    if suits is not None:
        event["suits"] = suits
    rejected([json.dumps(event)], 0, code)


def test_four_players_may_omit_or_list_the_suits_in_any_order() -> None:
    for event in (
        {"type": "game_started", "players": ["a", "b", "c", "d"]},
        {
            "type": "game_started",
            "players": ["a", "b", "c", "d"],
            "suits": ["blue", "red", "yellow", "green"],
        },
    ):
        state = replay_lines([json.dumps(event)])
        assert state.suits == ("green", "red", "yellow", "blue")
        assert state.phase is Phase.ROUND_START


def test_unknown_players_are_named_in_the_message() -> None:
    index, _ = first_where(GAME, lambda s, e: isinstance(e, CardPlayed))
    message = rejected(
        with_line(index, '{"type":"card_played","player":"zed","card":"G1"}'),
        index,
        "unknown_player",
    )
    assert message == "'zed' is not playing in this game (p1, p2, p3, p4)"


def test_a_line_that_is_not_json_is_refused_at_its_line() -> None:
    index = 57
    message = rejected(with_line(index, '{"type": "card_played", "player": '), index, "bad_json")
    assert "not valid JSON" in message


def test_the_first_bad_line_wins_over_later_ones() -> None:
    index, deal = _deal(round_no=2)
    broken = [*LINES[:index], "not json", *LINES[index:]]
    broken[index - 3] = '{"type":"chef_taken"}'
    rejected(broken, index - 3, "bad_event")


def test_round_started_with_wrong_round_type_is_a_format_error() -> None:
    index, deal = _deal()
    deal["round"] = "1"
    rejected(with_line(index, json.dumps(deal)), index, "bad_event")
    deal["round"] = 1.0
    rejected(with_line(index, json.dumps(deal)), index, "bad_event")


def test_valid_prefixes_of_a_game_are_valid_records() -> None:
    for cut in range(0, len(LINES) + 1, 7):
        state = replay_lines(LINES[:cut])
        assert state.phase is not Phase.OVER or cut == len(LINES)


# ---------------------------------------------------------------------------------------------
# Forced events: what the rules leave no choice about (phones record them by themselves)


def _choices(state: GameState) -> int:
    """How many different events the rules allow now (each card times each coin count)."""
    from engine.tricknchef.referee import (
        coin_limit,
        legal_cards,
        legal_pick_suits,
        legal_take_suits,
    )

    if state.phase is Phase.CHEF_PICK:
        return len(legal_pick_suits(state))
    if state.phase is Phase.CHEF_TAKE:
        return len(legal_take_suits(state))
    if state.phase is Phase.PLAY:
        return len(legal_cards(state)) * (2 * coin_limit(state) + 1)
    return 0  # a deal or the end: never forced


@pytest.mark.parametrize("seed", range(12))
def test_an_event_is_forced_exactly_when_the_rules_allow_only_it(seed: int) -> None:
    from engine.tricknchef.referee import forced_next

    events = simulate(seed, 3 + seed % 2)
    state = GameState()
    forced_seen = 0
    for event in events:
        forced = forced_next(state)
        assert (forced is not None) == (_choices(state) == 1), (seed, state.phase)
        if forced is not None:
            forced_seen += 1
            check(state, forced)  # the referee accepts it
            assert forced == event  # and a legal record could only have made that one
        apply(state, event)
    assert forced_next(state) is None  # the game is over
    assert forced_seen >= 3  # at least each round's last Chef pick


def test_rule_3_3_the_last_chef_pick_of_a_round_is_forced() -> None:
    from engine.tricknchef.referee import forced_next

    state = GameState()
    events = simulate(5, 4)
    for event in events[:5]:  # game_started, round_started, three picks
        assert forced_next(state) is None
        apply(state, event)
    forced = forced_next(state)
    assert forced == events[5] and isinstance(forced, ChefChosen)
