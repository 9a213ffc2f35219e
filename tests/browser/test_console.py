"""The page fixture's console filter (tests/browser/recorders.py), without a browser: an
announced refusal lets its one "Failed to load resource" line through, nothing else."""

from __future__ import annotations

from tests.browser.recorders import Console

PLAY = "http://localhost:8000/table/0d9c/play/"


def failed(status: int, reason: str) -> str:
    return f"Failed to load resource: the server responded with a status of {status} ({reason})"


def test_only_the_announced_refusals_are_let_through() -> None:
    console = Console()
    console.errors = [
        (failed(422, "Unprocessable Content"), PLAY),  # announced
        (failed(422, "Unprocessable Content"), PLAY),  # the same again: not announced
        (failed(409, "Conflict"), PLAY),  # another status at that address
        (failed(404, "Not Found"), "http://localhost:8000/favicon.ico"),
        ("Uncaught TypeError: x is undefined", "http://localhost:8000/static/js/table.js"),
    ]
    console.page_errors = ["ReferenceError: htmx is not defined"]
    console.announced = [(PLAY, 422)]
    assert console.problems() == [
        f"console error: {failed(422, 'Unprocessable Content')} [{PLAY}]",
        f"console error: {failed(409, 'Conflict')} [{PLAY}]",
        f"console error: {failed(404, 'Not Found')} [http://localhost:8000/favicon.ico]",
        "console error: Uncaught TypeError: x is undefined "
        "[http://localhost:8000/static/js/table.js]",
        "page error: ReferenceError: htmx is not defined",
    ]
