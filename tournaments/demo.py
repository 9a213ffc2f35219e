"""A living demo tournament: 16 players, round 1 played to the end, round 2 under way.

Built through the same services as real use (every action an event), with simulated games, so a
new user sees a tournament in progress within a minute of cloning (``bin/run``).
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from engine.events import to_json
from engine.simulate import simulate
from games import services as games
from games.models import GameProjection
from tournaments import services
from tournaments.models import TournamentProjection

NAME = "Demo club night"
PLAYERS = (
    "Ana", "Bruno", "Chloé", "Dmitri", "Esi", "Farid", "Greta", "Hiro",
    "Ines", "Jonas", "Kemi", "Lars", "Mei", "Nikos", "Olu", "Priya",
)  # fmt: skip


@dataclass(frozen=True)
class Demo:
    tournament_id: uuid.UUID
    organizer: str
    password: str
    scorekeeper: str
    created: bool


def _play(game_id: str, seed: int, user: AbstractBaseUser, upto: int | None = None) -> None:
    game = GameProjection.objects.get(stream_id=game_id)
    names = tuple(game.players)
    suits = ("green", "red", "yellow") if len(names) == 3 else None
    events = simulate(seed, len(names), names=names, first_player=names[0], suits=suits)
    record = [to_json(e) for e in events[1:]]
    if upto is not None:
        record = record[:upto]
    games.game_append(
        game_id=game.stream_id, expected_version=game.version, events=record, user=user
    )


def build(*, seed: int = 2026) -> Demo:
    """Create the demo (or refresh its logins if it exists) and return how to log in."""
    users = get_user_model()
    password = secrets.token_urlsafe(9)
    organizer, _ = users.objects.get_or_create(username="organizer")
    organizer.set_password(password)
    organizer.save()
    scorekeeper, _ = users.objects.get_or_create(username="scorekeeper")
    scorekeeper.set_password(password)
    scorekeeper.save()
    existing = TournamentProjection.objects.filter(name=NAME).first()
    if existing is not None:
        return Demo(existing.stream_id, "organizer", password, "scorekeeper", created=False)

    with transaction.atomic():
        tid = services.tournament_create(
            user=organizer, name=NAME, date="2026-12-05", rounds=4, seed=seed,
            downloads_released=True,
        ).tournament_id  # fmt: skip
        services.tournament_set_role(
            tournament_id=tid, username="scorekeeper", role="scorekeeper", grant=True,
            user=organizer,
        )  # fmt: skip
        services.tournament_register(
            tournament_id=tid, user=organizer, names=PLAYERS, checked_in=True
        )
        # Round 1: every table played to the end, results confirmed, round closed.
        services.tournament_pair(tournament_id=tid, user=organizer)
        change = services.tournament_publish(tournament_id=tid, round=1, user=organizer)
        for table in change.state["rounds"][0]["tables"]:
            _play(table["game"], seed + table["table"], scorekeeper)
        for table in change.state["rounds"][0]["tables"]:
            services.tournament_sync_game(game_id=uuid.UUID(table["game"]))
            services.tournament_confirm(
                tournament_id=tid, round=1, table=table["table"], user=organizer
            )
        services.tournament_close_round(tournament_id=tid, round=1, user=organizer)
        # Round 2: published; one table finished, one half way, the others about to start.
        services.tournament_pair(tournament_id=tid, user=organizer)
        change = services.tournament_publish(tournament_id=tid, round=2, user=organizer)
        tables = change.state["rounds"][1]["tables"]
        _play(tables[0]["game"], seed + 100, scorekeeper)
        services.tournament_sync_game(game_id=uuid.UUID(tables[0]["game"]))
        _play(tables[1]["game"], seed + 101, scorekeeper, upto=70)
        # Round 2's clock: an hour from now, counted down on every page and the big screen.
        services.tournament_set_clock(tournament_id=tid, round=2, minutes=60, user=organizer)
    return Demo(tid, "organizer", password, "scorekeeper", created=True)
