"""The public standings over HTTP: what a browser or a proxy in front may do with them.

The shared rendering (every anonymous visitor's page and htmx poll) carries validators of the
tournament's version (ETag, Last-Modified) and answers 304 while it stands; it is sent gzipped
to whoever accepts it, compressed once per version; and a proxy may keep it for a second. A page
of one visitor's own (logged in: an organizer may see hidden standings; or carrying a CSRF token,
a message) is none of these: private, no-store, never compressed (BREACH), never a 304 from the
public's validators.
"""

from __future__ import annotations

import gzip
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.utils import timezone
from django.utils.http import http_date
from django.utils.text import compress_string
from django_htmx.middleware import HtmxDetails

from config.middleware import PersonalNeverPublic
from tests.web.public import (
    NAMES,
    Capture,
    Spring,
    confirmed,
    finish_round_two,
    logged_in,
    new_tournament,
)
from tournaments import services as t
from tournaments.models import TournamentProjection
from tournaments.public import conditional, standings_page, views

pytestmark = pytest.mark.django_db

PROXY_UNSAFE = ("public", "s-maxage", "stale-while-revalidate")


def url_of(tournament: object) -> str:
    return f"/t/{tournament}/standings/"


def settle(tournament: uuid.UUID, seconds: float = 10) -> None:
    """Make the tournament's last change ``seconds`` old (its version key moves with it)."""
    TournamentProjection.objects.filter(stream_id=tournament).update(
        updated_at=timezone.now() - timedelta(seconds=seconds)
    )


def cache_control(response: Any) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part}


def vary(response: Any) -> set[str]:
    return {part.strip().lower() for part in response.get("Vary", "").split(",")}


def test_an_unchanged_version_answers_304_to_its_etag(
    client: Client, spring: Spring, django_assert_num_queries: Any
) -> None:
    first = client.get(url_of(spring.id))
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('W/"')
    with django_assert_num_queries(1):  # the tournament's version, nothing else
        again = client.get(url_of(spring.id), headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag and "public" in cache_control(again)
    assert {"cookie", "accept-encoding", "hx-request"} <= vary(again)
    # The htmx poll is another representation, with its own validator.
    poll = client.get(url_of(spring.id), headers={"HX-Request": "true"})
    assert poll["ETag"] != etag
    assert client.get(url_of(spring.id), headers={"HX-Request": "true", "If-None-Match": etag})
    repoll = client.get(
        url_of(spring.id), headers={"HX-Request": "true", "If-None-Match": poll["ETag"]}
    )
    assert repoll.status_code == 304


def test_if_modified_since_answers_304_once_the_changes_second_is_over(
    client: Client, spring: Spring
) -> None:
    # Right after a change its second is not over: no Last-Modified (a second change in the
    # same second would have the same date).
    assert "Last-Modified" not in client.get(url_of(spring.id))
    settle(spring.id)
    response = client.get(url_of(spring.id))
    modified = response["Last-Modified"]
    unchanged = client.get(url_of(spring.id), headers={"If-Modified-Since": modified})
    assert unchanged.status_code == 304 and unchanged["Last-Modified"] == modified
    earlier = http_date(int((timezone.now() - timedelta(minutes=5)).timestamp()))
    assert client.get(url_of(spring.id), headers={"If-Modified-Since": earlier}).status_code == 200


def test_a_new_result_gives_a_new_etag_and_the_new_page(
    client: Client, spring: Spring, capture: Capture
) -> None:
    before = client.get(url_of(spring.id))
    settle(spring.id)
    settled = client.get(url_of(spring.id))
    assert settled["ETag"] != before["ETag"], "the version key moves with the projection"
    finish_round_two(spring, capture)
    after = client.get(
        url_of(spring.id),
        headers={"If-None-Match": settled["ETag"], "If-Modified-Since": settled["Last-Modified"]},
    )
    assert after.status_code == 200 and after["ETag"] != settled["ETag"]
    assert confirmed(after.content.decode()) == 4


def test_gzipped_when_accepted_and_compressed_once_per_version(
    client: Client, spring: Spring, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    original = compress_string

    def counted(data: bytes) -> bytes:
        calls.append(len(data))
        return original(data)

    monkeypatch.setattr(standings_page, "compress_string", counted)
    standings_page._PAGES.clear()
    cache.clear()
    plain = client.get(url_of(spring.id))
    assert "Content-Encoding" not in plain and "accept-encoding" in vary(plain)
    for _ in range(3):
        packed = client.get(url_of(spring.id), headers={"Accept-Encoding": "gzip, br"})
        assert packed["Content-Encoding"] == "gzip"
        assert gzip.decompress(packed.content) == plain.content
        assert int(packed["Content-Length"]) == len(packed.content) < len(plain.content) / 2
    poll = client.get(url_of(spring.id), headers={"HX-Request": "true", "Accept-Encoding": "gzip"})
    assert b"<html" not in gzip.decompress(poll.content)
    assert len(calls) == 2, "the page and the partial, once, where they were rendered"


def test_public_for_anonymous_visitors_private_for_an_organizer_who_sees_more(
    client: Client, organizer: User
) -> None:
    tid = new_tournament(organizer, NAMES[:6], name="Secret Cup", standings_hidden_from=1)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    public = client.get(url_of(tid), headers={"Accept-Encoding": "gzip"})
    assert {"public", "s-maxage=1"} <= cache_control(public)
    assert b"hidden the standings" in gzip.decompress(public.content)
    with logged_in(client, organizer):
        own = client.get(
            url_of(tid), headers={"Accept-Encoding": "gzip", "If-None-Match": public["ETag"]}
        )
    assert own.status_code == 200 and b"Hidden from the public for now" in own.content
    assert {"private", "no-store"} <= cache_control(own)


def assert_personal(response: Any) -> None:
    assert response.status_code == 200
    control = cache_control(response)
    assert {"private", "no-store"} <= control
    assert not any(part.startswith(PROXY_UNSAFE) for part in control)
    assert "Content-Encoding" not in response, "a CSRF token is never compressed (BREACH)"
    assert "ETag" not in response and "Last-Modified" not in response
    assert "cookie" in vary(response)


@pytest.mark.parametrize(
    "visit", ["organizer", "organizer's poll", "with a query string", "an expired session"]
)
def test_a_personal_page_never_carries_a_header_a_proxy_would_act_on(
    client: Client, spring: Spring, visit: str
) -> None:
    url, headers = url_of(spring.id), {"Accept-Encoding": "gzip"}
    public = client.get(url, headers=headers)
    headers["If-None-Match"] = public["ETag"]
    if visit.startswith("organizer"):
        client.force_login(spring.organizer)
        if visit.endswith("poll"):
            headers["HX-Request"] = "true"
    elif visit == "an expired session":
        # The session middleware deletes its cookie: a Set-Cookie no proxy may store or share
        # (seen behind nginx: config.middleware.PersonalNeverPublic).
        client.cookies["sessionid"] = "expired"
    else:
        url += "?from=screen"
    response = client.get(url, headers=headers)
    if visit == "an expired session":
        assert response.cookies["sessionid"].value == ""
        assert {"private", "no-store"} <= cache_control(response)
        assert not any(part.startswith(PROXY_UNSAFE) for part in cache_control(response))
        return
    assert_personal(response)


def test_a_visitor_with_a_message_gets_a_personal_page(spring: Spring) -> None:
    url = url_of(spring.id)
    public = Client().get(url)
    request = RequestFactory().get(
        url, headers={"Accept-Encoding": "gzip", "If-None-Match": public["ETag"]}
    )
    request.user = AnonymousUser()
    request.htmx = HtmxDetails(request)  # type: ignore[attr-defined]
    request._messages = CookieStorage(request)  # type: ignore[attr-defined]
    messages.info(request, "You are logged out.")
    response = views.standings(request, spring.id)  # type: ignore[arg-type]
    assert b"You are logged out." in response.content
    assert_personal(response)


def test_a_change_left_unrendered_too_long_is_rendered_by_a_visitor(
    client: Client, spring: Spring, capture: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert confirmed(client.get(url_of(spring.id)).content.decode()) == 2
    finish_round_two(spring, capture)
    rendering = f"public-standings:{spring.id}:rendering"
    assert cache.add(rendering, "the worker", 60)  # and it is slow
    try:
        monkeypatch.setattr(standings_page, "STANDINGS_RENDER_PATIENCE", 60.0)
        assert confirmed(client.get(url_of(spring.id)).content.decode()) == 2
        monkeypatch.setattr(standings_page, "STANDINGS_RENDER_PATIENCE", 0.0)
        assert confirmed(client.get(url_of(spring.id)).content.decode()) == 4
        assert cache.get(rendering) == "the worker", "its claim stays its own"
    finally:
        cache.delete(rendering)


@pytest.mark.parametrize("who", ["logged in", "given a cookie"])
def test_the_guard_makes_a_personal_response_marked_public_private(
    spring: Spring, who: str
) -> None:
    """Whatever a view gets wrong, a public response never reaches a logged-in user or sets a
    cookie (config.middleware.PersonalNeverPublic, outermost)."""

    def view(request: HttpRequest) -> HttpResponse:
        response = HttpResponse("standings")
        response["Cache-Control"] = conditional.PUBLIC_CACHE_CONTROL
        if who == "given a cookie":
            response.set_cookie("csrftoken", "secret")
        return response

    request = RequestFactory().get(url_of(spring.id))
    request.user = spring.organizer if who == "logged in" else AnonymousUser()
    response = PersonalNeverPublic(view)(request)
    assert {"private", "no-store"} <= cache_control(response)
    assert not any(part.startswith(PROXY_UNSAFE) for part in cache_control(response))
    request.user = AnonymousUser()
    if who == "logged in":  # the same response to the public stays public
        assert "public" in cache_control(PersonalNeverPublic(view)(request))
