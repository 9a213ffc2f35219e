"""HTTP caching of the club's season page (the page a league's members refresh): a weak
ETag per (league, language, club version), 304 Not Modified, and the page rendered once per
(league, language, version) in each process for every anonymous visitor (the same bytes for
everyone: rendered without a request, no CSRF token, as the public standings are)."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_vary_headers

from games.recent import Recent
from tournaments.public.conditional import PUBLIC_CACHE_CONTROL, SHARED_VARY

PAGE_FORMAT = "club-season-1"
"""Bumped when the page's markup changes, so that no visitor keeps a 304 of the old one."""


def current_language() -> str:
    """The active language's code, one of settings.LANGUAGES."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    codes = dict(settings.LANGUAGES)
    if language not in codes:
        language = language.split("-")[0]
    return language if language in codes else settings.LANGUAGE_CODE


def etag(league: int, language: str, version: Any) -> str:
    """``version``: club.services.reads.version() (what the season was made from)."""
    text = f"{PAGE_FORMAT}|{league}|{language}|{version!r}"
    return f'W/"{hashlib.blake2b(text.encode(), digest_size=12).hexdigest()}"'


def not_modified(request: HttpRequest, tag: str) -> HttpResponse | None:
    """304 if the visitor's copy (If-None-Match) is this page; None otherwise."""
    if not request.META.get("HTTP_IF_NONE_MATCH"):
        return None
    response = get_conditional_response(request, etag=tag)
    if response is None or response.status_code != 304:
        return None
    return shared_headers(response, tag)


def shared_headers(response: HttpResponse, tag: str) -> HttpResponse:
    response["ETag"] = tag
    response["Cache-Control"] = PUBLIC_CACHE_CONTROL
    patch_vary_headers(response, SHARED_VARY)
    return response


PAGES: Recent[tuple[int, str, Any], bytes] = Recent(64)
"""This process's rendered season pages, by (league, language, version)."""
