"""Players' names at a tournament have one spelling (games.names): composed accents, trimmed,
inner whitespace as one space; blank names are refused. The same through the services, the
API (names, pasted text, CSV bodies) and the organizer desk's paste and CSV upload."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.services import Refused
from tournaments import services as t

pytestmark = pytest.mark.django_db

COMPOSED, DECOMPOSED = "Chlo\u00e9", "Chloe\u0301"


@pytest.fixture
def olga(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x")


def new_tournament(user: User) -> uuid.UUID:
    change = t.tournament_create(user=user, name="Club night", date="2026-12-01", rounds=3)
    return change.tournament_id


def names_of(tid: uuid.UUID, user: User) -> list[str]:
    return [p["name"] for p in t.tournament_get(tournament_id=tid, user=user).summary["players"]]


@pytest.mark.parametrize(
    "register",
    [
        pytest.param(
            lambda tid, u: t.tournament_register(
                tournament_id=tid, user=u, names=[DECOMPOSED, "  Dev \t  Patel ", "Eli"]
            ),
            id="names",
        ),
        pytest.param(
            lambda tid, u: t.tournament_register(
                tournament_id=tid, user=u, text=(f"{DECOMPOSED}\n  Dev \t  Patel \nEli\n")
            ),
            id="pasted",
        ),
        pytest.param(
            lambda tid, u: t.tournament_register(
                tournament_id=tid,
                user=u,
                text=(f'name,rating\n{DECOMPOSED},1500\n"  Dev \t  Patel ",\nEli,\n'),
            ),
            id="csv",
        ),
    ],
)
def test_names_are_registered_in_their_one_spelling(olga: User, register: Any) -> None:
    tid = new_tournament(olga)
    register(tid, olga)
    assert names_of(tid, olga) == [COMPOSED, "Dev Patel", "Eli"]


def test_one_name_spelt_two_ways_is_a_duplicate(olga: User) -> None:
    tid = new_tournament(olga)
    t.tournament_register(tournament_id=tid, user=olga, names=[COMPOSED])
    with pytest.raises(Refused) as refused:
        t.tournament_register(tournament_id=tid, user=olga, names=[DECOMPOSED])
    assert refused.value.code == "duplicate_player"
    with pytest.raises(Refused) as refused:
        t.tournament_register(tournament_id=tid, user=olga, names=["Ana", DECOMPOSED.upper()])
    assert refused.value.code == "duplicate_player"
    assert names_of(tid, olga) == [COMPOSED]


@pytest.mark.parametrize("blank", [" ", "\t\n", "\u00a0", "\u200b", " \u200b "])
def test_a_blank_name_is_refused(olga: User, blank: str) -> None:
    tid = new_tournament(olga)
    with pytest.raises(Refused) as refused:
        t.tournament_register(tournament_id=tid, user=olga, names=["Ana", blank])
    assert refused.value.code == "bad_players"
    with pytest.raises(Refused) as refused:
        t.tournament_register(tournament_id=tid, user=olga, text=f"name,rating\nAna,\n{blank},1\n")
    assert refused.value.code == "bad_players"
    assert names_of(tid, olga) == []
    # A blank line of a pasted list or CSV file is no player: it is skipped.
    t.tournament_register(tournament_id=tid, user=olga, text=f"Ana\n{blank}\nBen\n")
    t.tournament_register(tournament_id=tid, user=olga, text=f"name\nCleo\n{blank}\nDev\n")
    assert names_of(tid, olga) == ["Ana", "Ben", "Cleo", "Dev"]


def test_the_api_registers_names_in_their_one_spelling(olga: User) -> None:
    tid = new_tournament(olga)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=olga).key}")
    response = api.post(f"/api/tournaments/{tid}/players/", {"names": [DECOMPOSED, " Eli "]})
    assert response.status_code == 201, response.content
    again = api.post(f"/api/tournaments/{tid}/players/", {"names": [COMPOSED]})
    assert again.status_code == 422
    assert again.json()["error"]["code"] == "duplicate_player"
    blank = api.post(f"/api/tournaments/{tid}/players/", {"names": ["\u200b"]})
    assert blank.status_code == 422
    assert blank.json()["error"]["code"] == "bad_players"
    assert names_of(tid, olga) == [COMPOSED, "Eli"]


def test_the_desk_registers_names_in_their_one_spelling(olga: User) -> None:
    tid = new_tournament(olga)
    client = Client()
    client.force_login(olga)
    pasted = client.post(f"/desk/{tid}/players/", {"list-text": f"{DECOMPOSED}\n  Dev  X\n"})
    assert pasted.status_code in (200, 302), pasted.content
    upload = SimpleUploadedFile("p.csv", f"name\n{COMPOSED}\n".encode(), "text/csv")
    duplicate = client.post(f"/desk/{tid}/players/", {"list-file": upload})
    assert duplicate.status_code == 422
    added = client.post(f"/desk/{tid}/players/add/", {"add-name": "\u200b"})
    assert added.status_code == 422
    assert names_of(tid, olga) == [COMPOSED, "Dev X"]
