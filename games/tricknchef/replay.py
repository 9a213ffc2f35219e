"""Trick-n-Chef's public game page (games.tricknchef.pages answers games.views_public's
``replay`` with ``tnc_replay``): a published game's result, its scores round by round (a chart
and its table), and a replay viewer that steps through the game trick by trick.

The view reads the game through the services (``game_view``: the game folded from its log, an
unpublished game is not found for the public), replays the effective record with the engine up
to the trick asked for (``?step=N``; a game has at most 166 events, so this is a fraction of a
millisecond) and renders. Previous / Next are plain links that work without JavaScript; htmx
swaps only the step (``game_replay.html#step``) and pushes the URL.

The replay and the chart below are pure: engine events and the game's summary in, frozen records
out, so the templates only print.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django_htmx.middleware import HtmxDetails

from engine import tricknchef
from engine.tricknchef.cards import TRICKS_PER_ROUND
from engine.tricknchef.events import from_json
from engine.tricknchef.state import CompletedTrick
from games import policy, services
from games.places import place_words
from games.projection import FINISHED, VOID, GameView
from games.tricknchef.cardnames import dish_name, suit_name
from games.views_public import GAME_STATUS
from games.words import clause_list, word_list


class HtmxHttpRequest(HttpRequest):
    """A request through django-htmx's middleware (django-htmx's typing recipe)."""

    htmx: HtmxDetails


SERIES = 4
"""Players' lines in the chart are styled .series-1 to .series-4 (public.css)."""


def suit_label(suit: str) -> str:
    """ "green (sushi)": the suit in words, so it never depends on colour alone."""
    return f"{suit_name(suit)} ({dish_name(suit)})"


# ----------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Suit:
    key: str
    label: str


@dataclass(frozen=True, slots=True)
class PlayView:
    order: int
    player: str
    card: str
    coins: int
    value: int
    wins: bool
    takes_chef: bool


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player at the table after a trick."""

    name: str
    seat: int
    coins: int
    chefs: tuple[tuple[Suit, int], ...]
    """Chef tokens held, by suit (suits with none left out)."""
    tricks: int
    total: int
    """Points from the rounds already scored."""


@dataclass(frozen=True, slots=True)
class RoundEnd:
    round: int
    scores: tuple[tuple[str, int, int], ...]
    """(player, round score, total so far), in seat order."""


@dataclass(frozen=True, slots=True)
class Step:
    """Step 0 is the start of the game; step N is the table right after the N-th trick."""

    number: int
    last: int
    round: int
    trick: int
    """The trick's number in its round (0 at the start)."""
    trump: tuple[Suit, ...]
    plays: tuple[PlayView, ...]
    leader: str
    winner: str
    chef_taker: str
    chef_suit: Suit | None
    paid: tuple[str, ...]
    picks: tuple[tuple[str, Suit], ...]
    """The Chefs picked at the start of this trick's round (shown with its first trick)."""
    first_player: str
    table: tuple[PlayerState, ...]
    centre: tuple[tuple[Suit, int], ...]
    """Chefs left in the centre after the trick (they decide the next trick's trump)."""
    round_end: RoundEnd | None

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 0 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.last else None

    @property
    def title(self) -> str:
        if self.number == 0:
            return _("Start of the game")
        return _("Deal %(round)s, trick %(trick)s") % {"round": self.round, "trick": self.trick}

    @property
    def announcement(self) -> str:
        """What a screen reader hears after moving to this step."""
        if self.number == 0:
            return _("Start of the game. %(player)s plays first.") % {"player": self.first_player}
        values = {
            "title": self.title,
            "winner": self.winner,
            "taker": self.chef_taker,
            "round": self.round,
        }
        if self.round_end is not None:
            return (
                _(
                    "%(title)s: %(winner)s won the trick, %(taker)s took the Chef. "
                    "End of deal %(round)s."
                )
                % values
            )
        return _("%(title)s: %(winner)s won the trick, %(taker)s took the Chef.") % values


@dataclass(frozen=True, slots=True)
class Point:
    x: float
    y: float
    value: int
    label: str


@dataclass(frozen=True, slots=True)
class Series:
    player: str
    index: int
    """1 to 4: the line's style (colour, marker shape and dash pattern)."""
    points: tuple[Point, ...]
    path: str
    totals: tuple[int, ...]
    """Cumulative points after each round played."""
    scores: tuple[int, ...]
    """The score of each round."""
    markers: str
    """A path drawing the series' marker (circle, square, triangle, diamond) at each point."""
    legend: str
    """The same marker for the legend's 28 x 12 swatch."""

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        """(round score, running total) of each round played."""
        return tuple(zip(self.scores, self.totals, strict=True))

    @property
    def total(self) -> int:
        return self.totals[-1] if self.totals else 0


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    x_ticks: tuple[tuple[float, str], ...]
    y_ticks: tuple[tuple[float, int], ...]
    series: tuple[Series, ...]
    rounds: tuple[int, ...]
    description: str


# ----------------------------------------------------------------------------- replay (pure)


def _suit(key: str) -> Suit:
    return Suit(key, suit_label(key))


def _table(state: tricknchef.GameState) -> tuple[PlayerState, ...]:
    return tuple(
        PlayerState(
            name=player,
            seat=seat,
            coins=state.coins.get(player, 0),
            chefs=tuple(
                (_suit(s), n) for s in state.suits if (n := state.chefs.get(player, {}).get(s, 0))
            ),
            tricks=state.tricks_won.get(player, 0),
            total=state.totals.get(player, 0),
        )
        for seat, player in enumerate(state.players, start=1)
    )


def replay_step(events: Sequence[tricknchef.Event], number: int) -> Step:
    """The table at step ``number`` (0: before the first card; N: right after the N-th trick's
    Chef and coins), replaying ``events`` (the effective record) with the engine's fold."""
    state = tricknchef.GameState()
    picks: list[tuple[str, Suit]] = []
    total = sum(1 for e in events if isinstance(e, tricknchef.ChefTaken))
    number = max(0, min(number, total))
    done = 0
    for event in events:
        if number == 0 and isinstance(event, tricknchef.CardPlayed):
            break
        if isinstance(event, tricknchef.RoundStarted):
            picks = []
        elif isinstance(event, tricknchef.ChefChosen):
            picks.append((event.player, _suit(event.suit)))
        tricknchef.apply(state, event)  # the log holds only events the referee accepted
        if isinstance(event, tricknchef.ChefTaken):
            done += 1
            if done == number:
                break
    centre = tuple((_suit(s), state.centre.get(s, 0)) for s in state.suits)
    if number == 0:
        return Step(
            number=0,
            last=total,
            round=state.round_no,
            trick=0,
            trump=tuple(_suit(s) for s in state.trump),
            plays=(),
            leader=state.leader or "",
            winner="",
            chef_taker="",
            chef_suit=None,
            paid=(),
            picks=tuple(picks),
            first_player=state.first_player or "",
            table=_table(state),
            centre=centre,
            round_end=None,
        )
    trick: CompletedTrick = state.tricks[-1]
    round_end = None
    if trick.number == TRICKS_PER_ROUND and len(state.round_scores) >= trick.round:
        scores = state.round_scores[trick.round - 1]
        round_end = RoundEnd(
            round=trick.round,
            scores=tuple((p, scores[p], state.totals[p]) for p in state.players),
        )
    return Step(
        number=number,
        last=total,
        round=trick.round,
        trick=trick.number,
        trump=tuple(_suit(s) for s in trick.trump),
        plays=tuple(
            PlayView(
                order=i,
                player=p.player,
                card=p.card,
                coins=p.coins,
                value=p.value,
                wins=p.player == trick.winner,
                takes_chef=p.player == trick.chef_taker,
            )
            for i, p in enumerate(trick.plays, start=1)
        ),
        leader=trick.plays[0].player,
        winner=trick.winner,
        chef_taker=trick.chef_taker,
        chef_suit=_suit(trick.chef_suit),
        paid=trick.paid,
        picks=tuple(picks) if trick.number == 1 else (),
        first_player=state.first_player or "",
        table=_table(state),
        centre=centre,
        round_end=round_end,
    )


def round_starts(total: int) -> list[tuple[int, int]]:
    """(round, step of its first trick) for the rounds the replay reaches."""
    return [
        (r, (r - 1) * TRICKS_PER_ROUND + 1)
        for r in range(1, math.ceil(total / TRICKS_PER_ROUND) + 1)
    ]


# ----------------------------------------------------------------------------- chart (pure)


def marker(index: int, x: float, y: float) -> str:
    """A marker shape per series, so lines differ by shape as well as colour."""
    shape = (index - 1) % SERIES
    if shape == 0:  # circle
        return f"M {x - 4} {y} a 4 4 0 1 0 8 0 a 4 4 0 1 0 -8 0 Z"
    if shape == 1:  # square
        return f"M {x - 4} {y - 4} h 8 v 8 h -8 Z"
    if shape == 2:  # triangle
        return f"M {x} {y - 5} L {x + 5} {y + 4} L {x - 5} {y + 4} Z"
    return f"M {x} {y - 5} L {x + 5} {y} L {x} {y + 5} L {x - 5} {y} Z"  # diamond


def _nice_top(value: int) -> tuple[int, int]:
    """The y axis's top and its tick step: a round number at or above ``value``."""
    for step in (5, 10, 20, 25, 50, 100):
        top = max(step, math.ceil(value / step) * step)
        if top // step <= 5:
            return top, step
    step = 10 ** max(1, len(str(value)) - 1)
    return math.ceil(value / step) * step, step


def score_chart(players: Sequence[str], rounds: Sequence[Mapping[str, Any]]) -> Chart | None:
    """A line chart of each player's cumulative points after each round (from the start, at
    0), as SVG coordinates; None before the first round is scored."""
    if not rounds:
        return None
    width, height = 320, 190
    left, right, top, bottom = 34, 28, 12, 30
    plot_w, plot_h = width - left - right, height - top - bottom
    numbers = tuple(int(r["round"]) for r in rounds)
    totals: dict[str, list[int]] = {p: [] for p in players}
    for r in rounds:
        for p in players:
            previous = totals[p][-1] if totals[p] else 0
            totals[p].append(previous + int(r["scores"].get(p, 0)))
    highest = max([1, *(t for series in totals.values() for t in series)])
    y_top, step = _nice_top(highest)
    slots = 3  # start + rounds 1 to 3: the x axis always shows a whole game

    def x(i: int) -> float:
        return round(left + plot_w * i / slots, 1)

    def y(v: int) -> float:
        return round(top + plot_h * (1 - v / y_top), 1)

    series = []
    for index, player in enumerate(players, start=1):
        values = [0, *totals[player]]
        labels = [_("Start"), *(_("after deal %(round)s") % {"round": n} for n in numbers)]
        points = tuple(
            Point(x(i), y(v), v, label)
            for i, (v, label) in enumerate(zip(values, labels, strict=True))
        )
        style = (index - 1) % SERIES + 1
        series.append(
            Series(
                player=player,
                index=style,
                points=points,
                path="M " + " L ".join(f"{p.x} {p.y}" for p in points),
                totals=tuple(totals[player]),
                scores=tuple(int(r["scores"].get(player, 0)) for r in rounds),
                markers=" ".join(marker(style, p.x, p.y) for p in points),
                legend=marker(style, 14, 6),
            )
        )
    best = max(s.total for s in series)
    leaders = [s.player for s in series if s.total == best]
    if len(leaders) == 1:
        lead = _("%(player)s has the most points, %(points)s") % {
            "player": leaders[0],
            "points": best,
        }
    else:
        lead = _("%(players)s share the most points, %(points)s") % {
            "players": _(" and ").join(leaders),
            "points": best,
        }
    figures = clause_list(f"{s.player} {word_list(map(str, s.totals))}" for s in series)
    if len(numbers) == 1:
        text = _(
            "Cumulative points of each player after deal 1: %(figures)s. %(lead)s. The table "
            "after the chart gives the same figures."
        )
    else:
        text = _(
            "Cumulative points of each player after deals 1 to %(last)s: %(figures)s. %(lead)s. "
            "The table after the chart gives the same figures."
        )
    description = text % {"figures": figures, "lead": lead, "last": numbers[-1]}
    return Chart(
        width=width,
        height=height,
        left=left,
        right=width - right,
        top=top,
        bottom=height - bottom,
        x_ticks=tuple(
            (x(i), _("Start") if i == 0 else _("Deal %(number)s") % {"number": i})
            for i in range(slots + 1)
        ),
        y_ticks=tuple((y(v), v) for v in range(0, y_top + 1, step)),
        series=tuple(series),
        rounds=numbers,
        description=description,
    )


def result_rows(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The final ranking, with seats and round scores, places shared where tied (R10.2)."""
    players = list(summary.get("players", []))
    ranking = summary.get("ranking") or []
    ranks = [r["rank"] for r in ranking]
    rounds = summary.get("rounds", [])
    return [
        {
            "place": place_words(r["rank"], ranks.count(r["rank"]) > 1),
            "player": r["player"],
            "seat": players.index(r["player"]) + 1 if r["player"] in players else None,
            "total": r["total"],
            "scores": [rd["scores"].get(r["player"], 0) for rd in rounds],
        }
        for r in ranking
    ]


# ----------------------------------------------------------------------------- view


def _step_number(request: HttpRequest) -> int:
    raw = request.GET.get("step", "0")
    try:
        return max(0, int(raw))
    except ValueError:
        return 0


def tnc_replay(request: HtmxHttpRequest, game_id: uuid.UUID, view: GameView) -> HttpResponse:
    """A published Trick-n-Chef game: its result, its scores by round (chart and table) and the
    replay, trick by trick. ``?step=N`` picks the trick; an htmx request gets the step alone."""
    summary = view.summary
    players = list(summary.get("players", []))
    results_only = view.results is not None
    playable = isinstance(view.state, tricknchef.GameState) and not results_only
    game = services.game_get(game_id=game_id, user=request.user)
    may_export = services.game_may_export(game=game, user=request.user)
    step = None
    starts: list[tuple[int, int]] = []
    if playable:
        events = [from_json(e) for e in view.record_events]
        step = replay_step(events, _step_number(request))
        starts = round_starts(step.last)
    context = {
        "players": players,
        "suits": [_suit(s) for s in getattr(view.state, "suits", ())],
        "status": view.status,
        "status_label": GAME_STATUS.get(view.status, view.status),
        "finished": view.status == FINISHED,
        "void": view.status == VOID,
        "void_reason": view.voided or "",
        "results_only": results_only,
        "results": result_rows(summary) if view.status == FINISHED else [],
        "chart": score_chart(players, summary.get("rounds", [])),
        "step": step,
        "round_starts": starts,
        "record_url": reverse("api:game-record", kwargs={"game_id": game_id})
        if playable and view.record_events and may_export
        else "",
        "url": request.path,
        "trail": seating.trail if (seating := policy.seating(game)) is not None else (),
        "clock_url": seating.clock if seating is not None else "",
    }
    wants_step = bool(request.htmx) and not request.htmx.history_restore_request
    name = "tricknchef/replay.html"
    if wants_step and step is not None:
        name += "#step-update"
    response = render(request, name, context)
    patch_vary_headers(response, ["HX-Request"])
    return response
