"""The public standings page is rendered once per tournament version and shared by visitors.

A thousand players' standings take a tenth of a second to render; a club's public screen and
every phone in the room poll them. So anonymous visitors share one rendering, kept until the
tournament's version moves (tournaments.public): a new result shows at once, a
plain visit costs one indexed query, and nothing per-visitor (a CSRF token, a message, the
login link's return path) leaks from one visitor's page into another's.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.test import Client, RequestFactory
from django_htmx.middleware import HtmxDetails

from tests.web.public import (
    NAMES,
    Capture,
    Spring,
    confirmed,
    finish_round_two,
    logged_in,
    new_tournament,
    page,
    play,
    rows_of,
    text,
)
from tournaments import services as t
from tournaments.public import standings_page, views

pytestmark = pytest.mark.django_db

CSRF_HEADER = re.compile(r"hx-headers='\{\"X-CSRFToken\": \"[^\"]+\"\}'")


def test_a_second_visit_is_served_from_one_query(
    client: Client, spring: Spring, django_assert_num_queries: Any
) -> None:
    url = f"/t/{spring.id}/standings/"
    first = page(client, url)
    with django_assert_num_queries(1):  # the tournament's version, nothing else
        again = page(client, url)
    assert again == first


def test_a_new_result_shows_at_once(client: Client, spring: Spring, capture: Capture) -> None:
    url = f"/t/{spring.id}/standings/"
    before = page(client, url)
    assert confirmed(before) == 2
    finish_round_two(spring, capture)
    after = page(client, url)
    assert confirmed(after) == 4
    assert rows_of(after, "standings") != rows_of(before, "standings")
    partial = page(client, url, HX_Request="true")
    assert confirmed(partial) == 4 and "<html" not in partial


def test_the_shared_page_carries_no_csrf_token_and_everyone_elses_page_does(
    client: Client, spring: Spring
) -> None:
    url = f"/t/{spring.id}/standings/"
    for _ in range(2):  # rendered, then from the cache
        shared = page(client, url)
        assert "X-CSRFToken" not in shared and "csrftoken" not in client.cookies
        assert f'?next={url}"' in shared  # the login link comes back here
    with_query = page(client, url + "?from=screen")
    assert CSRF_HEADER.search(with_query)
    assert f"?next={url}%3Ffrom%3Dscreen" in with_query
    with logged_in(client, spring.organizer):
        own = page(client, url)
    assert CSRF_HEADER.search(own) and "Log out (olga)" in own
    assert "Log out" not in page(client, url)


def test_a_visitor_with_a_message_waiting_sees_it(spring: Spring) -> None:
    url = f"/t/{spring.id}/standings/"
    page(Client(), url)  # the shared page is in the cache
    request = RequestFactory().get(url)
    request.user = AnonymousUser()
    request.htmx = HtmxDetails(request)  # type: ignore[attr-defined]
    request._messages = CookieStorage(request)  # type: ignore[attr-defined]
    messages.info(request, "You are logged out.")
    html = views.standings(request, spring.id).content.decode()  # type: ignore[arg-type]
    assert "You are logged out." in html
    assert CSRF_HEADER.search(html)
    assert "You are logged out." not in page(Client(), url)


def test_names_are_escaped_in_the_rows_and_link_to_the_players_page(
    client: Client, organizer: User
) -> None:
    odd = '<b>Zed & "Co"</b>'
    tid = new_tournament(organizer, [*NAMES[:3], odd])
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)  # ranked from round 1 on
    html = page(client, f"/t/{tid}/standings/")
    assert "<b>Zed" not in html
    assert "&lt;b&gt;Zed &amp; &quot;Co&quot;&lt;/b&gt;" in html
    assert sorted(row[1] for row in rows_of(html, "standings")) == sorted([*NAMES[:3], odd])
    links = re.findall(r'<th scope="row"><a href="([^"]+)">', html)
    assert len(links) == 4
    for link in links:
        assert page(client, link)  # every row's link is its player's page


def test_hiding_the_standings_takes_them_off_the_shared_page_at_once(
    client: Client, organizer: User
) -> None:
    tid = new_tournament(organizer, NAMES[:6], name="Open Cup")
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    url = f"/t/{tid}/standings/"
    assert 'class="standings"' in page(client, url)
    t.tournament_change_settings(
        tournament_id=tid, changes={"standings_hidden_from": 1}, user=organizer
    )
    html = page(client, url)
    assert 'class="standings"' not in html
    assert "hidden the standings until the end of the tournament" in html


def test_while_another_request_renders_a_new_version_visitors_get_the_one_before(
    client: Client, spring: Spring, capture: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Not so long that a visitor renders it after all (test_public_standings_http).
    monkeypatch.setattr(standings_page, "STANDINGS_RENDER_PATIENCE", 60.0)
    url = f"/t/{spring.id}/standings/"
    assert confirmed(page(client, url)) == 2
    finish_round_two(spring, capture)
    rendering = f"public-standings:{spring.id}:rendering"
    assert cache.add(rendering, True, 60)  # another process is rendering the new version
    try:
        assert confirmed(page(client, url)) == 2  # not a second rendering: the one before
        assert confirmed(page(client, url, HX_Request="true")) == 2
    finally:
        cache.delete(rendering)
    assert confirmed(page(client, url)) == 4
    assert cache.get(rendering) is None, "the renderer lets go of its claim"


def test_a_result_recorded_by_the_worker_is_rendered_before_anyone_asks(
    client: Client, spring: Spring, capture: Capture, django_assert_num_queries: Any
) -> None:
    url = f"/t/{spring.id}/standings/"
    assert "1 table still playing" in text(page(client, url))
    # The last table finishes: tournaments.sync_game records its result and renders the page.
    play(spring.playing, spring.organizer, capture, seed=spring.playing_seed)
    with django_assert_num_queries(1):  # the version: the new page is in the cache already
        html = page(client, url)
    assert "still playing" not in text(html)
    assert "2 table results awaiting confirmation are not counted yet" in text(html)


def _versions(tournament_id: object) -> dict[str, Any]:
    languages = [code for code, _name in django_settings.LANGUAGES]
    return {c: cache.get(f"public-standings:{tournament_id}:{c}:version") for c in languages}


def _forget_pages(tournament_id: object) -> None:
    """Nothing of the tournament's standings in the cache (its fixture rendered them)."""
    for code, _name in django_settings.LANGUAGES:
        cache.delete_many([f"public-standings:{tournament_id}:{code}{x}" for x in ("", ":version")])


def test_the_worker_renders_the_sites_language_and_hands_the_others_on_under_its_claim(
    spring: Spring, settings: Any, monkeypatch: pytest.MonkeyPatch, client: Client
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False  # as a Celery worker with a shared cache runs it
    monkeypatch.setattr(standings_page, "cache_is_private", lambda: False)
    _forget_pages(spring.id)
    handed: list[tuple[Any, ...]] = []
    rendering = f"public-standings:{spring.id}:rendering"
    with standings_page.public_standings_rendered_after(spring.id, lambda *a: handed.append(a)):
        pass  # the change (here: none; nothing is cached yet, so every language is behind)
    now = t.tournament_public_version(spring.id)
    assert _versions(spring.id) == {"en": now, "fr": None, "ru": None, "ja": None}
    [(tournament, version, languages, claim)] = handed
    assert (tournament, version, languages) == (spring.id, now, ["fr", "ru", "ja"])
    assert cache.get(rendering) == claim, "the others are still claimed: nobody renders them"
    url = f"/t/{spring.id}/standings/"
    french = page(client, url, HTTP_ACCEPT_LANGUAGE="fr")  # the version before: none, rendered
    standings_page.public_standings_rendered_later(tournament, version, languages, claim)
    assert set(_versions(spring.id).values()) == {now}
    assert cache.get(rendering) is None
    assert page(client, url, HTTP_ACCEPT_LANGUAGE="fr") == french  # the same page


def test_languages_handed_on_are_not_rendered_once_the_tournament_moved_on(
    spring: Spring, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(standings_page, "cache_is_private", lambda: False)
    _forget_pages(spring.id)
    rendering = f"public-standings:{spring.id}:rendering"
    cache.set(rendering, "claim", 10)
    standings_page.public_standings_rendered_later(spring.id, "1:older", ["fr"], "claim")
    assert _versions(spring.id)["fr"] is None
    assert cache.get(rendering) is None
