"""The relay's delay on the tournament's public reads (docs/relay.md): a table's result reaches
the public only once the game's event that finished it is the round's delay old. Each public
path is probed before, just before and just after the delay: the standings page (shared page,
htmx partial, 304), the round page, the player page, the big screen, the overview, and the API's
detail, standings, CSV, JSON Lines and zip. The organizers see the result at once.

The clock is Django's ``timezone.now``, moved by the tests (the store dates events with it and
the reads compare with it): no sleep. It starts in the past, so that the standings' Last-Modified
(sent once 2 s old, by the real clock) is there to probe."""

from __future__ import annotations

import io
import re
import uuid
import zipfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.models import GameProjection
from tests.clock import Clock, installed
from tests.tournaments.helpers import new_tournament, play, summary
from tournaments import services as t
from tournaments.public import standings_page

pytestmark = pytest.mark.django_db

DELAY = 300


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    found = installed(monkeypatch, datetime(2026, 3, 14, 19, 0, tzinfo=UTC))
    cache.clear()
    standings_page._PAGES.clear()
    yield found
    cache.clear()
    standings_page._PAGES.clear()


@pytest.fixture
def on_commit(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> Callable[..., Any]:
    return lambda **kw: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("org", password="pw")


def _tournament(organizer: User, delay: int = DELAY) -> uuid.UUID:
    tid = new_tournament(organizer, relay_delay=delay, confirmation="auto", downloads_released=True)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    return tid


def _staff_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


CSRF = re.compile(r"X-CSRFToken[^}]*")
PAGES = ("tournament", "round", "player", "screen")


def _page_urls(tid: uuid.UUID) -> dict[str, str]:
    seat = summary(tid)["rounds"][0]["tables"][0]["seats"][0]["player"]
    return {
        "tournament": reverse("public:tournament", args=[tid]),
        "round": reverse("public:round", args=[tid, 1]),
        "round_partial": reverse("public:round", args=[tid, 1]),
        "player": reverse("public:player", args=[tid, seat]),
        "screen": reverse("public:screen", args=[tid]),
    }


API = ("tournament", "standings", "standings-csv", "results-csv", "results-jsonl")


def _api(client: Client, tid: uuid.UUID, name: str) -> bytes:
    response = client.get(reverse(f"tournaments-api:{name}", args=[tid]))
    assert response.status_code == 200, (name, response.content[:300])
    return bytes(response.content)


def _zip(client: Client, tid: uuid.UUID) -> dict[str, bytes]:
    archive = zipfile.ZipFile(io.BytesIO(_api(client, tid, "games-zip")))
    return {name: archive.read(name) for name in archive.namelist()}


def _pages(client: Client, tid: uuid.UUID) -> dict[str, str]:
    out = {}
    for name, url in _page_urls(tid).items():
        headers: dict[str, Any] = {"HTTP_HX_REQUEST": "true"} if name.endswith("_partial") else {}
        response = client.get(url, **headers)
        assert response.status_code == 200, name
        out[name] = CSRF.sub("", response.content.decode())  # a new token at each visit
    return out


def _standings(client: Client, tid: uuid.UUID, **headers: Any) -> Any:
    return client.get(reverse("public:standings", args=[tid]), **headers)


def _table_one(client: Client, tid: uuid.UUID) -> dict[str, Any]:
    found: dict[str, Any] = client.get(reverse("tournaments-api:tournament", args=[tid])).json()[
        "rounds"
    ][0]["tables"][0]
    return found


def _games_played(client: Client, tid: uuid.UUID) -> int:
    rows = client.get(reverse("tournaments-api:standings", args=[tid])).json()["rows"]
    return sum(int(r["games"]) for r in rows)


def _everything(client: Client, tid: uuid.UUID) -> dict[str, Any]:
    """What the public reads of the tournament, but for its version (which moves anyway)."""
    detail = client.get(reverse("tournaments-api:tournament", args=[tid])).json()
    detail.pop("version")
    return {
        "pages": _pages(client, tid),
        "standings_page": _standings(client, tid).content,
        "partial": _standings(client, tid, HTTP_HX_REQUEST="true").content,
        "detail": detail,
        **{name: _api(client, tid, name) for name in API if name != "tournament"},
        "zip": _zip(client, tid),
    }


def _differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    out = [k for k in a if k not in ("pages", "zip") and a[k] != b[k]]
    out += [f"page {k}" for k in a["pages"] if a["pages"][k] != b["pages"][k]]
    out += ["zip"] if a["zip"] != b["zip"] else []
    return out


def test_a_result_reaches_every_public_read_once_the_delay_passed(
    organizer: User, on_commit: Any, clock: Clock
) -> None:
    tid = _tournament(organizer)
    public, desk = Client(), _staff_client(organizer)
    before = _everything(public, tid)
    assert _table_one(public, tid)["result"] is None

    play(tid, 1, 1, organizer, on_commit)
    assert summary(tid)["rounds"][0]["tables"][0]["result"] is not None
    # The organizers see it at once: in the API, the standings and on their pages.
    assert _table_one(desk, tid)["result"] is not None and _table_one(desk, tid)["confirmed"]
    assert _games_played(desk, tid) == 4
    assert "result confirmed" in desk.get(_page_urls(tid)["round"]).content.decode()

    clock.wait(1)
    assert _differences(before, _everything(public, tid)) == []  # as if still being played
    clock.wait(DELAY - 2)
    assert _differences(before, _everything(public, tid)) == []
    assert _table_one(public, tid)["result"] is None and _games_played(public, tid) == 0

    clock.wait(2)  # the finishing event is now the delay old
    after = _everything(public, tid)
    changed = set(_differences(before, after))
    expected = {"standings_page", "partial", "detail", *API[1:], "zip"}
    assert expected | {f"page {p}" for p in PAGES} <= changed, changed
    assert _table_one(public, tid) == _table_one(desk, tid)
    assert _games_played(public, tid) == 4
    assert "result confirmed" in after["pages"]["round"]
    for name in ("tournament", "round", "player"):  # the pages say how late spectators are
        assert "see the tables and their results 5 minutes late." in after["pages"][name]
    assert b"see the tables and their results 5 minutes late." in after["standings_page"]
    assert b"after 1 confirmed table result" in after["standings_page"]


def test_the_shared_standings_never_outlive_a_held_result(
    organizer: User, on_commit: Any, clock: Clock
) -> None:
    tid = _tournament(organizer)
    public = Client()
    play(tid, 1, 1, organizer, on_commit)
    clock.wait(10)
    held = _standings(public, tid)
    partial = _standings(public, tid, HTTP_HX_REQUEST="true")
    assert held.status_code == 200 and b"after 0 confirmed table results" in held.content
    etag, modified = held["ETag"], held.get("Last-Modified")
    assert modified is not None  # the clock is in the past: the page is old enough to say it
    # While held, a revalidation is a 304: nothing changed for the public.
    assert _standings(public, tid, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert (
        _standings(public, tid, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=partial["ETag"])
    ).status_code == 304

    clock.wait(DELAY)
    # The same tournament version, but the result has reached the public: no 304 for the held
    # page, by its ETag or its date alone, page or partial; the new page shows the result.
    fresh = _standings(public, tid, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and b"after 1 confirmed table result" in fresh.content
    assert fresh["ETag"] != etag
    by_date = _standings(public, tid, HTTP_IF_MODIFIED_SINCE=modified)
    assert by_date.status_code == 200 and b"after 1 confirmed table result" in by_date.content
    again = _standings(public, tid, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=partial["ETag"])
    assert again.status_code == 200 and b"after 1 confirmed table result" in again.content
    assert _standings(public, tid, HTTP_IF_NONE_MATCH=fresh["ETag"]).status_code == 304


def test_the_public_version_key(organizer: User, on_commit: Any, clock: Clock) -> None:
    tid = _tournament(organizer)
    plain = t.tournament_version(tid)
    assert t.tournament_public_version(tid) == plain  # nothing held: the version as it is
    play(tid, 1, 1, organizer, on_commit)
    version = t.tournament_version(tid)
    assert version is not None
    held = t.tournament_public_version(tid)
    assert held is not None and held.startswith(version.partition(":")[0] + "+1:")
    assert t.tournament_public_version(tid) == held  # the same while nothing reaches it
    clock.wait(DELAY + 1)
    reached = t.tournament_public_version(tid)
    assert reached is not None and reached.partition(":")[0].endswith("+0")
    assert standings_page.version_time(reached) > standings_page.version_time(held)  # type: ignore[operator]
    assert t.tournament_version(tid) == version
    assert set(t.tournaments_held([tid])) == set()


def test_held_results_by_tournament(organizer: User, on_commit: Any, clock: Clock) -> None:
    tid = _tournament(organizer)
    play(tid, 1, 1, organizer, on_commit)
    game = summary(tid)["rounds"][0]["tables"][0]["game"]
    version = GameProjection.objects.get(stream_id=game).version
    assert t.tournaments_held([tid]) == {tid: {game: version}}
    clock.wait(DELAY)
    assert t.tournaments_held([tid]) == {}


def test_a_round_of_its_own_delay(organizer: User, on_commit: Any, clock: Clock) -> None:
    tid = _tournament(organizer, delay=0)
    t.tournament_set_delay(tournament_id=tid, round=1, seconds=60, user=organizer)
    public = Client()
    play(tid, 1, 1, organizer, on_commit)
    assert _table_one(public, tid)["result"] is None
    clock.wait(60)
    assert _table_one(public, tid)["result"] is not None


def test_a_scorekeeper_is_not_delayed(
    organizer: User, on_commit: Any, clock: Clock, django_user_model: type[User]
) -> None:
    tid = _tournament(organizer)
    keeper = django_user_model.objects.create_user("keeper", password="pw")
    player = django_user_model.objects.create_user("player", password="pw")
    t.tournament_set_role(
        tournament_id=tid, user=organizer, username="keeper", role="scorekeeper", grant=True
    )
    play(tid, 1, 1, organizer, on_commit)
    assert _table_one(_staff_client(keeper), tid)["result"] is not None
    assert _table_one(_staff_client(player), tid)["result"] is None
    # A logged-in reader's own standings page is held back the same way.
    page = _standings(_staff_client(player), tid)
    assert b"after 0 confirmed table results" in page.content
    assert b"after 1 confirmed table result" in _standings(_staff_client(keeper), tid).content


def test_no_delay_changes_nothing(organizer: User, on_commit: Any, clock: Clock) -> None:
    tid = _tournament(organizer, delay=0)
    public = Client()
    play(tid, 1, 1, organizer, on_commit)
    assert _table_one(public, tid)["result"] is not None
    assert _games_played(public, tid) == 4
    assert t.tournament_public_version(tid) == t.tournament_version(tid)
    page = _standings(public, tid).content
    assert b"after 1 confirmed table result" in page and b"late." not in page
