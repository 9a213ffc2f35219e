"""The public standings page: rendered once per tournament version, for everyone who is not
logged in, and kept in the cache (and in each process's memory) as sent, plain and gzipped.

Both sides of a change use it: the Celery worker that records a result renders the new version
(:func:`public_standings_rendered_after`, tournaments.tasks) so that no visitor has to, and the
view (tournaments.public.views.standings) serves what is cached, or renders it when nobody has.
The shared page is rendered without any request: it is the same for every visitor, so nothing
of the visitor who happens to ask first (a query string, a message, a CSRF token) can get in.

One shared page per language (settings.LANGUAGES): its words, dates and numbers are the
language's, so the cache keys, this process's copies and the ETag (digest) all name the language,
and the worker renders every language of a new version from one read of the tournament.
"""

from __future__ import annotations

import hashlib
import html
import logging
import time
import uuid
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypedDict
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.http import Http404, HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import compress_string
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.recent import Recent
from games.services import GameNotFound
from tournaments import services
from tournaments.public.presenters import (
    StandingRow,
    header,
    standings_hidden_from_public,
    standings_table,
)
from tournaments.public.words import WORDS

logger = logging.getLogger(__name__)

STANDINGS_POLL_SECONDS = 20
"""How often the standings refresh themselves while the tournament is running."""
STANDINGS_CACHE_SECONDS = 600
"""How long the public's standings stay cached. Their key is the tournament's version, so a new
result shows at once; this only bounds how long markup rendered by an older deployment can
outlive it in a shared cache (CACHE_URL)."""
STANDINGS_RENDER_SECONDS = 10
"""How long one request may have the standings of a new version to itself to render (others
are shown the version before meanwhile): far longer than a render takes."""
STANDINGS_RENDER_PATIENCE = 2.0
"""How long after a change visitors wait for the process that claimed its rendering (usually
the worker that recorded it) before one of them renders it itself: a safety net for a worker
that is stuck or far behind, not a race. Measured on the busy benchmark machine, a takeover
at 0.3 s or 0.5 s fired for most versions: a second render beside the worker's, each slowing
the other and blocking a web worker, so results came later and fewer pages were served."""
PAGE_FORMAT = "4"
"""Part of every ETag: change it when the page's markup changes, so that a browser does not
keep a page of the same tournament version in an older deployment's markup."""


class StandingsParts(TypedDict):
    """The standings page, rendered but for its frame (base.html): what the cache keeps. Plain
    strings, so that a shared cache never holds objects of an older deployment's classes."""

    version: str
    """The tournament's version (and when its projection was saved) these were rendered at."""
    language: str
    """The language they are rendered in (a code of settings.LANGUAGES)."""
    name: str
    path: str
    """Where the page is (its htmx poll and the login link come back here)."""
    head: str
    standings: str
    """The standings partial: the table (or the note that it is hidden), polled by htmx."""
    tiebreaks: str


def standings_parts(user: Any, tournament_id: uuid.UUID) -> StandingsParts:
    """Read the tournament and its standings as ``user`` may see them (the public: an
    AnonymousUser) and render the page's parts (every row: the slow part of the page), in the
    active language."""
    return _render_parts(*_read_standings(user, tournament_id))


def _read_standings(
    user: Any, tournament_id: uuid.UUID
) -> tuple[str | None, services.TournamentRead]:
    """The tournament's version and its standings as ``user`` may see them."""
    # Read before the projection: the key may then be older than what is rendered (the next
    # visit renders again), never newer (which would keep a page that misses a change).
    version = services.tournament_public_version(tournament_id)
    try:
        read = services.tournament_get_with_standings(tournament_id=tournament_id, user=user)
    except GameNotFound:
        raise Http404("There is no such tournament.") from None
    return version, read


def _render_parts(version: str | None, read: services.TournamentRead) -> StandingsParts:
    """The page's parts from one read, in the active language."""
    summary, data = read.summary, read.standings
    tournament_id = read.id
    t = header(summary, WORDS)
    path = reverse("public:standings", args=[tournament_id])
    table = None if data is None else standings_table(data, summary["settings"], WORDS)
    tables = [tb for r in summary["rounds"] if r["status"] != "proposed" for tb in r["tables"]]
    context = {
        "t": t,
        "heading": _("Standings"),
        "nav": "standings",
        "standings": table,
        "standings_url": path,
        "rows": None if table is None else standings_rows_html(t.id, table.rows),
        # Before round 1 is out nobody is ranked: the page lists the entrants instead.
        "entrants": None if t.round_now else entrants(summary),
        "organizer_sees_hidden": data is not None and standings_hidden_from_public(summary),
        "live": t.running,
        "poll_seconds": STANDINGS_POLL_SECONDS,
        "confirmed": sum(1 for tb in tables if tb["confirmed"]),
        "pending": sum(1 for tb in tables if tb["result"] is not None and not tb["confirmed"]),
        "playing": sum(1 for tb in tables if tb["result"] is None),
    }
    page = "public/standings.html"
    return StandingsParts(
        version=version or "",
        language=current_language(),
        name=t.name,
        path=path,
        head=render_to_string("public/_tournament_head.html", context),
        standings=render_to_string(f"{page}#standings", context),
        tiebreaks=render_to_string(f"{page}#tiebreaks", context),
    )


def entrants(summary: Mapping[str, Any]) -> list[str]:
    """The names of the players registered (not dropped), by name: the page before round 1."""
    names = [p["name"] for p in summary["players"] if not p["dropped"]]
    return sorted(names, key=str.casefold)


def page_html(parts: StandingsParts, request: HttpRequest | None = None) -> str:
    """The whole page around its parts: for ``request`` (a personal page: its CSRF token, login
    link and messages), or, without one, the shared page every plain visit gets."""
    page = {
        "name": parts["name"],
        "head": mark_safe(parts["head"]),
        "standings": mark_safe(parts["standings"]),
        "tiebreaks": mark_safe(parts["tiebreaks"]),
    }
    context: dict[str, Any] = {"page": page, "shared_page": request is None}
    if request is None:  # base.html's login link and chooser bring the visitor back here
        context["login_next"] = parts["path"]
    with translation.override(parts["language"]):
        return render_to_string("public/standings.html", context, request)


def standings_rows_html(
    tournament_id: object,
    rows: Iterable[StandingRow],
    *,
    keys: Collection[str] | None = None,
    link: bool = True,
) -> SafeString:
    """The standings table's rows (``<tr>``), in Python rather than a template loop: a thousand
    players' rows take tens of milliseconds instead of half a second. Every value is escaped
    (the standard library's html.escape: what Django's escape does, without its lazy wrapper).

    ``keys``: the columns shown as cells (default: all). The first cell (points) always shows;
    the others are the wide screen's: on a phone (static/css/public.css, screen.css) they are
    moved off-screen (still read by screen readers) and the row's deciding values show
    instead, labelled, on a second line under the name ("Opp. avg 9.5  1st places 2"), so
    that nothing scrolls sideways."""
    placeholder = "--player--"
    href_parts = reverse("public:player", args=[tournament_id, placeholder]).split(placeholder)
    # The words of a row, in the active language (templates/public/tournament.html and
    # round.html say the same). The row stays a Python loop for speed, not a template.
    shared_word = html.escape(pgettext("a rank shared by several players", "(shared)"))
    dropped_word = html.escape(pgettext("a player no longer seated", "dropped"))
    shared = f'<span aria-hidden="true">=</span><span class="visually-hidden"> {shared_word}</span>'
    dropped = f'<span class="badge badge-dropped">{dropped_word}</span>'
    out = []
    for row in rows:
        cells = [c for c in row.cells if keys is None or c.key in keys or c.key == "points"]
        tds = "".join(
            f'<td class="num{" wide" if n else " points"}">{html.escape(c.text)}</td>'
            for n, c in enumerate(cells)
        )
        name = html.escape(row.name)
        if link:
            href = html.escape(href_parts[0] + quote(row.player, safe="") + href_parts[1])
            name = f'<a href="{href}">{name}</a>'
        figures = "".join(
            f'<span class="figure"><span class="figure-label">{html.escape(c.short)}</span>'
            f"&nbsp;{html.escape(c.text)}</span> "
            for c in row.deciding
        )
        line = (  # for the eyes: a screen reader reads the cells, kept off-screen on a phone
            f'<span class="row-figures" aria-hidden="true">{figures.rstrip()}</span>'
            if figures
            else ""
        )
        out.append(
            ('<tr class="dropped">' if row.dropped else "<tr>")
            + f'<td class="num">{row.rank}{shared if row.shared else ""}</td>'
            + f'<th scope="row">{name}'
            + f"{dropped if row.dropped else ''}{line}</th>{tds}</tr>"
        )
    return mark_safe("\n".join(out))  # noqa: S308 (built from escaped values above)


@dataclass(frozen=True, slots=True)
class SharedPage:
    """The public's standings at one tournament version, as every anonymous visitor gets them:
    the whole page and the htmx partial, each as sent and gzipped (compressed once per version,
    where it is rendered, never per visit)."""

    version: str
    parts: StandingsParts
    page: bytes
    page_gz: bytes
    partial: bytes
    partial_gz: bytes

    @classmethod
    def of(cls, entry: Mapping[str, Any]) -> SharedPage:
        return cls(
            version=entry["version"],
            parts=_parts(entry),
            page=entry["page"].encode(),
            page_gz=entry["page_gz"],
            partial=entry["standings"].encode(),
            partial_gz=entry["standings_gz"],
        )


def current_language() -> str:
    """The active language's code, one of settings.LANGUAGES (the page's language)."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    codes = dict(settings.LANGUAGES)
    if language not in codes:
        language = language.split("-")[0]
    return language if language in codes else settings.LANGUAGE_CODE


def shared(
    tournament_id: uuid.UUID,
    now: str | None,
    language: str | None = None,
    before_render: Callable[[], None] | None = None,
) -> SharedPage:
    """The public's standings in ``language`` (default: the active one): this process's copy
    while the tournament's version is still ``now``, else the cache's, rendered and cached again
    once the version has moved. Each process has its own cache unless CACHE_URL names a shared
    one (settings).

    One request renders a new version; a visitor who comes while another request (or the
    worker that recorded the change) renders it gets the version before, a fraction of a second
    old, rather than rendering it too: at the end of a round, a thousand players' standings
    change every few seconds while dozens of phones poll them. But not for long: once the
    change is STANDINGS_RENDER_PATIENCE old and still not rendered (a busy worker, one task
    queued behind another), one visitor renders it after all. ``before_render``: called before
    this request renders (the view activates the tournament's zone then, not for every visit)."""
    language = language or current_language()
    slot = (tournament_id, language)
    kept = _PAGES.get(slot)
    if kept is not None and kept.version == now:
        return kept
    key = _cache_key(tournament_id, language)
    cached = None  # nothing to show meanwhile: render
    # The version the cache holds first (a few bytes): while a new one is being rendered,
    # this process's copy of the one before is it, and a visit need not fetch the whole entry.
    stored = cache.get(f"{key}:version") if now is not None else None
    if kept is not None and stored == kept.version:
        cached = kept
    elif stored is not None:
        entry = cache.get(key)
        if isinstance(entry, dict) and {"page_gz", "path"} <= entry.keys():  # this deployment's
            cached = SharedPage.of(entry)
            _remember_page(slot, cached)
    lock = None
    claim = uuid.uuid4().hex
    if cached is not None and cached.version != now:
        # The worker renders every language under the tournament's claim; a visitor, one
        # language under that language's.
        worker = cache.get(f"{_tournament_key(tournament_id)}:rendering") is not None
        lock = f"{key}:rendering"
        if worker or not cache.add(lock, claim, STANDINGS_RENDER_SECONDS):
            # one visitor per version and language, in any process
            lock = f"{key}:overdue:{digest(now, language)}"
            if not (_overdue(now) and cache.add(lock, claim, STANDINGS_RENDER_SECONDS)):
                lock = None
        if lock is None:  # being rendered by another request or the worker: the one before
            return cached
    elif cached is not None:  # up to date
        return cached
    try:
        if before_render is not None:
            before_render()
        # 404 if there is no such tournament
        entry = _render_public_standings(tournament_id, [language])[language]
    finally:
        if lock is not None:
            _release(lock, claim)
    shared = SharedPage.of(entry)
    _remember_page(slot, shared)
    return shared


def _overdue(version: str | None) -> bool:
    """Whether the change that made ``version`` was saved STANDINGS_RENDER_PATIENCE ago."""
    saved = version_time(version)
    return saved is not None and time.time() - saved.timestamp() > STANDINGS_RENDER_PATIENCE


def version_time(version: str | None) -> datetime | None:
    """When the tournament's projection was saved, or a result the relay's delay held back
    reached the public after that, from its version key ("<version>:<saved at>" or
    "<version>+<held>:<reached at>", tournaments.services.tournament_public_version); None if
    it does not say."""
    if version is None:
        return None
    try:
        saved = datetime.fromisoformat(version.partition(":")[2])
    except ValueError:
        return None
    return saved if saved.tzinfo is not None else saved.replace(tzinfo=UTC)


def _entry(parts: StandingsParts) -> dict[str, Any]:
    """The cache entry of the page's parts: plain strings (not Django's SafeString), so that a
    shared cache never holds objects of a deployment's classes."""
    return {k: str(v) for k, v in parts.items()}


def _parts(entry: Mapping[str, Any]) -> StandingsParts:
    """The page's parts from a cache entry (which also holds the whole page)."""
    return StandingsParts(
        version=entry["version"],
        language=entry["language"],
        name=entry["name"],
        path=entry["path"],
        head=entry["head"],
        standings=entry["standings"],
        tiebreaks=entry["tiebreaks"],
    )


def _release(lock: str, claim: str) -> None:
    """Let go of a rendering claim if it is still ours (the worker may have taken it over)."""
    if cache.get(lock) == claim:
        cache.delete(lock)


_PAGES: Recent[tuple[uuid.UUID, str], SharedPage] = Recent(32)
"""This process's copy of the latest shared standings pages (by tournament and language), the
most recently used last: a visit at an unchanged version is answered without a cache round
trip. Only a copy of what the cache holds (another process renders or fetches its own)."""


def _remember_page(slot: tuple[uuid.UUID, str], shared: SharedPage) -> None:
    _PAGES.put(slot, shared)


def _tournament_key(tournament_id: uuid.UUID) -> str:
    """The tournament's keys' prefix (and, with ":rendering", the worker's claim)."""
    return f"public-standings:{tournament_id}"


def _cache_key(tournament_id: uuid.UUID, language: str) -> str:
    return f"{_tournament_key(tournament_id)}:{language}"


def digest(version: str | None, language: str) -> str:
    """A short digest of the page at ``version`` in ``language`` (in this deployment's markup,
    PAGE_FORMAT)."""
    text = f"{PAGE_FORMAT}|{language}|{version}"
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


Later = Callable[[uuid.UUID, str, list[str], str], None]
"""Hands the rendering of the other languages of a version to a task of their own:
``(tournament, version, languages, claim)`` (tournaments.tasks.render_standings_later)."""


@contextmanager
def public_standings_rendered_after(
    tournament_id: uuid.UUID | None, later: Later | None = None
) -> Iterator[None]:
    """Around a change of the tournament (the Celery worker recording a result): claim the
    rendering of its public standings first, so that visitors keep getting the version before
    while the change commits, then render the new version into the cache once the block is
    done, so that no visitor has to. Nothing is rendered if the block fails, or if the cache is
    this process's own memory and this is not a web process (nobody would see it); the claim
    lapses by itself (STANDINGS_RENDER_SECONDS) if this process dies in between.

    The site's language (settings.LANGUAGE_CODE, else the first) is rendered here; with
    ``later``, the other languages are handed on (still under the claim, which the later
    task lets go of) rather than rendered before this task ends: a result finished at the next
    table waited behind three more renders of this one, and showed up to 1.4 s after its
    table's last event. Without ``later``, every language is rendered here, from one read."""
    eager = bool(getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False))
    if tournament_id is None or (cache_is_private() and not eager):
        yield
        return
    key = _tournament_key(tournament_id)
    claim = uuid.uuid4().hex
    # Taken even from a visitor's request that is rendering the version before: the change
    # about to commit makes that one out of date anyway.
    cache.set(f"{key}:rendering", claim, STANDINGS_RENDER_SECONDS)
    handed_on = False
    try:
        yield
        now = services.tournament_public_version(tournament_id)
        behind = _behind(tournament_id, now)
        if now is not None and behind:
            first = [c for c in behind if c == settings.LANGUAGE_CODE] or behind[:1]
            rest = [c for c in behind if c not in first]
            if later is None or eager:
                first, rest = behind, []
            try:
                _render_public_standings(tournament_id, first)
            except Exception:  # the next visitor renders it instead; the change stands
                logger.exception("could not render the standings of tournament %s", tournament_id)
            if rest and later is not None:
                later(tournament_id, now, rest, claim)
                handed_on = True
    finally:
        if not handed_on:
            _release(f"{key}:rendering", claim)


def _behind(tournament_id: uuid.UUID, now: str | None) -> list[str]:
    """The languages whose cached standings are not at version ``now``."""
    languages = [code for code, _name in settings.LANGUAGES]
    stored = cache.get_many([f"{_cache_key(tournament_id, c)}:version" for c in languages])
    return [c for c in languages if stored.get(f"{_cache_key(tournament_id, c)}:version") != now]


def public_standings_rendered_later(
    tournament_id: uuid.UUID, version: str, languages: Iterable[str], claim: str
) -> None:
    """The languages :func:`public_standings_rendered_after` handed on, rendered under its
    ``claim`` (then let go of), unless the tournament has moved on since ``version`` (the task
    of the newer change renders that one, every language)."""
    try:
        now = services.tournament_public_version(tournament_id)
        wanted = set(languages)
        behind = [c for c in _behind(tournament_id, now) if c in wanted]
        if now == version and behind:
            _render_public_standings(tournament_id, behind)
    finally:
        _release(f"{_tournament_key(tournament_id)}:rendering", claim)


def _render_public_standings(
    tournament_id: uuid.UUID, languages: Iterable[str]
) -> dict[str, dict[str, Any]]:
    """Render the public's standings (parts, whole page, each gzipped) as any anonymous visitor
    gets them, in each of ``languages`` from one read of the tournament, into the cache;
    returns the cache entries by language. No request is involved: the shared page is the
    same for everyone who reads its language."""
    version, read = _read_standings(AnonymousUser(), tournament_id)
    entries = {}
    for language in languages:
        with translation.override(language):
            parts = _render_parts(version, read)
        entry = _entry(parts)
        page = page_html(parts).encode()
        entry["page"] = page.decode()
        entry["page_gz"] = compress_string(page)
        entry["standings_gz"] = compress_string(parts["standings"].encode())
        key = _cache_key(tournament_id, language)
        cache.set(key, entry, STANDINGS_CACHE_SECONDS)
        # Then the version it holds (visitors look at this first): never ahead of the entry.
        cache.set(f"{key}:version", entry["version"], STANDINGS_CACHE_SECONDS)
        entries[language] = entry
    return entries


def cache_is_private() -> bool:
    """Whether the cache is each process's own memory (no CACHE_URL)."""
    return str(settings.CACHES["default"]["BACKEND"]).endswith("LocMemCache")
