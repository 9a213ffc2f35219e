"""Trick-n-Chef's table page: enter a game tap by tap (docs/scorekeeping.md); games.tricknchef.pages
answers the shared table views (games.table.views) with the ``tnc_*`` views, and gives the
deal, pick, play and take addresses.

Thin typed function views: parse the request (games/tricknchef/forms.py), call a service
(games/services/), render. Every action is a POST carrying the version the page was rendered
at and a fresh idempotency key; with htmx the answer is the table panel (a partial of
tricknchef/table.html) plus the turn banner out of band, without JavaScript it is a
POST/redirect/GET. Refusals come back as the rulebook words them, with the state unchanged:

* ``Refused`` (a rule): 422, the message above the controls;
* ``Conflict`` (someone else changed the table): 409, the table as it stands now;
* ``NotAllowed``: 403 page. The page shows the hand to be played, so it is also refused (403)
  to anyone who is not one of the game's officials (games/tricknchef/hands.py), even where the
  game's policy lets them record plays.

htmx is told to swap 403, 409 and 422 answers (tricknchef/table.html sets
``htmx.config.responseHandling``), so the status codes stay truthful for every client.

What the page shows is built by games.tricknchef.table_presenters from the engine's state.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from engine.tricknchef.cards import (
    deck,
)
from engine.tricknchef.state import Phase
from games import policy, services
from games.gametypes import DEFAULT_GAME_TYPE
from games.models import GameProjection
from games.phone.undo import undo_asks
from games.refusals import refusal_message
from games.table.forms import ActionForm, CorrectionForm, UndoForm
from games.table.views import (
    BAD_FORM,
    CONFLICT,
    KEY_REUSED,
    HtmxHttpRequest,
    correctable,
    page_url,
    results_closed,
    table_login_required,
    withdrawn_entry,
)
from games.tricknchef import deals
from games.tricknchef.forms import DealForm, PickForm, PlayForm, ResultsForm
from games.tricknchef.table_presenters import (
    results_rows,
    results_values,
    state_of,
    table_context,
)

FORM_INCOMPLETE = gettext_noop(
    "The form arrived incomplete: check the scores below and send them again."
)
HANDS_HIDDEN = gettext_noop(
    "This page shows the players' hands: only the game's officials (its creator or staff; at a "
    "tournament, its organizers and scorekeepers) enter it."
)
DEAL_STASH = "table-deal-{game_id}"
"""Session key: the deal an undo took back, or a deal the rules refused, offered again by the
deal form until a deal is recorded (one card wrong should not mean tapping all 40 again)."""


def tnc_enter(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Trick-n-Chef's table page (games.tricknchef.pages)."""
    game = _load(request, game_id)
    refusal = _write_refusal(game, request)
    if refusal is not None:
        return _forbidden(request, refusal)
    return _render_table(request, game, keep=_stashed_deal(request, game_id))


@table_login_required
@require_POST
def deal(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """round_started: the hands as tapped (the last one filled automatically) and the first
    player."""
    state = state_of(_load(request, game_id))
    form = DealForm(request.POST, players=state.players, cards=deck(state.suits))
    keep = {"deal": form.assignments(), "deal_round": request.POST.get("round", "")}
    keep["first_player"] = request.POST.get("first_player", "")
    if not form.is_valid():
        return _redisplay(request, game_id, error=gettext(BAD_FORM), keep=keep, status=422)
    hands = form.hands()
    event = {
        "type": "round_started",
        "round": form.cleaned_data["round"],
        "first_player": form.cleaned_data["first_player"],
        "hands": hands,
    }
    response = _append(request, game_id, form, event, keep)
    stash = DEAL_STASH.format(game_id=game_id)
    if response.status_code < 400:
        request.session.pop(stash, None)  # recorded: nothing left to offer again
    elif response.status_code == 422:
        # Refused (a rule, e.g. the first player): the deal stays on screen, and stays saved
        # for a reload, as tapped; never 0/10 for every hand after one wrong choice.
        _stash_deal(
            request,
            game_id,
            form.cleaned_data["round"],
            form.cleaned_data["first_player"],
            form.assignments(),
        )
    return response


@table_login_required
@require_POST
def pick(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """chef_chosen: a round-start Chef pick."""
    form = PickForm(request.POST)
    if not form.is_valid():
        return _redisplay(request, game_id, error=gettext(BAD_FORM), status=422)
    data = form.cleaned_data
    event = {"type": "chef_chosen", "player": data["player"], "suit": data["suit"]}
    return _append(request, game_id, form, event)


@table_login_required
@require_POST
def play(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """card_played: the card tapped, with the coins set on the stepper."""
    form = PlayForm(request.POST)
    keep = {"coins": request.POST.get("coins", "0")}
    if not form.is_valid():
        return _redisplay(request, game_id, error=gettext(BAD_FORM), keep=keep, status=422)
    data = form.cleaned_data
    event = {
        "type": "card_played",
        "player": data["player"],
        "card": data["card"],
        "coins": data["coins"],
    }
    return _append(request, game_id, form, event, keep)


@table_login_required
@require_POST
def take(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """chef_taken: the Chef taken by the lowest card's player after a trick."""
    form = PickForm(request.POST)
    if not form.is_valid():
        return _redisplay(request, game_id, error=gettext(BAD_FORM), status=422)
    data = form.cleaned_data
    event = {"type": "chef_taken", "player": data["player"], "suit": data["suit"]}
    return _append(request, game_id, form, event)


def tnc_undo(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Retract the last entry (a correction that stays in the history)."""
    form = UndoForm(request.POST)
    if not form.is_valid():
        return _redisplay(request, game_id, error=gettext(BAD_FORM), status=422)
    data = form.cleaned_data
    _stash_deal_before_undo(request, game_id, data["version"])
    # Taking back a results entry is the first half of a correction: the answer is the results
    # form, filled in with what was entered (the withdrawn entry, read back from the log).
    results = _load(request, game_id).results_only
    return _write(
        request,
        game_id,
        lambda: services.game_correct(
            game_id=game_id,
            expected_version=data["version"],
            retract=1,
            reason=data["reason"],
            user=request.user,
            idempotency_key=data["key"],
        ),
        done=reverse("table:results", args=[game_id]) if results else None,
    )


def tnc_results(request: HtmxHttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Results only: the three round scores of each player, as on a paper score sheet."""
    game = _load(request, game_id)
    players: list[str] = list(game.players)
    errors: list[str] = []
    field_errors: dict[str, list[str]] = {}
    form = ResultsForm(request.POST if request.method == "POST" else None, players=players)
    status = 200
    values: Mapping[str, Any] = request.POST
    withdrawn = None
    # Results recorded: the form is their correction, filled in with them (both events at once:
    # the retraction and the corrected entry, games.services.game_correct_results).
    correcting, reason = CorrectionForm(request.POST).wanted()
    if request.method == "GET":
        refusal = _write_refusal(game, request)
        if refusal is not None:
            return _forbidden(request, refusal)
        correcting = correctable(game)
        if correcting:
            recorded = services.game_view(game_id=game_id, user=request.user).results
            values = results_values(players, recorded or {})
        else:
            withdrawn = withdrawn_entry(request, game)
            values = results_values(players, withdrawn) if withdrawn else {}
    elif not form.is_valid():
        field_errors, status = form.field_errors(), 422
        if any(name not in form.cells for name in field_errors):
            errors = [gettext(FORM_INCOMPLETE)]
    else:
        try:
            if correcting:
                services.game_correct_results(
                    game_id=game_id,
                    expected_version=form.cleaned_data["version"],
                    reason=reason,
                    scores=form.scores(),
                    totals=form.totals(),
                    user=request.user,
                    idempotency_key=form.cleaned_data["key"],
                )
            else:
                services.game_enter_results(
                    game_id=game_id,
                    expected_version=form.cleaned_data["version"],
                    scores=form.scores(),
                    totals=form.totals(),
                    user=request.user,
                    idempotency_key=form.cleaned_data["key"],
                )
        except services.NotAllowed as refusal:
            return _forbidden(request, refusal.message)
        except services.GameNotFound:
            raise Http404("there is no such game") from None
        except services.Conflict:
            errors, status = [gettext(CONFLICT)], 409
            game = _load(request, game_id)
            correcting = correctable(game)
        except services.KeyReused:
            errors, status = [gettext(KEY_REUSED)], 409
            game = _load(request, game_id)
            correcting = correctable(game)
        except services.GameError as refused:
            errors, status = [refusal_message(refused)], 422
        else:
            return _see_other(page_url(game_id))
    rows = results_rows(players, values, field_errors)
    context = {
        "game": game,
        "game_id": game_id,
        "names": ", ".join(players),
        "rows": rows,
        "errors": errors,
        "mistakes": [(f["name"], e) for row in rows for f in row["errors"] for e in f["errors"]],
        "version": game.version,
        "key": uuid.uuid4(),
        "closed": None if correcting else results_closed(game),
        "prefilled": withdrawn is not None and not results_closed(game),
        "correcting": correcting,
        "reason": reason,
    }
    return render(request, "tricknchef/results.html", context, status=status)


# ----------------------------------------------------------------------------- plumbing


def _see_other(url: str) -> HttpResponse:
    response = HttpResponseRedirect(url)
    response.status_code = 303  # POST/redirect/GET
    return response


def _load(request: HttpRequest, game_id: uuid.UUID) -> GameProjection:
    try:
        game = services.game_get(game_id=game_id, user=request.user)
    except services.GameNotFound:
        raise Http404("there is no such game") from None
    if game.game_type != DEFAULT_GAME_TYPE:
        raise Http404("this page enters Trick-n-Chef tables only")
    return game


def _write_refusal(game: GameProjection, request: HttpRequest) -> str | None:
    """Why the user may not write this table (None if they may). The services enforce it on
    every write; asking here as well spares a scorekeeper a page they could only be refused on.
    """
    try:
        services.game_check_write(game_id=game.stream_id, user=request.user)
    except services.NotAllowed as refusal:
        return refusal.message
    return None


def _forbidden(request: HtmxHttpRequest, message: str) -> HttpResponse:
    template = "table/forbidden.html"
    if request.htmx and request.method == "POST":
        template += "#panel"
    return render(request, template, {"message": message}, status=403)


def _append(
    request: HtmxHttpRequest,
    game_id: uuid.UUID,
    form: ActionForm,
    event: dict[str, Any],
    keep: Mapping[str, Any] | None = None,
) -> HttpResponse:
    data = form.cleaned_data
    return _write(
        request,
        game_id,
        lambda: services.game_append(
            game_id=game_id,
            expected_version=data["version"],
            events=[event],
            user=request.user,
            idempotency_key=data["key"],
        ),
        keep,
    )


def _write(
    request: HtmxHttpRequest,
    game_id: uuid.UUID,
    call: Callable[[], services.GameChange],
    keep: Mapping[str, Any] | None = None,
    *,
    done: str | None = None,
) -> HttpResponse:
    """Call the service; answer with the new table (htmx) or a redirect to it (or to
    ``done``, if given), or with the refusal and the table unchanged."""
    try:
        call()
    except services.NotAllowed as refusal:
        return _forbidden(request, refusal.message)
    except services.GameNotFound:
        raise Http404("there is no such game") from None
    except services.Conflict:
        return _redisplay(
            request, game_id, notice=gettext(CONFLICT), keep=_deal_only(keep), status=409
        )
    except services.KeyReused:
        return _redisplay(
            request, game_id, notice=gettext(KEY_REUSED), keep=_deal_only(keep), status=409
        )
    except services.GameError as refused:  # Refused: a rule, in the rulebook's words
        return _redisplay(request, game_id, error=refusal_message(refused), keep=keep, status=422)
    if done is not None:
        return HttpResponseClientRedirect(done) if request.htmx else _see_other(done)
    if request.htmx:
        return _redisplay(request, game_id)
    return _see_other(page_url(game_id))


def _deal_only(keep: Mapping[str, Any] | None) -> dict[str, Any]:
    """After a conflict, a deal in progress is still worth showing (if the table still waits
    for that round's deal); coins set for one player are not for the next."""
    return {k: v for k, v in (keep or {}).items() if k in ("deal", "deal_round", "first_player")}


def _redisplay(
    request: HtmxHttpRequest,
    game_id: uuid.UUID,
    *,
    error: str | None = None,
    notice: str | None = None,
    keep: Mapping[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The table as it stands now, after a POST."""
    game = _load(request, game_id)
    if not keep:
        keep = _stashed_deal(request, game_id)
    return _render_table(request, game, error=error, notice=notice, keep=keep, status=status)


def _render_table(
    request: HtmxHttpRequest,
    game: GameProjection,
    *,
    error: str | None = None,
    notice: str | None = None,
    keep: Mapping[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    if not services.game_sees_hands(game=game, user=request.user):
        return _forbidden(request, gettext(HANDS_HIDDEN))  # the page shows the hand to be played
    seating = policy.seating(game)  # which tournament table, and who may play first
    context = table_context(game, error=error, notice=notice, keep=keep or {}, seating=seating)
    context["phones"] = _phones(game)
    context["undo_requests"] = undo_asks(game, services.game_undo_requests(game_id=game.stream_id))
    # Results taken back and nothing played since: the correction comes first (the results
    # form, filled in), not the empty deal grid.
    context["correcting"] = context.get("round_no") == 0 and withdrawn_entry(request, game)
    # The panel (and the turn banner out of band) for an htmx swap; the whole page otherwise.
    swap = bool(request.htmx) and request.method == "POST"
    template = "tricknchef/table.html#swap" if swap else "tricknchef/table.html"
    return render(request, template, context, status=status)


def _phones(game: GameProjection) -> list[tuple[int, str, str, int | None]]:
    """Each seat's phone view (for a seat without a phone at a mixed table: docs/scorekeeping.md)
    and, while the table waits for a deal, how many cards its phone has tapped in."""
    deal = deals.deal_round(game) if not game.results_only else None
    return [
        (
            seat,
            player,
            reverse("seat:official", args=[game.stream_id, seat]),
            len(deal.hands.get(seat, ())) if deal is not None else None,
        )
        for seat, player in enumerate(game.players, start=1)
    ]


def _stash_deal_before_undo(request: HttpRequest, game_id: uuid.UUID, version: int) -> None:
    """If the undo takes back a deal, keep its hands in the session for the deal form."""
    game = _load(request, game_id)
    if game.version != version or game.results_only:
        return
    state = state_of(game)
    if state.phase is not Phase.CHEF_PICK or state.picked:
        return
    seats = {card: state.seat[p] for p, hand in state.hands.items() for card in hand}
    _stash_deal(request, game_id, state.round_no, state.first_player, seats)


def _stash_deal(
    request: HttpRequest,
    game_id: uuid.UUID,
    round: int,
    first_player: str | None,
    seats: Mapping[str, int],
) -> None:
    """Keep a deal (card -> seat) in the session: the deal form offers it again until a deal is
    recorded."""
    request.session[DEAL_STASH.format(game_id=game_id)] = {
        "deal_round": round,
        "first_player": first_player,
        "deal": dict(seats),
    }


def _stashed_deal(request: HttpRequest, game_id: uuid.UUID) -> dict[str, Any]:
    stash = request.session.get(DEAL_STASH.format(game_id=game_id))
    return dict(stash) if isinstance(stash, dict) else {}
