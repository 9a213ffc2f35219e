"""Shared fixtures and hooks.

Services: see ``tests/services.py``. A test needing Redis takes the ``redis_url`` fixture; the
database server is checked before the test database is created, so with PostgreSQL down the
database tests skip with the reason (or fail under ``TNC_REQUIRE_SERVICES=1``).

Database tests: mark them ``@pytest.mark.django_db``, or ``@pytest.mark.postgres`` as well
for tests that only make sense on PostgreSQL (skipped on SQLite). Tests that use
pytest-django's database fixtures (``db``, ``transactional_db``, ...) without the marker get
``django_db`` added here, so ``bin/test``'s PostgreSQL pass (``-m "(django_db or postgres)
and not one_backend"``) selects them too.

One backend: a database test whose outcome cannot depend on the backend (what it checks is
HTML, HTTP headers or a browser's view of the pages) gets the ``one_backend`` marker from
``ONE_BACKEND`` (or ``ONE_BACKEND_DIRS``: every browser test) below and runs in one pass only; a
``postgres`` test never does. That pass is the SQLite one, but for ``ON_POSTGRES_PASS``'s
modules (``postgres_pass`` marker as well): long one-backend tests that bin/test runs in its
PostgreSQL pass instead, so that the two passes, which run at once, end about together.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import hypothesis
import pytest
from django.conf import settings

from tests.services import require_service

if TYPE_CHECKING:  # Django is set up after this module is read
    from django.contrib.auth.models import User
    from rest_framework.test import APIClient

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"

# Hypothesis profiles, chosen with HYPOTHESIS_PROFILE (bin/test uses "ci"). A test that sets
# max_examples itself keeps its count; the profile sets it for the tests that leave it to the
# run (the engine's random legal games). Examples are drawn afresh on every run (no
# derandomize), so each CI run tries new games, and a failure prints the blob that reproduces it.
hypothesis.settings.register_profile("dev", max_examples=100, deadline=None)
hypothesis.settings.register_profile("ci", max_examples=150, deadline=None, print_blob=True)
hypothesis.settings.register_profile("thorough", max_examples=2000, deadline=None)
hypothesis.settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

_DB_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "live_server",
        "committed_db",
        "django_user_model",
        "admin_user",
        "admin_client",
    }
)


ONE_BACKEND: dict[str, str] = {
    # module (relative to the repository): why the backend cannot change its outcome
    "tests/web/test_api_schema_fuzz.py": "the API's answers against its schema: run on "
    "PostgreSQL (ON_POSTGRES_PASS), whose refusals of a value are a superset of SQLite's",
    "tests/web/test_accessibility.py": "the pages' HTML against the accessibility checker",
    "tests/web/test_desk_game_types.py": "the desk's HTML for other games (forms and panels)",
    "tests/web/test_api_docs.py": "the OpenAPI schema and its static Swagger UI",
    "tests/web/test_home.py": "the home page's HTML",
    "tests/web/test_public_standings_http.py": "HTTP validators, compression, Cache-Control",
    "tests/web/test_table_page.py": "the table page's forms and text (the services it calls are "
    "tested on both backends in tests/games/)",
    "tests/web/test_desk_at_scale.py": "the desk's HTML pieces and QR images",
    "tests/web/test_phone_page.py": "a seat phone's HTML, headers and statuses (its services run "
    "on both backends in tests/games/test_deals.py)",
    "tests/web/test_i18n_desk.py": "the desk's words in each language (the catalogues')",
    "tests/web/test_i18n_table.py": "the table and phone pages' words in each language",
    "tests/games/test_i18n_refusals.py": "a refusal's words in each language",
    "tests/games/test_i18n_replay.py": "the replay page's words in each language",
    "tests/tournaments/test_i18n_tour.py": "the tournaments' refusals, notes and titles in each "
    "language",
    "tests/web/test_i18n_api_tournaments.py": "the API's refusals and CSV headers in each language",
    "tests/web/test_seat_link_privacy.py": "which pages, API reads and downloads carry a seat's "
    "token (the links' services run on both backends in tests/games/test_seat_links.py)",
    "tests/web/test_desk_seat_links.py": "the desk's seat-link pages and who sees them (the "
    "services and their permissions run on both backends in tests/games/test_seat_links.py)",
    "tests/web/test_public_pages.py": "the public pages' HTML",
    "tests/web/test_round_clock.py": "the clock's desk form and pages (the clock's events run on "
    "both backends in tests/tournaments/test_round_clock.py)",
    "tests/web/test_game_pages.py": "the other games' table pages, replays and sheets in HTML "
    "(the services they call run on both backends in tests/games/test_gametypes.py)",
    "tests/web/test_api_games.py": "the games API's shapes, statuses and words for each game "
    "type (the services it calls run on both backends in tests/games/test_gametypes.py)",
    "tests/games/test_every_phone_plays.py": "whole games of random taps through the phones' "
    "pages (the services they call, the store's appends and reads, run on both backends in "
    "tests/games/test_gametypes.py and test_seat_links.py)",
    "tests/web/test_every_seat_link_opens.py": "the seat links the desk's pages show and what "
    "they open (the links' services run on both backends in tests/games/test_seat_links.py)",
    "tests/web/test_standings_games_pages.py": "the other games' standings in the pages' HTML, "
    "the API and the CSV (ranked on both backends in tests/tournaments/test_standings_games.py)",
}
"""Database tests that run in bin/test's SQLite pass only. The database's own behaviour (locks,
concurrency, constraints, JSON, text comparison, the event log's guards, ordering of queries)
is tested on both backends: keep such modules out of this list."""


FAST_PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    *settings.PASSWORD_HASHERS,
]
"""The tests' password hashing: MD5 first. Django's PBKDF2 (a million rounds) costs a quarter of a
second for every user created and every login, and the suite creates and logs in hundreds of
them: minutes of CI on two cores. The others stay listed, so a password a server process hashed
with its own settings (tests/deploy/) still checks. Production keeps Django's defaults."""


ONE_BACKEND_DIRS: dict[str, str] = {
    "tests/club/": "the club's pages, API and consumer inside one test's transaction, which the "
    "log's reader on PostgreSQL does not read before it commits (games.store.read_all): the "
    "consumer runs on PostgreSQL, committed and racing, in tests/club/test_consumer_postgres.py",
    "tests/browser/": "a browser's view of the pages (slow: Chromium); the services the pages "
    "call run on both backends in tests/games/ and tests/tournaments/",
}
"""Directories whose database tests all run in the SQLite pass only, as ONE_BACKEND's modules."""


BOTH_BACKENDS: frozenset[str] = frozenset({"tests/club/test_consumer_postgres.py"})
"""Modules of a ONE_BACKEND_DIRS directory that run on both backends all the same."""


ON_POSTGRES_PASS: dict[str, str] = {
    # module (one_backend all the same): its share of the SQLite pass, measured on CI
    "tests/browser/test_phones.py": "four phones play a whole Trick-n-Chef game (about a minute)",
    "tests/browser/test_phone_games.py": "every other game played whole from its phones (Chefs "
    "and Food Truck about a minute each)",
    "tests/browser/test_flow.py": "a club evening, a whole game tapped in (about a minute)",
    "tests/browser/test_relay_delay.py": "four phones play while a spectator follows the relay "
    "(about a minute)",
    "tests/web/test_api_schema_fuzz.py": "schemathesis's requests against every operation (three "
    "minutes of CPU a backend): on PostgreSQL, the stricter of the two (a NUL character, a "
    "string's length, an integer's range are its errors, which SQLite lets through), so that "
    "what a 500 could come from is met once",
}
"""One-backend modules that bin/test runs in its PostgreSQL pass, not its SQLite pass (the
``postgres_pass`` marker): the SQLite pass has every other one-backend test and was the long
pole (904 s against 470 s). Where PostgreSQL does not answer, bin/test runs them on SQLite."""


def one_backend(module: str) -> bool:
    if module in BOTH_BACKENDS:
        return False
    return module in ONE_BACKEND or any(module.startswith(d) for d in ONE_BACKEND_DIRS)


def pytest_configure(config: pytest.Config) -> None:
    settings.PASSWORD_HASHERS = FAST_PASSWORD_HASHERS
    config.addinivalue_line(
        "markers",
        "postgres_pass: a one_backend test bin/test runs in its PostgreSQL pass instead "
        "(tests/conftest.py ON_POSTGRES_PASS)",
    )
    config.pluginmanager.register(_RunFirst(), "tnc-run-first")


def database_is_postgres() -> bool:
    return bool(settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql")


RUN_FIRST: dict[str, str] = {
    # module: why it goes first
    "tests/deploy/test_compose.py": "minutes of waiting on its containers: overlaps the rest",
    # the longest of each pass (CI's durations): started early, the other worker and the
    # work-stealing even out the rest around them, and none ends a pass alone
    "tests/games/test_every_phone_plays.py": "whole games of taps, Chefs' four minutes of CPU",
    "tests/browser/test_phone_games.py": "the PostgreSQL pass's longest: whole games in Chromium",
    "tests/deploy/test_native_stack.py": "two minutes, half of it waiting on its processes",
}
"""Modules run before every other test (the first of an xdist worker's share, worksteal): a
long test that mostly waits started last would end the run alone."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # tryfirst: runs before `-m` deselects items.
    for item in items:
        uses_db = _DB_FIXTURES.intersection(getattr(item, "fixturenames", ()))
        if uses_db and item.get_closest_marker("django_db") is None:
            item.add_marker(pytest.mark.django_db)
        module = _module_of(item)
        if item.get_closest_marker("postgres") is None and one_backend(module):
            item.add_marker(pytest.mark.one_backend)
            if module in ON_POSTGRES_PASS:
                item.add_marker(pytest.mark.postgres_pass)


SQLITE_PASS_MARKEXPR = "not postgres_pass"
"""bin/test's SQLite pass's ``-m`` where its PostgreSQL pass runs ON_POSTGRES_PASS's modules."""


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """ON_POSTGRES_PASS's modules are not even collected by a pass that deselects them all (the
    schema fuzz's collection alone draws its coverage cases: half a minute of CPU a worker)."""
    if config.option.markexpr != SQLITE_PASS_MARKEXPR:
        return None
    try:
        module = collection_path.relative_to(config.rootpath).as_posix()
    except ValueError:
        return None
    return True if module in ON_POSTGRES_PASS else None


class _RunFirst:
    """RUN_FIRST's modules moved to the front, after every other plugin's ordering (pytest-django
    groups the tests by their kind of database use)."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        items.sort(key=lambda item: _module_of(item) not in RUN_FIRST)  # stable: False first


def _module_of(item: pytest.Item) -> str:
    try:
        return item.path.relative_to(item.config.rootpath).as_posix()
    except ValueError:
        return ""


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings: None) -> None:
    """Runs before the test database is created: check that its server answers."""
    if database_is_postgres():
        db = settings.DATABASES["default"]
        host = str(db.get("HOST") or "")
        if host and not host.startswith("/"):  # a TCP host, not a Unix socket directory
            require_service("PostgreSQL", host, int(db.get("PORT") or 5432))


@pytest.fixture(autouse=True)
def _postgres_only(request: pytest.FixtureRequest) -> None:
    """Tests marked ``postgres`` run only when the configured database is PostgreSQL."""
    if request.node.get_closest_marker("postgres") is not None and not database_is_postgres():
        pytest.skip(
            "PostgreSQL-only test: it runs in bin/test's PostgreSQL pass "
            "(DATABASE_URL=postgres://...)"
        )


@pytest.fixture(autouse=True, scope="session")
def _catalogues_compiled() -> None:
    """The translations as Django reads them: the .mo files are build output (bin/test, bin/run
    and the Dockerfile compile them); a plain pytest run compiles a missing or stale one."""
    from tests.web.i18n_compiled import ensure_compiled

    ensure_compiled()


@pytest.fixture(autouse=True)
def _english_between_tests() -> Iterator[None]:
    """LocaleMiddleware leaves the last request's language active in the thread: each test
    starts (and leaves) in the default language, whatever the one before it asked for."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def committed_db(transactional_db: None) -> Iterator[None]:
    """Database access where every transaction really commits (for tests with threads or
    several connections); the event log's append-only guard is on during the test."""
    from games.db import set_rewrite_allowed

    set_rewrite_allowed(False)
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """The event log refuses DELETE and TRUNCATE, and a test that really committed ends with
    pytest-django's flush of every table: allow the rewrite on this connection first (before any
    fixture is torn down, whatever the fixtures' order or a skip in one of them)."""
    if "transactional_db" in getattr(item, "fixturenames", ()):
        from django.db import DatabaseError

        from games.db import set_rewrite_allowed

        with contextlib.suppress(DatabaseError, RuntimeError):  # no access left: no flush
            set_rewrite_allowed(True)
    yield


@pytest.fixture
def redis_url() -> str:
    """URL of a reachable Redis server (``REDIS_URL``, default ``redis://127.0.0.1:6379/0``)."""
    url = os.environ.get("REDIS_URL", DEFAULT_REDIS_URL)
    parts = urlsplit(url)
    require_service("Redis", parts.hostname or "127.0.0.1", parts.port or 6379)
    return url


# ------------------------------------------------------------- users and their API clients


@pytest.fixture
def make_user(django_user_model: type[User]) -> Callable[..., User]:
    def make(username: str, **extra: Any) -> User:
        return django_user_model.objects.create_user(username, password="s3cret-pass", **extra)

    return make


@pytest.fixture
def ana(make_user: Callable[..., User]) -> User:
    return make_user("ana")


@pytest.fixture
def api(ana: User) -> APIClient:
    """Ana, a scorekeeper, with her API token."""
    from tests.web.api import token_client

    return token_client(ana)


@pytest.fixture
def anon() -> APIClient:
    from rest_framework.test import APIClient

    return APIClient()
