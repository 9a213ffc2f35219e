"""The page a seat link of a game without phones opens (games/phone/, ``GameType.phone`` None:
a link printed before its phones were withdrawn; the tests' toy High Card on paper), in
Debian's Chromium at 320 and 390 px, in English, Russian and Japanese: nothing sticks out past
the screen's right edge and no word is broken over two lines."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Page  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from tests.browser.helpers import WIDER_THAN_THE_SCREEN, broken_words  # noqa: E402
from tests.browser.test_small_widths import LANGUAGES, WIDTHS  # noqa: E402
from tests.web.test_phone_no_panel import new_table  # noqa: E402

pytestmark = pytest.mark.slow


def test_the_page_fits_a_small_phone_in_every_language(
    live_server: LiveServer, transactional_db: None, page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    problems: list[str] = []
    _, tokens, _ = new_table(monkeypatch)
    for language in LANGUAGES:
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        for size in WIDTHS:
            page.set_viewport_size(size)
            page.goto(f"{live_server.url}/seat/{tokens[0]}/")
            where = f"{language} {size['width']} px"
            assert page.locator("main").inner_text(), where
            problems += [f"{where}: {w}" for w in page.evaluate(WIDER_THAN_THE_SCREEN)]
            problems += [f"{where}: {w}" for w in broken_words(page)]
        page.context.clear_cookies()
    assert not problems, problems
