"""No page scrolls sideways on a small phone (issue 13, "Small widths").

A club night in the middle of round 2 (a table being played, another entered as results only),
looked at in Debian's Chromium at 320 px (the narrowest phones still in use) and 390 px, in
English, Russian and Japanese: every
public page, the organizer's desk and its printable pages, the scorekeeper's table page and
results form, and a seat's phone page. On each, nothing may stick out past the screen's right
edge (a table that scrolls inside its own box is fine: it says so by scrolling itself), and no
word may be broken over two lines ("Se/at", "2n/d", "対/戦": issue 23). On a
laptop, nothing sticks out of a round's table cards (desk and public).
"""

from __future__ import annotations

import uuid

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, ViewportSize  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from engine.tricknchef.events import to_json  # noqa: E402
from engine.tricknchef.simulate import simulate  # noqa: E402
from games import services as games  # noqa: E402
from games.models import GameProjection  # noqa: E402
from tests.browser.helpers import WIDER_THAN_THE_SCREEN, broken_words  # noqa: E402
from tournaments import services as t  # noqa: E402

pytestmark = pytest.mark.slow

USERNAME, PASSWORD = "olga", "Trick-n-Chef 2026!"
NAMES = [
    "Anastasia Kuznetsova",
    "Ben",
    "Chloé Dubois-Lefèvre",
    "Dev",
    "Eli",
    "Fay",
    "Gus",
    "Hiroshi Watanabe",
    "Ida",
    "Jo",
    "Kim",
    "Lou",
]
WIDTHS: list[ViewportSize] = [{"width": 320, "height": 640}, {"width": 390, "height": 844}]
LANGUAGES = ("en", "ru", "ja")
"""English, and the two languages whose words broke most (long Russian words; Japanese, which
has no spaces and broke headers one character per line: issue 23)."""
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
OUT_OF_ITS_CARD = """() => Array.from(document.querySelectorAll(".table-card")).flatMap((card) => {
  const edge = card.getBoundingClientRect().right;
  return Array.from(card.querySelectorAll("*"))
    .filter((el) => el.getBoundingClientRect().right > edge + 0.5)
    .slice(0, 3)
    .map((el) => `<${el.tagName.toLowerCase()} class="${el.className}"> in ${card.id || "a card"}`
                 + ` ends ${Math.round(el.getBoundingClientRect().right - edge)}px past it`);
})"""
"""On a laptop, round tables stuck out of their cards by a few pixels."""


def table_game(tid: uuid.UUID, user: User, round: int, table: int) -> GameProjection:
    entry = t.tournament_get(tournament_id=tid, user=user).summary["rounds"][round - 1]
    return GameProjection.objects.get(stream_id=entry["tables"][table - 1]["game"])


def results_only(game: GameProjection, user: User) -> None:
    games.game_enter_results(
        game_id=game.stream_id,
        expected_version=game.version,
        scores={name: [n + 3, n, 2] for n, name in enumerate(game.players)},
        user=user,
    )


def club_night(olga: User) -> tuple[uuid.UUID, GameProjection, GameProjection]:
    """Round 1 confirmed and closed; round 2 published: table 1 being played (round 2 of its
    game), table 2 entered as results only, table 3 not started."""
    tid = t.tournament_create(
        user=olga, name="Club night at the Café de la Gare", date="2026-12-01", rounds=3, seed=5
    ).tournament_id
    t.tournament_register(tournament_id=tid, user=olga, names=NAMES, checked_in=True)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    for number in (1, 2, 3):
        results_only(table_game(tid, olga, 1, number), olga)
    t.tournament_confirm_finished(tournament_id=tid, round=1, user=olga)
    t.tournament_close_round(tournament_id=tid, round=1, user=olga)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=2, user=olga)
    playing = table_game(tid, olga, 2, 1)
    record = simulate(3, 4, names=tuple(playing.players), first_player=playing.players[0])
    games.game_append(
        game_id=playing.stream_id,
        expected_version=playing.version,
        events=[to_json(e) for e in record[1:60]],
        user=olga,
    )
    results_only(table_game(tid, olga, 2, 2), olga)
    return tid, table_game(tid, olga, 2, 1), table_game(tid, olga, 2, 3)


def log_in(page: Page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    # By the fields' names: the labels are in the page's language.
    page.locator("input[name=username]").fill(USERNAME)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()


def test_no_page_scrolls_sideways_nor_breaks_a_word_at_320_and_390_px(
    live_server: LiveServer, transactional_db: None, django_user_model: type[User], page: Page
) -> None:
    olga = django_user_model.objects.create_user(USERNAME, password=PASSWORD)
    tid, playing, waiting = club_night(olga)
    token = games.seat_links(game_id=playing.stream_id, user=None)[0].token
    finished = table_game(tid, olga, 1, 1)
    public = [
        "/",
        f"/t/{tid}/",
        f"/t/{tid}/round/1/",
        f"/t/{tid}/round/2/",
        f"/t/{tid}/standings/",
        f"/t/{tid}/player/P1/",
        f"/t/{tid}/player/P3/",
        f"/t/{tid}/find/?name=a",
        f"/t/{tid}/screen/",
        f"/g/{playing.stream_id}/",
        f"/g/{finished.stream_id}/",
        f"/g/{playing.stream_id}/?step=12",
        f"/seat/{token}/",
    ]
    desk = [
        "/desk/",
        f"/desk/{tid}/",
        f"/desk/{tid}/history/",
        f"/desk/{tid}/round/2/pairings/print/",
        f"/desk/{tid}/round/2/sheets/print/",
        f"/desk/{tid}/round/2/seats/",
        f"/desk/{tid}/round/2/table/1/seats/",
        f"/table/{playing.stream_id}/",
        f"/table/{playing.stream_id}/seat/2/",
        f"/table/{waiting.stream_id}/",
        f"/table/{waiting.stream_id}/results/",
    ]
    base = live_server.url
    problems: list[str] = []

    def speak(language: str) -> None:
        page.context.add_cookies([{"name": "django_language", "value": language, "url": base}])

    for language in LANGUAGES:
        for size in WIDTHS:
            page.set_viewport_size(size)
            speak(language)
            for urls, logged_in in ((public, False), (desk, True)):
                if logged_in:
                    log_in(page, base)
                for url in urls:
                    page.goto(base + url)
                    page.wait_for_load_state()
                    where = f"{language} {size['width']} px {url}"
                    problems += [f"{where}: {w}" for w in page.evaluate(WIDER_THAN_THE_SCREEN)]
                    problems += [f"{where}: {w}" for w in broken_words(page)]
            page.context.clear_cookies()
    speak("en")
    page.set_viewport_size(LAPTOP)
    for url in (f"/t/{tid}/round/2/", f"/desk/{tid}/"):
        if url.startswith("/desk/"):
            log_in(page, base)
        page.goto(base + url)
        page.wait_for_load_state()
        problems += [f"1280 px {url}: {w}" for w in page.evaluate(OUT_OF_ITS_CARD)]
    assert not problems, "\n".join(problems)
