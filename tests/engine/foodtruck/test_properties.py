"""Random legal Food Truck games, checked against invariants after every event: card
conservation, victory points, the winner exactly at the winning number, the marker, the market,
and a snapshot that round-trips. Hypothesis draws every choice from the referee's legal moves
(and the round starts from what the rules allow), so a failure shrinks to a short game.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.foodtruck.events import CompanyPlayed, Event, GameStarted, RoundStarted, dumps
from engine.foodtruck.referee import legal_events
from engine.foodtruck.replay import replay, step
from engine.foodtruck.rules import DESSERT, max_rounds, victory_threshold
from engine.foodtruck.simulate import simulate
from engine.foodtruck.snapshot import from_snapshot, to_snapshot
from engine.foodtruck.state import GameState, Phase
from engine.foodtruck.summary import summarize

MARKET = ("taco", "fries", "burger", "pizza", "kebab")


def check_invariants(state: GameState, copies: int, picks: int) -> None:
    n = len(state.players)
    goal = victory_threshold(n)
    done = len(state.rounds)
    # Victory points: one per finished round; nobody beyond the goal; finished iff one has it.
    assert sum(state.points.values()) == done
    assert all(0 <= v <= goal for v in state.points.values())
    at_goal = [p for p, v in state.points.items() if v == goal]
    assert (state.phase is Phase.OVER) == bool(at_goal)
    assert len(at_goal) <= 1
    if at_goal:
        assert state.rounds[-1].winner == at_goal[0]
    assert done <= max_rounds(n)
    # Cards: every card brought in is with a player or in the market; each player gains exactly
    # one card a round.
    owned = {p: state.dish_cards(p) for p in state.players}
    assert sum(owned.values()) + len(state.market) == state.cards_dealt
    assert state.cards_dealt + state.market_pile == 60 + n
    for player, count in owned.items():
        took = len(state.seats[player].taken) if state.current is not None else 0
        assert count == 6 + done + took
    # Desserts: one a player, never drawn into the market (a swap may put one there, FT6.3).
    desserts = sum(s.owned()[DESSERT] for s in state.seats.values())
    assert desserts + state.market.count(DESSERT) + (state.must_play == DESSERT) == n
    if state.phase in (Phase.TURN, Phase.SERVED, Phase.MARKET_PICK):
        assert len(state.market) == n - picks
        assert sorted(state.in_round + state.eliminated) == sorted(state.players)
        assert len(state.in_round) >= 1 + (state.phase is not Phase.MARKET_PICK)
        assert state.marker == (state.eliminated[0] if state.eliminated else state.round_first)
        # A dish is served by one player only, but for each copy played this round.
        servers = Counter(d for s in state.seats.values() for d in s.served if d != DESSERT)
        assert all(count <= 1 + copies for count in servers.values())
    else:
        assert not state.market and all(not s.pile_size() for s in state.seats.values())
    # A snapshot round-trips and the summary is JSON.
    assert to_snapshot(from_snapshot(to_snapshot(state))) == to_snapshot(state)
    json.dumps(summarize(state))


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.integers(2, 5))
def test_random_legal_games_keep_the_invariants(data: st.DataObject, players: int) -> None:
    names = tuple(f"p{i}" for i in range(players))
    state = GameState()
    events: list[Event] = [GameStarted(names)]
    step(state, events[0])
    copies = picks = 0
    while state.phase is not Phase.OVER:
        if state.phase is Phase.ROUND_START:
            first = state.marker or data.draw(st.sampled_from(names))
            market = tuple(
                data.draw(st.lists(st.sampled_from(MARKET), min_size=players, max_size=players))
            )
            companies = tuple(
                (p, data.draw(st.sampled_from(sorted(state.seats[p].company_pile)))) for p in names
            )
            event: Event = RoundStarted(state.round_no + 1, first, market, companies)
            copies = picks = 0
        else:
            options = legal_events(state)
            assert options, "a service never gets stuck"
            event = data.draw(st.sampled_from(options))
            copies += isinstance(event, CompanyPlayed) and event.effect == "copy"
            picks += type(event).__name__ == "MarketTaken"
        step(state, event)
        events.append(event)
        check_invariants(state, copies, picks)
    # The same record replays to the same summary.
    assert summarize(replay(events)) == summarize(state)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_simulated_games_finish_with_one_winner_at_the_goal(players: int) -> None:
    for seed in range(60):
        events = simulate(seed, players)
        summary = summarize(replay(events))
        assert summary["status"] == "finished"
        winners = [r for r in summary["ranking"] if r["rank"] == 1]
        assert len(winners) == 1 and winners[0]["points"] == victory_threshold(players)
        assert sum(summary["victory_points"].values()) == len(summary["rounds"])
        for line in map(dumps, events):
            assert json.loads(line)["type"]
