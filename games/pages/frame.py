"""The frame of the pages a game fills in through a :class:`Presenter` (:class:`PresenterPages`;
the club games' pages: Food Truck, Chefs, Crazy Kitchen): the scorekeeper's table page with its
results-only form, play-by-play entry and undo, the public replay, and the score sheet. What
differs from game to game is its presenter (in games/<game>/pages.py): the state in words, the
forms, the replay's table.

The conventions are Trick-n-Chef's table page's (games/tricknchef/table_views.py): every
write is a POST with the version the page was rendered at and a fresh idempotency key; with
htmx the answer is the panel (``table/game.html#swap``), without it a POST/redirect/GET; a
refusal is 422 with the rule's words above the form and the input kept, a conflict 409 with the
table as it stands, a write the user may not make 403. The services decide who may write
(games.policy).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from django import forms
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from games import policy, services
from games.gametypes import GAME_TYPES, GameType
from games.models import GameProjection
from games.pages import SheetLayout
from games.places import place_words
from games.projection import FINISHED, VOID, GameView
from games.refusals import refusal_message
from games.table.forms import ActionForm, CorrectionForm, UndoForm
from games.table.views import (
    BAD_FORM,
    CONFLICT,
    KEY_REUSED,
    correctable,
    results_closed,
    withdrawn_entry,
)
from games.views_public import GAME_STATUS
from games.words import word_list


class EntryProblem(Exception):
    """A play-by-play form that cannot become an event (a blank, a word for a number): said in
    the user's words, 422, nothing sent to the store."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# ----------------------------------------------------------------------------- page records


@dataclass(frozen=True, slots=True)
class StateTable:
    """A table of the game's state for the templates: a caption, column headings, rows (the
    first cell of a row is its heading)."""

    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class RankRow:
    place: str
    name: str
    points: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Control:
    """One play-by-play button: it posts ``event`` (the record event's JSON) as is; the referee
    checks it when it is appended."""

    label: str
    event: str
    group: str = ""


@dataclass
class Controls:
    """What the table page offers to enter next: buttons (legal moves) and/or a form (a round's
    open choices), drawn by the game's template (``form`` is the game's own fields)."""

    title: str
    buttons: list[Control] = field(default_factory=list)
    form: str = ""
    """The name of the game template's form partial to draw (empty: none)."""
    data: dict[str, Any] = field(default_factory=dict)


class Presenter(Protocol):
    """One game's part of its pages."""

    key: str
    template: str
    """The game's partials for the table page: ``state`` and ``controls`` (and forms); a
    template in its package (``"foodtruck/table.html"``: games/foodtruck/templates/, found by
    games.template_loader)."""

    def turn(self, state: Any, summary: Mapping[str, Any]) -> tuple[str, str]:
        """Headline and detail: whose turn it is and what is expected, in words."""
        ...

    def describe(self, event: Mapping[str, Any]) -> str:
        """One record event in words (the replay's lines, the undo button)."""
        ...

    def state_tables(self, state: Any, summary: Mapping[str, Any]) -> list[StateTable]:
        """The game's state now (the table page and each step of the replay)."""
        ...

    def result_tables(self, summary: Mapping[str, Any]) -> list[StateTable]:
        """A finished game's figures (a results-only entry, or the end of a game)."""
        ...

    def points_words(self, points: int) -> str: ...

    def controls(
        self, state: Any, keep: Mapping[str, Any], first_player: str | None
    ) -> Controls | None:
        """What to enter next, play by play (None: nothing, or not offered for this game).
        ``first_player``: the only first player of round 1 the game's seating accepts (a
        tournament table's seat 1), if it says so."""
        ...

    def event_from_post(self, state: Any, post: QueryDict) -> dict[str, Any]:
        """A play-by-play form's event (raises EntryProblem)."""
        ...

    def results_form(
        self, state: Any, players: Sequence[str], data: QueryDict | None
    ) -> ResultsForm: ...

    def results_intro(self, state: Any, players: Sequence[str]) -> dict[str, Any]:
        """What the results page shows above the form (Crazy Kitchen: who cooks each round)."""
        ...

    def sheet(self, names: Sequence[str]) -> SheetLayout: ...


def score_field(label: str, missing: str, not_whole: str, negative: str) -> forms.IntegerField:
    """A results form's box for one whole number, 0 or more, each problem in its own words
    (already translated: each game says its own)."""
    return forms.IntegerField(
        label=label,
        min_value=0,
        error_messages={"required": missing, "invalid": not_whole, "min_value": negative},
        widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 3}),
    )


class ResultsForm(ActionForm):
    """A game's results-only form: its own fields besides the version and the key."""

    def entry(self) -> dict[str, Any]:
        """The game's results entry from the cleaned data."""
        raise NotImplementedError

    def values(self, entry: Mapping[str, Any]) -> dict[str, Any]:
        """The form's boxes filled in with a results entry of the game (the one a correction
        took back), by field name: the reverse of :meth:`entry`."""
        raise NotImplementedError

    def sheet_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name not in ActionForm.base_fields]


# ----------------------------------------------------------------------------- the pages


@dataclass(frozen=True, slots=True)
class _Failed:
    """A write the services did not make, as the page answers it."""

    message: str
    status: int
    """403: not allowed; 409: someone else changed the table (or the form was sent before);
    422: the rules refused it."""


def _attempt(call: Callable[[], services.GameChange]) -> _Failed | None:
    """Make a write; None when it went through. A game that is not there is a 404."""
    try:
        call()
    except services.NotAllowed as refusal:
        return _Failed(refusal.message, 403)
    except services.GameNotFound:
        raise Http404("there is no such game") from None
    except services.Conflict:
        return _Failed(_(CONFLICT), 409)
    except services.KeyReused:
        return _Failed(_(KEY_REUSED), 409)
    except services.GameError as refused:
        return _Failed(refusal_message(refused), 422)
    return None


class PresenterPages:
    """games.pages.GamePages for a game with a :class:`Presenter`."""

    def __init__(self, presenter: Presenter) -> None:
        self.p = presenter

    @property
    def kind(self) -> GameType:
        return GAME_TYPES[self.p.key]

    # --------------------------------------------------------------- table page

    def enter(self, request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
        game = self._load(request, game_id)
        refusal = _write_refusal(game, request)
        if refusal is not None:
            return _forbidden(request, refusal)
        return self._render(request, game)

    def undo(self, request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
        game = self._load(request, game_id)
        form = UndoForm(request.POST)
        if not form.is_valid():
            return self._redisplay(request, game_id, error=_(BAD_FORM), status=422)
        data = form.cleaned_data
        return self._write(
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
            # Taking back a results entry is the first half of a correction: the answer is the
            # results form, filled in with what was entered.
            done=reverse("table:results", args=[game_id]) if game.results_only else None,
        )

    def event(self, request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
        """A play-by-play entry: a button's event (``event``: its JSON) or the game's form."""
        game = self._load(request, game_id)
        form = ActionForm(request.POST)
        keep = {k: v for k, v in request.POST.items() if k not in ("csrfmiddlewaretoken", "key")}
        if not form.is_valid():
            return self._redisplay(request, game_id, error=_(BAD_FORM), status=422)
        state = self.kind.restore(game.snapshot or {})
        try:
            event = _posted_event(request.POST) or self.p.event_from_post(state, request.POST)
        except EntryProblem as problem:
            return self._redisplay(request, game_id, error=problem.message, keep=keep, status=422)
        if event.get("type") not in self.kind.record_types or event["type"] == "game_started":
            return self._redisplay(request, game_id, error=_(BAD_FORM), status=422)
        data = form.cleaned_data
        return self._write(
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

    def results(self, request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
        game = self._load(request, game_id)
        state = self.kind.restore(game.snapshot or {})
        players = list(game.players)
        posted = request.POST if request.method == "POST" else None
        form = self.p.results_form(state, players, posted)
        errors: list[str] = []
        status = 200
        withdrawn = None
        # Results recorded: the form is their correction, filled in with them (the retraction
        # and the corrected entry at once: games.services.game_correct_results).
        correcting, reason = CorrectionForm(request.POST).wanted()
        if request.method == "GET":
            refusal = _write_refusal(game, request)
            if refusal is not None:
                return _forbidden(request, refusal)
            correcting = correctable(game)
            if correcting:
                recorded = services.game_view(game_id=game_id, user=request.user).results
                form.initial.update(form.values(recorded or {}))
            else:
                withdrawn = withdrawn_entry(request, game)
                if withdrawn is not None:
                    form.initial.update(form.values(withdrawn))
        elif not form.is_valid():
            status = 422
        else:
            version, key = form.cleaned_data["version"], form.cleaned_data["key"]

            def call() -> services.GameChange:
                if correcting:
                    return services.game_correct_results(
                        game_id=game_id,
                        expected_version=version,
                        reason=reason,
                        entry=form.entry(),
                        user=request.user,
                        idempotency_key=key,
                    )
                return services.game_enter_results(
                    game_id=game_id,
                    expected_version=version,
                    entry=form.entry(),
                    user=request.user,
                    idempotency_key=key,
                )

            failed = _attempt(call)
            if failed is None:
                return _see_other(_page_url(game_id))
            if failed.status == 403:
                return _forbidden(request, failed.message)
            errors, status = [failed.message], failed.status
            if status == 409:  # the table as it stands now
                game = self._load(request, game_id)
                correcting = correctable(game)
        context = {
            "game": game,
            "game_id": game_id,
            "game_name": self.kind.name,
            "names": word_list(players),
            "form": form,
            "fields": form.sheet_fields(),
            "errors": errors,
            "invalid": status == 422 and not errors,
            "version": game.version,
            "key": uuid.uuid4(),
            "closed": None if correcting else results_closed(game),
            "prefilled": withdrawn is not None and not results_closed(game),
            "correcting": correcting,
            "reason": reason,
            "intro": self.p.results_intro(state, players),
            "template": self.p.template,
        }
        return render(request, "table/game_results.html", context, status=status)

    # --------------------------------------------------------------- replay

    def replay(self, request: HttpRequest, game_id: uuid.UUID, view: GameView) -> HttpResponse:
        game = services.game_get(game_id=game_id, user=request.user)
        events = view.record_events
        results_only = view.results is not None
        steps = len(events) - 1 if not results_only else 0
        number = max(0, min(_step_number(request), steps))
        step_state = self.kind.new_state()
        for obj in events[: number + 1]:
            self.kind.step(step_state, self.kind.parse(obj))  # accepted once: accepted again
        may_export = services.game_may_export(game=game, user=request.user)
        seating = policy.seating(game)
        context = {
            "game_id": game_id,
            "game_name": self.kind.name,
            "players": view.players,
            "status": view.status,
            "status_label": GAME_STATUS.get(view.status, view.status),
            "finished": view.status == FINISHED,
            "void": view.status == VOID,
            "void_reason": view.voided or "",
            "results_only": results_only,
            "ranking": self.ranking(view.summary) if view.status == FINISHED else [],
            "result_tables": self.p.result_tables(view.summary) if view.status == FINISHED else [],
            "lines": [(n, self.p.describe(obj)) for n, obj in enumerate(events[1:], start=1)]
            if not results_only
            else [],
            "step": number,
            "last": steps,
            "previous": number - 1 if number > 0 else None,
            "next": number + 1 if number < steps else None,
            "step_line": self.p.describe(events[number]) if number else "",
            "step_tables": self.p.state_tables(step_state, self.kind.summary(step_state))
            if not results_only
            else [],
            "record_url": reverse("api:game-record", kwargs={"game_id": game_id})
            if not results_only and len(events) > 1 and may_export
            else "",
            "url": request.path,
            "trail": seating.trail if seating is not None else (),
            "clock_url": seating.clock if seating is not None else "",
        }
        response = render(request, "public/game_replay_steps.html", context)
        patch_vary_headers(response, ["HX-Request"])
        return response

    def sheet(self, names: Sequence[str]) -> SheetLayout:
        return self.p.sheet(names)

    # --------------------------------------------------------------- spectator panel

    def live(self, view: GameView, *, big: bool = False) -> str:
        """A spectator's panel (games.pages.GamePages.live): what the game's public replay shows
        of its state at the version shown (whose turn, the game's state tables: these games
        keep nothing secret in their records), and once it is over its result."""
        void = view.status == VOID
        finished = view.status == FINISHED
        results_only = view.results is not None
        if void:
            turn = (_("This game was voided"), view.voided or "")
        elif results_only:
            turn = (_("Results entered: the game is over"), "")
        elif finished:
            turn = (_("Game over"), "")
        else:
            turn = self.p.turn(view.state, view.summary)
        context = {
            "turn": turn,
            "big": big,
            "tables": self.p.state_tables(view.state, view.summary)
            if not results_only and not finished and not void
            else [],
            "result_tables": self.p.result_tables(view.summary) if finished else [],
            "ranking": self.ranking(view.summary) if finished else [],
        }
        return render_to_string("public/relay_game.html", context)

    # --------------------------------------------------------------- plumbing

    def ranking(self, summary: Mapping[str, Any]) -> list[RankRow]:
        placements = self.kind.placements(summary) if summary.get("ranking") else []
        ranks = [p.rank for p in placements]
        return [
            RankRow(
                place=place_words(p.rank, ranks.count(p.rank) > 1),
                name=p.player,
                points=self.p.points_words(p.points),
            )
            for p in placements
        ]

    def _load(self, request: HttpRequest, game_id: uuid.UUID) -> GameProjection:
        try:
            game = services.game_get(game_id=game_id, user=request.user)
        except services.GameNotFound:
            raise Http404("there is no such game") from None
        if game.game_type != self.p.key:
            raise Http404("not a game of this type")
        return game

    def _write(
        self,
        request: HttpRequest,
        game_id: uuid.UUID,
        call: Callable[[], services.GameChange],
        keep: Mapping[str, Any] | None = None,
        *,
        done: str | None = None,
    ) -> HttpResponse:
        """Make the write; answer with the table (htmx) or a redirect to it (or to ``done``, if
        given), or with the refusal and the table unchanged."""
        failed = _attempt(call)
        if failed is not None and failed.status == 403:
            return _forbidden(request, failed.message)
        if failed is not None and failed.status == 409:
            return self._redisplay(request, game_id, notice=failed.message, status=409)
        if failed is not None:
            return self._redisplay(request, game_id, error=failed.message, keep=keep, status=422)
        if done is not None:
            if getattr(request, "htmx", False):
                return HttpResponseClientRedirect(done)
            return _see_other(done)
        if getattr(request, "htmx", False):
            return self._redisplay(request, game_id)
        return _see_other(_page_url(game_id))

    def _redisplay(
        self,
        request: HttpRequest,
        game_id: uuid.UUID,
        *,
        error: str | None = None,
        notice: str | None = None,
        keep: Mapping[str, Any] | None = None,
        status: int = 200,
    ) -> HttpResponse:
        game = self._load(request, game_id)
        return self._render(request, game, error=error, notice=notice, keep=keep, status=status)

    def _render(
        self,
        request: HttpRequest,
        game: GameProjection,
        *,
        error: str | None = None,
        notice: str | None = None,
        keep: Mapping[str, Any] | None = None,
        status: int = 200,
    ) -> HttpResponse:
        view = services.game_view(game_id=game.stream_id, user=request.user)
        context = self.table_context(view, game, error=error, notice=notice, keep=keep or {})
        # Results taken back and nothing played since: the correction comes first.
        context["correcting"] = len(view.effective) == 1 and withdrawn_entry(request, game)
        swap = bool(getattr(request, "htmx", False)) and request.method == "POST"
        template = "table/game.html#swap" if swap else "table/game.html"
        return render(request, template, context, status=status)

    def table_context(
        self,
        view: GameView,
        game: GameProjection,
        *,
        error: str | None,
        notice: str | None,
        keep: Mapping[str, Any],
    ) -> dict[str, Any]:
        void = view.status == VOID
        results_only = view.results is not None
        finished = view.status == FINISHED
        seating = policy.seating(game)
        events = view.record_events
        if void:
            turn = (_("This game was voided"), _("Nothing more can be recorded."))
        elif results_only:
            turn = (_("Results entered: the game is over"), "")
        else:
            turn = self.p.turn(view.state, view.summary)
        if void:
            undo = None
        elif results_only:
            undo = _("the results entered")
        elif len(events) > 1:
            undo = self.p.describe(events[-1])
        else:
            undo = None
        controls = None
        if not void and not results_only and not finished:
            first = seating.first_player if seating is not None else None
            controls = self.p.controls(view.state, keep, first)
        return {
            "game": game,
            "game_id": game.stream_id,
            "game_name": self.kind.name,
            "template": self.p.template,
            "version": view.version,
            "names": word_list(view.players or game.players),
            "where": seating.where if seating else "",
            "clock_url": seating.clock if seating else "",
            "void": void,
            "results_only": results_only,
            "finished": finished,
            "error": error,
            "notice": notice,
            "action_key": uuid.uuid4(),
            "undo_key": uuid.uuid4(),
            "undo_label": undo,
            "turn": turn,
            "controls": controls,
            "controls_form": f"{self.p.template}#{controls.form}"
            if controls is not None and controls.form
            else "",
            "keep": keep,
            "tables": self.p.state_tables(view.state, view.summary)
            if not results_only and not finished
            else [],
            "result_tables": self.p.result_tables(view.summary) if finished else [],
            "ranking": self.ranking(view.summary) if finished else [],
            "can_enter_results": not void and not results_only and not finished,
        }


# ----------------------------------------------------------------------------- helpers


def _posted_event(post: QueryDict) -> dict[str, Any] | None:
    """A button's event, if the form posted one (its JSON, as the page rendered it)."""
    raw = post.get("event")
    if raw is None:
        return None
    try:
        event = json.loads(raw)
    except ValueError:
        raise EntryProblem(_(BAD_FORM)) from None
    if not isinstance(event, dict):
        raise EntryProblem(_(BAD_FORM))
    return event


def event_json(event: Mapping[str, Any]) -> str:
    return json.dumps(dict(event), separators=(",", ":"), ensure_ascii=False)


def _step_number(request: HttpRequest) -> int:
    try:
        return max(0, int(request.GET.get("step", "0")))
    except ValueError:
        return 0


def _page_url(game_id: uuid.UUID) -> str:
    return reverse("table:enter", args=[game_id])


def _see_other(url: str) -> HttpResponse:
    response = HttpResponseRedirect(url)
    response.status_code = 303
    return response


def _write_refusal(game: GameProjection, request: HttpRequest) -> str | None:
    try:
        services.game_check_write(game_id=game.stream_id, user=request.user)
    except services.NotAllowed as refusal:
        return refusal.message
    return None


def _forbidden(request: HttpRequest, message: str) -> HttpResponse:
    template = "table/forbidden.html"
    if getattr(request, "htmx", False) and request.method == "POST":
        template += "#panel"
    return render(request, template, {"message": message}, status=403)


def whole_numbers(text: str, what: str) -> tuple[int, ...]:
    """Numbers typed in one box, separated by spaces or commas ("3 2 5"); EntryProblem
    otherwise."""
    parts = text.replace(",", " ").split()
    if not all(p.isdigit() for p in parts):
        raise EntryProblem(
            _("%(what)s: write whole numbers separated by spaces, such as 3 2 5.") % {"what": what}
        )
    return tuple(int(p) for p in parts)
