"""What a browser test records: its screenshots and what the browser reported to the console.
Plain classes, importable without Playwright (tests/browser/test_console.py checks Console
without a browser); the fixtures that make them are in conftest.py."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Playwright may be absent
    from playwright.sync_api import Page, Response

OUTPUT = Path(__file__).resolve().parent.parent.parent / "test-output" / "screenshots"
FAILED_LOAD = re.compile(
    r"Failed to load resource: the server responded with a status of (\d{3})\b"
)
SHOWN_IN_PLACE = frozenset({403, 409, 422})
"""The statuses the pages' htmx-config swaps in like a success (templates/desk/base.html,
tricknchef/table.html): answers shown next to the form, not failures."""


class Shots:
    """Screenshots of every page the test visits, numbered in order."""

    def __init__(self, name: str) -> None:
        self.folder = OUTPUT / name
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.count = 0

    def take(self, page: Page, what: str) -> Path:
        self.count += 1
        path = self.folder / f"{self.count:02d}-{what}.png"
        page.screenshot(path=str(path), full_page=True)
        return path


class Console:
    """What the browser reported: console errors, uncaught page errors, and the refusals the
    test announced (each lets exactly one "Failed to load resource" line through)."""

    def __init__(self) -> None:
        self.errors: list[tuple[str, str]] = []
        """(text, url) of each console error; the url is the resource's for a failed load."""
        self.page_errors: list[str] = []
        self.announced: list[tuple[str, int]] = []
        """(url, status) of each refusal the test caused on purpose."""

    @contextmanager
    def refusal(self, page: Page, status: int = 422) -> Iterator[None]:
        """The block makes one htmx request that the server refuses with ``status``, and the
        page shows the refusal in place; waits for that answer."""
        if status not in SHOWN_IN_PLACE:
            raise ValueError(f"a {status} is not an answer the pages show in place")

        def refused(response: Response) -> bool:
            htmx = response.request.headers.get("hx-request") == "true"
            return response.status == status and htmx

        with page.expect_response(refused) as answer:
            yield
        self.announced.append((answer.value.url, status))

    def problems(self) -> list[str]:
        """Every error, less one failed-load line per announced refusal."""
        expected = Counter(self.announced)
        found = []
        for text, url in self.errors:
            match = FAILED_LOAD.match(text)
            key = (url, int(match.group(1))) if match else None
            if key is not None and expected[key] > 0:
                expected[key] -= 1
                continue
            found.append(f"console error: {text}" + (f" [{url}]" if url else ""))
        found += [f"page error: {error}" for error in self.page_errors]
        return found
