"""Trick-n-Chef's statistics, mined from a finished game's play log (engine.statistics;
docs/season.md, "Statistics").

The record is replayed through the package's own referee and fold (:func:`.replay.step`); the
figures are read off the tricks it completed (``GameState.tricks``) and the deals it scored,
and the coins' effect is weighed with the rules' own functions (:func:`.rules.trick_winner`,
:func:`.rules.chef_taker`). A *deal* is one of the game's three rounds.

Each player, by their name in ``game_started``, gets these statistics (``value`` summed over
``sample`` observations):

``tnc.tricks_won``
    tricks won, over the deals played (3).
``tnc.chefs_taken.<suit>``
    Chefs of that suit taken after tricks (R7: ``chef_taken``; the round-start picks of R3.3
    are not counted), over the deals; one code per suit in play.
``tnc.coins_placed``
    coins placed on cards (a card with ``coins: -2`` counts 2), over the deals.
``tnc.coins_changed_winner``
    coins placed on a card whose coins decided the trick's winner: with that card at its
    printed value instead (R4.4; every other card as played, the trick's trump as it was), the
    trick's winner (R6) would be another player. All the coins of such a card count. Over the
    coins placed.
``tnc.coins_changed_lowest``
    the same for the trick's lowest card (R7: the player who takes the Chef), over the coins
    placed.
``tnc.deal_score``
    the sum of the player's deal scores (R9), over the deals.
``tnc.score_seat.<n>``
    the game total (R10.1), over 1 game; ``n`` the player's 1-based seat in ``game_started``.
``tnc.deal3_comeback``
    a player is *leading* after deal 2 when no player's total of deals 1 and 2 is higher (a
    shared lead is leading). A player not leading after deal 2 has sample 1, and value 1 if
    they ranked 1 at the end (R10.2, a shared first place included), else 0. A player leading
    after deal 2 has 0 over 0.
``tnc.games_won``
    1 if ranked 1 (a shared first place included), else 0, over 1 game.

Feats: ``tnc.best_deal_score`` (the best deal score, its round the deal's number: the first
such deal), ``tnc.best_game_total`` (no round), ``tnc.most_tricks_in_deal`` (with its deal).

A record that is not finished returns ``{}``, and so does a results-only game (its record is
``game_started`` alone, or holds the store's results entry). A record that is not valid raises
:class:`~engine.errors.InvalidRecord` at its first refused object.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.statistics import PlayerStatistics, Tally, has_results_entry, replayed
from engine.tricknchef.events import from_json
from engine.tricknchef.replay import step
from engine.tricknchef.rules import Play, chef_taker, ranking, trick_winner, value_in_trick
from engine.tricknchef.state import CompletedTrick, GameState

LEADING_AFTER = 2
"""The comeback is counted from the standings after deal 2."""


def statistics(events: Sequence[Mapping[str, Any]]) -> dict[str, PlayerStatistics]:
    """Each player's statistics of a finished game's record (its JSON objects), by name."""
    if has_results_entry(events):
        return {}
    state = GameState()
    for _ in replayed(events, state, from_json, step):
        pass
    if not state.finished:
        return {}
    return _tally(state).result()


def without_coins(plays: Sequence[Play], index: int) -> tuple[Play, ...]:
    """The trick's plays with the ``index``-th card at its printed value (its coins taken
    off, R4.4)."""
    return tuple(
        Play(p.player, p.card, 0, value_in_trick(p.card, 0)) if i == index else p
        for i, p in enumerate(plays)
    )


def coin_effects(trick: CompletedTrick) -> list[tuple[Play, bool, bool]]:
    """For each card of the trick that carries coins: the play, whether its coins changed the
    winner (R6) and whether they changed the lowest card (R7)."""
    effects = []
    for index, play in enumerate(trick.plays):
        if play.coins:
            bare = without_coins(trick.plays, index)
            winner = trick_winner(bare, trick.trump).player != trick.winner
            lowest = chef_taker(bare).player != trick.chef_taker
            effects.append((play, winner, lowest))
    return effects


def _tally(state: GameState) -> Tally:
    players = state.players
    deals = len(state.round_scores)
    tally = Tally(players)
    for player in players:
        tally.add(player, "tnc.tricks_won", 0, deals)
        for suit in state.suits:
            tally.add(player, f"tnc.chefs_taken.{suit}", 0, deals)
        tally.add(player, "tnc.coins_placed", 0, deals)
        tally.add(player, "tnc.coins_changed_winner")
        tally.add(player, "tnc.coins_changed_lowest")

    tricks_in_deal: dict[int, Counter[str]] = {}
    for trick in state.tricks:
        tally.add(trick.winner, "tnc.tricks_won", 1)
        tally.add(trick.chef_taker, f"tnc.chefs_taken.{trick.chef_suit}", 1)
        tricks_in_deal.setdefault(trick.round, Counter())[trick.winner] += 1
        for play, winner, lowest in coin_effects(trick):
            coins = abs(play.coins)
            tally.add(play.player, "tnc.coins_placed", coins)
            tally.add(play.player, "tnc.coins_changed_winner", coins if winner else 0, coins)
            tally.add(play.player, "tnc.coins_changed_lowest", coins if lowest else 0, coins)

    ranks = {r.player: r.rank for r in ranking(players, state.totals, state.round_scores[-1])}
    before = {p: sum(s[p] for s in state.round_scores[:LEADING_AFTER]) for p in players}
    lead = max(before.values())
    for seat, player in enumerate(players, start=1):
        total = state.totals[player]
        tally.add(player, "tnc.deal_score", total, deals)
        tally.add(player, f"tnc.score_seat.{seat}", total, 1)
        behind = before[player] < lead
        won = ranks[player] == 1
        tally.add(player, "tnc.deal3_comeback", int(behind and won), int(behind))
        tally.add(player, "tnc.games_won", int(won), 1)
        for number, scores in enumerate(state.round_scores, start=1):
            tally.feat(player, "tnc.best_deal_score", scores[player], number)
        tally.feat(player, "tnc.best_game_total", total)
        for number in range(1, deals + 1):
            won_tricks = tricks_in_deal.get(number, Counter())[player]
            tally.feat(player, "tnc.most_tricks_in_deal", won_tricks, number)
    return tally
