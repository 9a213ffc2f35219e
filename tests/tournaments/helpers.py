"""Helpers of the tournament services' tests: tournaments made and rounds played through the
services, as an organizer would."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from django.contrib.auth.models import User

from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games import services as games
from games.gametypes import DEFAULT_GAME_TYPE, GAME_TYPES
from games.models import Event, GameProjection
from tournaments import services as t
from tournaments.models import TournamentProjection

Capture = Callable[..., AbstractContextManager[Any]]
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]


def new_tournament(user: User, names: list[str] = NAMES, **settings: Any) -> uuid.UUID:
    """A tournament with these entrants checked in; in a team game (Crazy Kitchen) each name is
    a team's, of two players ("<team> 1", "<team> 2")."""
    settings = {"name": "Club night", "date": "2026-12-01", "rounds": 3, "seed": 7, **settings}
    tid = t.tournament_create(user=user, **settings).tournament_id
    teams = GAME_TYPES[settings.get("game_type", DEFAULT_GAME_TYPE)].teams
    members = [[f"{team} 1", f"{team} 2"] for team in names] if teams else None
    if names:
        t.tournament_register(
            tournament_id=tid, user=user, names=names, members=members, checked_in=True
        )
    return tid


def summary(tid: uuid.UUID) -> dict[str, Any]:
    """The tournament as its creator (an organizer) sees it, proposed rounds included."""
    creator = TournamentProjection.objects.get(stream_id=tid).created_by
    return t.tournament_get(tournament_id=tid, user=creator).summary


def tables(tid: uuid.UUID, round: int) -> list[list[str]]:
    return [[s["name"] for s in tb["seats"]] for tb in summary(tid)["rounds"][round - 1]["tables"]]


def play(tid: uuid.UUID, round: int, table: int, user: User, on_commit: Any, seed: int = 1) -> None:
    """Record a table's game to the end, play by play (seat 1 starts round 1)."""
    entry = summary(tid)["rounds"][round - 1]["tables"][table - 1]
    names = tuple(s["name"] for s in entry["seats"])
    suits = ("green", "red", "yellow") if len(names) == 3 else None
    events = simulate(seed, len(names), names=names, first_player=names[0], suits=suits)
    game = GameProjection.objects.get(stream_id=entry["game"])
    with on_commit():
        games.game_append(
            game_id=game.stream_id,
            expected_version=game.version,
            events=[to_json(e) for e in events[1:]],
            user=user,
        )


def complete_round(
    tid: uuid.UUID, round: int, user: User, on_commit: Any, clock: int | None = None
) -> None:
    """Publish, play, confirm and close a round (with a clock of ``clock`` minutes)."""
    t.tournament_publish(tournament_id=tid, round=round, user=user)
    if clock is not None:
        t.tournament_set_clock(tournament_id=tid, round=round, minutes=clock, user=user)
    for number in range(1, len(summary(tid)["rounds"][round - 1]["tables"]) + 1):
        play(tid, round, number, user, on_commit, seed=100 * round + number)
        t.tournament_confirm(tournament_id=tid, round=round, table=number, user=user)
    t.tournament_close_round(tournament_id=tid, round=round, user=user)


def stream_types(tid: uuid.UUID) -> list[str]:
    return list(
        Event.objects.filter(stream_id=tid).order_by("version").values_list("type", flat=True)
    )


Entry = Callable[[list[str]], dict[str, Any]]
"""A table's results-only entry in its game's own shape, from the names in seat order."""


def play_round(tid: uuid.UUID, user: User, on_commit: Any, entry: Entry) -> dict[str, Any]:
    """Pair, publish and finish every table of the next round with ``entry(names)`` (a
    results-only entry in the game's own shape); returns the round as the summary has it."""
    t.tournament_pair(tournament_id=tid, user=user)
    number = len(summary(tid)["rounds"])
    t.tournament_publish(tournament_id=tid, round=number, user=user)
    for table in summary(tid)["rounds"][number - 1]["tables"]:
        names = [s["name"] for s in table["seats"]]
        game = GameProjection.objects.get(stream_id=table["game"])
        with on_commit(execute=True):
            games.game_enter_results(
                game_id=game.stream_id,
                expected_version=game.version,
                entry=entry(names),
                user=user,
            )
    played: dict[str, Any] = summary(tid)["rounds"][number - 1]
    return played


def with_todays_plurals(note: str) -> str:
    """A pairing note of an old golden file as the notes say it today: counts are plurals
    ("2 tables", "1 repeated meeting"), no longer "2 table(s)" (issue 23)."""

    def one(m: re.Match[str]) -> str:
        return f"{m[1]}{m[2]}" + ("" if m[1] == "1" else "s")

    return re.sub(r"\b([0-9]+)((?: repeated)? (?:table|meeting))\(s\)", one, note)
