"""The public pages' words, numbers, dates and clock in the reader's language, and the shared
standings kept once per language (tournaments.public.standings_page): a Russian reader never
gets the English page from the cache, nor a 304 for it."""

from __future__ import annotations

import gzip
import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils import timezone, translation
from django.utils.translation import ngettext

from tests.web.i18n_compiled import said
from tests.web.public import NAMES, Capture, Spring, new_tournament, page, play, text
from tournaments import services as t
from tournaments.public import standings_page
from tournaments.public.presenters import ENGLISH, figure, place_label
from tournaments.public.words import WORDS

pytestmark = [pytest.mark.django_db, pytest.mark.one_backend]


def vary(response: object) -> set[str]:
    return {v.strip().lower() for v in response["Vary"].split(",")}  # type: ignore[index]


# ----------------------------------------------------------------------------- shared standings


def test_the_shared_standings_are_one_page_per_language(spring: Spring) -> None:
    url = f"/t/{spring.id}/standings/"
    english = Client().get(url)
    russian = Client().get(url, headers={"Accept-Language": "ru"})
    japanese = Client().get(url, headers={"Accept-Language": "ja", "Accept-Encoding": "gzip"})
    assert '<html lang="en"' in english.content.decode()
    assert '<html lang="ru"' in russian.content.decode()
    assert '<html lang="ja"' in gzip.decompress(japanese.content).decode()
    assert len({english["ETag"], russian["ETag"], japanese["ETag"]}) == 3
    for response in (english, russian, japanese):
        assert {"accept-language", "cookie", "accept-encoding"} <= vary(response)
        assert "public" in response["Cache-Control"]
    # A reader who had the English page and now reads Russian gets the Russian one, not a 304.
    switched = Client().get(
        url, headers={"Accept-Language": "ru", "If-None-Match": english["ETag"]}
    )
    assert switched.status_code == 200 and '<html lang="ru"' in switched.content.decode()
    same = Client().get(url, headers={"Accept-Language": "ru", "If-None-Match": russian["ETag"]})
    assert same.status_code == 304
    # The cookie chooses as Accept-Language does, and wins over it.
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    chosen = client.get(url, headers={"Accept-Language": "ru"})
    assert chosen["ETag"] == japanese["ETag"]
    assert said("ja", "Tie-breaks") in chosen.content.decode()


def test_an_htmx_poll_gets_the_partial_in_its_language(spring: Spring) -> None:
    url = f"/t/{spring.id}/standings/"
    poll = Client().get(url, headers={"HX-Request": "true", "Accept-Language": "ru"})
    body = poll.content.decode()
    assert "<html" not in body
    assert "Ещё играет 1 стол." in text(body)


def test_the_worker_renders_every_language_of_a_new_version(
    client: Client, spring: Spring, capture: Capture, django_assert_num_queries: object
) -> None:
    url = f"/t/{spring.id}/standings/"
    for language in ("en", "fr", "ru", "ja"):
        page(client, url, Accept_Language=language)
    play(spring.playing, spring.organizer, capture, seed=spring.playing_seed)
    for language in ("en", "fr", "ru", "ja"):
        with django_assert_num_queries(1):  # type: ignore[operator]
            html = page(client, url, Accept_Language=language)
        assert f'<html lang="{language}"' in html
    key = f"public-standings:{spring.id}"
    versions = {cache.get(f"{key}:{language}:version") for language in ("en", "fr", "ru", "ja")}
    assert len(versions) == 1 and None not in versions


def test_a_visitor_renders_only_their_language(spring: Spring) -> None:
    standings_page._PAGES.clear()
    cache.clear()
    Client().get(f"/t/{spring.id}/standings/", headers={"Accept-Language": "fr"})
    assert cache.get(f"public-standings:{spring.id}:fr:version") is not None
    assert cache.get(f"public-standings:{spring.id}:en:version") is None


# ----------------------------------------------------------------------------- words and numbers


def test_russian_plurals_one_few_many() -> None:
    cases = {
        ("%(counter)s table still playing.", "%(counter)s tables still playing."): (
            "Ещё играет 1 стол.",
            "Ещё играют 2 стола.",
            "Ещё играют 5 столов.",
        ),
        ("%(counter)s round planned", "%(counter)s rounds planned"): (
            "Запланирован 1 тур",
            "Запланировано 2 тура",
            "Запланировано 5 туров",
        ),
        ("%(points)s point", "%(points)s points"): ("1 очко", "2 очка", "5 очков"),
    }
    with translation.override("ru"):
        for (one, many), expected in cases.items():
            said = tuple(ngettext(one, many, n) % {"counter": n, "points": n} for n in (1, 2, 5))
            assert said == expected
            assert ngettext(one, many, 21) % {"counter": 21, "points": 21} == expected[0].replace(
                "1", "21", 1
            )
    with translation.override("ja"):
        assert ngettext(
            "%(counter)s table still playing.", "%(counter)s tables still playing.", 1
        ) == (ngettext("%(counter)s table still playing.", "%(counter)s tables still playing.", 5))


def test_the_home_page_counts_rounds_in_russian(client: Client, organizer: User) -> None:
    for rounds in (1, 2, 5):
        t.tournament_create(user=organizer, name=f"Cup {rounds}", date="2026-03-14", rounds=rounds)
    words = text(page(client, "/", Accept_Language="ru"))
    assert "Запланирован 1 тур" in words
    assert "Запланировано 2 тура" in words
    assert "Запланировано 5 туров" in words


def test_dates_follow_the_language(client: Client, organizer: User) -> None:
    new_tournament(organizer, NAMES[:3])  # 14 March 2026, a Saturday
    assert "Sat 14 Mar 2026" in text(page(client, "/"))
    assert "2026年3月14日(土)" in text(page(client, "/", Accept_Language="ja"))
    assert "14 марта 2026" in text(page(client, "/", Accept_Language="ru"))
    assert "14 mars 2026" in text(page(client, "/", Accept_Language="fr"))


def test_points_places_and_progress_in_each_language() -> None:
    with translation.override("fr"):
        assert figure(4.5, WORDS.decimal) == "4,5" and figure(4, WORDS.decimal) == "4"
        assert WORDS.place(1, False) == "1er" and WORDS.place(2, True) == "2e ex æquo"
        assert WORDS.progress(2, 5) == "Donne 2, pli 5"
    with translation.override("ru"):
        assert figure(2.667, WORDS.decimal) == "2,67"
        assert WORDS.place(3, False) == "3-е"
        assert WORDS.status("round", "scheduled") == "Запланирован"
    with translation.override("ja"):
        assert figure(4.5, WORDS.decimal) == "4.5"
        assert WORDS.place(1, True) == "1位（同率）"
        assert WORDS.round_text("running", 2, 3) == "ラウンド 2 / 3"
    with translation.override("en"):
        assert figure(4.5, WORDS.decimal) == "4.5" and WORDS.place(2, True) == "2nd (shared)"
        # The presenters' own English (no Django) says the same as the English catalogue.
        for number in (1, 2, 3, 4, 11, 21, 22):
            assert WORDS.place(number, True) == place_label(number, True)
        for status in ("registration", "running", "finished"):
            for now, planned in ((0, 4), (1, 1), (2, 3)):
                assert WORDS.round_text(status, now, planned) == ENGLISH.round_text(
                    status, now, planned
                )
        for kind, keys in (
            ("tournament", ("registration", "running", "finished")),
            ("round", ("proposed", "published", "closed", "scheduled")),
            ("game", ("not_started", "in_progress", "finished", "void", "unknown")),
        ):
            for key in keys:
                assert WORDS.status(kind, key) == ENGLISH.status(kind, key)
        assert WORDS.progress(2, 5) == ENGLISH.progress(2, 5)


def test_the_round_page_in_russian(client: Client, spring: Spring) -> None:
    words = text(page(client, f"/t/{spring.id}/round/2/", Accept_Language="ru"))
    assert "Раздача 2, взятка" in words  # the game in progress: its deal and trick
    assert "Закончено столов: 1 из 2." in words
    assert "первый игрок" in words and "ожидает подтверждения" in words


def test_the_clock_speaks_the_language(client: Client, organizer: User) -> None:
    tid = new_tournament(organizer, NAMES)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    t.tournament_set_clock(tournament_id=tid, round=1, minutes=50, user=organizer)
    ends = timezone.localtime(timezone.now() + timedelta(minutes=50))
    data = client.get(f"/t/{tid}/clock/", headers={"Accept-Language": "ru"}).json()
    assert data["clock"]["text"].startswith("Тур 1 заканчивается в ")
    assert data["clock"]["over"] == "Тур 1: время вышло."
    html = page(client, f"/t/{tid}/", Accept_Language="ja")
    assert 'data-left-text="残り {left}"' in html
    assert 'data-over-text="ラウンド1：時間切れです。"' in html
    assert "ラウンド1は" in text(html) and "に終了します。" in text(html)
    english = page(client, f"/t/{tid}/")
    assert 'data-left-text="{left} left"' in english
    assert f"Round 1 ends at {ends:%H}" in text(english)


def test_a_screen_and_a_find_in_french(client: Client, spring: Spring) -> None:
    screen = text(page(client, f"/t/{spring.id}/screen/", Accept_Language="fr"))
    assert "Ronde 2 : tables" in screen and "joue en premier." in screen
    found = text(page(client, f"/t/{spring.id}/find/?name=e", Accept_Language="fr"))
    assert "joueurs contiennent « e »" in found


def test_an_unknown_tournament_is_a_translated_404(client: Client) -> None:
    response = client.get(f"/t/{uuid.uuid4()}/standings/", headers={"Accept-Language": "ja"})
    assert response.status_code == 404
    assert said("ja", "Page not found") in response.content.decode()
