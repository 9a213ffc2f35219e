"""The table page and a seat's phone in Russian and Japanese (issue 14): the page's words, its
``<html lang>``, a refusal in the rule's words in that language with its cards named in that
language ("жёлтая 8", "黄の8"), and the English page unchanged without Accept-Language."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from engine.tricknchef.cards import CARD_SUIT, CARD_VALUE
from engine.tricknchef.events import to_json
from engine.tricknchef.referee import legal_cards
from engine.tricknchef.replay import step
from engine.tricknchef.simulate import simulate
from engine.tricknchef.state import GameState, Phase
from games import services
from games.models import GameProjection
from games.tricknchef.cardnames import card_name, suit_name

pytestmark = pytest.mark.django_db


NAMES = ("ana", "ben", "cleo", "dev")
EVENTS = simulate(3, 4, names=NAMES)
GAME = [to_json(e) for e in EVENTS]

COLOURS = {
    "ru": {"green": "зелёная", "red": "красная", "yellow": "жёлтая", "blue": "синяя"},
    "ja": {"green": "緑の", "red": "赤の", "yellow": "黄の", "blue": "青の"},
    "fr": {"green": "verte", "red": "rouge", "yellow": "jaune", "blue": "bleue"},
}


def a_revoke() -> tuple[int, GameState, str]:
    """The first moment a player could revoke: (events before it, the state, an illegal card)."""
    state = GameState()
    for index, event in enumerate(EVENTS):
        if state.phase is Phase.PLAY and state.led_suit is not None and state.expected:
            illegal = sorted(set(state.hands[state.expected]) - set(legal_cards(state)))
            if illegal:
                return index, state, illegal[0]
        step(state, event)
    raise AssertionError("no revoke in this game")


def named(card: str, language: str) -> str:
    with translation.override(language):
        return card_name(card)


def held_in(state: GameState, language: str) -> str:
    player, led = str(state.expected), str(state.led_suit)
    held = sorted(
        (c for c in state.hands[player] if CARD_SUIT[c] == led), key=CARD_VALUE.__getitem__
    )
    separator = "、" if language == "ja" else ", "
    return separator.join(named(c, language) for c in held)


def html_lang(html: str) -> str:
    match = re.search(r'<html lang="([^"]+)"', html)
    assert match, "the page says its language"
    return match.group(1)


def words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.fixture
def keeper(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("keeper", password="x")


def test_card_names_follow_the_language() -> None:
    for language, colours in COLOURS.items():
        for suit, colour in colours.items():
            card = f"{suit[0].upper()}8"
            said = named(card, language)
            assert colour in said and "8" in said, (language, said)
    assert named("Y8", "ru") == "жёлтая 8"
    assert named("Y8", "ja") == "黄の8"
    assert named("Y8", "fr") == "jaune 8"
    assert named("Y8", "en") == "yellow 8"


@pytest.mark.parametrize(
    ("language", "turn", "players"),
    [("ru", "Ход игрока", "Игроки"), ("ja", "の番", "プレイヤー")],
)
def test_the_table_page_and_its_refusal_in_the_language(
    client: Client, keeper: User, language: str, turn: str, players: str
) -> None:
    client.force_login(keeper)
    at, state, card = a_revoke()
    game_id = services.game_create(players=list(NAMES), user=keeper).game_id
    services.game_append(game_id=game_id, expected_version=1, events=GAME[1:at], user=keeper)
    headers = {"Accept-Language": language}
    page = client.get(f"/table/{game_id}/", headers=headers).content.decode()
    assert html_lang(page) == language
    text = words(page)
    assert turn in text and players in text
    assert "Correct a mistake" not in text and "Players" not in text
    version = GameProjection.objects.get(stream_id=game_id).version
    data = {
        "version": str(version),
        "key": "k-revoke",
        "player": str(state.expected),
        "card": card,
        "coins": "0",
    }
    refused = client.post(f"/table/{game_id}/play/", data, headers=headers)
    assert refused.status_code == 422
    said = words(refused.content.decode())
    player, led = str(state.expected), str(state.led_suit)
    with translation.override(language):
        colour = suit_name(led)
    held = held_in(state, language)
    if language == "ru":
        expected = (
            f"{player} должен ходить в масть захода ({colour}): заход — {colour} масть, "
            f"а у игрока {player} есть {held}"
        )
    else:
        expected = (
            f"{player}は{colour}をマストフォローしなければなりません：{colour}がリードされ、"
            f"{player}は{held}を持っています"
        )
    assert expected in said, said
    assert not re.search(rf"\b{card}\b", said)  # named, not its code


def test_the_table_page_stays_english_without_accept_language(client: Client, keeper: User) -> None:
    client.force_login(keeper)
    game_id = services.game_create(players=list(NAMES), user=keeper).game_id
    page = client.get(f"/table/{game_id}/").content.decode()
    assert html_lang(page) == "en"
    assert "Deal 1: deal the cards" in words(page)


def seat_game() -> tuple[list[str], int, GameState, str]:
    at, state, card = a_revoke()
    game = services.game_create(players=list(NAMES))
    services.game_append(game_id=game.game_id, expected_version=1, events=GAME[1:at])
    links = services.seat_links_issue(game_id=game.game_id, user=None)
    return [link.token for link in links], at, state, card


@pytest.mark.parametrize(
    ("language", "heading", "offline"),
    [
        ("ru", "Игроки", "Нет связи"),
        ("ja", "プレイヤー", "オフラインです"),
    ],
)
def test_the_phone_page_and_its_refusal_in_the_language(
    language: str, heading: str, offline: str
) -> None:
    tokens, at, state, card = seat_game()
    player = str(state.expected)
    token = tokens[NAMES.index(player)]
    client = Client(headers={"Accept-Language": language})
    page = client.get(f"/seat/{token}/").content.decode()
    assert html_lang(page) == language
    text = words(page)
    assert heading in text and offline in text
    assert 'name="language"' in page  # the chooser, on a page of its own
    # The script's own words come with the page, in its language.
    texts = re.search(r'<script id="seat-texts" type="application/json">(.*?)</script>', page)
    assert texts and "Not sent yet" not in texts.group(1)
    data = {
        "type": "card_played",
        "player": player,
        "card": card,
        "coins": "0",
        "version": str(at),
        "key": "k-revoke",
        "round": str(state.round_no),
        "trick": str(state.trick_no),
    }
    refused = client.post(f"/seat/{token}/act/", data, headers={"X-Seat-Fetch": "1"})
    assert refused.status_code == 422
    said = words(refused.content.decode())
    refusal = {"ru": "Отклонено:", "ja": "却下："}[language]
    assert refusal in said
    held = held_in(state, language)
    assert held in said, said
    assert not re.search(rf"\b{card}\b", said)


def test_the_phone_page_stays_english_by_default() -> None:
    tokens, *_ = seat_game()
    page = Client().get(f"/seat/{tokens[0]}/").content.decode()
    assert html_lang(page) == "en"
    assert "You are offline" in page and "Players" in page


@pytest.mark.parametrize(
    ("count", "expected"),
    [(1, "1 монета"), (2, "2 монеты"), (5, "5 монет"), (21, "21 монета"), (12, "12 монет")],
)
def test_russian_coin_plurals(count: int, expected: str) -> None:
    from games.tricknchef.cardnames import coin_count

    with translation.override("ru"):
        assert coin_count(count).startswith(expected)


def test_russian_plurals_on_the_table_script_and_the_stars() -> None:
    from games.tricknchef.cardnames import stars_words
    from games.tricknchef.table_presenters import table_texts

    with translation.override("ru"):
        left = table_texts()["confirmLeft"]
        assert left[1] == "Подтвердить раздачу (осталось сдать 1 карту)"
        assert left[2] == "Подтвердить раздачу (осталось сдать 2 карты)"
        assert left[5] == "Подтвердить раздачу (осталось сдать 5 карт)"
        assert [stars_words(n) for n in (1, 2, 4)] == ["1 звезда", "2 звезды", "4 звезды"]
    with translation.override("ja"):
        left = table_texts()["confirmLeft"]
        assert left[1] == "配札を確定（あと1枚）" and left[5] == "配札を確定（あと5枚）"
