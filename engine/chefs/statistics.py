"""Chefs' statistics, mined from a finished game's play log (engine.statistics;
docs/season.md, "Statistics").

The record (v1 or v2) is replayed event by event through the package's own referee and fold
(:func:`.replay.step`), so every action counted is one the rules accepted at its marker. A
*round* is a round started (CH3.1), the one a game called for time cut short included (CH9.3).

Each chef, by their name in ``game_started``, gets these statistics (``value`` summed over
``sample`` observations):

``chefs.steps``
    steps moved along the track (the meals served's steps: the final position, CH7.1), over
    the rounds.
``chefs.meals_cooked``
    meal cards cooked at either cooker (CH5.2), over the rounds.
``chefs.meals_served``
    meals served at the service counter (CH7.1), over the rounds.
``chefs.chef_card_used``
    meals cooked with the chef card standing in for an ingredient (CH5.4), over the meals
    cooked.
``chefs.actions_passed``
    markers at which the chef took no action (CH4.2), over the markers they placed.
``chefs.games_won``
    1 if ranked 1 (CH9.2: the farthest, a shared first place included), else 0, over 1 game.

Feats: ``chefs.most_steps_in_round`` (the most steps moved in one round, with the round: the
first such round) and ``chefs.biggest_meal_served`` (the most steps of one meal served, with its
round); a chef who served no meal has neither.

A record that is not finished returns ``{}``, and so does a game with no marker placed (a
results-only game: its record is ``game_started`` and the laid meal cards, or holds the store's
results entry; or a game called for time before any marker). A record that is not valid raises
:class:`~engine.errors.InvalidRecord` at its first refused object.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.chefs.events import (
    ActionPassed,
    MarkerPlaced,
    MealCooked,
    MealServed,
    from_json,
)
from engine.chefs.replay import step
from engine.chefs.rules import ranking
from engine.chefs.state import ChefsState, Phase
from engine.statistics import PlayerStatistics, Tally, has_results_entry, replayed


def statistics(events: Sequence[Mapping[str, Any]]) -> dict[str, PlayerStatistics]:
    """Each chef's statistics of a finished game's record (its JSON objects), by name."""
    if has_results_entry(events):
        return {}
    state = ChefsState()
    markers: Counter[str] = Counter()
    cooked: Counter[str] = Counter()
    chef_card: Counter[str] = Counter()
    served: Counter[str] = Counter()
    passed: Counter[str] = Counter()
    steps_in_round: dict[tuple[int, str], int] = {}
    meals: list[tuple[int, str, int]] = []
    for event in replayed(events, state, from_json, step):
        if isinstance(event, MarkerPlaced):
            markers[event.player] += 1
        elif isinstance(event, MealCooked):
            cooked[event.player] += 1
            chef_card[event.player] += event.chef_card
        elif isinstance(event, MealServed):
            served[event.player] += 1
            key = (state.round_no, event.player)
            steps_in_round[key] = steps_in_round.get(key, 0) + event.steps
            meals.append((state.round_no, event.player, event.steps))
        elif isinstance(event, ActionPassed):
            passed[event.player] += 1
    if state.phase is not Phase.OVER or not markers:
        return {}

    rounds = state.round_no
    ranks = {r.player: r.rank for r in ranking(state.players, state.positions)}
    tally = Tally(state.players)
    for player in state.players:
        tally.add(player, "chefs.steps", state.positions[player], rounds)
        tally.add(player, "chefs.meals_cooked", cooked[player], rounds)
        tally.add(player, "chefs.meals_served", served[player], rounds)
        tally.add(player, "chefs.chef_card_used", chef_card[player], cooked[player])
        tally.add(player, "chefs.actions_passed", passed[player], markers[player])
        tally.add(player, "chefs.games_won", int(ranks[player] == 1), 1)
    for (number, player), steps in steps_in_round.items():
        tally.feat(player, "chefs.most_steps_in_round", steps, number)
    for number, player, steps in meals:
        tally.feat(player, "chefs.biggest_meal_served", steps, number)
    return tally.result()
