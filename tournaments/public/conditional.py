"""HTTP caching of the public standings: validators (a weak ETag per tournament version, a
Last-Modified once it is safe), 304 Not Modified, the shared response as sent (gzipped once per
version and language), and the headers that keep a personal page out of every cache."""

from __future__ import annotations

import re
import time

from django.http import HttpRequest, HttpResponse
from django.utils.cache import (
    add_never_cache_headers,
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.http import http_date

from tournaments.public.standings_page import SharedPage, digest, version_time

PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=1"
"""The shared standings' caching: a browser revalidates every time (a 304 while the version
stands, so a new result shows at its next poll), a proxy in front (docs/operations.md) may
answer for a second, then asks again (a 304 refreshes its copy; meanwhile it serves the copy it
has): a thousand phones cost the site about one request a second. A result reaches a phone
behind the proxy at most ~1 s later than one asking Django. No stale-while-revalidate: with 2 s
of it, results behind nginx showed 2-5 s after their table's last event (benchmarks/
load_standings.py --nginx), against a target of 1 s."""
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # what Django's GZipMiddleware looks for


def etag(version: str, partial: bool, language: str) -> str:
    """A weak ETag (the gzipped and the plain bytes are the same page) of the shared standings
    at ``version`` in ``language`` (a visitor who changes language never gets a 304 for the
    page in the language before); the htmx partial has its own."""
    return f'W/"{digest(version, language)}{"-p" if partial else ""}"'


def last_modified(version: str) -> int | None:
    """Last-Modified of the shared standings at ``version``, once it is 2 s old. HTTP dates
    count whole seconds: sent at once, a change later in the same second would keep its
    Last-Modified and a client asking If-Modified-Since alone would wrongly get a 304. Sent
    only once the second is over, any later change has a later date."""
    saved = version_time(version)
    if saved is None or time.time() - saved.timestamp() < 2:
        return None
    return int(saved.timestamp())


def validators(version: str, partial: bool, language: str) -> dict[str, str]:
    headers = {"ETag": etag(version, partial, language), "Cache-Control": PUBLIC_CACHE_CONTROL}
    modified = last_modified(version)
    if modified is not None:
        headers["Last-Modified"] = http_date(modified)
    return headers


def not_modified(
    request: HttpRequest, version: str, partial: bool, language: str
) -> HttpResponse | None:
    """304 Not Modified if the visitor's copy (If-None-Match, or If-Modified-Since alone) is the
    shared standings at ``version`` in ``language``; None otherwise. If-Modified-Since alone
    cannot tell languages apart: it is only trusted when the visitor sent no If-None-Match
    (browsers send both; a proxy's revalidation sends the ETag)."""
    meta = request.META
    if not (meta.get("HTTP_IF_NONE_MATCH") or meta.get("HTTP_IF_MODIFIED_SINCE")):
        return None
    response = get_conditional_response(
        request, etag=etag(version, partial, language), last_modified=last_modified(version)
    )
    if response is None or response.status_code != 304:
        return None
    for name, value in validators(version, partial, language).items():
        response[name] = value
    patch_vary_headers(response, SHARED_VARY)
    return response


SHARED_VARY = ("HX-Request", "Accept-Encoding", "Accept-Language", "Cookie")
"""What the shared standings' response depends on: the partial or the page, gzipped or not,
the language (Accept-Language, or the language cookie), and (through the session) whether the
visitor is logged in, who gets a page of their own."""


def shared_response(request: HttpRequest, shared: SharedPage, *, partial: bool) -> HttpResponse:
    """The shared standings as sent: gzipped if the visitor accepts it, with validators and a
    Cache-Control a proxy may act on."""
    plain, packed = (
        (shared.partial, shared.partial_gz) if partial else (shared.page, shared.page_gz)
    )
    if _ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
        response = HttpResponse(packed, headers={"Content-Encoding": "gzip"})
    else:
        response = HttpResponse(plain)
    response["Content-Length"] = str(len(response.content))
    for name, value in validators(shared.version, partial, shared.parts["language"]).items():
        response[name] = value
    patch_vary_headers(response, SHARED_VARY)
    return response


def personal(response: HttpResponse) -> HttpResponse:
    """A page for this visitor alone (a logged-in user's, or one carrying a CSRF token or a
    message): no browser or proxy may store it or give it to anyone else."""
    add_never_cache_headers(response)
    patch_cache_control(response, private=True)
    patch_vary_headers(response, SHARED_VARY)
    return response
