"""No club page (club/public) scrolls sideways on a small phone nor breaks a word over two
lines (as tests/browser/test_small_widths.py checks the tournament's pages): a season of two
tournaments with dropped results and members not ranked yet, at 320 and 390 px, in English,
Russian and Japanese. A table wider than the screen scrolls inside its own box."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from tests.browser.helpers import WIDER_THAN_THE_SCREEN, broken_words  # noqa: E402
from tests.browser.test_small_widths import LANGUAGES, WIDTHS  # noqa: E402
from tests.club.public.conftest import make_season  # noqa: E402

pytestmark = pytest.mark.slow


def test_no_club_page_scrolls_sideways_nor_breaks_a_word(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    django_capture_on_commit_callbacks: Any,
    page: Page,
) -> None:
    olga = django_user_model.objects.create_user("olga", password="x", is_staff=True)
    season = make_season(olga, django_capture_on_commit_callbacks, best=1, min_events=2)
    ana, ben = season.member("Ana"), season.member("Ben")
    urls = [
        "/club/",
        f"/club/leagues/{season.league}/",
        f"/club/leagues/{season.league}/ratings/?game=trick-n-chef",
        "/club/members/",
        f"/club/members/{ana}/",
        f"/club/members/{ana}/vs/{ben}/",
        "/club/records/",
    ]
    base = live_server.url
    problems: list[str] = []
    for language in LANGUAGES:
        page.context.add_cookies([{"name": "django_language", "value": language, "url": base}])
        for size in WIDTHS:
            page.set_viewport_size(size)
            for url in urls:
                page.goto(base + url)
                page.wait_for_load_state()
                where = f"{language} {size['width']} px {url}"
                problems += [f"{where}: {w}" for w in page.evaluate(WIDER_THAN_THE_SCREEN)]
                problems += [f"{where}: {w}" for w in broken_words(page)]
        page.context.clear_cookies()
    assert not problems, "\n".join(problems)
