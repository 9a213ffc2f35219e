"""One test (at least) per numbered rule of docs/foodtruck-rules.md, named after it."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import BadEvent
from engine.foodtruck.events import (
    CompanyPlayed,
    DishRevealed,
    GameStarted,
    MarketTaken,
    RoundStarted,
    loads,
)
from engine.foodtruck.referee import legal_events, legal_reveals
from engine.foodtruck.results import results
from engine.foodtruck.rules import (
    EFFECTS,
    market_pile_size,
    max_rounds,
    ranking,
    victory_threshold,
)
from engine.foodtruck.snapshot import from_snapshot, to_snapshot
from engine.foodtruck.state import GameState, Phase
from engine.foodtruck.summary import summarize
from tests.engine.foodtruck.table import Table

# 1. Material


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_rule_1_1_two_to_five_players(count: int) -> None:
    table = Table([f"p{i}" for i in range(count)])
    assert table.state.phase is Phase.ROUND_START


@pytest.mark.parametrize(
    "players", [("solo",), ("a", "b", "c", "d", "e", "f"), ("a", ""), ("a", "b", "a")]
)
def test_rule_1_1_refuses_other_tables(players: tuple[str, ...]) -> None:
    table = Table()
    table.state = GameState()
    assert table.refuses(GameStarted(players), "bad_players")


@pytest.mark.parametrize("dish", ["Burger", "", "hot dog", "3pizza", "x" * 31])
def test_rule_1_2_a_dish_is_a_lower_case_name(dish: str) -> None:
    line = f'{{"type":"dish_revealed","player":"ana","dish":"{dish}"}}'
    with pytest.raises(BadEvent) as refused:
        loads(line)
    assert refused.value.code == "bad_dish"
    assert loads('{"type":"market_taken","player":"ana","dish":"fish-chips"}') == MarketTaken(
        "ana", "fish-chips"
    )


def test_rule_1_3_five_company_effects() -> None:
    assert EFFECTS == ("rearrange", "remove", "swap", "under", "copy")
    with pytest.raises(BadEvent) as refused:
        loads('{"type":"company_played","player":"ana","effect":"steal"}')
    assert refused.value.code == "bad_effect"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_rule_1_4_the_victory_points_and_the_market_never_run_out(players: int) -> None:
    # The longest game hands out at most 9 victory points and draws at most the draw pile.
    assert max_rounds(players) <= 9
    assert players * max_rounds(players) <= market_pile_size(players)


# 2. Setting up


def test_rule_2_1_no_dessert_in_the_market() -> None:
    table = Table()
    assert table.refuses(
        RoundStarted(1, "ana", ("taco", "dessert", "fries"), _companies(table, "copy")),
        "bad_market",
    )


def test_rule_2_2_everyone_starts_with_the_same_six_dishes() -> None:
    table = Table()
    state = table.start()
    for seat in state.seats.values():
        assert seat.hidden == Counter(
            {"burger": 2, "pizza": 1, "hotdog": 1, "sandwich": 1, "dessert": 1}
        )
    assert table.refuses(DishRevealed("ana", "taco"), "dish_not_in_pile")
    table.reveal("ana", "burger")
    table.reveal("ben", "dessert")
    table.reveal("cleo", "dessert")
    table.reveal("ana", "burger")
    table.reveal("ben", "pizza")
    table.reveal("cleo", "hotdog")
    assert table.refuses(DishRevealed("ana", "burger"), "dish_not_in_pile")


@pytest.mark.parametrize("size", [2, 4])
def test_rule_2_3_the_market_is_as_many_cards_as_players(size: int) -> None:
    table = Table()
    assert table.refuses(
        RoundStarted(1, "ana", ("taco",) * size, _companies(table, "copy")), "bad_market"
    )
    state = table.start(market=["taco", "fries", "taco"])
    assert sorted(state.market) == ["fries", "taco", "taco"]
    assert state.market_pile == market_pile_size(3) - 3 == 42


def test_rule_2_4_every_player_turns_over_a_company_card() -> None:
    table = Table()
    only_two = (("ana", "copy"), ("ben", "swap"))
    assert table.refuses(RoundStarted(1, "ana", ("taco",) * 3, only_two), "bad_company")
    stranger = (*only_two, ("zoe", "copy"))
    assert table.refuses(RoundStarted(1, "ana", ("taco",) * 3, stranger), "unknown_player")


@pytest.mark.parametrize("first", ["ana", "ben", "cleo"])
def test_rule_2_5_anyone_may_start_round_1(first: str) -> None:
    table = Table()
    assert table.start(first=first).current == first


# 3. The game and its rounds


@pytest.mark.parametrize(("players", "goal"), [(2, 3), (3, 3), (4, 3), (5, 2)])
def test_rule_3_1_the_game_ends_at_3_victory_points_or_2_with_5_players(
    players: int, goal: int
) -> None:
    table = Table([f"p{i}" for i in range(players)])
    assert victory_threshold(players) == goal
    for _ in range(goal - 1):
        table.quick_round("p0")
        assert table.state.phase is Phase.ROUND_START
    table.quick_round("p0")
    assert table.state.phase is Phase.OVER
    summary = summarize(table.state)
    assert summary["status"] == "finished"
    assert summary["ranking"][0] == {"player": "p0", "rank": 1, "points": goal, "tiebreaks": []}
    assert table.refuses(DishRevealed("p0", "burger"), "game_over")


def test_rule_3_2_the_company_card_turned_over_is_the_one_to_play() -> None:
    table = Table()
    table.start(companies={"ana": "copy", "ben": "swap", "cleo": "remove"})
    assert summarize(table.state)["state"]["companies"] == {
        "ana": "copy",
        "ben": "swap",
        "cleo": "remove",
    }
    assert table.refuses(CompanyPlayed("ana", "rearrange"), "wrong_effect")
    table.company("ana", "copy")


def test_rule_3_3_each_round_every_dish_card_is_programmed_into_the_pile() -> None:
    table = Table()
    table.quick_round("ben")
    state = table.start()
    for seat in state.seats.values():
        assert seat.pile_size() == 7
        assert seat.hidden.total() == 7 and not seat.tail
    assert state.seats["ben"].hidden["taco"] == 1  # the winner's last market card


def test_rule_3_4_a_new_market_each_round() -> None:
    table = Table()
    table.quick_round("ana")
    state = table.start(market=["fries", "kebab", "fries"])
    assert sorted(state.market) == ["fries", "fries", "kebab"]
    assert state.market_pile == 42 - 3


# 4. The service


def test_rule_4_1_turns_go_clockwise_from_the_first_player_skipping_the_eliminated() -> None:
    table = Table(["ana", "ben", "cleo", "dev"])
    table.start(first="cleo")
    assert table.refuses(DishRevealed("ana", "burger"), "wrong_turn")
    table.reveal("cleo", "burger")
    table.reveal("dev", "burger")  # refused: eliminated
    table.take("dev")
    assert table.state.current == "ana"
    table.reveal("ana", "pizza")
    table.reveal("ben", "hotdog")
    table.reveal("cleo", "sandwich")
    assert table.refuses(DishRevealed("dev", "pizza"), "wrong_turn")
    assert table.refuses(DishRevealed("cleo", "dessert"), "wrong_turn")  # already served
    table.reveal("ana", "dessert")


def test_rule_4_2_a_turn_turns_over_a_dish_of_the_pile() -> None:
    table = Table()
    table.start()
    assert legal_reveals(table.state) == ["burger", "dessert", "hotdog", "pizza", "sandwich"]
    assert table.refuses(DishRevealed("ana", "kebab"), "dish_not_in_pile")


def test_rule_4_3_served_dishes_of_ones_own_make_a_stack() -> None:
    table = Table(["ana", "ben"])
    table.start()
    table.reveal("ana", "burger")
    table.reveal("ben", "pizza")
    state = table.reveal("ana", "burger")
    assert state.seats["ana"].served == Counter({"burger": 2})
    assert state.phase is Phase.SERVED


def test_rule_4_4_a_dessert_is_always_served() -> None:
    table = Table()
    table.start()
    table.reveal("ana", "dessert")
    table.reveal("ben", "dessert")
    state = table.reveal("cleo", "dessert")
    assert all(s.served == Counter({"dessert": 1}) for s in state.seats.values())
    assert state.in_round == ["ana", "ben", "cleo"]


def test_rule_4_5_a_dish_an_opponent_served_is_refused_even_once_they_are_out() -> None:
    table = Table()
    table.start()
    table.reveal("ana", "pizza")
    table.reveal("ben", "pizza")  # refused
    state = table.take("ben")
    assert state.eliminated == ["ben"] and state.seats["ben"].aside == ["pizza"]
    table.reveal("cleo", "burger")
    state = table.reveal("ana", "burger")  # cleo served a burger: ana is out
    assert state.eliminated == ["ben", "ana"]
    assert state.seats["cleo"].served["burger"] == 1


def test_rule_4_5_an_eliminated_players_served_dishes_stay_in_play() -> None:
    table = Table(["ana", "ben", "cleo", "dev"])
    table.start()
    table.reveal("ana", "hotdog")
    table.reveal("ben", "hotdog")
    table.take("ben")
    table.reveal("cleo", "pizza")
    table.reveal("dev", "pizza")
    table.take("dev")
    table.reveal("ana", "burger")
    table.reveal("cleo", "hotdog")  # ana served it, ben's refused hotdog is not served
    assert table.state.eliminated == ["ben", "dev", "cleo"]


def test_rule_4_6_an_eliminated_player_takes_a_market_card_of_their_choice() -> None:
    table = Table()
    table.start(market=["taco", "fries", "kebab"])
    table.reveal("ana", "pizza")
    table.reveal("ben", "pizza")
    assert table.refuses(DishRevealed("cleo", "burger"), "out_of_order")
    assert table.refuses(MarketTaken("cleo", "fries"), "wrong_turn")
    assert table.refuses(MarketTaken("ben", "sushi"), "dish_not_in_market")
    state = table.take("ben", "fries")
    assert state.seats["ben"].owned().total() == 7
    assert sorted(state.market) == ["kebab", "taco"]
    assert table.refuses(MarketTaken("ben", "taco"), "wrong_turn")


def test_rule_4_7_the_first_eliminated_takes_the_marker_and_starts_the_next_round() -> None:
    table = Table()
    table.start()
    table.reveal("ana", "pizza")
    table.reveal("ben", "pizza")
    table.take("ben")
    assert table.state.marker == "ben"
    assert table.state.current == "cleo"  # the marker does not change this service's order
    table.reveal("cleo", "pizza")
    table.take("cleo")
    assert table.state.marker == "ben"
    assert table.refuses(
        RoundStarted(2, "ana", ("taco",) * 3, _companies(table, "remove")), "bad_first_player"
    )
    assert table.start().current == "ben"


def test_rule_4_8_a_player_with_an_empty_pile_is_eliminated() -> None:
    table = Table()
    table.start()
    table.reveal("ana", "dessert")
    table.reveal("ben", "dessert")
    state = table.reveal("cleo", "dessert")
    snapshot = to_snapshot(state)
    snapshot["seats"]["ana"]["hidden"] = {}  # ana has played her whole pile
    table.state = from_snapshot(snapshot)
    assert table.refuses(DishRevealed("ana", "burger"), "pile_empty")
    assert summarize(table.state)["state"]["next"] == {"type": "market_taken", "player": "ana"}
    assert MarketTaken("ana", "taco") in legal_events(table.state)
    state = table.take("ana")
    assert state.eliminated == ["ana"] and state.marker == "ana" and state.current == "ben"
    assert table.refuses(MarketTaken("ben", "taco"), "pile_not_empty")


def test_rule_4_9_looking_at_ones_own_top_card_is_not_recorded() -> None:
    with pytest.raises(BadEvent) as refused:
        loads('{"type":"dish_looked","player":"ana"}')
    assert refused.value.code == "bad_event"


# 5. End of service


def test_rule_5_1_the_last_player_in_wins_a_point_and_the_last_market_card() -> None:
    table = Table()
    table.start(market=["taco", "fries", "kebab"])
    table.reveal("ana", "pizza")
    table.reveal("ben", "pizza")
    table.take("ben", "taco")
    table.reveal("cleo", "pizza")
    state = table.take("cleo", "fries")
    assert state.points == {"ana": 1, "ben": 0, "cleo": 0}
    assert state.rounds[-1].winner == "ana" and state.rounds[-1].last_market_card == "kebab"
    assert state.seats["ana"].hand["kebab"] == 1
    assert state.market == [] and state.phase is Phase.ROUND_START


def test_rule_5_2_served_refused_and_taken_cards_come_back_to_their_owner() -> None:
    table = Table()
    table.quick_round("ana")
    for player in table.players:
        assert table.state.seats[player].hand.total() == 7
        assert table.state.seats[player].hand["taco"] == 1


def test_rule_5_3_unplayed_company_cards_are_discarded() -> None:
    table = Table()
    table.quick_round("ana")
    assert all(s.company is None for s in table.state.seats.values())
    assert table.refuses(CompanyPlayed("ana", "rearrange"), "out_of_order")


def test_rule_5_4_the_company_pile_is_reshuffled_once_all_five_were_turned_over() -> None:
    table = Table(["a", "b"])
    table.start(companies={"a": "copy", "b": "copy"})
    table.reveal("a", "pizza")
    table.reveal("b", "pizza")
    table.take("b")
    assert table.refuses(
        RoundStarted(2, "b", ("taco",) * 2, (("a", "swap"), ("b", "copy"))), "bad_company"
    )
    rest = ["rearrange", "remove", "swap", "under"]
    for number, effect in enumerate(rest, start=2):
        table.start(companies={"a": effect, "b": rest[-(number - 1)]})
        first = table.state.current
        other = "b" if first == "a" else "a"
        assert first is not None
        table.reveal(first, "pizza")
        table.reveal(other, "pizza")
        table.take(other)
        if table.state.phase is Phase.OVER:
            break
    if table.state.phase is not Phase.OVER:
        state = table.start(companies={"a": "copy", "b": "copy"})  # round 6: a new shuffle
        assert state.round_no == 6


def test_rule_5_5_the_new_market_comes_from_the_draw_pile() -> None:
    table = Table(["a", "b"])
    table.quick_round("a")
    table.start()
    assert table.state.market_pile == market_pile_size(2) - 4
    assert table.state.cards_dealt == 12 + 4


def test_rule_5_6_no_round_after_the_game_is_won() -> None:
    table = Table(["a", "b", "c", "d", "e"])
    table.quick_round("c")
    table.quick_round("c")
    assert table.state.phase is Phase.OVER
    assert table.refuses(
        RoundStarted(3, "a", ("taco",) * 5, _companies(table, "swap")), "game_over"
    )


# 6. Company cards


def test_rule_6_1_rearrange_brings_the_known_bottom_into_the_top_five() -> None:
    table = Table(["ana", "ben"])
    table.start(companies={"ana": "remove", "ben": "rearrange"})
    table.reveal("ana", "dessert")
    table.reveal("ben", "pizza")
    table.reveal("ana", "burger")
    table.reveal("ben", "dessert")
    table.company("ana", "remove", target="ben", dish="pizza")
    table.reveal("ana", "hotdog")
    ben = table.state.seats["ben"]
    assert ben.tail == ["pizza"] and ben.hidden.total() == 4
    assert table.refuses(DishRevealed("ben", "pizza"), "not_on_top")
    table.company("ben", "rearrange")
    assert ben.tail == [] and ben.hidden["pizza"] == 1
    table.reveal("ben", "pizza")
    assert ben.served["pizza"] == 1


def test_rule_6_1_rearrange_leaves_the_cards_below_the_top_five() -> None:
    table = Table(["ana", "ben"])
    table.start(companies={"ana": "under", "ben": "rearrange"})
    table.company("ana", "under", dish="pizza")
    table.reveal("ana", "burger")
    table.company("ben", "rearrange")  # ben's pile: 6 hidden cards, nothing known below
    assert table.state.seats["ben"].hidden.total() == 6
    assert table.state.seats["ana"].tail == ["pizza"]


def test_rule_6_2_remove_puts_a_served_dish_not_in_a_stack_under_its_owners_pile() -> None:
    table = Table()
    table.start(companies={"cleo": "remove"})
    table.reveal("ana", "burger")
    table.reveal("ben", "pizza")
    table.reveal("cleo", "hotdog")
    table.reveal("ana", "burger")
    table.reveal("ben", "dessert")
    assert table.refuses(
        CompanyPlayed("cleo", "remove", target="ana", dish="burger"), "not_removable"
    )
    assert table.refuses(
        CompanyPlayed("cleo", "remove", target="ben", dish="sandwich"), "not_removable"
    )
    assert table.refuses(
        CompanyPlayed("cleo", "remove", target="zed", dish="pizza"), "unknown_player"
    )
    state = table.company("cleo", "remove", target="ben", dish="pizza")
    assert state.seats["ben"].served == Counter({"dessert": 1})
    assert state.seats["ben"].tail == ["pizza"]
    state = table.reveal("cleo", "pizza")  # pizza is free again
    assert state.seats["cleo"].served["pizza"] == 1


def test_rule_6_2_remove_may_target_oneself_or_an_eliminated_player() -> None:
    table = Table()
    table.start(companies={"cleo": "remove", "ana": "remove"})
    table.reveal("ana", "pizza")
    table.reveal("ben", "dessert")
    table.reveal("cleo", "burger")
    table.reveal("ana", "burger")
    table.take("ana")
    table.reveal("ben", "hotdog")
    table.company("cleo", "remove", target="ana", dish="pizza")
    assert table.state.seats["ana"].tail == ["pizza"]
    table.reveal("cleo", "dessert")
    table.reveal("ben", "burger")
    table.take("ben")
    assert table.state.phase is Phase.ROUND_START
    table2 = Table()
    table2.start(companies={"ana": "remove"})
    table2.reveal("ana", "pizza")
    state = table2.company("ana", "remove", target="ana", dish="pizza")  # after serving
    assert state.seats["ana"].tail == ["pizza"] and state.phase is Phase.SERVED


def test_rule_6_3_swap_plays_the_market_card_and_leaves_the_dish_in_the_market() -> None:
    table = Table()
    table.start(market=["taco", "fries", "kebab"], companies={"ben": "swap"})
    table.reveal("ana", "pizza")
    assert table.refuses(
        CompanyPlayed("ben", "swap", dish="pizza", market="sushi"), "dish_not_in_market"
    )
    assert table.refuses(
        CompanyPlayed("ben", "swap", dish="kebab", market="taco"), "dish_not_in_pile"
    )
    state = table.company("ben", "swap", dish="pizza", market="fries")
    assert sorted(state.market) == ["kebab", "pizza", "taco"]
    assert table.refuses(DishRevealed("ben", "burger"), "not_on_top")
    assert table.refuses(MarketTaken("ben", "taco"), "pile_not_empty")
    state = table.reveal("ben", "fries")
    assert state.seats["ben"].served == Counter({"fries": 1})
    assert state.seats["ben"].pile_size() == 5


def test_rule_6_3_the_swapped_card_is_refused_like_any_other() -> None:
    table = Table()
    table.start(market=["taco", "fries", "kebab"], companies={"ben": "swap"})
    table.reveal("ana", "pizza")
    table.company("ben", "swap", dish="burger", market="taco")
    table.refuses(MarketTaken("ben", "taco"), "pile_not_empty")
    table.reveal("ben", "taco")
    table.reveal("cleo", "burger")
    state = table.reveal("ana", "burger")  # cleo served a burger: ana is out
    assert state.eliminated == ["ana"]
    state = table.take("ana", "burger")  # the burger ben gave is in the market
    assert state.seats["ana"].taken == ["burger"]


def test_rule_6_4_under_sends_the_top_dish_to_the_bottom_and_plays_the_next() -> None:
    table = Table(["ana", "ben"])
    table.start(companies={"ana": "under"})
    table.reveal("ana", "pizza")
    table.reveal("ben", "burger")
    state = table.company("ana", "under", dish="burger")
    assert state.seats["ana"].tail == ["burger"]
    assert legal_reveals(table.state) == ["burger", "dessert", "hotdog", "sandwich"]
    table.reveal("ana", "dessert")


def test_rule_6_4_under_needs_a_next_dish() -> None:
    table = Table(["ana", "ben"])
    table.start(companies={"ana": "under"})
    snapshot = to_snapshot(table.state)
    snapshot["seats"]["ana"]["hidden"] = {"burger": 1}
    table.state = from_snapshot(snapshot)
    assert table.refuses(CompanyPlayed("ana", "under", dish="burger"), "no_next_dish")
    snapshot["seats"]["ana"]["hidden"] = {}
    table.state = from_snapshot(snapshot)
    assert table.refuses(CompanyPlayed("ana", "under", dish="burger"), "pile_empty")


def test_rule_6_5_copy_serves_a_dish_one_other_player_served_without_a_stack() -> None:
    table = Table(["ana", "ben", "cleo", "dev"])
    table.start(companies={"ben": "copy", "cleo": "copy", "dev": "copy"})
    table.reveal("ana", "pizza")
    table.company("ben", "copy")
    state = table.reveal("ben", "pizza")
    assert state.seats["ben"].served["pizza"] == 1
    table.company("cleo", "copy")
    state = table.reveal("cleo", "pizza")  # two others served it: refused
    assert state.eliminated == ["cleo"]


def test_rule_6_5_copy_does_not_beat_a_stack_and_lasts_one_dish() -> None:
    table = Table(["ana", "ben", "cleo"])
    table.start(companies={"ben": "copy", "cleo": "copy"})
    table.reveal("ana", "burger")
    table.reveal("ben", "dessert")
    table.reveal("cleo", "pizza")
    table.reveal("ana", "burger")
    table.company("ben", "copy")
    state = table.reveal("ben", "burger")  # ana's burgers are a stack
    assert state.eliminated == ["ben"]
    table.take("ben")
    table.company("cleo", "copy")
    table.reveal("cleo", "dessert")  # the copy is spent on the dessert
    table.reveal("ana", "hotdog")
    state = table.reveal("cleo", "hotdog")
    assert state.eliminated == ["ben", "cleo"]


def test_rule_6_6_a_company_card_is_played_once_in_its_owners_turn() -> None:
    table = Table()
    table.start(companies={"ana": "rearrange", "ben": "swap", "cleo": "copy"})
    assert table.refuses(CompanyPlayed("ben", "swap", dish="pizza", market="taco"), "wrong_turn")
    table.company("ana", "rearrange")
    assert table.refuses(CompanyPlayed("ana", "rearrange"), "company_used")
    table.reveal("ana", "pizza")
    table.company("ben", "swap", dish="burger", market="taco")
    table.reveal("ben", "taco")
    assert table.refuses(CompanyPlayed("ben", "swap", dish="pizza", market="taco"), "company_used")
    table.reveal("cleo", "pizza")
    # Eliminated (refused): still cleo's turn until the market card, but copy acts on the dish
    # to play (FT6.7).
    assert table.refuses(CompanyPlayed("cleo", "copy"), "effect_not_now")
    assert table.refuses(CompanyPlayed("ana", "rearrange"), "wrong_turn")
    table.take("cleo")
    assert table.refuses(CompanyPlayed("cleo", "copy"), "wrong_turn")


def test_rule_6_6_after_serving_until_the_next_player_acts() -> None:
    table = Table()
    table.start(companies={"ana": "copy", "ben": "rearrange"})
    table.reveal("ana", "pizza")
    table.reveal("ben", "burger")
    state = table.company("ben", "rearrange")  # after serving, before cleo acts
    assert state.phase is Phase.SERVED and state.current == "ben"
    table.reveal("cleo", "hotdog")
    assert table.refuses(CompanyPlayed("ben", "rearrange"), "wrong_turn")


def test_rule_6_6_after_a_refused_dish_until_the_market_card_is_taken() -> None:
    table = Table()
    table.start(companies={"ana": "remove", "ben": "rearrange", "cleo": "remove"})
    table.reveal("ana", "pizza")
    table.reveal("ben", "pizza")  # refused: ben is eliminated and must take a market card
    state = table.company("ben", "rearrange")  # at any moment of his turn
    assert state.phase is Phase.MARKET_PICK and state.current == "ben"
    assert state.seats["ben"].company is None
    table.take("ben")
    table.reveal("cleo", "pizza")  # refused too
    state = table.company("cleo", "remove", target="ana", dish="pizza")
    assert state.phase is Phase.MARKET_PICK and state.seats["ana"].tail == ["pizza"]
    assert "pizza" not in state.seats["ana"].served
    table.take("cleo")
    assert state.rounds[-1].winner == "ana"


def test_rule_6_6_the_company_cards_after_a_refusal_are_legal_moves() -> None:
    table = Table()
    table.start(companies={"ana": "copy", "ben": "remove"})
    table.reveal("ana", "pizza")
    table.reveal("ben", "pizza")
    moves = legal_events(table.state)
    assert CompanyPlayed("ben", "remove", target="ana", dish="pizza") in moves
    assert {type(m).__name__ for m in moves} == {"CompanyPlayed", "MarketTaken"}


def test_rule_6_7_swap_under_and_copy_only_before_the_reveal() -> None:
    fields = {"copy": {}, "under": {"dish": "burger"}, "swap": {"dish": "burger", "market": "taco"}}
    for effect, extra in fields.items():
        table = Table()
        table.start(companies={"ana": effect, "ben": effect})
        table.reveal("ana", "pizza")
        served = table.refuses(CompanyPlayed("ana", effect, **extra), "effect_not_now")
        assert served.params["rule"] == "served"
        table.reveal("ben", "pizza")  # refused
        refused = table.refuses(CompanyPlayed("ben", effect, **extra), "effect_not_now")
        assert refused.params["rule"] == "refused"
        assert not [m for m in legal_events(table.state) if isinstance(m, CompanyPlayed)]


def test_rule_6_8_v2_records_who_chose_the_removed_dish() -> None:
    table = Table(version=2)
    table.start(companies={"ana": "remove", "ben": "remove"})
    table.reveal("ana", "pizza")
    remove = CompanyPlayed("ben", "remove", target="ana", dish="pizza", chosen_by="ben")
    refused = table.refuses(remove, "wrong_chooser")
    assert refused.params == {"game": "food-truck", "target": "ana", "chooser": "ben"}
    assert table.refuses(
        CompanyPlayed("ben", "remove", target="ana", dish="pizza", chosen_by="zed"),
        "unknown_player",
    )
    assert table.refuses(CompanyPlayed("ben", "remove", target="ana", dish="pizza"), "bad_event")
    state = table.company("ben", "remove", target="ana", dish="pizza", chosen_by="ana")
    assert state.seats["ana"].tail == ["pizza"]
    assert [m for m in legal_events(state) if isinstance(m, CompanyPlayed)] == []


def test_rule_6_8_v1_records_have_no_chooser() -> None:
    table = Table()
    table.start(companies={"ana": "remove", "ben": "remove"})
    table.reveal("ana", "pizza")
    with_chooser = CompanyPlayed("ben", "remove", target="ana", dish="pizza", chosen_by="ana")
    assert table.refuses(with_chooser, "bad_event").params["rule"] == "extra_field"
    assert CompanyPlayed("ben", "remove", target="ana", dish="pizza") in legal_events(table.state)


# 7. Winning and ranking


def test_rule_7_1_exactly_one_winner_at_the_winning_number() -> None:
    table = Table()
    for winner in ["ana", "ben", "cleo", "ana", "ben", "ana"]:
        table.quick_round(winner)
    assert table.state.phase is Phase.OVER
    assert table.state.points == {"ana": 3, "ben": 2, "cleo": 1}


def test_rule_7_2_ranking_by_victory_points_with_shared_places() -> None:
    ranks = ranking(["a", "b", "c", "d"], {"a": 1, "b": 3, "c": 1, "d": 0})
    assert [(r.player, r.rank, r.points, r.tiebreaks) for r in ranks] == [
        ("b", 1, 3, ()),
        ("a", 2, 1, ()),
        ("c", 2, 1, ()),
        ("d", 4, 0, ()),
    ]


def test_rule_7_3_results_only() -> None:
    summary = results(["a", "b", "c"], {"victory_points": {"a": 1, "b": 3, "c": 1}, "winner": "b"})
    assert summary["status"] == "finished"
    assert [r["rank"] for r in summary["ranking"]] == [1, 2, 2]
    assert summary["ranking"][0] == {"player": "b", "rank": 1, "points": 3, "tiebreaks": []}


# 8. Hidden piles


def test_rule_8_1_a_pile_holds_only_cards_its_owner_received() -> None:
    table = Table(["ana", "ben"])
    table.quick_round("ben")
    table.start()
    first = table.state.current
    assert first == "ana"
    table.reveal("ana", "taco")  # the market card ana took in round 1
    assert table.refuses(DishRevealed("ben", "fries"), "dish_not_in_pile")


def test_rule_8_2_a_card_put_under_is_on_top_only_once_the_cards_above_are_gone() -> None:
    table = Table(["ana", "ben"])
    table.start(companies={"ana": "under"})
    table.company("ana", "under", dish="pizza")
    assert table.refuses(DishRevealed("ana", "pizza"), "not_on_top")
    snapshot = to_snapshot(table.state)
    snapshot["seats"]["ana"]["hidden"] = {}
    snapshot["seats"]["ana"]["tail"] = ["pizza", "burger"]
    table.state = from_snapshot(snapshot)
    assert legal_reveals(table.state) == ["pizza"]
    assert table.refuses(DishRevealed("ana", "burger"), "not_on_top")
    table.reveal("ana", "pizza")


def _companies(table: Table, effect: str) -> tuple[tuple[str, str], ...]:
    return tuple((p, effect) for p in table.players)


def test_the_order_of_the_checks_follows_the_record_format() -> None:
    # docs/foodtruck-record-format.md, "The order of the checks": the kind of event, the
    # player, the turn, then the content, each event's checks in the documented order.
    table = Table()
    table.start(market=["taco", "fries", "kebab"], companies={"ana": "swap"})
    assert table.refuses(RoundStarted(9, "zed", (), ()), "out_of_order")
    assert table.refuses(CompanyPlayed("zed", "copy"), "unknown_player")
    assert table.refuses(CompanyPlayed("ben", "copy"), "wrong_turn")
    assert table.refuses(CompanyPlayed("ana", "copy"), "wrong_effect")
    assert table.refuses(
        CompanyPlayed("ana", "swap", dish="sushi", market="sushi"), "dish_not_in_pile"
    )
    assert table.refuses(MarketTaken("ben", "sushi"), "wrong_turn")
    assert table.refuses(MarketTaken("ana", "sushi"), "pile_not_empty")
    table2 = Table(["a", "b"])
    assert table2.refuses(RoundStarted(2, "zed", ("dessert",), ()), "wrong_round")
    assert table2.refuses(RoundStarted(1, "zed", ("dessert",), ()), "unknown_player")
    assert table2.refuses(RoundStarted(1, "a", ("dessert",), ()), "bad_market")
    assert table2.refuses(RoundStarted(1, "a", ("taco", "dessert"), ()), "bad_market")
    assert table2.refuses(
        RoundStarted(1, "a", ("taco", "taco"), (("zed", "copy"),)), "unknown_player"
    )
