"""The seat-phone frame, the same for every game (docs/scorekeeping.md, "Phones at the table"):
its player enters their own game on their own phone; the game's panel (games.phone.panel, named
by ``GameType.phone``) says what the seat sees and which taps it posts.

Two doors to one page. ``/seat/<token>/``: the seat link (games.seats), no account needed; the
token is the credential, so these answers carry ``Referrer-Policy: no-referrer`` and are never
cached. ``/table/<game>/seat/<n>/``: the table's officials (who see the hands: games/hands.py)
open any seat's phone view, to enter a seat without a phone at a mixed table.

Thin typed function views: parse, call a service (games.services: seat_open, game_append),
render the panel's record. The page's script (static/js/seat.js) polls ``state/`` with the ETag
it last got (304 when nothing changed: the token check and one query) and posts each tap to one
of the panel's actions (``<page>/<action>/``: Trick-n-Chef's ``hand/``, ``first/``, ``act/``);
its answer is the live panel with a truthful status (409 a conflict, 422 a refusal in the
rule's words, 403 not allowed). Without JavaScript the same forms post and the browser is sent
back to the page. A game without a panel (``GameType.phone`` None) opens a page that says its
table's scorekeeper enters it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext, gettext_noop
from django.views.decorators.http import require_GET, require_POST

from games import policy, services
from games.gametypes import GAME_TYPES
from games.models import GameProjection
from games.phone.panel import Append, Panel, Save, SeatNow, SeatView, Tap, panel_for, seats_of
from games.phone.undo import undo_offer
from games.recent import Recent
from games.refusals import refusal_message
from games.seats import SeatAccess
from games.services import drafts
from games.words import word_list

CONFLICT = gettext_noop("Someone else entered this first; here is the table as it stands now.")
KEY_REUSED = gettext_noop(
    "This tap was already sent with other content; here is the table as it stands now."
)
BAD_FORM = gettext_noop(
    "The tap arrived incomplete; here is the table as it stands now: tap again."
)
FETCH = "X-Seat-Fetch"
"""Header seat.js sends: answer with the live panel, not a redirect."""
REFUSAL = "X-Seat-Refusal"
"""Header of a refused tap's answer: the refusal's stable code (``queued_early``, ``conflict``,
a rule's code...), which tells the phone's outbox what to do with the tap (static/js/seat.js)."""
HANDS_HIDDEN = gettext_noop(
    "A seat's phone view shows that player's hand: only the game's officials (its creator or "
    "staff; at a tournament, its organizers and scorekeepers) open it without the seat's link."
)


@dataclass(frozen=True, slots=True)
class Phone:
    """Who is entering: a seat link's phone, or an official standing in for a seat."""

    access: SeatAccess
    base: str
    """The page's address; its endpoints are below it."""
    user: Any = None
    """The official (None: the seat link is the credential)."""
    read: tuple[int, drafts.Stamp] | None = None
    """(the focus seat, its stamp) as read with the seat link, at the request's start."""

    @property
    def tag(self) -> str:
        seats = ",".join(str(s) for s, _ in self.access.acts_for)
        return f"{self.access.link_id}:{seats}"


def _private(response: HttpResponse) -> HttpResponse:
    """The token is in the address: never cached, never sent on as a referrer."""
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex"
    return response


def _closed(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return _private(render(request, "phone/closed.html", {"message": message}, status=status))


def _by_token(request: HttpRequest, token: str, *, opened: bool = False) -> Phone | HttpResponse:
    try:
        # A tap: the poll's one query reads the link, and the stamp of its focus seat
        # (opening the page also notes the phone).
        if opened:
            access, read = services.seat_open(token, opened=True), None
        else:
            raw = request.GET.get("as") or request.POST.get("as") or ""
            polled = services.seat_poll(token, int(raw) if raw.isdigit() else None)
            access = polled.access
            read = (int(raw) if raw.isdigit() else access.seat, polled.stamp)
    except services.NotAllowed as revoked:
        return _closed(request, revoked.message, 403)
    except services.GameNotFound as unknown:
        return _closed(request, unknown.message, 404)
    return Phone(access, reverse("seat:page", args=[token]), read=read)


def _by_official(request: HttpRequest, game_id: uuid.UUID, seat: int) -> Phone | HttpResponse:
    if not request.user.is_authenticated:
        if request.method == "GET":
            return redirect_to_login(request.path)
        return _closed(request, gettext("Your session has ended: log in again."), 403)
    try:
        game = services.game_get(game_id=game_id, user=request.user)
    except services.GameNotFound:
        raise Http404("there is no such game") from None
    if not services.game_sees_hands(game=game, user=request.user):
        return _closed(request, gettext(HANDS_HIDDEN), 403)
    players = list(game.players)
    if not 1 <= seat <= len(players):
        raise Http404("this table has no such seat")
    access = SeatAccess(game_id, seat, players[seat - 1], ((seat, players[seat - 1]),), 0)
    return Phone(access, reverse("seat:official", args=[game_id, seat]), request.user)


def _focus(request: HttpRequest, phone: Phone) -> int:
    raw = request.GET.get("as") or request.POST.get("as") or ""
    return int(raw) if raw.isdigit() else phone.access.seat


WHERE_SECONDS = 30
"""How long a phone's "where" line is kept: every panel of every phone shows it, and a
tournament, round and table do not move once the table is published (a renamed tournament shows
on the phones within this time)."""


def _where(game: GameProjection) -> str:
    """ "Club night · round 2 · table 3", in the reader's language: one query per table and
    language per WHERE_SECONDS instead of one at every panel (the phones' panels are the
    site's most frequent page: issue 12's load)."""
    key = f"phone-where:{game.stream_id}:{get_language()}"
    where = cache.get(key)
    if where is None:
        seating = policy.seating(game)
        where = seating.where if seating else ""
        cache.set(key, where, WHERE_SECONDS)
    return str(where)


class _States:
    """The games' states as the phones last drew them, kept in this process: every phone of a
    table redraws its panel after each tap, from the same snapshot, and a club game's snapshot
    is its whole record (games/gametypes/engine_backed.py), replayed at each restore. A state is
    reused only for an equal snapshot of the same game at the same version (a restore is a
    function of its snapshot); the panels only read it. ``games``: how many (games.recent)."""

    def __init__(self, games: int = 512) -> None:
        self._kept: Recent[uuid.UUID, tuple[str, int, Any, Any]] = Recent(games)

    def restore(self, game: GameProjection) -> Any:
        held = self._kept.get(game.stream_id)
        if held and held[:2] == (game.game_type, game.version) and held[2] == game.snapshot:
            return held[3]
        kind = GAME_TYPES[game.game_type]
        state = kind.restore(game.snapshot) if game.snapshot else kind.new_state()
        self._kept.put(game.stream_id, (game.game_type, game.version, game.snapshot, state))
        return state


_STATES = _States()


def _written(
    phone: Phone, focus: int, change: services.GameChange | None
) -> tuple[GameProjection, drafts.Stamp] | None:
    """The game as the phone's own write just saved it, and a stamp no newer than it: its
    version, and the drafts' part as read with the link at the request's start (a draft
    changed since makes the next poll redraw, never the reverse). None: read them again."""
    if change is None or change.projection is None or phone.read is None:
        return None
    seat, stamp = phone.read
    game = change.projection
    if seat != focus or game.version != change.version or stamp[0] > game.version:
        return None
    # As a read gives it back: the JSON text's values (lists, string keys), not the engine's.
    game.snapshot = json.loads(json.dumps(game.snapshot))
    game.summary = json.loads(json.dumps(game.summary))
    return game, (game.version, stamp[1])


def _context(
    phone: Phone,
    focus: int,
    *,
    error: str = "",
    notice: str = "",
    refused_key: str = "",
    written: services.GameChange | None = None,
) -> tuple[dict[str, Any], tuple[int, str], Panel | None]:
    """The panel's context, the stamp of what it shows (its ETag's), and the game's panel
    (None: the game has no phones yet, and the context is the page that says so).
    ``written``: the phone's own write, whose projection is drawn without a read."""
    game, stamp = _written(phone, focus, written) or drafts.table_stamped(
        phone.access.game_id, focus
    )
    panel = panel_for(game.game_type)
    if panel is None:
        return _no_panel_context(phone, game), stamp, None
    state = _STATES.restore(game)
    closed = ""
    if game.status == GameProjection.Status.VOID:
        closed = gettext("This game was voided by the organizer: nothing more can be entered.")
    elif game.results_only:
        closed = gettext("This table's results were entered from its score sheet.")
    # A seat link's phone undoes its own taps and answers the others' requests; an official
    # has the table page's undo.
    undo = None if phone.user else services.seat_undo_options(game=game, seat=phone.access.seat)
    seats = seats_of(phone.access.acts_for, focus)
    now = SeatNow(game, state, seats, closed=closed, official=phone.user is not None)
    shown = panel.view(now)
    names = dict(enumerate(game.players, start=1))
    view = SeatView(
        me=seats[0],
        seats=seats,
        version=game.version,
        headline=shown.headline,
        waiting_for=shown.waiting_for,
        phase=shown.phase,
        round=shown.round,
        closed=closed,
        undo=undo_offer(undo, seats[0].seat, names, panel.tap_words) if undo else None,
    )
    where = _where(game)
    context = {
        "view": view,
        "panel": shown.panel,
        "panel_template": panel.template,
        "focus": now.focus.seat,
        "phone": phone,
        "names": word_list(game.players),
        "where": where,
        "error": error,
        "notice": notice,
        "refused_key": refused_key,
        "key": uuid.uuid4(),
        "official": phone.user is not None,
        "seat_texts": {**seat_texts(), **panel.texts()},
    }
    return context, stamp, panel


def _no_panel_context(phone: Phone, game: GameProjection) -> dict[str, Any]:
    """The page of a seat link whose game has no phones yet: what the link is, who enters the
    game, the table and the seat."""
    return {
        "game_name": GAME_TYPES[game.game_type].name,
        "player": phone.access.player,
        "seat": phone.access.seat,
        "names": word_list(game.players),
        "where": _where(game),
        # The address holds the token: the layout's login link goes to the home page, never
        # back to it; the language chooser (a GET on this site) comes back to it.
        "login_next": reverse("home"),
        "language_next": phone.base,
    }


def seat_texts() -> dict[str, str]:
    """What static/js/seat.js writes itself (the outbox of taps not sent yet), in the page's
    language; ``%(name)s`` is filled in by the script. The panel adds its own
    (games.phone.panel.Panel.texts)."""
    return {
        "notSent": gettext("Not sent yet: %(tap)s"),
        "notSentWaiting": gettext("Not sent yet: %(tap)s (waits for its turn)"),
        "notRecorded": gettext("Not recorded: %(tap)s"),
        "refused": gettext("Refused: %(reason)s"),
        "refusedTap": gettext("the rules refused this tap"),
        "dropTap": gettext("Drop this tap"),
        "undoOutbox": gettext(
            "Your taps not sent yet go first: wait until they are sent (or drop them), then undo."
        ),
    }


def _etag(phone: Phone, focus: int, stamp: tuple[int, str]) -> str:
    raw = f"{phone.tag}|{focus}|{stamp[0]}|{stamp[1]}"
    return '"' + hashlib.blake2s(raw.encode(), digest_size=12).hexdigest() + '"'


def _panel(
    request: HttpRequest,
    phone: Phone,
    *,
    status: int = 200,
    error: str = "",
    notice: str = "",
    refused_key: str = "",
    code: str = "",
    written: services.GameChange | None = None,
) -> HttpResponse:
    """The live panel (a fetch), or the whole page (a plain form's refusal), with the ETag of
    what it shows; ``code``: a refusal's, for the script (``X-Seat-Refusal``); ``written``: the
    phone's own write just done (its projection is drawn, not read again)."""
    focus = _focus(request, phone)
    try:
        context, stamp, panel = _context(
            phone, focus, error=error, notice=notice, refused_key=refused_key, written=written
        )
    except services.GameNotFound:
        raise Http404("there is no such game") from None
    if panel is None:
        return _private(render(request, "phone/no_panel.html", context))
    fetch = request.headers.get(FETCH)
    tag = _etag(phone, focus, stamp) if status == 200 else ""
    # The whole page carries its panel's ETag too: the script's first poll is then a 304, not
    # a redraw of what the page already shows.
    context["etag"] = tag
    response = render(
        request, panel.template if fetch else "phone/seat.html", context, status=status
    )
    if tag:
        response["ETag"] = tag
    if code:
        response[REFUSAL] = code
    return _private(response)


def _page(request: HttpRequest, phone: Phone | HttpResponse) -> HttpResponse:
    if isinstance(phone, HttpResponse):
        return phone
    return _panel(request, phone)


def _poll(
    request: HttpRequest, phone: Phone | HttpResponse, stamp: tuple[int, str] | None = None
) -> HttpResponse:
    """The live panel, or 304 when neither the game nor a hand changed since the phone's ETag.
    ``stamp``: already read (a seat link's poll reads it with the link, in one query)."""
    if isinstance(phone, HttpResponse):
        return phone
    focus = _focus(request, phone)
    stamp = stamp or drafts.table_stamp(phone.access.game_id, focus)
    if stamp is None:
        raise Http404("there is no such game")
    tag = _etag(phone, focus, stamp)
    if request.headers.get("If-None-Match") == tag:
        response = HttpResponse(status=304)
        response["ETag"] = tag
        return _private(response)
    return _panel(request, phone)


def _done(
    request: HttpRequest, phone: Phone, written: services.GameChange | None = None
) -> HttpResponse:
    if request.headers.get(FETCH):
        return _panel(request, phone, written=written)
    url = phone.base + (f"?as={_focus(request, phone)}" if request.POST.get("as") else "")
    response = HttpResponseRedirect(url)
    response.status_code = 303
    return _private(response)


def _int(request: HttpRequest, name: str) -> int | None:
    raw = request.POST.get(name, "")
    try:
        return int(raw)
    except ValueError:
        return None


def _write(
    request: HttpRequest,
    phone: Phone,
    call: Any,
    done: Callable[[], HttpResponse] | None = None,
) -> HttpResponse:
    """Call the service; a refusal answers the panel with its status, success ``done()`` (by
    default the panel, or the page again without JavaScript)."""
    key = request.POST.get("key", "")
    try:
        call()
    except services.NotAllowed as refusal:
        return _panel(request, phone, status=403, error=refusal.message, code=refusal.code)
    except services.GameNotFound:
        raise Http404("there is no such game") from None
    except (services.Conflict, services.Overtaken) as conflict:
        return _panel(request, phone, status=409, notice=gettext(CONFLICT), code=conflict.code)
    except services.KeyReused as reused:
        return _panel(request, phone, status=409, notice=gettext(KEY_REUSED), code=reused.code)
    except services.GameError as refused:  # a rule's refusal (services.Refused among them)
        if refused.code == services.QUEUED_EARLY:  # the phone keeps it and sends it again
            return _panel(
                request, phone, status=409, notice=refusal_message(refused), code=refused.code
            )
        return _panel(
            request,
            phone,
            status=422,
            error=refusal_message(refused),
            refused_key=key,
            code=refused.code,
        )
    return done() if done is not None else _done(request, phone)


@functools.lru_cache(maxsize=4096)
def _game_type(game_id: uuid.UUID) -> str:
    """A table's game type (it never changes): a tap finds its game's panel without a query."""
    found = GameProjection.objects.filter(stream_id=game_id).values_list("game_type", flat=True)
    for kind in found:
        return str(kind)
    raise services.GameNotFound(gettext("there is no game %(game)s") % {"game": game_id})


def _actions() -> frozenset[str]:
    """The actions of every registered game's panel (read at each tap, not kept: a game may be
    registered later, as the tests' toy game is)."""
    panels = (panel_for(key) for key in GAME_TYPES)
    return frozenset(name for panel in panels if panel is not None for name in panel.actions)


def _known(request: HttpRequest, name: str) -> HttpResponse | None:
    """An address no game's phone posts to is no page (404), whoever asks; a known one takes
    POST only (405, as ``require_POST``), before the seat link is read."""
    if name not in _actions():
        raise Http404("there is no such page")
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    return None


def _action(request: HttpRequest, phone: Phone | HttpResponse, name: str) -> HttpResponse:
    """A tap on one of the panel's actions (games.phone.panel.Panel.actions): the handler reads
    the form; an append goes through games.services.game_append with the frame's envelope
    (the version the phone saw, the tap's idempotency key, the seat), a save is the panel's
    own call; either's refusal answers the panel with its status."""
    if isinstance(phone, HttpResponse):
        return phone
    try:
        panel = panel_for(_game_type(phone.access.game_id))
    except services.GameNotFound:
        raise Http404("there is no such game") from None
    handler = panel.actions.get(name) if panel is not None else None
    if panel is None or handler is None:
        raise Http404("this game's phones have no such action")
    focus = seats_of(phone.access.acts_for, _focus(request, phone))
    tap = Tap(
        post=request.POST,
        access=phone.access,
        focus=next(s for s in focus if s.focus),
        official=phone.user,
        fetch=bool(request.headers.get(FETCH)),
    )
    asked = handler(panel, tap)
    if asked is None:
        return _panel(request, phone, status=422, error=gettext(BAD_FORM), code="bad_form")
    if isinstance(asked, Save):
        done = _stamp_only(request, phone) if asked.stamp_only else None
        return _write(request, phone, asked.call, done)
    return _append(request, phone, asked, panel.seat_plays)


def _append(
    request: HttpRequest, phone: Phone, asked: Append, seat_plays: frozenset[str]
) -> HttpResponse:
    version, key = _int(request, "version"), request.POST.get("key", "")
    if version is None or not key or len(key) > services.MAX_KEY:
        return _panel(request, phone, status=422, error=gettext(BAD_FORM), code="bad_form")
    # A tap the outbox sent late (queued=1) for a panel that gives it no slot (Append.queued
    # None) can only be recorded at the version it saw: once the table moved on it never will,
    # so it is answered as overtaken (the phone shows it not recorded, with the words why, and
    # holds nothing back), not as a conflict (which the outbox sends again, for ever).
    late = request.POST.get("queued") == "1" and asked.queued is None

    written: list[services.GameChange] = []

    def append() -> None:
        try:
            change = services.game_append(
                game_id=phone.access.game_id,
                expected_version=version,
                events=list(asked.events),
                seat=None if phone.user else phone.access,
                user=phone.user,
                idempotency_key=key,
                queued=asked.queued,
                forced=asked.forced,  # then what the rules leave no choice about records itself
                seat_plays=seat_plays,
            )
        except services.Conflict as conflict:
            if late:
                raise services.Overtaken(conflict.message) from None
            raise
        written.append(change)

    return _write(request, phone, append, lambda: _done(request, phone, written[0]))


def _stamp_only(request: HttpRequest, phone: Phone) -> Callable[[], HttpResponse]:
    """A success answered with the new stamp only (204 and its ETag): the phone painted the
    tap itself (games.phone.panel.Save.stamp_only)."""

    def done() -> HttpResponse:
        focus = _focus(request, phone)
        stamp = drafts.table_stamp(phone.access.game_id, focus)
        if stamp is None:
            raise Http404("there is no such game")
        response = HttpResponse(status=204)
        response["ETag"] = _etag(phone, focus, stamp)
        return _private(response)

    return done


def _undo(request: HttpRequest, phone: Phone | HttpResponse, which: str) -> HttpResponse:
    """Undo from the phone (games.services.undo): ``own`` its last tap, ``ask`` the table,
    ``answer`` another seat's request (``answer=accept`` or ``decline``)."""
    if isinstance(phone, HttpResponse):
        return phone
    version, key = _int(request, "version"), request.POST.get("key", "")
    if version is None or not key or len(key) > services.MAX_KEY or phone.user is not None:
        return _panel(request, phone, status=422, error=gettext(BAD_FORM), code="bad_form")
    access, game_id = phone.access, phone.access.game_id
    if which == "own":
        call: Callable[[], Any] = lambda: services.seat_undo(  # noqa: E731
            game_id=game_id, expected_version=version, seat=access, idempotency_key=key
        )
    elif which == "ask":
        call = lambda: services.seat_undo_request(  # noqa: E731
            game_id=game_id, expected_version=version, seat=access, idempotency_key=key
        )
    else:
        asked = _int(request, "request")
        if asked is None or request.POST.get("answer") not in ("accept", "decline"):
            return _panel(request, phone, status=422, error=gettext(BAD_FORM), code="bad_form")
        call = lambda: services.undo_request_answer(  # noqa: E731
            game_id=game_id,
            expected_version=version,
            request=asked,
            accept=request.POST.get("answer") == "accept",
            seat=access,
            idempotency_key=key,
        )
    return _write(request, phone, call)


# ----------------------------------------------------------------------------- the seat link


@require_GET
def page(request: HttpRequest, token: str) -> HttpResponse:
    return _page(request, _by_token(request, token, opened=True))


@require_GET
def state(request: HttpRequest, token: str) -> HttpResponse:
    # The hottest request of the site (every phone, twice a second): the link and the stamp in
    # one query (games.services.poll), then a 304 for nearly every answer.
    raw = request.GET.get("as") or ""
    try:
        polled = services.seat_poll(token, int(raw) if raw.isdigit() else None)
    except services.NotAllowed as revoked:
        return _closed(request, revoked.message, 403)
    except services.GameNotFound as unknown:
        return _closed(request, unknown.message, 404)
    phone = Phone(polled.access, reverse("seat:page", args=[token]))
    return _poll(request, phone, polled.stamp)


def action(request: HttpRequest, token: str, name: str) -> HttpResponse:
    """A tap on the panel's action ``name`` (Trick-n-Chef's ``hand``, ``first``, ``act``)."""
    return _known(request, name) or _action(request, _by_token(request, token), name)


@require_POST
def undo(request: HttpRequest, token: str) -> HttpResponse:
    return _undo(request, _by_token(request, token), "own")


@require_POST
def undo_ask(request: HttpRequest, token: str) -> HttpResponse:
    return _undo(request, _by_token(request, token), "ask")


@require_POST
def undo_answer(request: HttpRequest, token: str) -> HttpResponse:
    return _undo(request, _by_token(request, token), "answer")


# ----------------------------------------------------------------------------- an official


@require_POST
def official_answer(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """The table page's answer to a seat's undo request (an official: the right to correct
    the table); back to the table page, which says what came of it."""
    if not request.user.is_authenticated:
        return _closed(request, gettext("Your session has ended: log in again."), 403)
    version, asked = _int(request, "version"), _int(request, "request")
    key = request.POST.get("key", "")
    answer = request.POST.get("answer")
    back = reverse("table:enter", args=[game_id])
    if version is None or asked is None or not key or answer not in ("accept", "decline"):
        return HttpResponseRedirect(back, status=303)
    try:
        services.undo_request_answer(
            game_id=game_id,
            expected_version=version,
            request=asked,
            accept=answer == "accept",
            user=request.user,
            idempotency_key=key[: services.MAX_KEY],
        )
    except services.GameNotFound:
        raise Http404("there is no such game") from None
    except services.NotAllowed as refusal:
        return _closed(request, refusal.message, 403)
    except services.GameError as refused:  # moot or a conflict: the table page shows it now
        messages.warning(request, refusal_message(refused))
    return HttpResponseRedirect(back, status=303)


@require_GET
def official(request: HttpRequest, game_id: uuid.UUID, seat: int) -> HttpResponse:
    return _page(request, _by_official(request, game_id, seat))


@require_GET
def official_state(request: HttpRequest, game_id: uuid.UUID, seat: int) -> HttpResponse:
    return _poll(request, _by_official(request, game_id, seat))


def official_action(request: HttpRequest, game_id: uuid.UUID, seat: int, name: str) -> HttpResponse:
    return _known(request, name) or _action(request, _by_official(request, game_id, seat), name)
