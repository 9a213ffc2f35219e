"""The desk's lighter htmx answers in a real browser (Debian's Chromium, as test_flow.py): once
a round is published, a player's drop answers with the row and small out-of-band pieces, not
the round panel; htmx must then put the new version in every form of the round panel (one
out-of-band input with a selector, ``outerHTML:input.desk-version``), so that the panel's next
action is judged on its merits, not refused as a conflict. And a table's QR code, an image
now, loads when its disclosure opens."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from tests.browser.recorders import Console  # noqa: E402
from tournaments import services as t  # noqa: E402

USERNAME, PASSWORD = "olga", "Trick-n-Chef 2026!"
NAMES = [f"Player {n:02d}" for n in range(1, 13)]
TIMEOUT_MS = 10_000


def test_a_drop_keeps_the_round_panels_forms_current(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    console: Console,
) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    olga = django_user_model.objects.create_user(USERNAME, password=PASSWORD)
    tid = t.tournament_create(
        user=olga, name="Big Night", date="2026-12-04", rounds=3, seed=5
    ).tournament_id
    t.tournament_register(tournament_id=tid, user=olga, names=NAMES, checked_in=True)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)

    def version() -> str:
        return str(t.tournament_get(tournament_id=tid, user=olga).summary["version"])

    page.goto(f"{live_server.url}/desk/{tid}/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Big Night", level=1)).to_be_visible()
    before = version()
    assert page.locator("#page-version").input_value() == before

    # The QR code of table 1: an image, fetched when its disclosure opens.
    card = page.locator("#table-1")
    card.get_by_text("QR code").click()
    image = card.get_by_role("img", name="QR code of table 1's link")
    expect(image).to_be_visible()
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=image.element_handle()
    )

    # Drop a player (whose table is being played: confirmed): the row changes in place, the
    # round panel is not sent again.
    with console.refusal(page, 422):
        page.get_by_role("button", name="Drop Player 02").click()
    page.get_by_role("button", name="Yes, drop Player 02").click()
    expect(page.get_by_role("button", name="Reinstate Player 02")).to_be_visible()
    after = version()
    assert after != before
    values = page.locator("input.desk-version").evaluate_all("els => els.map(e => e.value)")
    assert values and set(values) == {after}
    assert page.locator("#page-version").input_value() == after
    expect(page.locator("#standing-P2 .badge.dropped")).to_have_count(1)

    # The panel's Close button carries the new version: refused for the missing results, not
    # as a conflict.
    with console.refusal(page, 422):
        page.get_by_role("button", name="Close round 1").click()
    expect(page.get_by_text("Round 1 cannot close")).to_be_visible()
    expect(page.get_by_text("Someone else changed this tournament meanwhile")).to_have_count(0)
