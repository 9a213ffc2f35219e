"""The scorekeeper's table page in a real browser (Debian's Chromium, as test_flow.py), for what
only a browser shows: where the page sits after an htmx swap (the hand must stay under the
thumb), and the deal kept on the phone (localStorage) across a refusal and a reload."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from engine.tricknchef.events import CardPlayed, RoundStarted, to_json  # noqa: E402
from engine.tricknchef.replay import step  # noqa: E402
from engine.tricknchef.simulate import simulate  # noqa: E402
from engine.tricknchef.state import Phase  # noqa: E402
from games import services  # noqa: E402
from tests.browser.helpers import (  # noqa: E402
    TablePage,
    card_name,
    replayed,
    starting,
    whole,
)
from tests.browser.recorders import Console  # noqa: E402
from tournaments import services as t  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)

USERNAME, PASSWORD = "keeper", "Trick-n-Chef 2026!"
NAMES = ("Ana", "Ben", "Cleo", "Dev")
TIMEOUT_MS = 10_000
HAND_TOP = (
    "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() =>"
    " done(document.querySelector('.tbl-hand').getBoundingClientRect().top))))"
)
"""Where the hand is once the page has laid out and painted what it just did (two frames: on a
busy machine a measure taken sooner can fall before the script has kept the hand in place)."""


def log_in(page: Page, url: str) -> None:
    page.goto(url)
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_the_hand_stays_under_the_thumb_after_each_card(
    live_server: LiveServer, transactional_db: None, django_user_model: type[User], page: Page
) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    keeper = django_user_model.objects.create_user(USERNAME, password=PASSWORD)
    events = simulate(11, 4, names=NAMES)
    game_id = services.game_create(players=list(NAMES), user=keeper).game_id
    # Up to the lead of trick 3 of round 1, where the page used to jump to the bottom.
    state, at = replayed(events[:1]), 1
    while not (state.phase is Phase.PLAY and state.trick_no == 3 and not state.trick):
        step(state, events[at])
        at += 1
    services.game_append(
        game_id=game_id,
        expected_version=1,
        events=[to_json(e) for e in events[1:at]],
        user=keeper,
    )
    log_in(page, f"{live_server.url}/table/{game_id}/")
    table = TablePage(page, replayed(events[:at]))
    table.shows_turn()
    page.wait_for_load_state("networkidle")  # the page's scripts have run: nothing moves after
    # The thumb is on the hand, low on the screen.
    page.evaluate(f"() => window.scrollBy(0, {page.evaluate(HAND_TOP)} - 500)")
    for event in events[at : at + 3]:  # the lead and two more: the trick grows above the hand
        assert isinstance(event, CardPlayed)
        before = page.evaluate(HAND_TOP)
        table.enter(event)
        after = page.evaluate(HAND_TOP)
        assert abs(after - before) <= 40, f"the hand moved from {before:.0f} to {after:.0f} px"
    # Undo sits under the hand, and the view stays on the hand after undoing.
    table.tap(page.get_by_role("button", name=starting("Undo last")).click)
    expect(page.locator(".tbl-hand")).to_be_in_viewport()


def test_a_refused_deal_stays_saved_and_a_reload_deals_on(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    console: Console,
) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    olga = django_user_model.objects.create_user("olga", password="x")
    django_user_model.objects.create_user(USERNAME, password=PASSWORD)
    tid = t.tournament_create(
        user=olga, name="Club night", date="2026-12-01", rounds=3, seed=7
    ).tournament_id
    t.tournament_register(tournament_id=tid, user=olga, names=list(NAMES), checked_in=True)
    t.tournament_set_role(
        tournament_id=tid, username=USERNAME, role="scorekeeper", grant=True, user=olga
    )
    t.tournament_pair(tournament_id=tid, user=olga)
    published = t.tournament_publish(tournament_id=tid, round=1, user=olga)
    table = published.state["rounds"][0]["tables"][0]
    seats = tuple(s["name"] for s in table["seats"])
    deal = simulate(2, 4, names=seats, first_player=seats[0])[1]
    assert isinstance(deal, RoundStarted)
    log_in(page, f"{live_server.url}/table/{table['game']}/")
    expect(page.get_by_text("Club night · round 1 · table 1")).to_be_visible()
    dealing = page.get_by_role("group", name="Dealing to")

    def tap(card: str) -> None:
        page.get_by_role("button", name=starting(card_name(card))).click()

    # Seat 1's hand full, three cards of seat 2's; a reload deals on to seat 2.
    hands = [hand for _, hand in deal.hands]
    for card in hands[0] + hands[1][:3]:
        tap(card)
    page.reload()
    expect(dealing.locator('[data-count="0"]')).to_have_text("10")
    expect(dealing.get_by_role("radio", name=starting(seats[1]))).to_be_checked()
    tap(hands[1][3])
    expect(dealing.locator('[data-count="1"]')).to_have_text("4")
    for card in hands[1][4:] + hands[2]:
        tap(card)
    # Confirmed with another first player (a page from before the table's policy knew better):
    # refused, and the deal stays on screen and saved on the phone.
    page.locator('input[name="first_player"]').evaluate(f"radio => radio.value = {seats[1]!r}")
    with console.refusal(page, 422):
        page.get_by_role("button", name=whole("Confirm the deal")).click()
    expect(page.locator("#table-refusal")).to_contain_text("(seat 1) is the first player")
    # Once htmx has settled (its htmx:load events, where the page's script runs, come then).
    page.wait_for_function("() => !document.querySelector('.htmx-settling, .htmx-swapping')")
    saved = page.evaluate(
        "() => Object.keys(JSON.parse(localStorage.getItem("
        f"'tnc-deal-{table['game']}-1') || '{{}}')).length"
    )
    assert saved == 40
    page.reload()
    for seat in range(4):
        expect(dealing.locator(f'[data-count="{seat}"]')).to_have_text("10")
