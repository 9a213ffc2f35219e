"""A game's public replay page (games/tricknchef/templates/tricknchef/replay.html) in Russian
and Japanese: its words, its places and its chart's description, and Russian plurals of its
trick counts."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games import services
from games.places import ordinal

pytestmark = pytest.mark.django_db


NAMES = ("ana", "ben", "cleo", "dev")


def words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.fixture
def finished(django_user_model: type[User]) -> str:
    user = django_user_model.objects.create_user("olga", password="x")
    game = services.game_create(players=list(NAMES), user=user, published=True)
    events = [to_json(e) for e in simulate(3, 4, names=NAMES)]
    services.game_append(game_id=game.game_id, expected_version=2, events=events[1:], user=user)
    return f"/g/{game.game_id}/"


@pytest.mark.parametrize(
    ("language", "present", "absent"),
    [
        ("ru", ["Повтор партии", "Очки по раздачам", "Результат", "Раздача 1, взятка 1"], "Replay"),
        ("ja", ["リプレイ", "ディールごとの得点", "結果", "1位"], "Scores by deal"),
    ],
)
def test_the_replay_in_the_language(
    client: Client, finished: str, language: str, present: list[str], absent: str
) -> None:
    html = client.get(f"{finished}?step=1", headers={"Accept-Language": language}).content
    text = words(html.decode())
    for phrase in present:
        assert phrase in text, phrase
    assert absent not in text


def test_the_replay_stays_english_by_default(client: Client, finished: str) -> None:
    text = words(client.get(finished).content.decode())
    assert "Scores by deal" in text and "Points after each deal" in text


def test_places_in_each_language() -> None:
    expected = {
        "en": ["1st", "2nd", "3rd", "4th", "11th", "21st"],
        "fr": ["1er", "2e", "3e", "4e", "11e", "21e"],
        "ru": ["1-е", "2-е", "3-е", "4-е", "11-е", "21-е"],
        "ja": ["1位", "2位", "3位", "4位", "11位", "21位"],
    }
    for language, places in expected.items():
        with translation.override(language):
            assert [ordinal(n) for n in (1, 2, 3, 4, 11, 21)] == places


@pytest.mark.parametrize(
    ("count", "expected"),
    [(1, "1 сыгранную взятку"), (2, "2 сыгранные взятки"), (5, "5 сыгранных взяток")],
)
def test_russian_plurals_of_the_tricks_to_step_through(count: int, expected: str) -> None:
    from django.utils.translation import ngettext

    with translation.override("ru"):
        said = ngettext(
            "Step through the %(count)s trick played with Next.",
            "Step through the %(count)s tricks played with Next.",
            count,
        ) % {"count": count}
    assert expected in said


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_the_chart_draws_in_languages_with_a_decimal_comma(
    client: Client, finished: str, language: str
) -> None:
    """SVG lengths are numbers with a dot: Russian's "160,0" was no length, and Chromium drew
    no grid line (and logged an error for each)."""
    html = client.get(finished, headers={"Accept-Language": language}).content.decode()
    svg = html[html.index("<svg viewBox") : html.index("</svg>", html.index("<svg viewBox"))]
    lengths = re.findall(r'\b(?:x1|x2|y1|y2|x|y|viewBox)="([^"]*)"', svg)
    assert lengths, "the chart has no positioned elements"
    assert all(re.fullmatch(r"-?[0-9. ]+", value) for value in lengths), lengths
