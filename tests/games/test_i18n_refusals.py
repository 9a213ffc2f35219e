"""Refusals in the reader's language (games/refusals.py, issue 14): the games API's ``message``
follows Accept-Language while its ``code`` never changes; in English it is the engine's own
message, byte for byte; an unknown code or a refusal without params falls back to it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import engine
from engine import tricknchef
from engine.errors import RuleViolation
from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games.refusals import say

pytestmark = pytest.mark.django_db


PLAYERS = ["p1", "p2", "p3", "p4"]
GAME = [to_json(e) for e in simulate(1, 4)]


def find_revoke() -> tuple[int, dict[str, Any], tricknchef.GameState]:
    state = tricknchef.GameState()
    for count, obj in enumerate(GAME):
        if state.phase is tricknchef.Phase.PLAY and state.expected is not None:
            illegal = set(state.hands[state.expected]) - set(tricknchef.legal_cards(state))
            if illegal:
                card = sorted(illegal)[0]
                revoke = {"type": "card_played", "player": state.expected, "card": card}
                return count, revoke, state
        tricknchef.step(state, engine.tricknchef.events.from_json(obj))
    raise AssertionError("no revoke possible in this game")


@pytest.fixture
def api(django_user_model: type[User]) -> APIClient:
    user = django_user_model.objects.create_user("ana", password="x")
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def test_the_api_revoke_refusal_reads_correctly_in_each_language(api: APIClient) -> None:
    before, revoke, state = find_revoke()
    game = api.post("/api/games/", {"players": PLAYERS}).json()
    version = api.post(
        f"/api/games/{game['id']}/events/",
        {"expected_version": game["version"], "events": GAME[1:before]},
    ).json()["version"]
    player, led = revoke["player"], str(state.led_suit)
    held = sorted(
        (c for c in state.hands[player] if engine.tricknchef.cards.CARD_SUIT[c] == led),
        key=engine.tricknchef.cards.CARD_VALUE.__getitem__,
    )
    colour = {
        "fr": {"green": "vert", "red": "rouge", "yellow": "jaune", "blue": "bleu"},
        "ru": {"green": "зелёная", "red": "красная", "yellow": "жёлтая", "blue": "синяя"},
        "ja": {"green": "緑", "red": "赤", "yellow": "黄", "blue": "青"},
    }
    expected = {
        "en": f"{player} must follow {led}: {led} was led and {player} holds {', '.join(held)}",
        "fr": (
            f"{player} doit fournir du {colour['fr'][led]} : l'entame est {colour['fr'][led]} "
            f"et {player} a {', '.join(held)}"
        ),
        "ru": (
            f"{player} должен ходить в масть захода ({colour['ru'][led]}): заход — "
            f"{colour['ru'][led]} масть, а у игрока {player} есть {', '.join(held)}"
        ),
        "ja": (
            f"{player}は{colour['ja'][led]}をマストフォローしなければなりません："
            f"{colour['ja'][led]}がリードされ、{player}は{'、'.join(held)}を持っています"
        ),
    }
    for language, message in expected.items():
        response = api.post(
            f"/api/games/{game['id']}/events/",
            {"expected_version": version, "events": [revoke]},
            headers={"Accept-Language": language},
        )
        assert response.status_code == 422
        error = response.json()["error"]
        assert error["code"] == "revoke"  # never translated
        assert error["event"] == 0
        assert error["message"] == message, (language, error["message"])
    # No Accept-Language: English, the engine's words.
    response = api.post(
        f"/api/games/{game['id']}/events/", {"expected_version": version, "events": [revoke]}
    )
    assert response.json()["error"]["message"] == expected["en"]


def test_english_is_the_engine_message_and_unknown_refusals_fall_back() -> None:
    violation = RuleViolation("revoke", "p1 must follow red: ...", {"player": "p1"})
    with translation.override("en"):
        assert say(violation, codes=True) == "p1 must follow red: ..."
    with translation.override("ru"):
        # params missing a value: the engine's message rather than half a sentence
        assert say(violation, codes=True) == "p1 must follow red: ..."
        assert say(RuleViolation("new_code", "something new", {"x": 1})) == "something new"
        assert say(RuleViolation("bad_results", "Food Truck's words")) == "Food Truck's words"


@pytest.mark.parametrize(
    ("placed", "expected"),
    [
        (1, "p1 положил 1 монету, но у него только 0"),
        (2, "p1 положил 2 монеты, но у него только 0"),
        (5, "p1 положил 5 монет, но у него только 0"),
    ],
)
def test_russian_plurals_in_a_refusal(placed: int, expected: str) -> None:
    violation = RuleViolation(
        "not_enough_coins", "english", {"player": "p1", "placed": placed, "coins": 0}
    )
    with translation.override("ru"):
        assert say(violation) == expected


def test_a_page_names_the_cards_and_the_api_keeps_their_codes() -> None:
    violation = RuleViolation(
        "revoke",
        "p1 must follow yellow: yellow was led and p1 holds Y3, Y8",
        {"player": "p1", "card": "R2", "suit": "yellow", "held": ["Y3", "Y8"]},
    )
    with translation.override("ja"):
        assert say(violation).endswith("p1は黄の3、黄の8を持っています")
        assert say(violation, codes=True).endswith("p1はY3、Y8を持っています")
    with translation.override("en"):
        assert say(violation).endswith("p1 holds yellow 3, yellow 8")
        assert say(violation, codes=True).endswith("p1 holds Y3, Y8")
