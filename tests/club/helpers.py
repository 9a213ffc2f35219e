"""Tournaments of a club's season, made and played through the services (results only)."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import User

from tests.tournaments.helpers import Entry, new_tournament, play_round
from tournaments import services as t


def by_seat(names: list[str]) -> dict[str, Any]:
    """Seat 1 wins, seat 2 second, ...: every round's score falls by seat (Trick-n-Chef)."""
    return {"scores": {n: [30 - 5 * i + r for r in range(3)] for i, n in enumerate(names)}}


def season_tournament(
    user: User,
    names: list[str],
    *,
    rounds: int = 2,
    on_commit: Any,
    name: str = "Club night",
    date: str = "2026-12-01",
    no_shows: tuple[str, ...] = (),
    finish: bool = True,
    entry: Entry | None = None,
    **settings: Any,
) -> uuid.UUID:
    """A finished tournament of ``rounds`` rounds, every table entered as results only (seat
    1 first); ``no_shows``: registered, never checked in, never seated."""
    settings = {"confirmation": "auto", **settings}
    tid = new_tournament(user, names=names, name=name, date=date, rounds=rounds, **settings)
    if no_shows:
        t.tournament_register(tournament_id=tid, user=user, names=list(no_shows))
    for _ in range(rounds):
        play_round(tid, user, on_commit, entry or by_seat)
        played = t.tournament_get(tournament_id=tid, user=user).summary["rounds"]
        if played[-1]["status"] != "closed":
            t.tournament_close_round(tournament_id=tid, round=len(played), user=user)
    if finish:
        t.tournament_finish(tournament_id=tid, user=user)
    return tid


def kitchen_entry(names: list[str]) -> dict[str, Any]:
    """A Crazy Kitchen results-only entry: the first team cooks first and wins."""
    return {"cooks_first": names[0], "scores": [9, 1, 9, 1, 9, 1]}
