"""Trick-n-Chef's spectator panel (games.pages.GamePages.live, the relay's pages: docs/relay.md):
a table as a spectator is shown it, trick by trick: the cards on the table (the trick being
played, or the last one taken), trump, the Chefs left in the centre, each player's coins,
Chefs and tricks, and the running scores deal by deal.

Drawn from the game's state *at the version the spectator is shown* (games.services.relay's
fold), and only from its public parts: the state holds every hand, which this module never
reads (a card is shown once it is played; the tests check that no card still held appears).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from engine import tricknchef
from engine.tricknchef.cards import ROUNDS_PER_GAME
from engine.tricknchef.state import Phase
from games.places import place_words
from games.projection import FINISHED, VOID, GameView
from games.tricknchef.replay import PlayerState, PlayView, Suit, _suit, _table


@dataclass(frozen=True, slots=True)
class ScoreRow:
    name: str
    scores: tuple[int | None, ...]
    """Each deal's score (None: not scored yet), ``ROUNDS_PER_GAME`` of them."""
    total: int
    place: str = ""


@dataclass(frozen=True, slots=True)
class LiveTable:
    """What the panel shows (every field is public at the version shown)."""

    headline: str
    detail: str
    round: int
    trick: int
    trump: tuple[Suit, ...]
    plays: tuple[PlayView, ...]
    """The cards on the table: the trick being played, or the last one taken."""
    plays_title: str
    trump_title: str
    winner: str
    chef_taker: str
    chef_suit: Suit | None
    centre: tuple[tuple[Suit, int], ...]
    table: tuple[PlayerState, ...]
    placed: tuple[tuple[str, int], ...]
    """Coins on the cards of the trick being played, by player (the coins column's note)."""
    deals: tuple[int, ...]
    scores: tuple[ScoreRow, ...]
    finished: bool
    void: bool
    results_only: bool


def _next_words(state: tricknchef.GameState) -> tuple[str, str]:
    """Headline and detail: where the game stands and who is expected, in words."""
    who = state.expected or ""
    phase = state.phase
    if phase is Phase.OVER:
        return _("Game over"), ""
    if phase is Phase.NOT_STARTED or (phase is Phase.ROUND_START and state.round_no == 0):
        return _("Deal 1 has not started yet"), ""
    if phase is Phase.ROUND_START:
        return (
            _("End of deal %(round)s") % {"round": state.round_no},
            _("Deal %(round)s is next.") % {"round": state.round_no + 1},
        )
    where = _("Deal %(round)s, trick %(trick)s") % {
        "round": state.round_no,
        "trick": state.trick_no,
    }
    if phase is Phase.CHEF_PICK:
        return _("Deal %(round)s: Chefs being picked") % {"round": state.round_no}, (
            _("%(player)s picks a Chef.") % {"player": who} if who else ""
        )
    if phase is Phase.CHEF_TAKE:
        return where, _("%(player)s takes a Chef.") % {"player": who} if who else ""
    return where, _("%(player)s to play.") % {"player": who} if who else ""


def live_table(view: GameView) -> LiveTable:
    """The panel's record of a Trick-n-Chef game folded to the version shown."""
    state = view.state
    summary = view.summary
    players: Sequence[str] = list(summary.get("players") or getattr(state, "players", None) or ())
    results_only = view.results is not None
    rounds: Sequence[Mapping[str, Any]] = summary.get("rounds") or []
    totals: Mapping[str, int] = summary.get("totals") or {}
    ranking = {r["player"]: r["rank"] for r in summary.get("ranking") or []}
    ranks = list(ranking.values())
    deals = tuple(range(1, ROUNDS_PER_GAME + 1))
    scores = tuple(
        ScoreRow(
            name=p,
            scores=tuple(
                int(rounds[n - 1]["scores"].get(p, 0)) if n <= len(rounds) else None for n in deals
            ),
            total=int(totals.get(p, sum(int(r["scores"].get(p, 0)) for r in rounds))),
            place=place_words(ranking[p], ranks.count(ranking[p]) > 1) if p in ranking else "",
        )
        for p in players
    )
    playable = isinstance(state, tricknchef.GameState) and not results_only
    plays: tuple[PlayView, ...] = ()
    plays_title = ""
    trump_title = _("Trump:")
    winner = taker = ""
    chef_suit = None
    trump: tuple[Suit, ...] = ()
    centre: tuple[tuple[Suit, int], ...] = ()
    table: tuple[PlayerState, ...] = ()
    placed: tuple[tuple[str, int], ...] = ()
    headline, detail = "", ""
    if playable:
        headline, detail = _next_words(state)
        if state.trick:  # cards on the table (all of them played: public)
            winner = state.winner or ""
            taker = state.chef_taker or ""
            plays = tuple(
                PlayView(
                    i, p.player, p.card, p.coins, p.value, p.player == winner, p.player == taker
                )
                for i, p in enumerate(state.trick, start=1)
            )
            plays_title = _("On the table")
            placed = tuple((p.player, p.coins) for p in state.trick if p.coins)
        elif state.tricks and state.tricks[-1].round == state.round_no:
            last = state.tricks[-1]
            winner, taker, chef_suit = last.winner, last.chef_taker, _suit(last.chef_suit)
            plays = tuple(
                PlayView(
                    i, p.player, p.card, p.coins, p.value, p.player == winner, p.player == taker
                )
                for i, p in enumerate(last.plays, start=1)
            )
            plays_title = _("The last trick (deal %(round)s, trick %(trick)s)") % {
                "round": last.round,
                "trick": last.number,
            }
            trump_title = _("Trump of the next trick:")
        trump = tuple(_suit(s) for s in state.trump)
        centre = tuple((_suit(s), state.centre.get(s, 0)) for s in state.suits)
        table = _table(state)
    elif view.status == FINISHED:
        headline = _("Results entered: the game is over")
    if view.status == VOID:
        headline, detail = _("This game was voided"), view.voided or ""
    return LiveTable(
        headline=headline,
        detail=detail,
        round=getattr(state, "round_no", 0),
        trick=getattr(state, "trick_no", 0),
        trump=trump,
        plays=plays,
        plays_title=plays_title,
        trump_title=trump_title,
        winner=winner,
        chef_taker=taker,
        chef_suit=chef_suit,
        centre=centre,
        table=table,
        placed=placed,
        deals=deals,
        scores=scores,
        finished=view.status == FINISHED,
        void=view.status == VOID,
        results_only=results_only,
    )


def live_panel(view: GameView, *, big: bool = False) -> str:
    return render_to_string("tricknchef/live.html", {"live": live_table(view), "big": big})
