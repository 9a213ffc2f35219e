"""Browser tests: Debian's Chromium driven by Playwright against Django's live server.

Chromium is a service like PostgreSQL: absent, the tests skip saying so (or fail under
TNC_REQUIRE_SERVICES=1, as in CI). Playwright never downloads a browser of its own: it launches
/usr/bin/chromium. Each test saves screenshots under test-output/screenshots/ and fails if the
browser logged a console error or an uncaught page error.

One console error is expected, and only when the test announces it: Chromium logs "Failed to
load resource: the server responded with a status of 422" for any response with an error
status, including the refusals the pages show in place (a card against the rules, a form to
correct: 422; a concurrent change: 409; not allowed: 403). Those statuses are the app's
contract (docs/scorekeeping.md, docs/tournaments.md: truthful codes, and htmx told to swap
them), so the test says where it expects one (``with console.refusal(page, 422): ...``) and the
fixture lets that one line through, for that URL and status only.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser.recorders import Console, Shots
from tests.services import services_required

if TYPE_CHECKING:  # Playwright may be absent: the tests then skip
    from playwright.sync_api import Browser, ConsoleMessage, Page

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _need_chromium() -> None:
    if Path(CHROMIUM).exists() or shutil.which(CHROMIUM):
        return
    reason = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    if services_required():
        pytest.fail(f"{reason}; TNC_REQUIRE_SERVICES=1 requires it", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    _need_chromium()
    playwright_api = pytest.importorskip("playwright.sync_api")
    # Playwright's sync API runs an event loop in this thread, which Django takes for an async
    # context; the tests' own ORM calls are plain synchronous ones. Only while browsers run.
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with playwright_api.sync_playwright() as playwright:
            launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            yield launched
            launched.close()
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture
def console() -> Console:
    return Console()


@pytest.fixture
def page(browser: Browser, console: Console) -> Iterator[Page]:
    """A fresh browser page that records console errors; the test fails if any appears (but
    the refusals it announced with ``console.refusal``)."""
    context = browser.new_context(viewport={"width": 412, "height": 915})
    opened = context.new_page()

    def logged(message: ConsoleMessage) -> None:
        if message.type == "error":
            console.errors.append((message.text, str(message.location.get("url", ""))))

    opened.on("console", logged)
    opened.on("pageerror", lambda error: console.page_errors.append(str(error)))
    yield opened
    context.close()
    problems = console.problems()
    assert not problems, "the browser reported errors:\n" + "\n".join(problems)


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Shots:
    return Shots(request.node.name)
