"""Food Truck's statistics, mined from a finished game's play log (engine.statistics;
docs/season.md, "Statistics").

The record is replayed event by event through the package's own referee and fold
(:func:`.replay.step`); whether a turned-over dish was served or refused is what the fold made of
it (FT4.3-FT4.5), not a second reading of the rules. A *round* is one service (FT4-FT5).

Each player, by their name in ``game_started``, gets these statistics (``value`` summed over
``sample`` observations):

``ft.victory_points``
    victory points won (one per round won, FT5.1), over the rounds played.
``ft.dishes_served``
    dishes served (FT4.3, desserts included), over the rounds played.
``ft.dishes_refused``
    dishes turned over and refused, which eliminated the player (FT4.5; an empty pile, FT4.8,
    is not a refused dish), over the rounds played.
``ft.stacks``
    dishes served onto the same dish the player had already served that round (FT4.3: a
    stack), over the dishes served.
``ft.company_played``
    Company cards played (FT6), over the rounds played (one card is turned over a round).
``ft.games_won``
    1 for the game's winner (FT3.1), else 0, over 1 game.

Feats: ``ft.most_dishes_in_round`` (the most dishes served in one round, with that round: the
first such round) and ``ft.tallest_stack`` (the most of one dish served in one round, with the
round; only for a player who made a stack, 2 or more).

A record that is not finished returns ``{}``, and so does a results-only game (its record is
``game_started`` alone, or holds the store's results entry). A record that is not valid raises
:class:`~engine.errors.InvalidRecord` at its first refused object.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.foodtruck.events import CompanyPlayed, DishRevealed, RoundStarted, from_json
from engine.foodtruck.replay import step
from engine.foodtruck.rules import ranking
from engine.foodtruck.state import GameState, Phase
from engine.statistics import PlayerStatistics, Tally, has_results_entry, replayed


def statistics(events: Sequence[Mapping[str, Any]]) -> dict[str, PlayerStatistics]:
    """Each player's statistics of a finished game's record (its JSON objects), by name."""
    if has_results_entry(events):
        return {}
    state = GameState()
    served: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    stacks: Counter[str] = Counter()
    played: Counter[str] = Counter()
    in_round: Counter[str] = Counter()
    per_round: list[tuple[int, str, int]] = []
    tallest: list[tuple[int, str, int]] = []
    for event in replayed(events, state, from_json, step):
        if isinstance(event, RoundStarted):
            _close_round(state.round_no - 1, in_round, per_round)
        elif isinstance(event, CompanyPlayed):
            played[event.player] += 1
        elif isinstance(event, DishRevealed):
            player = event.player
            if state.phase is Phase.SERVED:  # the fold served it (FT4.3-FT4.4)
                served[player] += 1
                in_round[player] += 1
                height = state.seats[player].served[event.dish]
                if height >= 2:
                    stacks[player] += 1
                    tallest.append((state.round_no, player, height))
            else:  # refused: the player is out of the round (FT4.5)
                refused[player] += 1
    if state.phase is not Phase.OVER:
        return {}
    _close_round(state.round_no, in_round, per_round)

    rounds = len(state.rounds)
    winners = {r.player for r in ranking(state.players, state.points) if r.rank == 1}
    tally = Tally(state.players)
    for player in state.players:
        tally.add(player, "ft.victory_points", state.points[player], rounds)
        tally.add(player, "ft.dishes_served", served[player], rounds)
        tally.add(player, "ft.dishes_refused", refused[player], rounds)
        tally.add(player, "ft.stacks", stacks[player], served[player])
        tally.add(player, "ft.company_played", played[player], rounds)
        tally.add(player, "ft.games_won", int(player in winners), 1)
    for number, player, count in per_round:
        tally.feat(player, "ft.most_dishes_in_round", count, number)
    for number, player, height in tallest:
        tally.feat(player, "ft.tallest_stack", height, number)
    return tally.result()


def _close_round(
    number: int, in_round: Counter[str], per_round: list[tuple[int, str, int]]
) -> None:
    """The round ``number`` is over: note each player's dishes served in it, and start afresh."""
    if number >= 1:
        per_round.extend((number, player, count) for player, count in in_round.items())
    in_round.clear()
