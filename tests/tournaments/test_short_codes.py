"""Tournaments' short addresses (/t/<code>/, tournaments.shortcodes and services.codes): a code
for every tournament of every game, unique, found in any case, and given back after a restore."""

from __future__ import annotations

import importlib
import uuid
from itertools import islice

import pytest
from django.apps import apps
from django.contrib.auth.models import User

from games import store
from games.gametypes import GAME_TYPES
from games.models import Stream
from tournaments import services as t
from tournaments import shortcodes
from tournaments.models import TournamentCode

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x")


def created(user: User, game_type: str = "trick-n-chef") -> uuid.UUID:
    return t.tournament_create(
        user=user, name="Club night", date="2026-12-01", rounds=3, game_type=game_type
    ).tournament_id


def test_every_tournament_of_every_game_gets_a_code_a_player_can_type(olga: User) -> None:
    codes = {}
    for game_type in GAME_TYPES:
        tid = created(olga, game_type)
        code = t.tournament_short_code(tournament_id=tid)
        assert len(code) == shortcodes.LENGTH and set(code) <= set(shortcodes.ALPHABET)
        assert code == next(shortcodes.candidates(tid))  # derived from the id
        assert t.tournament_by_short_code(code) == tid
        assert t.tournament_by_short_code(f" {code.upper()} ") == tid  # typed in any case
        codes[game_type] = code
    assert len(set(codes.values())) == len(GAME_TYPES)


def test_the_letters_leave_out_vowels_and_look_alikes() -> None:
    assert not set(shortcodes.ALPHABET) & set("aeiouyl")
    for wrong in ("", "bcd", "bcdfghj", "bcd1f", "aeiou", "bc df", "bcdé"):
        assert shortcodes.normalized(wrong) is None
        assert t.tournament_by_short_code(wrong) is None
    assert t.tournament_by_short_code("bcdfg") is None  # well formed, nobody's


def test_a_code_another_tournament_holds_is_passed_over(olga: User) -> None:
    first = store.create_stream(Stream.Kind.TOURNAMENT)
    second = store.create_stream(Stream.Kind.TOURNAMENT)
    wanted = next(shortcodes.candidates(second.id))
    TournamentCode.objects.create(stream=first, code=wanted)
    code = t.short_code_assign(tournament_id=second.id)
    assert code != wanted and code == list(islice(shortcodes.candidates(second.id), 2))[1]
    assert t.short_code_assign(tournament_id=second.id) == code  # kept


def test_codes_are_backfilled_and_a_rebuild_after_a_restore_gives_them_back(olga: User) -> None:
    tids = [created(olga), created(olga, "chefs")]
    codes = [t.tournament_short_code(tournament_id=tid) for tid in tids]
    TournamentCode.objects.all().delete()  # a restored log: the projections only
    t.tournaments_rebuild(fix=True)
    assert [t.tournament_short_code(tournament_id=tid) for tid in tids] == codes

    # The migration's backfill, for the tournaments made before short addresses.
    TournamentCode.objects.all().delete()
    migration = importlib.import_module("tournaments.migrations.0003_tournament_short_codes")
    migration.backfill(apps, None)
    assert [t.tournament_short_code(tournament_id=tid) for tid in tids] == codes
    assert t.short_codes_backfill() == 0
