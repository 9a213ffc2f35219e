"""Every game's result events name who acted in the game and why (issue 23, item 9): a results
entry, its correction with the reason typed, and a void, through the result sync."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import services as games
from games.models import GameProjection
from tests.tournaments.helpers import new_tournament, play_round
from tournaments import domain
from tournaments import services as t

pytestmark = pytest.mark.django_db

ENTRIES: dict[str, tuple[list[str], Callable[[list[str]], dict[str, Any]]]] = {
    "trick-n-chef": (
        ["Ana", "Ben", "Cleo", "Dev"],
        lambda seated: {"scores": {n: [i + 1, i, 2] for i, n in enumerate(seated)}},
    ),
    "food-truck": (
        ["Ana", "Ben", "Cleo"],
        lambda seated: {
            "victory_points": {n: 3 - i for i, n in enumerate(seated)},
            "winner": seated[0],
        },
    ),
    "chefs": (
        ["Ana", "Ben", "Cleo", "Dev"],
        lambda seated: {"positions": {n: [21, 15, 12, 9][i] for i, n in enumerate(seated)}},
    ),
    "crazy-kitchen": (["Pizza", "Fries"], lambda seated: {"scores": [10, 12, 8, 9, 7, 10]}),
}


@pytest.mark.parametrize("game_type", sorted(ENTRIES))
def test_each_games_correction_and_void_carry_the_user_and_the_reason(
    django_user_model: type[User], django_capture_on_commit_callbacks: Any, game_type: str
) -> None:
    olga = django_user_model.objects.create_user("olga", password="x")
    names, entry = ENTRIES[game_type]
    tid = new_tournament(olga, names=names, game_type=game_type, confirmation="auto")
    rnd = play_round(tid, olga, django_capture_on_commit_callbacks, entry)
    game_id = rnd["tables"][0]["game"]
    game = GameProjection.objects.get(stream_id=game_id)
    with django_capture_on_commit_callbacks(execute=True):
        games.game_correct(
            game_id=game.stream_id,
            expected_version=game.version,
            retract=1,
            reason="Sato's deal 3 was 11, not 17",
            user=olga,
        )
    seated = [s["name"] for s in rnd["tables"][0]["seats"]]
    with django_capture_on_commit_callbacks(execute=True):
        games.game_enter_results(
            game_id=game.stream_id,
            expected_version=GameProjection.objects.get(stream_id=game_id).version,
            entry=entry(seated),
            user=olga,
        )
    with django_capture_on_commit_callbacks(execute=True):
        games.game_void(
            game_id=game.stream_id,
            expected_version=GameProjection.objects.get(stream_id=game_id).version,
            reason="wrong table",
            user=olga,
        )
    results = [
        e["data"]
        for e in t.tournament_history(tournament_id=tid, user=olga)
        if e["type"] in (domain.RESULT_RECORDED, domain.RESULT_WITHDRAWN)
        and e["data"]["game"] == game_id
    ]
    recorded, withdrawn, again, voided = results
    assert recorded["actor"] == "olga" and recorded["actor_id"] == olga.pk
    assert again["actor"] == "olga"
    assert (voided["cause"], voided["reason"], voided["actor"]) == (
        "game_voided",
        "wrong table",
        "olga",
    )
    assert withdrawn == {
        "round": 1,
        "table": 1,
        "game": game_id,
        "cause": "events_retracted",
        "actor": "olga",
        "actor_id": olga.pk,
        "reason": "Sato's deal 3 was 11, not 17",
    }
