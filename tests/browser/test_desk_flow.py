"""The desk's everyday corrections in a real browser (Debian's Chromium, as test_flow.py), on a
laptop (1280 x 800) and on a phone (390 x 844, and the history at 320):

- the message a page was loaded with ("... is created") goes once an action answers in place;
- "Here" taps a player in and out (a check-out, not an undo);
- dropping a player whose table is still being played asks first, saying which table;
- the history offers Undo only where it can work, says why not elsewhere, and fits a phone;
- the results-only form shows every mistake at once, beside its box, and accepts one total.

Every page visited is screenshotted (test-output/screenshots/test_the_desks_corrections/),
passes the accessibility checker and does not scroll sideways (tests/browser/helpers.look).
"""

from __future__ import annotations

import re
import uuid
from datetime import date
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, ViewportSize, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from tests.browser.helpers import look, starting  # noqa: E402
from tournaments import services as t  # noqa: E402

if TYPE_CHECKING:
    from tests.browser.recorders import Console, Shots

pytestmark = pytest.mark.django_db(transaction=True)

USERNAME, PASSWORD = "olga", "Trick-n-Chef 2026!"
TOURNAMENT = "Tuesday Club"
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]
LAPTOP = ViewportSize(width=1280, height=800)
PHONE = ViewportSize(width=390, height=844)
TIMEOUT_MS = 10_000

FITS = """(selector) => {
  const box = document.querySelector(selector).closest('.table-scroll');
  return box.scrollWidth <= box.clientWidth;
}"""
"""Whether a table's scrolling box needs no scrolling: the table fits the screen."""


def test_the_desks_corrections(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    console: Console,
    shots: Shots,
) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    page.set_viewport_size(LAPTOP)
    olga = django_user_model.objects.create_user(USERNAME, password=PASSWORD)

    # 1. A new tournament: its message stays until the first action answers in place.
    page.goto(f"{live_server.url}/desk/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    form = page.locator("form.new-tournament")
    form.get_by_label("Name", exact=True).fill(TOURNAMENT)
    form.get_by_label("Date", exact=True).fill(date(2026, 12, 8).isoformat())
    form.get_by_label("Swiss rounds").fill("3")
    form.get_by_role("button", name="Create the tournament").click()
    created = page.get_by_text(f"{TOURNAMENT} is created. Register the players next.")
    expect(created).to_be_visible()
    found = re.search(r"/desk/([0-9a-f-]{36})/", page.url)
    assert found is not None, page.url
    tid = uuid.UUID(found.group(1))
    players = page.locator("#players-panel")
    players.get_by_label("Names, one per line").fill("\n".join(NAMES))
    players.get_by_label("Everyone on the list is here: check them all in").check()
    players.get_by_role("button", name="Register these players").click()
    expect(players.get_by_role("status").first).to_contain_text("Registered 8 players")
    expect(created).to_have_count(0)

    # 2. Ben is not here after all: checked out (not dropped), then back.
    here = players.get_by_role("button", name=re.compile(r"^Here ?: Ben$"))
    here.click()
    expect(here).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#player-counts")).to_contain_text("7 checked in")
    expect(players.locator("#player-P2")).not_to_have_class("dropped")
    look(page, shots, "laptop-checked-out")
    here.click()
    expect(here).to_have_attribute("aria-pressed", "true")

    # 3. Round 1 under way; dropping Ana, whose table is being played, asks first.
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    summary = t.tournament_get(tournament_id=tid, user=olga).summary
    (table,) = [
        x for x in summary["rounds"][0]["tables"] if "Ana" in [s["name"] for s in x["seats"]]
    ]
    page.reload()
    with console.refusal(page, 422):
        page.get_by_role("button", name="Drop Ana").click()
    row = page.locator("#player-P1")
    expect(row).to_contain_text(
        f"Ana plays at table {table['table']} of round 1, which is not finished."
    )
    look(page, shots, "laptop-drop-asks")
    page.set_viewport_size(PHONE)
    look(page, shots, "phone-drop-asks")
    row.get_by_role("button", name="Yes, drop Ana").click()
    expect(page.get_by_role("button", name="Reinstate Ana")).to_be_visible()
    expect(page.locator("#player-counts")).to_contain_text(
        f"Table {table['table']} of round 1 still needs its result."
    )
    assert t.tournament_get(tournament_id=tid, user=olga).summary["players"][0]["dropped"]

    # 4. The history on a phone: Undo where it works, why not elsewhere; it fits.
    page.get_by_role("link", name="History").click()
    history = page.get_by_role("table", name=starting("Every action on this tournament"))
    published = history.locator("tr", has_text="Round published")
    expect(published.get_by_role("button")).to_have_count(0)
    paired = history.locator("tr", has_text="Round paired")
    expect(paired).to_contain_text("Round 1 is published; its pairing is final.")
    expect(history.locator("tr", has_text="Tournament created")).to_contain_text(
        "Creating the tournament cannot be undone."
    )
    assert page.evaluate(FITS, "table.history"), "the history scrolls sideways at 390 px"
    look(page, shots, "phone-history")
    page.set_viewport_size(ViewportSize(width=320, height=700))
    assert page.evaluate(FITS, "table.history"), "the history scrolls sideways at 320 px"
    look(page, shots, "phone-320-history")
    page.set_viewport_size(PHONE)
    history.get_by_role("button", name=re.compile(r"^Undo ?#\d+: dropped$")).click()
    asked = page.get_by_role("alertdialog")  # asked in the page, focused, as the desk's others
    expect(asked).to_be_focused()
    look(page, shots, "phone-history-asked")
    asked.get_by_role("button", name="Yes, undo it").click()
    expect(page.get_by_role("status")).to_contain_text("is undone.")
    assert not t.tournament_get(tournament_id=tid, user=olga).summary["players"][0]["dropped"]
    page.set_viewport_size(LAPTOP)
    look(page, shots, "laptop-history")

    # 5. Ana's table from its paper sheet, on a phone: every mistake at once, beside its box.
    page.set_viewport_size(PHONE)
    seats = [s["name"] for s in table["seats"]]
    page.goto(f"{live_server.url}/table/{table['game']}/results/")
    sheet = {name: [10 + n, 12, 8] for n, name in enumerate(seats)}
    for name, scores in sheet.items():
        for number, score in enumerate(scores, start=1):
            page.get_by_label(f"{name}, deal {number}", exact=True).fill(str(score))
    first, second = seats[0], seats[1]
    page.get_by_label(f"{first}, deal 2", exact=True).fill("twelve")
    page.get_by_label(f"{second}, deal 3", exact=True).fill("99")
    page.get_by_label(f"{second}, total", exact=False).fill("1")  # not checked: a deal is wrong
    page.get_by_label(f"{seats[2]}, total", exact=False).fill("31")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.get_by_role("button", name="Record the results").click()
    assert answer.value.status == 422
    console.announced.append((answer.value.url, 422))  # a plain form: the page is the answer
    mistakes = page.locator("#results-mistakes")
    expect(mistakes).to_contain_text("3 mistakes to correct, each marked beside its box")
    invalid = page.locator('input[aria-invalid="true"]')
    expect(invalid).to_have_count(3)
    expect(page.get_by_label(f"{first}, deal 2", exact=True)).to_have_value("twelve")
    expect(page.locator("#error-score-0-2")).to_have_text(
        f"⚠ {first}'s deal 2 score must be a whole number"
    )
    look(page, shots, "phone-results-mistakes")
    page.set_viewport_size(LAPTOP)
    look(page, shots, "laptop-results-mistakes")

    # Corrected, with one total copied from the sheet (the others blank): recorded.
    page.get_by_label(f"{first}, deal 2", exact=True).fill("12")
    page.get_by_label(f"{second}, deal 3", exact=True).fill("8")
    page.get_by_label(f"{second}, total", exact=False).fill("")
    page.get_by_label(f"{seats[2]}, total", exact=False).fill(str(sum(sheet[seats[2]])))
    page.get_by_role("button", name="Record the results").click()
    expect(page.get_by_role("heading", name="Final ranking")).to_be_visible()
    look(page, shots, "laptop-results-recorded")
