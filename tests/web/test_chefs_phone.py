"""Chefs on the seat phones (games/chefs/phone.py; docs/scorekeeping.md, "Chefs on the phones"):
the set-up's meal cards tapped by seat 1 start round 1 by itself; each chef's buttons are their
legal moves only; a tap out of turn, of another seat or of no move is refused in clear words;
a chef undoes their own last tap; the panel speaks the reader's language."""

from __future__ import annotations

import json
import re
import uuid
from html import unescape
from typing import Any

import pytest
from django.test import Client

from engine.chefs.referee import legal_moves
from games import services
from games.gametypes import GAME_TYPES
from games.models import GameProjection

pytestmark = pytest.mark.django_db

FETCH = {"X-Seat-Fetch": "1"}
PLAYERS = ["Ann", "Bo", "Cy"]


def new_table() -> tuple[uuid.UUID, list[str]]:
    game = services.game_create(players=PLAYERS, game_type="chefs", options={})
    links = services.seat_links_issue(game_id=game.game_id, user=None)
    return game.game_id, [link.token for link in links]


def projection(game_id: uuid.UUID) -> GameProjection:
    return GameProjection.objects.get(stream_id=game_id)


def version(game_id: uuid.UUID) -> int:
    return int(projection(game_id).version)


def moves(html: str) -> list[dict[str, Any]]:
    """The moves a panel offers: its data-move buttons' events."""
    found = re.findall(r'<button type="submit" name="move" value="([^"]*)" data-move', html)
    return [json.loads(unescape(v)) for v in found]


def page(client: Client, token: str) -> str:
    """The panel as served (``moves`` reads its buttons; ``unescape`` it to read its words)."""
    return str(client.get(f"/seat/{token}/state/", headers=FETCH).content.decode())


def tap(client: Client, token: str, move: dict[str, Any] | str, at: int, key: str) -> Any:
    value = move if isinstance(move, str) else json.dumps(move)
    return client.post(
        f"/seat/{token}/act/", {"move": value, "version": str(at), "key": key}, headers=FETCH
    )


def lay_set_up(client: Client, game_id: uuid.UUID, token: str) -> None:
    """Seat 1 taps the set-up's four meal cards (3 chefs: two at each cooker)."""
    for n in range(4):
        offered = moves(page(client, token))
        assert len(offered) == 32  # 1-8 steps x 1-4 ingredients
        card = next(m for m in offered if m["steps"] == n + 2 and m["ingredients"] == 2)
        assert tap(client, token, card, version(game_id), f"lay-{n}").status_code == 200


def state(game_id: uuid.UUID) -> Any:
    game = projection(game_id)
    return GAME_TYPES["chefs"].restore(game.snapshot).state


def test_the_set_up_cards_tapped_start_round_1_with_seat_1() -> None:
    game_id, tokens = new_table()
    client = Client()
    first = unescape(page(client, tokens[0]))
    assert "Tap each meal card put out at the cooker at the window" in first
    other = unescape(page(client, tokens[1]))
    assert moves(other) == [] and "Waiting for Ann" in other
    assert "Ann enters the meal cards put out at the cooker at the window" in other
    lay_set_up(client, game_id, tokens[0])
    game = state(game_id)
    assert game.round_no == 1 and game.starting == "Ann" and game.phase.name == "PLACING"
    assert game.laid == [[(2, 2), (3, 2)], [(4, 2), (5, 2)]]
    # Every phone sees the board: the cards laid and whose turn it is.
    seen = unescape(page(client, tokens[2]))
    assert "2 steps (2 ingredients)" in seen and "5 steps (2 ingredients)" in seen
    assert "Ann puts down an action marker" in seen
    mine = page(client, tokens[0])
    assert moves(mine) == legal_moves(game, "Ann")
    assert "Your turn: put down an action marker" in unescape(mine)


def test_taps_out_of_turn_of_another_seat_or_of_no_move_are_refused_in_words() -> None:
    game_id, tokens = new_table()
    client = Client()
    lay_set_up(client, game_id, tokens[0])
    at = version(game_id)
    bo = {"type": "marker_placed", "player": "Bo", "location": "door", "circle": 1}
    early = tap(client, tokens[1], bo, at, "bo-1")
    assert early.status_code == 422 and early["X-Seat-Refusal"] == "wrong_turn"
    assert "it is Ann's turn to put down an action marker, not Bo's" in unescape(
        early.content.decode()
    )
    ann = {"type": "marker_placed", "player": "Ann", "location": "door", "circle": 1}
    assert tap(client, tokens[1], ann, at, "bo-2").status_code == 403  # Ann's seat, not Bo's
    for junk in ("{", '["marker_placed"]', '{"type": "game_called"}'):
        incomplete = tap(client, tokens[0], junk, at, "ann-0")
        assert incomplete.status_code == 422 and incomplete["X-Seat-Refusal"] == "bad_form"
    wrong = tap(client, tokens[0], {**ann, "circle": 2}, at, "ann-1")
    assert wrong.status_code == 422 and "circle 1, not circle 2" in unescape(wrong.content.decode())
    assert version(game_id) == at
    assert tap(client, tokens[0], ann, at, "ann-2").status_code == 200
    assert version(game_id) == at + 1


def test_a_chef_undoes_their_own_last_tap() -> None:
    game_id, tokens = new_table()
    client = Client()
    lay_set_up(client, game_id, tokens[0])
    at = version(game_id)
    ann = {"type": "marker_placed", "player": "Ann", "location": "service", "circle": 1}
    assert tap(client, tokens[0], ann, at, "ann-1").status_code == 200
    shown = unescape(page(client, tokens[0]))
    assert "Undo my last play" in shown and "Ann's marker on the service counter" in shown
    done = client.post(
        f"/seat/{tokens[0]}/undo/", {"version": str(at + 1), "key": "undo-1"}, headers=FETCH
    )
    assert done.status_code == 200
    assert sum(len(m) for m in state(game_id).markers) == 0
    assert "Your turn: put down an action marker" in unescape(done.content.decode())
    # Bo has nothing of his own to undo.
    nothing = client.post(
        f"/seat/{tokens[1]}/undo/", {"version": str(version(game_id)), "key": "u-2"}, headers=FETCH
    )
    assert nothing.status_code == 422 and nothing["X-Seat-Refusal"] == "nothing_to_undo"


def test_a_whole_round_from_the_phones_and_the_next_starts_after_its_cards() -> None:
    """Every chef puts their markers at the window and takes their first move there until
    round 2 waits for the window's two new cards, which Bo (round 2's starting chef) taps; round
    2 then starts by itself with Bo."""
    game_id, tokens = new_table()
    client = Client()
    lay_set_up(client, game_id, tokens[0])
    seat_of = dict(zip(PLAYERS, tokens, strict=True))
    for n in range(200):
        game = state(game_id)
        if game.phase.name == "LAYING":
            break
        player = game.expected
        offered = moves(page(client, seat_of[player]))
        assert offered, player
        # Every marker at the window: Ann and Bo cook its two meals, the others pass.
        choice = next(m for m in offered if m.get("location") in ("window", None))
        assert tap(client, seat_of[player], choice, version(game_id), f"t-{n}").status_code == 200
    game = state(game_id)
    assert game.phase.name == "LAYING" and game.owed == [2, 0]
    assert game.meals == {"Ann": [2], "Bo": [3], "Cy": []}
    assert moves(page(client, seat_of["Ann"])) == []
    while state(game_id).phase.name == "LAYING":
        card = moves(page(client, seat_of["Bo"]))[0]
        assert tap(client, seat_of["Bo"], card, version(game_id), f"l-{version(game_id)}")
    game = state(game_id)
    assert game.round_no == 2 and game.starting == "Bo" and game.phase.name == "PLACING"


def test_the_panel_speaks_the_readers_language() -> None:
    game_id, tokens = new_table()
    client = Client()
    lay_set_up(client, game_id, tokens[0])
    said = {
        "fr": "À vous : posez un marqueur d'action",
        "ru": "Ваш ход: поставьте фишку действия",
        "ja": "あなたの番：アクションマーカーを置いてください",
    }
    for language, words in said.items():
        response = Client(headers={"Accept-Language": language}).get(f"/seat/{tokens[0]}/")
        html = unescape(response.content.decode())
        assert response.status_code == 200 and f'lang="{language}"' in html
        assert words in html, language
