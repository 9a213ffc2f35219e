"""Crazy Kitchen's statistics, mined from a finished game's play log (engine.statistics;
docs/season.md, "Statistics").

The game is played by two teams, and the record names each team's members (``game_started``'s
``teams[].players``): a team's figures are given to **each of its members**, by the member's
name as the record lists it (not to the team's name). The record (v1 or v2) is replayed through
the package's own referee and fold (:func:`.replay.step`); the figures are read off the rounds
it scored (in v2 the orders as the customers confirmed them, struck orders gone) and the
upgrades it recorded. A team's *cooking rounds* are the three rounds it cooked (CK2.1).

Each player gets their team's statistics (``value`` summed over ``sample`` observations):

``ck.team_total``
    the team's total (CK5.1: round scores plus compensation), over 1 game.
``ck.round_score``
    the team's round scores (CK3.2) summed, over its cooking rounds.
``ck.orders_fulfilled``
    orders the team fulfilled as the cooks, over the orders counted in its cooking rounds
    (fulfilled and failed, CK3.1).
``ck.order_points``
    the victory points of those fulfilled orders, over the orders fulfilled.
``ck.upgrades_bought``
    upgrades the team bought (CK4.4: tools sped up and cards taken), over the upgrade breaks
    (2). Record v2 only: a v1 record does not record upgrades, so its players have no such
    figure.
``ck.games_won``
    1 if the team won (CK5.2; a draw is not a win), else 0, over 1 game.

Feats: ``ck.best_round_score`` (the team's best round score, with its round: the first such
round) and ``ck.best_team_total`` (the team's total, no round).

A record that is not finished returns ``{}``, and so does a results-only game (its record is
``game_started`` alone, or holds the store's results entry). A record that is not valid raises
:class:`~engine.errors.InvalidRecord` at its first refused object.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.crazykitchen.events import from_json
from engine.crazykitchen.replay import step
from engine.crazykitchen.rules import UPGRADE_AFTER, ranking
from engine.crazykitchen.state import KitchenState
from engine.statistics import PlayerStatistics, Tally, has_results_entry, replayed


def statistics(events: Sequence[Mapping[str, Any]]) -> dict[str, PlayerStatistics]:
    """Each player's statistics (their team's) of a finished game's record, by member name."""
    if has_results_entry(events):
        return {}
    state = KitchenState()
    for _ in replayed(events, state, from_json, step):
        pass
    if not state.over:
        return {}

    totals = state.totals()
    ranks = ranking(state.teams, totals)
    won = {r.team for r in ranks if r.rank == 1} if len({r.rank for r in ranks}) > 1 else set()
    tally = Tally(player for _, players in state.teams for player in players)
    for team, players in state.teams:
        cooked = [r for r in state.rounds if r.cooks == team]
        fulfilled = [points for r in cooked for points in r.fulfilled]
        orders = len(fulfilled) + sum(len(r.penalties) for r in cooked)
        bought = sum(1 for b in state.bought if b.team == team)
        for player in players:
            tally.add(player, "ck.team_total", totals[team], 1)
            tally.add(player, "ck.round_score", sum(r.score for r in cooked), len(cooked))
            tally.add(player, "ck.orders_fulfilled", len(fulfilled), orders)
            tally.add(player, "ck.order_points", sum(fulfilled), len(fulfilled))
            if state.version >= 2:
                tally.add(player, "ck.upgrades_bought", bought, len(UPGRADE_AFTER))
            tally.add(player, "ck.games_won", int(team in won), 1)
            for r in cooked:
                tally.feat(player, "ck.best_round_score", r.score, r.round)
            tally.feat(player, "ck.best_team_total", totals[team])
    return tally.result()
