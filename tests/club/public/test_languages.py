"""Every club page in French, Russian and Japanese speaks the language: the project's crawl
check (tests/web/test_i18n_crawl.py) over the club's pages: ``<html lang>``, no English
sentence the catalogues translate, and in Russian and Japanese no English word at all but the
members' and tournaments' names, the brand and the technical words every language writes in
Latin letters."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from club.services import writes
from tests.club.public.conftest import NAMES, Season
from tests.web.test_i18n_crawl import ALLOWED_LATIN, Texts, latin_words, untranslated

pytestmark = [pytest.mark.django_db, pytest.mark.one_backend]

LANGUAGES = ("fr", "ru", "ja")
SEASON_WORDS = {"Winter", "league", "cup", "Club", "night"}
"""The league's and tournaments' names (typed by the organizer)."""
NAMES_TYPED = {*NAMES, *(n.lower() for n in NAMES), "Zed", *SEASON_WORDS}


def club_pages(season: Season) -> list[str]:
    ana, ben = season.member("Ana"), season.member("Ben")
    league = season.league
    return [
        "/club/",
        f"/club/leagues/{league}/",
        f"/club/leagues/{league}/ratings/?game=trick-n-chef",
        "/club/members/",
        f"/club/members/{ana}/",
        f"/club/members/{ana}/vs/{ben}/",
        "/club/records/",
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_club_page_speaks_the_language(season: Season, language: str) -> None:
    # A season with every part of the season page: dropped results, the waiting list.
    writes.league_change(
        league=season.league, rules={"best": 1, "min_events": 2}, user=season.organizer
    )
    english = untranslated(language)
    problems: list[str] = []
    for url in club_pages(season):
        response = Client().get(url, headers={"accept-language": language})
        assert response.status_code == 200, (url, response.status_code)
        html = response.content.decode()
        if f'<html lang="{language}"' not in html:
            problems.append(f"{url}: not <html lang={language!r}>")
        parser = Texts()
        parser.feed(html)
        for text in parser.texts:
            if text in english and (language != "fr" or " " in text):
                problems.append(f"{url}: untranslated {text!r}")
            elif language != "fr":
                words = [w for w in latin_words(text) if w not in ALLOWED_LATIN | NAMES_TYPED]
                if words:
                    problems.append(f"{url}: English {words} in {text!r}")
    translation.deactivate()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(sorted(set(problems)))
