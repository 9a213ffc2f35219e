"""A living demo tournament of the default game: 16 players, round 1 played to the end, round 2
under way; and one tournament of each other registered game that has one (``GameType.demo``:
its name and entrants, in the game's package), round 1 played to the end and round 2 paired.

Built through the same services as real use (every action an event), with simulated games, so a
new user sees a tournament in progress within a minute of cloning (``bin/run``).
"""

from __future__ import annotations

import json
import secrets
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from config.kept import read_private, write_private
from games import services as games
from games.gametypes import GAME_TYPES
from games.models import GameProjection
from tournaments import services
from tournaments.models import TournamentProjection

NAME = "Demo club night"
PLAYERS = (
    "Ana", "Bruno", "Chloé", "Dmitri", "Esi", "Farid", "Greta", "Hiro",
    "Ines", "Jonas", "Kemi", "Lars", "Mei", "Nikos", "Olu", "Priya",
)  # fmt: skip


@dataclass(frozen=True)
class OtherGame:
    """One tournament of another game: its name, game type and entrants (a team game's: team
    name -> its players)."""

    name: str
    game_type: str
    entrants: Sequence[str] | Mapping[str, Sequence[str]]
    table_size: int | None = None


def other_games() -> tuple[OtherGame, ...]:
    """The demo's tournament of each registered game that has one (GameType.demo), in the
    registry's order."""
    return tuple(
        OtherGame(kind.demo.name, key, kind.demo.entrants, kind.demo.table_size)
        for key, kind in GAME_TYPES.items()
        if kind.demo is not None
    )


ORGANIZER, SCOREKEEPER = "organizer", "scorekeeper"
LOGINS = (ORGANIZER, SCOREKEEPER)
"""The demo's logins (usernames): the tournaments' organizer, and a scorekeeper of each."""
_PASSWORD_LETTERS = "abcdefghijkmnpqrstuvwxyz23456789"
"""Typed on a phone: lower case, no 0/o, 1/l look-alikes."""


@dataclass(frozen=True)
class Demo:
    tournament_id: uuid.UUID
    organizer: str
    password: str
    """The organizer's password."""
    scorekeeper: str
    scorekeeper_password: str
    created: bool
    others: tuple[tuple[str, uuid.UUID], ...] = ()
    """The other games' tournaments: (name, id)."""


def new_password() -> str:
    """A password to type on a phone: three groups of four (about 60 bits), e.g. k7dm-x2qf-9hzt."""
    return "-".join("".join(secrets.choice(_PASSWORD_LETTERS) for _ in range(4)) for _ in range(3))


def kept_passwords(path: Path | None, *, renew: bool = False) -> dict[str, str]:
    """The demo logins' passwords, made once and kept in ``path`` (JSON, mode 0600), so that a
    restart neither changes them nor logs anyone out; ``renew``: new ones, kept from now on.
    Without a path: new ones, kept nowhere (tests)."""
    kept: dict[str, Any] = {}
    if path is not None and not renew:
        try:
            found = json.loads(read_private(path) or "{}")
        except ValueError:  # a damaged file: new passwords, written over it
            found = {}
        kept = found if isinstance(found, dict) else {}
    passwords = {
        name: value if isinstance(value := kept.get(name), str) and value else new_password()
        for name in LOGINS
    }
    if path is not None and passwords != kept:
        write_private(path, json.dumps(passwords, indent=2) + "\n")
    return passwords


def _login(username: str, password: str) -> AbstractBaseUser:
    """The demo login ``username``, with ``password``. Its password hash is written only when
    the password is another: setting the same password again makes a new hash (a new salt), and
    Django ends every session whose hash no longer matches: everyone would be logged out."""
    user, _ = get_user_model().objects.get_or_create(username=username)
    if not user.check_password(password):
        user.set_password(password)
        user.save(update_fields=["password"])
    return user


def _play(game_id: str, seed: int, user: AbstractBaseUser, upto: int | None = None) -> None:
    """A simulated game of the table's game at the table's names (its first ``upto`` events);
    the table's own start (the tournament made it) stays (GameType.demo_record)."""
    game = GameProjection.objects.get(stream_id=game_id)
    record = GAME_TYPES[game.game_type].demo_record(seed, list(game.players))
    if upto is not None:
        record = record[:upto]
    games.game_append(
        game_id=game.stream_id, expected_version=game.version, events=record, user=user
    )


def build(*, seed: int = 2026, passwords: Mapping[str, str] | None = None) -> Demo:
    """Create the demo if it is not there, give its logins ``passwords`` (username ->
    password; new ones if None) and return how to log in."""
    if passwords is None:
        passwords = kept_passwords(None)
    organizer = _login(ORGANIZER, passwords[ORGANIZER])
    scorekeeper = _login(SCOREKEEPER, passwords[SCOREKEEPER])
    logins = {
        "organizer": ORGANIZER,
        "password": passwords[ORGANIZER],
        "scorekeeper": SCOREKEEPER,
        "scorekeeper_password": passwords[SCOREKEEPER],
    }
    others = tuple(
        (other.name, _other_game(other, seed, organizer, scorekeeper)) for other in other_games()
    )
    existing = TournamentProjection.objects.filter(name=NAME).first()
    if existing is not None:
        return Demo(existing.stream_id, created=False, others=others, **logins)

    with transaction.atomic():
        tid = services.tournament_create(
            user=organizer, name=NAME, date="2026-12-05", rounds=4, seed=seed,
            downloads_released=True,
        ).tournament_id  # fmt: skip
        services.tournament_set_role(
            tournament_id=tid, username=SCOREKEEPER, role="scorekeeper", grant=True,
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
    return Demo(tid, created=True, others=others, **logins)


def _other_game(
    other: OtherGame, seed: int, organizer: AbstractBaseUser, scorekeeper: AbstractBaseUser
) -> uuid.UUID:
    """The other game's tournament (made once): round 1 played and closed, round 2 paired."""
    existing = TournamentProjection.objects.filter(name=other.name).first()
    if existing is not None:
        return existing.stream_id
    with transaction.atomic():
        tid = services.tournament_create(
            user=organizer, name=other.name, date="2026-12-12", rounds=3, seed=seed,
            game_type=other.game_type, table_size=other.table_size, downloads_released=True,
        ).tournament_id  # fmt: skip
        services.tournament_set_role(
            tournament_id=tid, username=SCOREKEEPER, role="scorekeeper", grant=True,
            user=organizer,
        )  # fmt: skip
        if isinstance(other.entrants, Mapping):
            services.tournament_register(
                tournament_id=tid, user=organizer, names=list(other.entrants),
                members=[list(m) for m in other.entrants.values()], checked_in=True,
            )  # fmt: skip
        else:
            services.tournament_register(
                tournament_id=tid, user=organizer, names=other.entrants, checked_in=True
            )
        services.tournament_pair(tournament_id=tid, user=organizer)
        change = services.tournament_publish(tournament_id=tid, round=1, user=organizer)
        for table in change.state["rounds"][0]["tables"]:
            _play(table["game"], seed + table["table"], scorekeeper)
            services.tournament_sync_game(game_id=uuid.UUID(table["game"]))
            services.tournament_confirm(
                tournament_id=tid, round=1, table=table["table"], user=organizer
            )
        services.tournament_close_round(tournament_id=tid, round=1, user=organizer)
        services.tournament_pair(tournament_id=tid, user=organizer)
    return tid
