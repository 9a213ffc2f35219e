"""The scorekeeper's deal screen on a phone (issue 23, item 6), in Debian's Chromium: at 320x640
and 390x844, in English, Russian and Japanese, the first cards to tap are on the screen as the
page opens (no scrolling), above the sticky "Dealing to" bar; nothing scrolls sideways, no word
is broken over two lines, and the bar's names (long Russian ones too) never run into each other.
Then a correction (item 8) as a phone makes it: "Undo last: the results entered" lands on the
results form filled in with them (htmx follows the undo's HX-Redirect), and that form and the
table page offering it fit the phone too.

One page, one tournament table with its round clock: the viewport and the language (the
language cookie) change between looks, so the whole test costs a few page loads."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, ViewportSize, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from games import services as games  # noqa: E402
from games.models import GameProjection  # noqa: E402
from tests.browser.helpers import WIDER_THAN_THE_SCREEN, broken_words  # noqa: E402
from tests.browser.recorders import Shots  # noqa: E402
from tournaments import services as t  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

USERNAME, PASSWORD = "olga", "Trick-n-Chef 2026!"
NAMES = [
    "Анастасия Кузнецова-Преображенская",
    "Екатерина Добровольская",
    "Zoë O'Brien",
    "Ben",
]
SIZES: list[ViewportSize] = [{"width": 320, "height": 640}, {"width": 390, "height": 844}]
LANGUAGES = ("en", "ru", "ja")

LAYOUT = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const card = document.querySelector(".tbl-deal-tap");
  const bar = document.querySelector(".tbl-dealer");
  return {
    scrollY: window.scrollY,
    height: window.innerHeight,
    card: card && box(card),
    bar: bar && box(bar),
    choices: Array.from(document.querySelectorAll(".tbl-dealer-choice")).map((label) => ({
      label: box(label),
      name: box(label.querySelector(".tbl-dealer-name")),
      text: label.querySelector(".tbl-dealer-name").textContent,
    })),
  };
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"] - 0.5
        and b["left"] < a["right"] - 0.5
        and (a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5)
    )


def inside(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] >= b["left"] - 0.5
        and a["right"] <= b["right"] + 0.5
        and a["top"] >= b["top"] - 0.5
        and a["bottom"] <= b["bottom"] + 0.5
    )


def test_the_first_cards_of_the_deal_are_on_a_phones_screen(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    shots: Shots,
) -> None:
    olga = django_user_model.objects.create_user(USERNAME, password=PASSWORD)
    tid = t.tournament_create(
        user=olga, name="Клубный вечер в кафе «Вокзал»", date="2026-12-01", rounds=3, seed=5
    ).tournament_id
    t.tournament_register(tournament_id=tid, user=olga, names=NAMES, checked_in=True)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    t.tournament_set_clock(tournament_id=tid, round=1, minutes=50, user=olga)
    game = t.tournament_get(tournament_id=tid, user=olga).summary["rounds"][0]["tables"][0]
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_load_state()
    problems: list[str] = []
    for lang in LANGUAGES:
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
        for size in SIZES:
            page.set_viewport_size(size)
            page.goto(f"{base}/table/{game['game']}/")
            page.wait_for_selector(".tbl-deal-tap")  # the page's script made the cards buttons
            where = f"{lang} {size['width']}x{size['height']}"
            # What the phone shows as the page opens (not the whole page: that is long).
            page.screenshot(path=str(shots.folder / f"deal-{lang}-{size['width']}.png"))
            got = page.evaluate(LAYOUT)
            assert got["scrollY"] == 0
            card, bar = got["card"], got["bar"]
            if not (card["top"] >= 0 and card["bottom"] <= bar["top"] + 0.5):
                problems.append(
                    f"{where}: the first card ends at {card['bottom']:.0f} px, the 'Dealing to' "
                    f"bar starts at {bar['top']:.0f} px"
                )
            problems += [f"{where}: {w}" for w in page.evaluate(WIDER_THAN_THE_SCREEN)]
            problems += [f"{where}: {w}" for w in broken_words(page)]
            choices = got["choices"]
            assert len(choices) == len(NAMES)
            for i, one in enumerate(choices):
                if not inside(one["name"], one["label"]):
                    problems.append(f"{where}: {one['text']!r} runs out of its button")
                for other in choices[i + 1 :]:
                    if overlap(one["name"], other["name"]):
                        problems.append(f"{where}: {one['text']!r} runs into {other['text']!r}")

    # A correction on the phone: the results entered, then taken back from the table page.
    table = GameProjection.objects.get(stream_id=game["game"])
    scores = {name: [n + 3, n, 2] for n, name in enumerate(table.players)}
    games.game_enter_results(
        game_id=table.stream_id, expected_version=table.version, scores=scores, user=olga
    )
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": base}])
    page.set_viewport_size(SIZES[0])
    page.goto(f"{base}/table/{game['game']}/")
    page.get_by_role("button", name="Undo last: the results entered").click()
    page.wait_for_url(f"**/table/{game['game']}/results/")
    first = table.players[0]
    expect(page.get_by_label(f"{first}, deal 1", exact=True)).to_have_value(str(scores[first][0]))
    for lang in ("ru", "ja"):
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
        for url in (f"/table/{game['game']}/results/", f"/table/{game['game']}/"):
            page.goto(base + url)
            where = f"{lang} 320 {url}"
            page.screenshot(path=str(shots.folder / f"correction-{lang}-{url.count('/')}.png"))
            problems += [f"{where}: {w}" for w in page.evaluate(WIDER_THAN_THE_SCREEN)]
            problems += [f"{where}: {w}" for w in broken_words(page)]
    assert not problems, "\n".join(problems)
