"""A seat link of a game without phones (``GameType.phone`` None; games/phone/views.py). Such a
game's seats get no links (games.services.has_phones: the desk says its scorekeeper enters it,
tests/web/test_every_seat_link_opens.py); a link printed before its phones were withdrawn opens
not "Page not found" but a page in the site's layout, in the reader's language, that says what
the link is, that the table's scorekeeper enters the game for now, and the table and seat; as
private as every seat link's answer. The game: the tests' toy High Card, on paper."""

from __future__ import annotations

import uuid
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from games import services
from games.gametypes import GAME_TYPES
from games.phone.panel import panel_for
from games.words import word_list
from tests.games.records import start_args
from tests.highcard import engine as high_card_engine
from tests.highcard.game.gametype import HIGH_CARD, HIGH_CARD_ON_PAPER
from tests.web.a11y import assert_accessible

pytestmark = pytest.mark.django_db

WITH_PHONES = sorted(key for key, kind in GAME_TYPES.items() if kind.phone is not None)
KEY = HIGH_CARD.key


def new_table(
    monkeypatch: pytest.MonkeyPatch, user: User | None = None
) -> tuple[uuid.UUID, list[str], list[str]]:
    """A table of High Card one card in, its seats' links (issued while it had phones) and its
    entrants; then High Card is registered without phones."""
    monkeypatch.setitem(GAME_TYPES, KEY, HIGH_CARD)
    record = high_card_engine.simulate(1)
    players, options = start_args(record[0])
    game = services.game_create(players=players, game_type=KEY, options=options, user=user)
    services.game_append(game_id=game.game_id, expected_version=game.version, events=record[1:2])
    links = services.seat_links_issue(game_id=game.game_id, user=None)
    monkeypatch.setitem(GAME_TYPES, KEY, HIGH_CARD_ON_PAPER)
    return game.game_id, [link.token for link in links], players


def test_every_game_with_phones_gives_a_panel() -> None:
    for key in WITH_PHONES:
        panel = panel_for(key)
        assert panel is not None and panel.actions, key
        assert not {"state", "undo"} & set(panel.actions), key  # the frame's own addresses


def test_a_game_without_phones_issues_no_seat_link(monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, tokens, _ = new_table(monkeypatch)
    assert len(tokens) == 2  # issued while it had phones
    assert services.seat_links_issue(game_id=game_id, user=None) == []
    assert services.seat_links_of([game_id]) == {game_id: []}
    assert services.seat_links(game_id=game_id, user=None) == []


def test_a_seat_link_of_a_game_without_phones_opens_a_clear_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, tokens, players = new_table(monkeypatch)
    key = KEY
    assert panel_for(key) is None
    client = Client()
    for path in (f"/seat/{tokens[1]}/", f"/seat/{tokens[1]}/state/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response["Cache-Control"] == "private, no-store"
        assert response["Referrer-Policy"] == "no-referrer"
        html = unescape(response.content.decode())
        name = GAME_TYPES[key].name
        assert f"{players[1]} · seat 2" in html
        assert "Table " + ", ".join(players) in html
        assert f"{name} is not entered on the players' phones yet" in html
        assert "the table's scorekeeper enters this game for now" in html
        assert "Page not found" not in html
        assert 'class="site-header"' in html  # the site's layout
        # The token is in the address: the login link never carries it elsewhere.
        assert tokens[1] not in html.split('name="next"', 1)[0]
        assert "?next=/seat/" not in html and "?next=%2Fseat" not in html
    assert_accessible(client.get(f"/seat/{tokens[1]}/").content.decode())
    # A tap to an address of another game's phones changes nothing and is no page.
    assert client.post(f"/seat/{tokens[1]}/act/", {}).status_code == 404


def test_the_page_is_in_the_readers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    _, tokens, players = new_table(monkeypatch)
    key = KEY
    name = GAME_TYPES[key].name
    said = {
        "fr": f"{name} ne se saisit pas encore sur les téléphones des joueurs",
        "ru": f"{name} ещё не вводится с телефонов игроков",
        "ja": f"{name}はまだプレイヤーの端末では入力できません",
    }
    for language, words in said.items():
        response = Client(headers={"Accept-Language": language}).get(f"/seat/{tokens[0]}/")
        html = unescape(response.content.decode())
        assert response.status_code == 200 and f'lang="{language}"' in html
        assert words in html, language
        with translation.override(language):  # the table's names joined the language's way
            assert word_list(players) in html, language


def test_a_revoked_link_of_a_game_without_phones_still_says_so(
    django_user_model: type[User], monkeypatch: pytest.MonkeyPatch
) -> None:
    olga = django_user_model.objects.create_user("olga", password="x")
    game_id, tokens, _ = new_table(monkeypatch, olga)
    monkeypatch.setitem(GAME_TYPES, KEY, HIGH_CARD)  # revoked while it had phones
    services.seat_link_revoke(game_id=game_id, seat=1, user=olga)
    monkeypatch.setitem(GAME_TYPES, KEY, HIGH_CARD_ON_PAPER)
    response = Client().get(f"/seat/{tokens[0]}/")
    assert response.status_code == 403
    assert "ask the organizer for your seat's new link" in response.content.decode().lower()
