"""The page a seat link of a game without phones opens (games/phone/, ``GameType.phone`` None),
in Debian's Chromium at 320 and 390 px, in English, Russian and Japanese: nothing sticks out
past the screen's right edge and no word is broken over two lines, for every such game of the
registry."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Page  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from games.gametypes import GAME_TYPES  # noqa: E402
from tests.browser.helpers import WIDER_THAN_THE_SCREEN, broken_words  # noqa: E402
from tests.browser.test_small_widths import LANGUAGES, WIDTHS  # noqa: E402
from tests.web.test_phone_no_panel import new_table  # noqa: E402

pytestmark = pytest.mark.slow

WITHOUT_PHONES = sorted(key for key, kind in GAME_TYPES.items() if kind.phone is None)


def test_the_page_fits_a_small_phone_in_every_language(
    live_server: LiveServer, transactional_db: None, page: Page
) -> None:
    problems: list[str] = []
    for key in WITHOUT_PHONES:
        _, tokens, _ = new_table(key)
        for language in LANGUAGES:
            page.context.add_cookies(
                [{"name": "django_language", "value": language, "url": live_server.url}]
            )
            for size in WIDTHS:
                page.set_viewport_size(size)
                page.goto(f"{live_server.url}/seat/{tokens[0]}/")
                where = f"{key} {language} {size['width']} px"
                assert page.locator("main").inner_text(), where
                problems += [f"{where}: {w}" for w in page.evaluate(WIDER_THAN_THE_SCREEN)]
                problems += [f"{where}: {w}" for w in broken_words(page)]
            page.context.clear_cookies()
    assert not problems, problems
