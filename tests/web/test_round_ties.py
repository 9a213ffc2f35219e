"""Ties on the public round page and a player's page: a tie on points says what split it (the
game's own tie-break, named by its game type) or that nothing did, in every game; and the
Japanese pages join names with 、, never an ASCII ", " (the code's joiners follow the language)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from games import services as games
from games.models import GameProjection
from tests.web.public import Capture, summary_of, table_entry, text
from tournaments import services as t

pytestmark = pytest.mark.django_db

TIED = {"Eli": [10, 8, 12], "Fay": [10, 12, 8], "Gus": [5, 6, 7]}
"""30 points each for Eli and Fay: deal 3 (12 against 8) puts Eli first."""


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    translation.deactivate()


def _tournament(user: User, names: list[str], game_type: str = "trick-n-chef") -> uuid.UUID:
    tid = t.tournament_create(
        user=user, name="Tie Cup", date="2026-12-01", rounds=2, game_type=game_type, seed=7,
        round1="order",
    ).tournament_id  # fmt: skip
    t.tournament_register(tournament_id=tid, user=user, names=names, checked_in=True)
    t.tournament_pair(tournament_id=tid, user=user)
    t.tournament_publish(tournament_id=tid, round=1, user=user)
    return tid


def _enter(tid: uuid.UUID, user: User, capture: Capture, **entry: Any) -> str:
    game_id = table_entry(tid, user, 1, 1)["game"]
    game = GameProjection.objects.get(stream_id=game_id)
    with capture(execute=True):
        games.game_enter_results(
            game_id=game.stream_id, expected_version=game.version, user=user, **entry
        )
    t.tournament_confirm(tournament_id=tid, round=1, table=1, user=user)
    return str(game_id)


def _page(url: str, language: str = "en") -> str:
    response = Client().get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_a_tie_split_by_deal_3_is_explained_on_the_round_and_player_pages(
    organizer: User, capture: Capture
) -> None:
    tid = _tournament(organizer, ["Eli", "Fay", "Gus"])
    _enter(tid, organizer, capture, scores=TIED)
    round_page = text(_page(f"/t/{tid}/round/1/"))
    assert "Eli: 1st, 30 points (deal 3: 12, ahead of Fay's 8)" in round_page
    assert "Fay: 2nd, 30 points (deal 3: 8, behind Eli's 12)" in round_page
    assert "Gus:" not in round_page  # alone on 17: nothing to explain
    ids = {p["name"]: p["id"] for p in summary_of(tid, organizer)["players"]}
    fay = text(_page(f"/t/{tid}/player/{ids['Fay']}/"))
    assert "2nd (deal 3: 8, behind Eli's 12)" in fay
    ja = text(_page(f"/t/{tid}/round/1/", "ja"))
    assert "第3ディール" in ja and "Eli" in ja


def test_a_tie_nothing_split_says_so_in_another_game(organizer: User, capture: Capture) -> None:
    tid = _tournament(organizer, ["Ana", "Ben", "Cleo", "Dev"], game_type="chefs")
    _enter(
        tid, organizer, capture, entry={"positions": {"Ana": 22, "Ben": 17, "Cleo": 17, "Dev": 9}}
    )
    words = text(_page(f"/t/{tid}/round/1/"))
    assert "Ben: 2nd (shared), 17 points (level with Cleo: nothing split them)" in words
    assert "Cleo: 2nd (shared), 17 points (level with Ben: nothing split them)" in words


JAPANESE = r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]"


def test_japanese_pages_join_names_and_clauses_with_japanese_punctuation(
    organizer: User, capture: Capture
) -> None:
    tid = _tournament(organizer, ["Ana", "Ben", "Cleo", "Dev"], game_type="chefs")
    game = _enter(
        tid, organizer, capture, entry={"positions": {"Ana": 22, "Ben": 17, "Cleo": 17, "Dev": 17}}
    )
    ids = {p["name"]: p["id"] for p in summary_of(tid, organizer)["players"]}
    for url in (f"/t/{tid}/round/1/", f"/t/{tid}/player/{ids['Ben']}/", f"/g/{game}/"):
        words = text(_page(url, "ja"))
        assert "、" in words, url  # names joined: "Ben、Cleo"
        joined = re.findall(rf"(?:{JAPANESE}|[A-Za-z]), (?:{JAPANESE}|[A-Z])", words)
        assert not joined, (url, joined)
        assert not re.findall(rf"{JAPANESE}\.", words), url
    # The big screen's places: "3位", never "3位." (issue 23).
    screen = text(_page(f"/t/{tid}/screen/", "ja"))
    assert "位" in screen and not re.findall(rf"{JAPANESE}\.", screen)
