"""A dead cache costs nothing (issue 22): with CACHE_URL on a Redis port nobody listens on, every
page, desk page and API read of a small tournament answers as it does with a working cache, the
API hands out tokens (its login throttle then counts in this process's memory), ``/health/``
says the cache is degraded (200: this process can serve), and the log says so once.

The reads are every URL pattern of the site (config.urls), filled in with the tournament's
ids, as a visitor, as its organizer (the API with her token); a pattern with a parameter this
test does not know fails it, so a new page is crawled as soon as it exists. The cache backend
itself (Redis, refused, hung, back): tests/test_cache.py.

Runs on both databases (bin/test's PostgreSQL pass too): what the pages read while the cache
is dead is the database's.
"""

from __future__ import annotations

import itertools
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import redis
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from pytest_django.fixtures import Settings as SettingsWrapper
from rest_framework.test import APIClient

from club.domain import default_member
from club.services import club_sync
from club.services import writes as club_writes
from config.cache import forget_outages
from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games import services as games
from games.models import GameProjection
from tests.caches import CACHE_DB, cache_config, dead_port, redis_proxy
from tests.web.api import error, token_client
from tests.web.desk import NAMES, Capture, finish_table, new_tournament, summary
from tournaments import services as t
from tournaments.desk import qr
from tournaments.public import standings_page
from tournaments.services.codes import tournament_short_code

pytestmark = pytest.mark.django_db

PASSWORD = "s3cret-pass"
LOGGER = "config.cache"
GZIP = {"accept-encoding": "gzip"}
HTMX = {"HX-Request": "true"}


@dataclass(frozen=True)
class Site:
    """A tournament with round 1 played (table 1 results only, table 2 card by card) and
    closed, round 2 published with a few cards played at table 1."""

    olga: User
    tid: uuid.UUID
    played: uuid.UUID
    live: uuid.UUID
    token: str
    player: str
    code: str
    league: int
    members: tuple[str, str]

    def values(self) -> dict[str, list[str]]:
        """What each URL parameter of the site is filled in with (each value crawled)."""
        return {
            "tournament_id": [str(self.tid)],
            # The tournament's short address (/t/<code>/), in the case a player may type it.
            "code": [self.code, self.code.upper()],
            "number": ["1", "2"],
            "round": ["1", "2"],
            "table": ["1"],
            "seat": ["2"],
            "game": [str(self.played), str(self.live)],
            "game_id": [str(self.played), str(self.live)],
            "player": [self.player],
            "player_id": [self.player],
            "token": [self.token],
            "action": ["share"],
            # A seat phone's tap (games.phone: the game's panel's actions; POST only).
            "name": ["act"],
            # The admin's own pages (they read no cache; crawled all the same).
            "app_label": ["tournaments"],
            "id": [str(self.olga.pk)],
            "object_id": [str(self.olga.pk)],
            "content_type_id": ["1"],
            # The club's pages and API: the league the tournament counts for, two members.
            "league_id": [str(self.league)],
            "member_id": list(self.members),
            "other_id": [self.members[1]],
            "other": [self.members[1]],
            "tournament": [str(self.tid)],
        }


@pytest.fixture
def site(django_user_model: type[User], capture: Capture) -> Site:
    olga = django_user_model.objects.create_user("olga", password=PASSWORD, is_staff=True)
    tid = new_tournament(olga, NAMES)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    finish_table(tid, olga, 1, 1, capture)
    entry = summary(tid, olga)["rounds"][0]["tables"][1]
    played = uuid.UUID(entry["game"])
    names = tuple(s["name"] for s in entry["seats"])
    with capture(execute=True):
        games.game_append(
            game_id=played,
            expected_version=GameProjection.objects.get(stream_id=played).version,
            events=[to_json(e) for e in simulate(3, 4, names=names, first_player=names[0])][1:],
            user=olga,
        )
    with capture(execute=True):
        t.tournament_confirm_finished(tournament_id=tid, round=1, user=olga)
        t.tournament_close_round(tournament_id=tid, round=1, user=olga)
        t.tournament_pair(tournament_id=tid, user=olga)
        t.tournament_publish(tournament_id=tid, round=2, user=olga)
    entry = summary(tid, olga)["rounds"][1]["tables"][0]
    live = uuid.UUID(entry["game"])
    seats = tuple(s["name"] for s in entry["seats"])
    games.game_append(
        game_id=live,
        expected_version=GameProjection.objects.get(stream_id=live).version,
        events=[to_json(e) for e in simulate(5, 4, names=seats, first_player=seats[0])][1:8],
        user=olga,
    )
    token = games.seat_links_of([live])[live][0].token
    player = summary(tid, olga)["players"][0]["id"]
    code = tournament_short_code(tournament_id=tid)
    league = club_writes.league_create(name="Season", rules={}, user=olga).league
    assert league is not None
    club_writes.league_link(league=league, tournament=tid, user=olga)
    club_sync()
    members = (default_member(NAMES[0]), default_member(NAMES[1]))
    return Site(olga, tid, played, live, token, player, code, league, members)


def routes() -> Iterator[tuple[str, list[str]]]:
    """Every named URL pattern of the site: its name for reverse() and its parameters."""

    def walk(patterns: list[Any], namespace: str) -> Iterator[tuple[str, list[str]]]:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
                yield from walk(entry.url_patterns, inner)
            elif isinstance(entry, URLPattern) and entry.name:
                pattern = entry.pattern
                names = list(getattr(pattern, "converters", {}) or pattern.regex.groupindex)
                yield f"{namespace}{entry.name}", names

    yield from walk(get_resolver().url_patterns, "")


def reads(site: Site) -> list[str]:
    """Every URL of the site, each parameter filled in with each of its values."""
    values = site.values()
    urls: list[str] = []
    for name, parameters in routes():
        unknown = [p for p in parameters if p not in values]
        assert not unknown, f"{name}: give this test a value for {unknown} (Site.values)"
        for chosen in itertools.product(*(values[p] for p in parameters)):
            url = reverse(name, kwargs=dict(zip(parameters, chosen, strict=True)))
            if url not in urls:
                urls.append(url)
    return urls


def crawl(site: Site) -> dict[tuple[str, str], tuple[int, str]]:
    """(who, URL) -> (status, content type) of a GET of every URL: a visitor (and, for the
    pages that poll, as htmx asks), the organizer logged in, and for the API the organizer with
    her token."""
    standings_page._PAGES.clear()  # this process's copies: every page asks the cache again
    qr.forget()
    visitor, organizer = Client(), Client()
    organizer.force_login(site.olga)
    api: APIClient = token_client(site.olga)
    answers = {}
    for url in reads(site):
        clients: dict[str, tuple[Any, dict[str, str]]] = {
            "visitor": (visitor, GZIP),
            "organizer": (api, {}) if url.startswith("/api/") else (organizer, GZIP),
        }
        if not url.startswith(("/api/", "/admin/", "/desk/")):  # a page that polls with htmx
            clients["htmx"] = (visitor, {**GZIP, **HTMX})
        for who, (client, headers) in clients.items():
            response = client.get(url, headers=headers)
            answers[who, url] = (response.status_code, response.get("Content-Type", ""))
    return answers


@pytest.fixture
def dead_cache(settings: SettingsWrapper) -> Iterator[None]:
    """CACHE_URL on a port of 127.0.0.1 that refuses connections, DEBUG off (production's)."""
    settings.DEBUG = False
    settings.CACHES = {"default": cache_config(dead_port())}
    standings_page._PAGES.clear()
    qr.forget()
    yield
    standings_page._PAGES.clear()
    qr.forget()


@pytest.fixture(autouse=True)
def _no_outage_left() -> Iterator[None]:
    forget_outages()
    yield
    forget_outages()


def cache_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER]


def test_every_read_answers_as_with_a_working_cache(
    site: Site, settings: SettingsWrapper, caplog: pytest.LogCaptureFixture
) -> None:
    settings.DEBUG = False
    working = crawl(site)  # this process's memory (the tests' cache): a cache that works
    issue = {  # the reads the issue found answering 500
        ("visitor", f"/t/{site.tid}/standings/"),
        ("organizer", f"/desk/{site.tid}/round/1/sheets/print/"),
        ("organizer", f"/desk/{site.tid}/qr/{site.live}.svg"),
        ("visitor", f"/seat/{site.token}/"),
    }
    assert {working[read][0] for read in issue} == {200}, {r: working[r] for r in issue}

    settings.CACHES = {"default": cache_config(dead_port())}
    caplog.set_level("INFO", logger=LOGGER)
    dead = crawl(site)
    changed = {read: (working[read], dead[read]) for read in working if dead[read] != working[read]}
    assert not changed, f"{len(changed)} reads answer otherwise with the cache dead: {changed}"
    assert len(dead) > 300
    [line] = cache_lines(caplog)  # once across all those requests
    assert "failed (ConnectionError" in line


def test_the_api_hands_out_tokens_and_still_throttles(
    site: Site, dead_cache: None, caplog: pytest.LogCaptureFixture
) -> None:
    """The login throttle counts in this process's memory while Redis is down (docs/api.md):
    the right password gets its token; the 31st try of a minute is refused all the same."""
    caplog.set_level("INFO", logger=LOGGER)
    client = APIClient()
    answer = client.post("/api/auth/token/", {"username": "olga", "password": PASSWORD})
    assert answer.status_code == 200, answer.content
    assert answer.json()["token"]
    for _ in range(29):
        wrong = client.post("/api/auth/token/", {"username": "olga", "password": "guess"})
        assert wrong.status_code == 400
    refused = client.post("/api/auth/token/", {"username": "olga", "password": PASSWORD})
    assert refused.status_code == 429 and error(refused)["code"] == "throttled"
    assert len(cache_lines(caplog)) == 1


def test_health_says_the_cache_is_degraded_and_stays_200(
    client: Client, dead_cache: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO", logger=LOGGER)
    for _ in range(5):
        answer = client.get("/health/")
        assert answer.status_code == 200
        health = answer.json()
        assert health["status"] == "degraded"
        assert health["database"] == "ok"
        assert health["cache"].startswith("degraded: Redis at 127.0.0.1:")
        assert "ConnectionError" in health["cache"]
    assert len(cache_lines(caplog)) == 1


def test_health_with_each_process_memory_as_the_cache(client: Client) -> None:
    """No CACHE_URL (the tests' own settings): nothing is degraded, the cache is local."""
    health = client.get("/health/").json()
    assert health["status"] == "ok"
    assert health["cache"] == "local (each process's own memory: no CACHE_URL)"


def test_redis_back_serves_the_standings_again(
    site: Site, settings: SettingsWrapper, redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis going down mid-evening and coming back: the standings are served throughout, and
    once Redis answers again (retry_seconds later) they are shared through it again."""
    caplog.set_level("INFO", logger=LOGGER)
    url, visitor = f"/t/{site.tid}/standings/", Client()
    with redis_proxy(redis_url) as proxy:
        config = cache_config(proxy.port, retry_seconds=0.2)
        settings.CACHES = {"default": config}
        shared = redis.Redis(proxy.upstream[0], proxy.upstream[1], db=CACHE_DB)
        pattern = f"{config['KEY_PREFIX']}:1:public-standings:{site.tid}:*"
        try:
            assert visitor.get(url).status_code == 200
            assert list(shared.scan_iter(pattern))  # rendered once, shared through Redis

            proxy.stop()
            standings_page._PAGES.clear()  # another web process: it has no copy of its own
            assert visitor.get(url).status_code == 200
            assert visitor.get("/health/").json()["status"] == "degraded"

            proxy.start()
            shared.delete(*shared.scan_iter(pattern))
            deadline = time.monotonic() + 10
            while visitor.get("/health/").json()["status"] != "ok":
                assert time.monotonic() < deadline, "Redis was not asked again"
                time.sleep(0.05)
            standings_page._PAGES.clear()
            assert visitor.get(url).status_code == 200
            assert list(shared.scan_iter(pattern))  # in Redis again
        finally:
            keys = list(shared.scan_iter(f"{config['KEY_PREFIX']}:*"))
            if keys:
                shared.delete(*keys)
            shared.close()
    down, back = cache_lines(caplog)
    assert "failed" in down and "answers again" in back
