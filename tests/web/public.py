"""Helpers of the public pages' tests: the Spring Open built through the services (two rounds,
one table played card by card, the others results only)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from html import unescape
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games import services as games
from games.models import GameProjection
from tournaments import services as t

Capture = Callable[..., AbstractContextManager[Any]]
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus"]
RESULTS_ONLY = {"Eli": [10, 12, 9], "Fay": [8, 8, 8], "Gus": [5, 6, 7]}


# ----------------------------------------------------------------------------- building


@dataclass(frozen=True)
class Spring:
    """A tournament in its second round: 7 players, 3 rounds planned.

    Round 1 (closed): table 1 (Ana, Ben, Cleo, Dev) played card by card to the end, table 2
    (Eli, Fay, Gus) entered as results only; both confirmed. Gus then dropped out. Round 2
    (published): table 1 played to the end (its result not confirmed yet), table 2 under way.
    """

    id: uuid.UUID
    organizer: User
    played: str
    """Round 1, table 1: the game recorded card by card."""
    results_only: str
    """Round 1, table 2: the game entered as results only."""
    finished: str
    """Round 2, table 1: finished, result awaiting confirmation."""
    playing: str
    """Round 2, table 2: in progress."""
    playing_seed: int


def summary_of(tid: uuid.UUID, user: User | None = None) -> dict[str, Any]:
    return t.tournament_get(tournament_id=tid, user=user).summary


def table_entry(tid: uuid.UUID, user: User, round: int, table: int) -> dict[str, Any]:
    entry: dict[str, Any] = summary_of(tid, user)["rounds"][round - 1]["tables"][table - 1]
    return entry


def seat_names(entry: dict[str, Any]) -> tuple[str, ...]:
    return tuple(s["name"] for s in entry["seats"])


def simulated(names: tuple[str, ...], seed: int) -> list[dict[str, Any]]:
    """A random legal game for a tournament table (seat 1 starts; blue out at a table of 3),
    as record events after game_started."""
    suits = ("green", "red", "yellow") if len(names) == 3 else None
    events = simulate(seed, len(names), names=names, first_player=names[0], suits=suits)
    return [to_json(e) for e in events[1:]]


def play(game_id: str, user: User, capture: Capture, seed: int, upto: int | None = None) -> None:
    """Record a table's game card by card (to the end, or its first ``upto`` events)."""
    game = GameProjection.objects.get(stream_id=game_id)
    record = simulated(tuple(game.players), seed)
    with capture(execute=True):
        games.game_append(
            game_id=game.stream_id,
            expected_version=game.version,
            events=record[game.version - 2 :][: upto if upto is not None else None],
            user=user,
        )


def enter_results(game_id: str, user: User, capture: Capture, scores: dict[str, list[int]]) -> None:
    game = GameProjection.objects.get(stream_id=game_id)
    with capture(execute=True):
        games.game_enter_results(
            game_id=game.stream_id, expected_version=game.version, scores=scores, user=user
        )


def new_tournament(user: User, names: list[str], **settings: Any) -> uuid.UUID:
    settings = {"date": "2026-03-14", "rounds": 3, "seed": 7, "round1": "order", **settings}
    settings.setdefault("name", "Spring Open")
    tid = t.tournament_create(user=user, **settings).tournament_id
    t.tournament_register(tournament_id=tid, user=user, names=names, checked_in=True)
    return tid


def build_spring(organizer: User, capture: Capture) -> Spring:
    tid = new_tournament(organizer, NAMES)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    played = table_entry(tid, organizer, 1, 1)
    results = table_entry(tid, organizer, 1, 2)
    assert seat_names(played) == ("Ana", "Ben", "Cleo", "Dev")
    assert seat_names(results) == ("Eli", "Fay", "Gus")
    play(played["game"], organizer, capture, seed=11)
    enter_results(results["game"], organizer, capture, RESULTS_ONLY)
    for table in (1, 2):
        t.tournament_confirm(tournament_id=tid, round=1, table=table, user=organizer)
    t.tournament_close_round(tournament_id=tid, round=1, user=organizer)
    t.tournament_drop(tournament_id=tid, player="P7", user=organizer)  # Gus
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=2, user=organizer)
    finished = table_entry(tid, organizer, 2, 1)
    playing = table_entry(tid, organizer, 2, 2)
    play(finished["game"], organizer, capture, seed=21)
    play(playing["game"], organizer, capture, seed=22, upto=60)
    return Spring(
        id=tid,
        organizer=organizer,
        played=played["game"],
        results_only=results["game"],
        finished=finished["game"],
        playing=playing["game"],
        playing_seed=22,
    )


def finish_round_two(spring: Spring, capture: Capture) -> None:
    play(spring.playing, spring.organizer, capture, seed=spring.playing_seed)
    for table in (1, 2):
        t.tournament_confirm(tournament_id=spring.id, round=2, table=table, user=spring.organizer)
    t.tournament_close_round(tournament_id=spring.id, round=2, user=spring.organizer)


@contextmanager
def logged_in(client: Client, user: User) -> Iterator[Client]:
    client.force_login(user)
    try:
        yield client
    finally:
        client.logout()


# ----------------------------------------------------------------------------- reading pages


def page(client: Client, url: str, **headers: str) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def text(html: str) -> str:
    """The page's text, tags removed and spaces collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def rows_of(html: str, table_class: str) -> list[list[str]]:
    """The text of each body row's cells (th and td) of the first table with this class."""
    found = re.search(rf'<table class="{table_class}"[^>]*>(.*?)</table>', html, re.S)
    assert found is not None, table_class
    body = found.group(1).split("<tbody>", 1)[1]
    # A row's compact line for phones (the deciding values again, under the name): not a cell
    body = re.sub(r'<span class="row-figures".*?</th>', "</th>", body, flags=re.S)
    return [
        [text(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def section(html: str, heading_id: str) -> str:
    """The HTML of the <section> labelled by the heading with this id."""
    found = re.search(
        rf'<section[^>]*aria-labelledby="{heading_id}"[^>]*>(.*?)</section>', html, re.S
    )
    assert found is not None, heading_id
    return found.group(1)


def confirmed(html: str) -> int:
    """How many confirmed results the standings page says it counts."""
    found = re.search(r"Standings after (\d+) confirmed table result", text(html))
    assert found, "the standings caption"
    return int(found[1])
