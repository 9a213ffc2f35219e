"""A seat's phone in Chromium (issue 23, items 3-5): a player undoes a wrong tap on their own
phone, another asks the table and a second phone accepts; the game-over screen puts the result
first (places once, the deal-3 figure that split a tie) and, like the play screens, fits 320 and
390 px in English, Russian and Japanese without sideways scrolling or a word broken in two.

The game is engine.tricknchef.simulate's (seed 0 ends with two players tied on points); the other
seats' plays are entered directly (games.services), as their phones would.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from engine.tricknchef.events import to_json  # noqa: E402
from engine.tricknchef.referee import legal_cards  # noqa: E402
from engine.tricknchef.replay import replay  # noqa: E402
from engine.tricknchef.simulate import simulate  # noqa: E402
from engine.tricknchef.snapshot import from_snapshot  # noqa: E402
from games import services  # noqa: E402
from games.models import GameProjection  # noqa: E402
from tests.browser.helpers import WIDER_THAN_THE_SCREEN, broken_words  # noqa: E402

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

NAMES = ("Léa Fontaine", "Zoë O'Brien", "Константин Константинопольский", "佐藤 花子")
EVENTS = simulate(0, 4, names=NAMES, first_player=NAMES[0])
GAME = [to_json(e) for e in EVENTS]
TIMEOUT_MS = 10_000
LANGUAGES = ("en", "fr", "ru", "ja")
BEFORE = """([a, b]) => !!(document.querySelector(a).compareDocumentPosition(
  document.querySelector(b)) & Node.DOCUMENT_POSITION_FOLLOWING)"""


def table(until: int) -> tuple[Any, list[str]]:
    game = services.game_create(players=list(NAMES))
    if until > 1:
        services.game_append(game_id=game.game_id, expected_version=1, events=GAME[1:until])
    links = services.seat_links_issue(game_id=game.game_id, user=None)
    return game.game_id, [link.token for link in links]


def version(game_id: Any) -> int:
    return GameProjection.objects.get(stream_id=game_id).version


def phone(browser: Browser, language: str, width: int) -> Page:
    context = browser.new_context(
        viewport={"width": width, "height": 800},
        locale=language,
        extra_http_headers={"Accept-Language": language},
    )
    return context.new_page()


def fits(page: Page, where: str) -> list[str]:
    wider = page.evaluate(WIDER_THAN_THE_SCREEN)
    return [f"{where}: {p}" for p in [*wider, *broken_words(page)]]


def test_the_game_over_screen_and_the_play_screen_fit_and_put_the_winner_first(
    live_server: LiveServer, transactional_db: None, browser: Browser
) -> None:
    over, over_tokens = table(len(GAME))
    ranking = GameProjection.objects.get(stream_id=over).summary["ranking"]
    tied = [r for r in ranking if [x["total"] for x in ranking].count(r["total"]) > 1]
    assert tied, "seed 0 ends with a tie on points"
    # A moment where the phone's player takes a Chef (the coin picker has no place then).
    take = next(i for i, e in enumerate(GAME) if e["type"] == "chef_taken" and i > 10)
    taker = GAME[take]["player"]
    chef, chef_tokens = table(take)
    problems: list[str] = []
    for language in LANGUAGES:
        page = phone(browser, language, 320)
        for width in (320, 390):
            page.set_viewport_size({"width": width, "height": 800})
            page.goto(f"{live_server.url}/seat/{over_tokens[0]}/")
            problems += fits(page, f"{language} {width} px, game over")
            page.goto(f"{live_server.url}/seat/{chef_tokens[NAMES.index(taker)]}/")
            problems += fits(page, f"{language} {width} px, taking a Chef")
        expect(page.locator(".ph-chef")).to_be_visible()
        assert page.locator("[data-coins]").count() == 0  # no coin to place now
        for label in page.locator(".ph-suitbtn").all_inner_texts():
            assert re.search(r"\S\s+\S", label), label  # "green\n4 left", not "green4 left"
        page.goto(f"{live_server.url}/seat/{over_tokens[0]}/")
        items = page.locator("[data-ranking] li")
        assert items.count() == len(NAMES)
        first = items.first.inner_text()
        assert first.startswith("1.") and not re.match(r"1\.\s*1\.", first), first
        assert ranking[0]["player"] in first  # the winner first
        style = page.eval_on_selector("[data-ranking]", "el => getComputedStyle(el).listStyleType")
        assert style == "none"  # numbered once: by the place printed
        figures = page.locator(".ph-tiebreak")
        assert figures.count() == len(tied)
        assert str(tied[0]["last_round"]) in figures.first.inner_text()
        # The result before the last deal's details.
        assert page.evaluate(BEFORE, ["[data-ranking]", ".ph-players"])
        page.context.close()
    assert not problems, "\n".join(problems)


def test_a_wrong_tap_is_undone_on_its_phone_and_a_later_one_by_asking_the_table(
    live_server: LiveServer, transactional_db: None, browser: Browser
) -> None:
    first = next(i for i, e in enumerate(GAME) if e["type"] == "card_played")
    game_id, tokens = table(first)
    lea, zoe = phone(browser, "en", 390), phone(browser, "en", 390)
    lea.goto(f"{live_server.url}/seat/{tokens[0]}/")
    zoe.goto(f"{live_server.url}/seat/{tokens[1]}/")
    right = GAME[first]["card"]
    wrong = next(c for c in legal_cards(replay(EVENTS[:first])) if c != right)
    lea.locator(f'form[data-cards] button[name=card][value="{wrong}"]').click()
    undo = lea.get_by_role("button", name="Undo my last play")
    expect(undo).to_be_visible(timeout=TIMEOUT_MS)
    undo.click()
    expect(lea.get_by_role("heading", name="Your turn: tap the card played")).to_be_visible(
        timeout=TIMEOUT_MS
    )
    lea.locator(f'form[data-cards] button[name=card][value="{right}"]').click()
    expect(lea.get_by_role("button", name="Undo my last play")).to_be_visible(timeout=TIMEOUT_MS)
    at = version(game_id)
    # Zoë plays (her phone); then Léa finds her card was wrong after all: she asks the table.
    zoe_card = GAME[first + 1]
    zoe.locator(f'form[data-cards] button[name=card][value="{zoe_card["card"]}"]').click()
    ask = lea.get_by_role("button", name="Ask the table to undo")
    expect(ask).to_be_visible(timeout=TIMEOUT_MS)
    assert version(game_id) > at
    ask.click()
    expect(lea.get_by_text("You asked the table to undo")).to_be_visible(timeout=TIMEOUT_MS)
    accept = zoe.get_by_role("button", name="Accept the undo")
    expect(accept).to_be_visible(timeout=TIMEOUT_MS)
    accept.click()
    expect(lea.get_by_role("heading", name="Your turn: tap the card played")).to_be_visible(
        timeout=TIMEOUT_MS
    )
    now = from_snapshot(GameProjection.objects.get(stream_id=game_id).snapshot)
    assert now.expected == NAMES[0] and not now.trick  # both cards taken back, once each
    for page in (lea, zoe):
        page.context.close()
