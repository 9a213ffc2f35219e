"""The public round page and a player's page on a phone (issue 23, item 2): at 320 and 390 px,
in English, Russian and Japanese, no word is broken across lines, nothing scrolls sideways
(not even inside a table card), and a tie on points says what split it: Trick-n-Chef's deal 3,
or, in Chefs (no tie-break), that nothing did."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, ViewportSize  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from games import services as games  # noqa: E402
from games.models import GameProjection  # noqa: E402
from tests.browser.helpers import WIDER_THAN_THE_SCREEN, broken_words  # noqa: E402
from tournaments import services as t  # noqa: E402

pytestmark = pytest.mark.slow

WIDTHS: list[ViewportSize] = [{"width": 320, "height": 640}, {"width": 390, "height": 844}]
TIE_WORDS = {
    "en": ("deal 3", "nothing split them"),
    "ru": ("3-я раздача", "ничто их не разделило"),
    "ja": ("第3ディール", "完全に同点"),
}
CARD_SCROLLS = """() => Array.from(document.querySelectorAll(".table-card"))
  .filter((card) => card.scrollWidth > card.clientWidth + 1)
  .map((card) => `${card.getAttribute("aria-labelledby")} is ${card.scrollWidth} px wide in`
    + ` ${card.clientWidth} px; its columns: `
    + Array.from(card.querySelectorAll("thead th, tbody tr:first-child > *"))
        .map((cell) => `${cell.innerText.trim()} ${Math.round(cell.getBoundingClientRect().width)}`)
        .join(", "))"""
"""A table card that scrolls sideways inside itself (the page does not, but the reader must)."""


def _table(olga: User, game_type: str, names: list[str], **entry: Any) -> uuid.UUID:
    tid = t.tournament_create(
        user=olga, name="Café de la Gare", date="2026-12-01", rounds=2, seed=5,
        round1="order", game_type=game_type,
    ).tournament_id  # fmt: skip
    t.tournament_register(tournament_id=tid, user=olga, names=names, checked_in=True)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    summary = t.tournament_get(tournament_id=tid, user=olga).summary
    game = GameProjection.objects.get(stream_id=summary["rounds"][0]["tables"][0]["game"])
    games.game_enter_results(
        game_id=game.stream_id, expected_version=game.version, user=olga, **entry
    )
    t.tournament_confirm(tournament_id=tid, round=1, table=1, user=olga)
    return tid


def test_round_and_player_pages_keep_words_whole_and_explain_ties(
    live_server: LiveServer, transactional_db: None, django_user_model: type[User], page: Page
) -> None:
    olga = django_user_model.objects.create_user("olga", password="x")
    names = ["Anastasia Kuznetsova", "Chloé Dubois-Lefèvre", "Hiroshi Watanabe"]
    tnc = _table(
        olga, "trick-n-chef", names,
        scores={names[0]: [10, 8, 12], names[1]: [10, 12, 8], names[2]: [5, 6, 7]},
    )  # fmt: skip
    chefs = _table(
        olga, "chefs", ["Ana", "Ben", "Cleo", "Dev"],
        entry={"positions": {"Ana": 22, "Ben": 17, "Cleo": 17, "Dev": 9}},
    )  # fmt: skip
    player = t.tournament_get(tournament_id=tnc, user=olga).summary["players"][1]["id"]
    urls = {
        "the Trick-n-Chef round": (f"/t/{tnc}/round/1/", 0),
        "a player's page": (f"/t/{tnc}/player/{player}/", 0),
        "the Chefs round": (f"/t/{chefs}/round/1/", 1),
    }
    problems: list[str] = []
    for language, words in TIE_WORDS.items():
        page.context.clear_cookies()
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        for size in WIDTHS:
            page.set_viewport_size(size)
            for what, (url, tie) in urls.items():
                page.goto(live_server.url + url)
                where = f"{what} in {language} at {size['width']} px"
                if words[tie] not in page.inner_text("main"):
                    problems.append(f"{where}: no tie explanation ({words[tie]!r})")
                problems += [f"{where}: broken {w!r}" for w in broken_words(page)]
                problems += [f"{where}: {p}" for p in page.evaluate(WIDER_THAN_THE_SCREEN)]
                problems += [f"{where}: {c} scrolls" for c in page.evaluate(CARD_SCROLLS)]
    assert not problems, "\n".join(problems)
