"""The tournament fold and decisions, without a database."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from games.services import Refused
from tournaments import domain
from tournaments.domain import Refusal
from tournaments.services import parse_player_list

SETTINGS = {"name": "Cup", "date": "2026-12-01", "rounds": 3, "game_type": "trick-n-chef"}


def stream(*events: tuple[str, dict[str, Any]]) -> list[tuple[int, str, dict[str, Any]]]:
    created = (domain.CREATED, {"settings": SETTINGS, "organizer": {"id": 1, "username": "olga"}})
    return [(v, k, d) for v, (k, d) in enumerate([created, *events], start=1)]


def registered(*names: str) -> list[tuple[str, dict[str, Any]]]:
    return [(domain.REGISTERED, {"player": f"P{i}", "name": n}) for i, n in enumerate(names, 1)]


def test_the_fold_skips_undone_actions_and_the_history_keeps_them() -> None:
    events = stream(
        *registered("Ana", "Ben", "Cleo"),
        (domain.DROPPED, {"player": "P2"}),
        (domain.UNDONE, {"version": 5, "reason": "wrong player"}),
        (domain.DROPPED, {"player": "P3"}),
    )
    state = domain.fold(events)
    assert [(p.name, p.dropped) for p in state.players.values()] == [
        ("Ana", False),
        ("Ben", False),
        ("Cleo", True),
    ]
    assert state.undone == {5}
    assert state.version == 7


def test_the_state_survives_its_json_form() -> None:
    events = stream(
        *registered("Ana", "Ben", "Cleo", "Dev"),
        (domain.CHECKED_IN, {"player": "P1"}),
        (domain.ROLE_GRANTED, {"user_id": 2, "username": "sam", "role": "scorekeeper"}),
        (
            domain.PAIRED,
            {"round": 1, "method": "random", "seed": 7, "tables": [["P1", "P2", "P3", "P4"]],
             "byes": [], "cost": {"total": 3}, "lower_bound": 3.0, "notes": ["n"]},
        ),
        (domain.PUBLISHED, {"round": 1, "games": [{"table": 1, "game": "g-1"}]}),
        (
            domain.RESULT_RECORDED,
            {"round": 1, "table": 1, "game": "g-1", "game_version": 160, "entered_by": [2],
             "placements": [{"player": p, "place": i, "victory_points": 20 - i, "last_round": 5}
                            for i, p in enumerate(["P1", "P2", "P3", "P4"], 1)]},
        ),
    )  # fmt: skip
    state = domain.fold(events)
    assert domain.from_json(domain.to_json(state)) == state
    # The hand-written JSON form is what dataclasses.asdict gives, once stored as JSON: every
    # field of every dataclass, so a field added later cannot be forgotten there.
    by_asdict = {
        **domain.to_json(state),
        "settings": dataclasses.asdict(state.config),
        "players": [dataclasses.asdict(p) for p in state.players.values()],
        "rounds": [dataclasses.asdict(r) for r in state.rounds],
    }
    assert json.dumps(domain.to_json(state)) == json.dumps(by_asdict)


def test_names_are_compared_without_case_or_extra_spaces() -> None:
    state = domain.fold(stream(*registered("Ana Lopez")))
    for name in ("ana lopez", "  ANA   LOPEZ "):
        with pytest.raises(Refusal) as refused:
            domain.decide_register(state, [name])
        assert refused.value.code == "duplicate_player"


def test_the_last_organizer_cannot_be_removed() -> None:
    state = domain.fold(stream())
    with pytest.raises(Refusal) as refused:
        domain.decide_role(state, 1, "olga", "organizer", grant=False)
    assert refused.value.code == "last_organizer"


def test_an_undo_of_an_undo_or_of_a_result_is_refused() -> None:
    events = stream(*registered("Ana"), (domain.UNDONE, {"version": 2, "reason": ""}))
    state = domain.fold(events)
    with pytest.raises(Refusal, match="already undone"):
        domain.check_undo(state, events, 2)
    with pytest.raises(Refusal, match="cannot be undone"):
        domain.check_undo(state, events, 3)
    with pytest.raises(Refusal, match="no action at version 9"):
        domain.check_undo(state, events, 9)


def test_a_player_list_may_be_pasted_or_a_csv_with_a_header() -> None:
    assert parse_player_list("Ana\nBen\n\nCleo") == (["Ana", "Ben", "Cleo"], None)
    assert parse_player_list("name,rating\nAna,1200\nBen,\n") == (["Ana", "Ben"], [1200, None])
    assert parse_player_list("Rating,Name\n1500,Ana\n") == (["Ana"], [1500])
    assert parse_player_list("Ana,Paris\nBen,Lyon") == (["Ana", "Ben"], None)
    assert parse_player_list('"Lopez, Ana"\nBen') == (["Lopez, Ana", "Ben"], None)
    with pytest.raises(Refused, match="line 2: the rating 'high' is not a number"):
        parse_player_list("name,rating\nAna,high")
    with pytest.raises(Refused, match="line 3 has no name"):
        parse_player_list("name\nAna\n,\n")
