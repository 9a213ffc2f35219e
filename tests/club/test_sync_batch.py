"""New results rated in one batch of the club's consumer rate as one game at a time would, and
as from scratch: the order the results were recorded in is the ratings' order
(club.services.sync)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User

from club import services
from club.models import Rating, RatingChange
from club.services import sync
from club.services.rebuild import wipe
from tests.club.helpers import season_tournament

pytestmark = pytest.mark.django_db
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]


def ratings() -> dict[str, tuple[float, float, int]]:
    return {r.member_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}


def changes() -> list[tuple[Any, ...]]:
    return list(
        RatingChange.objects.order_by("seq", "member_id").values_list(
            "seq", "game_id", "member_id", "place", "mu_before", "sigma_before", "mu", "games"
        )
    )


def test_a_batch_of_results_rates_as_one_game_at_a_time_and_as_from_scratch(
    django_user_model: type[User], django_capture_on_commit_callbacks: Any
) -> None:
    olga = django_user_model.objects.create_user("olga", password="x", is_staff=True)
    capture = django_capture_on_commit_callbacks
    season_tournament(olga, NAMES, on_commit=capture, rounds=3)
    season_tournament(olga, NAMES[2:] + ["Ivy", "Jo"], on_commit=capture, date="2026-12-08")
    services.club_sync()
    live = ratings(), changes()  # rated as the results came (the nudges ran the consumer)
    assert sorted({c[0] for c in live[1]}) == list(range(1, 11))  # a place in the order each
    assert max(games for _, _, games in live[0].values()) == 5  # Cleo ... Hal played both

    wipe()
    report = services.club_sync(limit=10_000)  # both tournaments' 10 games in one batch
    assert report.rated == 10 and not report.rerated
    assert (ratings(), changes()) == live

    wipe()
    services.club_sync(limit=3)  # a few events at a time
    assert (ratings(), changes()) == live

    sync.rerate("trick-n-chef")
    assert (ratings(), changes()) == live  # the same games in the same order: the same floats


def test_a_game_that_cannot_be_rated_takes_no_place_in_the_order() -> None:
    """Rated as results arrive or from scratch, the games are numbered by the same function:
    one member twice at a table (a merge to undo) gives the game no place, the next game the
    place after the last rated one."""
    t = uuid.uuid4()
    people = {(t, "p1"): [(0, "m1")], (t, "p2"): [(0, "m1")], (t, "p3"): [(0, "m3")]}
    twice = {
        "game": str(uuid.uuid4()),
        "placements": [{"player": "p1", "place": 1}, {"player": "p2", "place": 2}],
    }
    fine = {
        "game": str(uuid.uuid4()),
        "placements": [{"player": "p1", "place": 1}, {"player": "p3", "place": 2}],
    }
    games, where = sync._numbered("trick-n-chef", [(t, twice), (t, fine)], people, after=4)
    assert [g.seq for g in games] == [0, 5]
    assert set(where) == {twice["game"], fine["game"]}
