"""games.services.relay and the game reads it holds back (docs/relay.md): a spectator of a
delayed tournament table reads the game as it stood the delay ago; its officials read it now.

Events are appended through the services at the times of a clock the tests move (Django's
``timezone.now``, which the store dates events with and the reads compare them to): no sleep."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User

from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games import services as games
from games.models import Event, GameProjection
from games.services import relay
from tests.clock import Clock, installed
from tests.tournaments.helpers import new_tournament, summary
from tournaments import services as t

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Cleo", "Dev"]


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("org", password="pw")


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    found = installed(monkeypatch)
    return found


@pytest.fixture
def on_commit(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> Iterator[Callable[[], Any]]:
    yield lambda: django_capture_on_commit_callbacks(execute=True)


def _table(organizer: User, delay: int) -> tuple[uuid.UUID, uuid.UUID, list[dict[str, Any]]]:
    tid = new_tournament(organizer, NAMES, relay_delay=delay)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    entry = summary(tid)["rounds"][0]["tables"][0]
    names = tuple(s["name"] for s in entry["seats"])
    record = [to_json(e) for e in simulate(5, 4, names=names, first_player=names[0])]
    return tid, uuid.UUID(entry["game"]), record


def _append(game_id: uuid.UUID, events: list[dict[str, Any]], user: User, on_commit: Any) -> None:
    game = GameProjection.objects.get(stream_id=game_id)
    with on_commit():
        games.game_append(game_id=game_id, expected_version=game.version, events=events, user=user)


def _played(events: list[games.ShownEvent]) -> list[Any]:
    return [e.data.get("card") for e in events if e.type == "card_played"]


def _version(game_id: uuid.UUID) -> int:
    return GameProjection.objects.get(stream_id=game_id).version


def test_a_spectator_reads_the_game_as_it_stood_the_delay_ago(
    organizer: User, on_commit: Any, clock: Clock
) -> None:
    tid, game_id, record = _table(organizer, delay=600)
    _append(game_id, record[1:11], organizer, on_commit)  # the deal and the first plays
    cut = _version(game_id)
    clock.wait(400)
    _append(game_id, record[11:30], organizer, on_commit)
    clock.wait(300)  # the first batch is 700 s old, the second 300 s
    now = GameProjection.objects.get(stream_id=game_id)
    public = AnonymousUser()

    seen, events = games.game_events(game_id=game_id, user=public)
    assert seen.version == cut and events[-1].version == cut
    late = relay.delay_of(seen)
    assert late is not None and late.delay == 600
    assert seen.summary == relay.folded(game_id, seen.game_type, cut).summary
    # The round being played then: its deal hides every card still held at the cut.
    deal = next(e for e in events if e.type == "round_started")
    assert deal.data.get("hands_hidden") is True
    played_then = {c for c in _played(events)}
    for cards in deal.data["hands"].values():
        assert set(cards) <= played_then

    mine, all_events = games.game_events(game_id=game_id, user=organizer)
    assert mine.version == now.version == len(all_events)
    assert relay.delay_of(mine) is None

    # The page, the record file and the API's game: the same cut.
    assert games.game_view(game_id=game_id, user=public).version == cut
    assert games.game_view(game_id=game_id, user=public, until=40).version == cut
    assert games.game_view(game_id=game_id, user=public, until=3).version == 3
    assert games.game_view(game_id=game_id, user=organizer).version == now.version
    assert games.game_get_seen(game_id=game_id, user=public).version == cut
    clock.wait(300)  # all of it is old enough now
    assert games.game_get_seen(game_id=game_id, user=public).version == now.version


def test_the_cut_moves_with_the_clock_and_a_finished_game_shows_only_after_the_delay(
    organizer: User, on_commit: Any, clock: Clock
) -> None:
    tid, game_id, record = _table(organizer, delay=300)
    _append(game_id, record[1:], organizer, on_commit)
    finished = GameProjection.objects.get(stream_id=game_id)
    assert finished.status == "finished"
    public = AnonymousUser()
    seen = games.game_get_seen(game_id=game_id, user=public)
    assert seen.status == "in_progress" and seen.version == 1  # only the start, who sits where
    assert seen.summary.get("status") != "finished"
    clock.wait(299)
    assert games.game_get_seen(game_id=game_id, user=public).status == "in_progress"
    clock.wait(2)  # all of it over 5 minutes ago
    assert games.game_get_seen(game_id=game_id, user=public).status == "finished"


def _whole_log(organizer: User, count: int) -> list[games.ShownEvent]:
    """The global log once it shows ``count`` events: on PostgreSQL it shows only what
    committed before every running transaction began (another test worker's included)."""
    deadline = time.monotonic() + 30
    while len(found := games.log_read(user=organizer)) < count:
        assert time.monotonic() < deadline, "the log did not show the committed events"
        time.sleep(0.02)
    return found


def test_no_delay_no_cut_and_the_log_stops_before_a_held_event(
    committed_db: None, organizer: User, on_commit: Any, clock: Clock
) -> None:
    _, open_game, open_record = _table(organizer, delay=0)
    _, late_game, late_record = _table(organizer, delay=600)
    _append(late_game, late_record[1:4], organizer, on_commit)
    cut = _version(late_game)
    clock.wait(700)
    _append(late_game, late_record[4:8], organizer, on_commit)
    _append(open_game, open_record[1:8], organizer, on_commit)
    public = AnonymousUser()
    seen, events = games.game_events(game_id=open_game, user=public)
    assert relay.delay_of(seen) is None and len(events) == seen.version

    everything = _whole_log(organizer, Event.objects.count())
    log = games.log_read(user=public)
    held = [e for e in log if e.stream_id == late_game]
    assert [e.version for e in held] == list(range(1, cut + 1))
    # The page ends before the late game's first event held back: nothing after it is in it.
    first_held = Event.objects.get(stream_id=late_game, version=cut + 1)
    assert all((e.tx_id, e.id) < (first_held.tx_id, first_held.id) for e in log)
    # The spectator's page is the official's, cut short: the same events in the same order.
    assert len(everything) > len(log)
    assert [(e.stream_id, e.version) for e in everything[: len(log)]] == [
        (e.stream_id, e.version) for e in log
    ]


def test_the_record_file_of_a_spectator_stops_at_the_cut(
    organizer: User, on_commit: Any, clock: Clock
) -> None:
    tid, game_id, record = _table(organizer, delay=120)
    t.tournament_change_settings(
        tournament_id=tid, changes={"downloads_released": True}, user=organizer
    )
    _append(game_id, record[1:-25], organizer, on_commit)
    cut = _version(game_id)
    clock.wait(200)
    _append(game_id, record[-25:], organizer, on_commit)
    length = _version(game_id)
    clock.wait(60)
    public = AnonymousUser()
    shown = games.game_export_record(game_id=game_id, user=public)
    full = games.game_export_record(game_id=game_id, user=organizer)
    assert full.count("\n") == len(record)
    # Up to the end of the last round finished at the cut, never a card of the round then.
    assert shown.count("\n") <= cut < length
    assert full.startswith(shown)


def test_a_round_of_its_own_delay_and_back_to_the_tournaments(
    organizer: User, on_commit: Any
) -> None:
    tid, game_id, record = _table(organizer, delay=0)
    _append(game_id, record[1:6], organizer, on_commit)
    public = AnonymousUser()
    assert relay.delay_of(games.game_get_seen(game_id=game_id, user=public)) is None
    t.tournament_set_delay(tournament_id=tid, round=1, seconds=60, user=organizer)
    assert games.game_get_seen(game_id=game_id, user=public).version == 1
    t.tournament_set_delay(tournament_id=tid, round=1, seconds=None, user=organizer)
    assert games.game_get_seen(game_id=game_id, user=public).version == _version(game_id)


def test_the_api_gives_a_spectator_the_game_as_it_stood_and_says_how_late(
    organizer: User, on_commit: Any, clock: Clock, client: Any
) -> None:
    tid, game_id, record = _table(organizer, delay=90)
    _append(game_id, record[1:6], organizer, on_commit)
    cut = _version(game_id)
    clock.wait(100)
    _append(game_id, record[6:20], organizer, on_commit)
    detail = client.get(f"/api/games/{game_id}/").json()
    assert (detail["version"], detail["delay"]) == (cut, 90)
    events = client.get(f"/api/games/{game_id}/events/").json()
    assert (events["version"], events["delay"], len(events["events"])) == (cut, 90, cut)
    listed = client.get("/api/games/").json()["results"]
    assert {g["id"]: g["version"] for g in listed}[str(game_id)] == cut
    client.force_login(organizer)
    mine = client.get(f"/api/games/{game_id}/events/").json()
    assert (mine["version"], mine["delay"]) == (_version(game_id), None)
    assert client.get(f"/api/games/{game_id}/").json()["delay"] is None
