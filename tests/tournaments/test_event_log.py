"""The committed tournament log (tests/fixtures/tournament_log_v1.json, written by the code of
93c51f5) replays to the same tournament forever: the state, the standings and what the API
shows. No database: the fold is pure.

Never regenerate the fixture to make this pass: a failure means stored tournaments would change
when the code is deployed; upcast the old events instead (docs/tournament-events.md).
"""

from __future__ import annotations

import json
import uuid
from types import SimpleNamespace
from typing import Any

import pytest

from tests.fixtures.tournament_log import FIXTURE
from tests.tournaments.helpers import with_todays_plurals
from tournaments import domain, events
from tournaments import rounds as tournament_rounds
from tournaments.services.summary import _summary


@pytest.fixture(scope="module")
def log() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


def replay(log: dict[str, Any]) -> domain.TournamentState:
    return domain.fold((e["version"], e["type"], e["data"]) for e in log["events"])


NEWER_THAN_THE_LOG = frozenset({"round_clock_set", "player_checked_out", "round_delay_set"})
"""Event types added after the log was written (each round-trips in its own tests:
tests/tournaments/test_round_clock.py, tests/tournaments/test_event_schema.py,
tests/tournaments/test_relay_delay.py)."""


def test_the_log_uses_every_tournament_event_type(log: dict[str, Any]) -> None:
    kinds = {e["type"] for e in log["events"]}
    assert kinds == set(events.EVENT_TYPES) - NEWER_THAN_THE_LOG


def test_the_old_log_replays_to_the_same_state(log: dict[str, Any]) -> None:
    assert replay(log) == domain.from_json(log["expected"]["snapshot"])


def test_the_old_log_replays_to_the_same_standings(log: dict[str, Any]) -> None:
    assert tournament_rounds.standings_json(replay(log)) == log["expected"]["standings"]


def test_the_old_log_replays_to_the_same_summary(log: dict[str, Any]) -> None:
    projection = SimpleNamespace(stream_id=uuid.UUID(log["stream_id"]))
    summary = _summary(projection, replay(log), system=True)  # type: ignore[arg-type]
    expected = log["expected"]["summary"]
    expected = expected | {  # the one change in the words since: counts are plurals now
        "rounds": [
            r | {"notes": [with_todays_plurals(n) for n in r["notes"]]} for r in expected["rounds"]
        ]
    }
    assert summary == expected
