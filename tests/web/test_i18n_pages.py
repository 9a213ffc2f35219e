"""Every public page in each of the four languages: asked for with Accept-Language, or with the
language cookie (which wins), it says <html lang> right and its words in that language; the
chooser in its header keeps the choice in the cookie and comes back to the same page."""

from __future__ import annotations

import html as htmllib
import re
import uuid

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, RequestFactory
from django.utils import translation
from django.views import defaults

from tests.web.i18n_compiled import LANGUAGES, said
from tests.web.public import NAMES, new_tournament
from tournaments import services as t

pytestmark = [pytest.mark.django_db, pytest.mark.one_backend]

COOKIE = settings.LANGUAGE_COOKIE_NAME


@pytest.fixture
def cup(organizer: User) -> uuid.UUID:
    """A tournament with round 1 published: 7 players at two tables."""
    tid = new_tournament(organizer, NAMES)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    return tid


def pages(tid: uuid.UUID) -> dict[str, tuple[str, str, int]]:
    """name: (URL, an English message the page shows, its status)."""
    return {
        "home": ("/", "Tournaments", 200),
        "login": ("/accounts/login/", "Username", 200),
        "tournament": (f"/t/{tid}/", "How the standings work", 200),
        "round": (f"/t/{tid}/round/1/", "Victory points", 200),
        "standings": (f"/t/{tid}/standings/", "Tie-breaks", 200),
        "player": (f"/t/{tid}/player/P1/", "Opponents:", 200),
        "find": (f"/t/{tid}/find/", "Type your name (or part of it) and press Find.", 200),
        "screen": (f"/t/{tid}/screen/", "The top of the standings", 200),
        "404": (f"/t/{uuid.uuid4()}/", "Page not found", 404),
    }


def html_lang(body: str) -> str:
    found = re.search(r'<html lang="([^"]+)" dir="(ltr|rtl)">', body)
    assert found, "no <html lang dir>"
    assert found[2] == "ltr"
    return found[1]


def words(body: str) -> str:
    return htmllib.unescape(body)


@pytest.mark.parametrize("how", ["Accept-Language", "cookie"])
def test_every_public_page_in_each_language(cup: uuid.UUID, how: str) -> None:
    for language in LANGUAGES:
        client = Client()
        headers = {}
        if how == "cookie":
            client.cookies[COOKIE] = language
            headers["Accept-Language"] = "fr" if language != "fr" else "ja"  # the cookie wins
        else:
            headers["Accept-Language"] = f"{language};q=0.9, de;q=0.5"
        for name, (url, message, status) in pages(cup).items():
            response = client.get(url, headers=headers)
            assert response.status_code == status, (name, language)
            body = response.content.decode()
            assert html_lang(body) == language, (name, language, how)
            assert said(language, message) in words(body), (name, language, message)
            assert response["Content-Language"] == language, (name, language)
            vary = {v.strip().lower() for v in response["Vary"].split(",")}
            assert {"accept-language", "cookie"} <= vary, (name, response["Vary"])


def test_without_a_choice_the_site_is_english(cup: uuid.UUID) -> None:
    for url, message, status in pages(cup).values():
        response = Client().get(url)
        assert response.status_code == status
        assert html_lang(response.content.decode()) == "en"
        assert message in words(response.content.decode())


def test_a_region_or_an_unknown_language_falls_back_sensibly(cup: uuid.UUID) -> None:
    body = Client().get("/", headers={"Accept-Language": "fr-CA,fr;q=0.8"}).content.decode()
    assert html_lang(body) == "fr"
    body = Client().get("/", headers={"Accept-Language": "de-DE,de;q=0.9"}).content.decode()
    assert html_lang(body) == "en"


def chooser(body: str) -> tuple[str, str, list[str]]:
    """The language chooser's form: its action, the page it returns to, its languages."""
    form = re.search(
        r'<form class="language" method="get" action="([^"]+)">(.*?)</form>', body, re.S
    )
    assert form, "no language chooser"
    back = re.search(r'name="next" value="([^"]*)"', form[2])
    assert back
    options = re.findall(r'<option value="(\w+)" lang="\1"', form[2])
    return form[1], htmllib.unescape(back[1]), options


@pytest.mark.parametrize("page", ["tournament", "standings", "player", "home", "login", "404"])
def test_the_chooser_keeps_the_language_and_returns_to_the_same_page(
    cup: uuid.UUID, page: str
) -> None:
    client = Client()
    url = pages(cup)[page][0]
    if page == "tournament":
        url += "?from=screen"  # the query string comes back too
    action, back, options = chooser(client.get(url).content.decode())
    assert options == list(LANGUAGES)
    assert back == url if page != "standings" else back == url.split("?")[0]
    answer = client.get(action, {"language": "ru", "next": back})
    assert answer.status_code == 302 and answer["Location"] == back
    assert answer.cookies[COOKIE].value == "ru"
    assert "no-store" in answer["Cache-Control"] or "max-age=0" in answer["Cache-Control"]
    again = client.get(back)
    body = again.content.decode()
    assert html_lang(body) == "ru"
    _, _, _ = chooser(body)
    assert 'value="ru" lang="ru" selected' in body


def test_the_chooser_refuses_another_site_and_an_unknown_language(cup: uuid.UUID) -> None:
    client = Client()
    answer = client.get("/i18n/choose/", {"language": "ja", "next": "https://evil.example/"})
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert answer.cookies[COOKIE].value == "ja"
    answer = client.get("/i18n/choose/", {"language": "xx", "next": "/"})
    assert answer.status_code == 302 and COOKIE not in answer.cookies
    assert client.post("/i18n/choose/", {"language": "ja"}).status_code == 405


def test_the_shared_standings_carry_a_chooser_without_a_csrf_token(cup: uuid.UUID) -> None:
    body = Client().get(f"/t/{cup}/standings/", headers={"Accept-Language": "ja"}).content.decode()
    action, back, _ = chooser(body)
    assert action == "/i18n/choose/" and back == f"/t/{cup}/standings/"
    assert "csrfmiddlewaretoken" not in body


def test_the_500_page_follows_the_language() -> None:
    request = RequestFactory().get("/")
    with translation.override("ja"):
        body = defaults.server_error(request).content.decode()
    assert html_lang(body) == "ja"
    assert said("ja", "Something went wrong on our side") in body
