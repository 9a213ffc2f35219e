"""A seat's phone: its player enters their own hand and their own plays (docs/scorekeeping.md,
"Phones at the table").

Two doors to one page. ``/seat/<token>/``: the seat link (games.seats), no account needed; the
token is the credential, so these answers carry ``Referrer-Policy: no-referrer`` and are never
cached. ``/table/<game>/seat/<n>/``: the table's officials (who see the hands: games/hands.py)
open any seat's phone view, to enter a seat without a phone at a mixed table.

Thin typed function views: parse, call a service (games.services: seat_open, deals, game_append),
render a presenter's record (games.phone.presenters). The page's script (static/js/seat.js)
polls ``state/`` with the ETag it last got (304 when nothing changed: the token check and one
query) and posts each tap to ``hand/``, ``first/`` or ``act/``; its answer is the live panel
with a truthful status (409 a conflict, 422 a refusal in the rule's words, 403 not allowed).
Without JavaScript the same forms post and the browser is sent back to the page.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext, gettext_noop
from django.views.decorators.http import require_GET, require_POST

from engine.tricknchef.cards import CARDS_PER_HAND
from engine.tricknchef.snapshot import from_snapshot
from engine.tricknchef.state import GameState
from games import policy, services
from games.gametypes import DEFAULT_GAME_TYPE
from games.models import GameProjection
from games.phone.presenters import phone_view
from games.refusals import refusal_message
from games.seats import SeatAccess
from games.tricknchef import deals

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
        # A tap: the poll's one query reads the link (opening the page also notes the phone).
        access = (
            services.seat_open(token, opened=True)
            if opened
            else services.seat_poll(token, None).access
        )
    except services.NotAllowed as revoked:
        return _closed(request, revoked.message, 403)
    except services.GameNotFound as unknown:
        return _closed(request, unknown.message, 404)
    return Phone(access, reverse("seat:page", args=[token]))


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


def _context(
    phone: Phone,
    focus: int,
    *,
    error: str = "",
    notice: str = "",
    refused_key: str = "",
) -> tuple[dict[str, Any], tuple[int, str]]:
    """The panel's context, and the stamp of what it shows (its ETag's)."""
    game, deal, stamp = deals.deal_table_stamped(phone.access.game_id, focus)
    if game.game_type != DEFAULT_GAME_TYPE:
        raise Http404("phones enter Trick-n-Chef tables only")
    state = from_snapshot(game.snapshot) if game.snapshot else GameState()
    closed = ""
    if game.status == GameProjection.Status.VOID:
        closed = gettext("This game was voided by the organizer: nothing more can be entered.")
    elif game.results_only:
        closed = gettext("This table's results were entered from its score sheet.")
    # A seat link's phone undoes its own taps and answers the others' requests; an official
    # has the table page's undo.
    undo = None if phone.user else services.seat_undo_options(game=game, seat=phone.access.seat)
    view = phone_view(
        state=state,
        version=game.version,
        acts_for=phone.access.acts_for,
        focus=focus,
        deal=deal,
        summary=game.summary or {},
        closed=closed,
        undo=undo,
    )
    where = _where(game)
    context = {
        "view": view,
        "focus": next(s.seat for s in view.seats if s.focus),
        "phone": phone,
        "names": ", ".join(game.players),
        "where": where,
        "error": error,
        "notice": notice,
        "refused_key": refused_key,
        "key": uuid.uuid4(),
        "official": phone.user is not None,
        "seat_texts": seat_texts(),
    }
    return context, stamp


def seat_texts() -> dict[str, str]:
    """What static/js/seat.js writes itself (the outbox of taps not sent yet), in the page's
    language; ``%(name)s`` is filled in by the script."""
    return {
        "handFull": gettext(
            "Your hand already has 10 cards: tap one of them to take it back first."
        ),
        "notSent": gettext("Not sent yet: %(tap)s"),
        "notSentWaiting": gettext("Not sent yet: %(tap)s (waits for its turn)"),
        "notRecorded": gettext("Not recorded: %(tap)s"),
        "firstPlayer": gettext("%(player)s plays first"),
        "refused": gettext("Refused: %(reason)s"),
        "refusedTap": gettext("the rules refused this tap"),
        "dropTap": gettext("Drop this tap"),
        "handNotSent": gettext("Not sent yet: your hand as tapped (it is kept on this phone)."),
        "withCoins": gettext("%(card)s with %(coins)s"),
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
) -> HttpResponse:
    """The live panel (a fetch), or the whole page (a plain form's refusal), with the ETag of
    what it shows; ``code``: a refusal's, for the script (``X-Seat-Refusal``)."""
    focus = _focus(request, phone)
    try:
        context, stamp = _context(phone, focus, error=error, notice=notice, refused_key=refused_key)
    except services.GameNotFound:
        raise Http404("there is no such game") from None
    fetch = request.headers.get(FETCH)
    tag = _etag(phone, focus, stamp) if status == 200 else ""
    # The whole page carries its panel's ETag too: the script's first poll is then a 304, not
    # a redraw of what the page already shows.
    context["etag"] = tag
    response = render(
        request, "phone/seat.html#live" if fetch else "phone/seat.html", context, status=status
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
    stamp = stamp or deals.deal_stamp(phone.access.game_id, focus)
    if stamp is None:
        raise Http404("there is no such game")
    tag = _etag(phone, focus, stamp)
    if request.headers.get("If-None-Match") == tag:
        response = HttpResponse(status=304)
        response["ETag"] = tag
        return _private(response)
    return _panel(request, phone)


def _done(request: HttpRequest, phone: Phone) -> HttpResponse:
    if request.headers.get(FETCH):
        return _panel(request, phone)
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
    except (services.Conflict, deals.DealClosed) as conflict:
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


def _hand(request: HttpRequest, phone: Phone | HttpResponse) -> HttpResponse:
    """A seat's hand as tapped so far (the whole hand, or the hand and one card toggled)."""
    if isinstance(phone, HttpResponse):
        return phone
    number, seat = _int(request, "round"), _int(request, "seat")
    if number is None or seat is None:
        return _panel(request, phone, status=422, error=gettext(BAD_FORM), code="bad_form")
    cards = [c for c in request.POST.get("cards", "").split(",") if c]
    toggle = request.POST.get("toggle", "")
    if toggle:  # a plain form: one card in or out
        cards = [c for c in cards if c != toggle] if toggle in cards else [*cards, toggle]

    def save() -> Any:
        outcome = deals.deal_hand_save(
            game_id=phone.access.game_id,
            round=number,
            seat=seat,
            cards=cards,
            access=None if phone.user else phone.access,
            user=phone.user,
        )
        if outcome.refusal:
            raise services.Refused(outcome.refusal, "deal_refused")
        return outcome

    def stamp_only() -> HttpResponse:
        # A hand still being tapped: the phone paints it itself, so the answer is only the
        # new stamp (no panel to render at every tap); a refusal still answers the panel.
        focus = _focus(request, phone)
        stamp = deals.deal_stamp(phone.access.game_id, focus)
        if stamp is None:
            raise Http404("there is no such game")
        response = HttpResponse(status=204)
        response["ETag"] = _etag(phone, focus, stamp)
        return _private(response)

    partial = request.headers.get(FETCH) and len(cards) < CARDS_PER_HAND
    return _write(request, phone, save, stamp_only if partial else None)


def _first(request: HttpRequest, phone: Phone | HttpResponse) -> HttpResponse:
    if isinstance(phone, HttpResponse):
        return phone
    number = _int(request, "round")
    player = request.POST.get("first_player", "")
    if number is None or not player:
        return _panel(request, phone, status=422, error=gettext(BAD_FORM), code="bad_form")

    def choose() -> Any:
        outcome = deals.deal_first_player(
            game_id=phone.access.game_id,
            round=number,
            player=player,
            access=None if phone.user else phone.access,
            user=phone.user,
        )
        if outcome.refusal:
            raise services.Refused(outcome.refusal, "deal_refused")

    return _write(request, phone, choose)


def _act(request: HttpRequest, phone: Phone | HttpResponse) -> HttpResponse:
    """One tap: a card (with its coins), a Chef pick or a Chef taken, at the version the phone
    saw; ``queued``: sent late from the phone's outbox (games.services.game_append)."""
    if isinstance(phone, HttpResponse):
        return phone
    post = request.POST
    kind, player, key = post.get("type", ""), post.get("player", ""), post.get("key", "")
    version = _int(request, "version")
    event: dict[str, Any] = {"type": kind, "player": player}
    if kind == "card_played":
        coins = _int(request, "coins")
        event.update(card=post.get("card", ""), coins=coins if coins is not None else 0)
    elif kind in ("chef_chosen", "chef_taken"):
        event["suit"] = post.get("suit", "")
    if kind not in ("card_played", "chef_chosen", "chef_taken") or not player or not key:
        return _panel(request, phone, status=422, error=gettext(BAD_FORM), code="bad_form")
    if version is None or len(key) > services.MAX_KEY:
        return _panel(request, phone, status=422, error=gettext(BAD_FORM), code="bad_form")
    queued = None
    if post.get("queued") == "1":
        number, trick = _int(request, "round"), _int(request, "trick")
        if number is None or trick is None:
            return _panel(request, phone, status=422, error=gettext(BAD_FORM), code="bad_form")
        queued = (number, trick)
    return _write(
        request,
        phone,
        lambda: services.game_append(
            game_id=phone.access.game_id,
            expected_version=version,
            events=[event],
            seat=None if phone.user else phone.access,
            user=phone.user,
            idempotency_key=key,
            queued=queued,
            forced=True,  # then what the rules leave no choice about records itself
        ),
    )


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


@require_POST
def hand(request: HttpRequest, token: str) -> HttpResponse:
    return _hand(request, _by_token(request, token))


@require_POST
def first(request: HttpRequest, token: str) -> HttpResponse:
    return _first(request, _by_token(request, token))


@require_POST
def act(request: HttpRequest, token: str) -> HttpResponse:
    return _act(request, _by_token(request, token))


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


@require_POST
def official_hand(request: HttpRequest, game_id: uuid.UUID, seat: int) -> HttpResponse:
    return _hand(request, _by_official(request, game_id, seat))


@require_POST
def official_first(request: HttpRequest, game_id: uuid.UUID, seat: int) -> HttpResponse:
    return _first(request, _by_official(request, game_id, seat))


@require_POST
def official_act(request: HttpRequest, game_id: uuid.UUID, seat: int) -> HttpResponse:
    return _act(request, _by_official(request, game_id, seat))
