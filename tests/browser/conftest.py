"""Browser tests: Debian's Chromium driven by Playwright against Django's live server.

Chromium is a service like PostgreSQL: absent, the tests skip saying so (or fail under
TNC_REQUIRE_SERVICES=1, as in CI). Playwright never downloads a browser of its own: it launches
/usr/bin/chromium. Each test saves screenshots under test-output/screenshots/ and fails if the
browser logged a console error or an uncaught page error.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.services import services_required

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
OUTPUT = Path(__file__).resolve().parent.parent.parent / "test-output" / "screenshots"


def _need_chromium() -> None:
    if Path(CHROMIUM).exists() or shutil.which(CHROMIUM):
        return
    reason = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    if services_required():
        pytest.fail(f"{reason}; TNC_REQUIRE_SERVICES=1 requires it", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
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


class Shots:
    """Screenshots of every page the test visits, numbered in order."""

    def __init__(self, name: str) -> None:
        self.folder = OUTPUT / name
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.count = 0

    def take(self, page: object, what: str) -> Path:
        self.count += 1
        path = self.folder / f"{self.count:02d}-{what}.png"
        page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
        return path


@pytest.fixture
def page(browser: object, request: pytest.FixtureRequest) -> Iterator[object]:
    """A fresh browser page that records console errors; the test fails if any appears."""
    context = browser.new_context(viewport={"width": 412, "height": 915})  # type: ignore[attr-defined]
    opened = context.new_page()
    problems: list[str] = []
    opened.on(
        "console",
        lambda message: (
            problems.append(f"console {message.type}: {message.text}")
            if message.type == "error"
            else None
        ),
    )
    opened.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    opened.problems = problems
    yield opened
    context.close()
    assert not problems, "the browser reported errors:\n" + "\n".join(problems)


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Shots:
    return Shots(request.node.name)
