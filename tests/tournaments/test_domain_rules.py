"""The tournament's rules, one decision or check at a time, and the fold of each event kind.

Pure: no database. These go through the public functions only (``fold`` over
``(version, kind, data)`` triples, ``decide_*`` / ``check_*`` and the state's attributes), so they
hold whatever form the events take inside the domain module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tournaments import domain
from tournaments import events as ev
from tournaments.domain import Refusal, TournamentState
from tournaments.events import EventSchemaError

Event = tuple[str, dict[str, Any]]

ORGANIZER_ID, SCOREKEEPER_ID, OTHER_ID = 1, 2, 3


def settings(**changes: Any) -> dict[str, Any]:
    return {
        "name": "Cup",
        "date": "2026-12-01",
        "rounds": 2,
        "game_type": "trick-n-chef",
        **changes,
    }


def stream(*events: Event, **setting_changes: Any) -> list[tuple[int, str, dict[str, Any]]]:
    created = (
        domain.CREATED,
        {"settings": settings(**setting_changes), "organizer": {"id": 1, "username": "olga"}},
    )
    return [(v, k, d) for v, (k, d) in enumerate([created, *events], start=1)]


def state_of(*events: Event, **setting_changes: Any) -> TournamentState:
    return domain.fold(stream(*events, **setting_changes))


def registered(*names: str) -> list[Event]:
    return [(domain.REGISTERED, {"player": f"P{i}", "name": n}) for i, n in enumerate(names, 1)]


def checked_in(*players: str) -> list[Event]:
    return [(domain.CHECKED_IN, {"player": p}) for p in players]


def scorekeeper(user_id: int = SCOREKEEPER_ID, username: str = "sam") -> Event:
    return (domain.ROLE_GRANTED, {"user_id": user_id, "username": username, "role": "scorekeeper"})


def paired(number: int, tables: list[list[str]], byes: tuple[str, ...] = ()) -> Event:
    return (
        domain.PAIRED,
        {"round": number, "method": "random", "seed": 7, "tables": tables, "byes": list(byes)},
    )


def published(number: int, tables: int) -> Event:
    games = [{"table": t, "game": f"g-{number}-{t}"} for t in range(1, tables + 1)]
    return (domain.PUBLISHED, {"round": number, "games": games})


def recorded(
    number: int, table: int, seats: list[str], *, game_version: int = 160, by: int = 2
) -> Event:
    placements = [
        {"player": p, "place": i, "victory_points": 20 - i, "last_round": 5}
        for i, p in enumerate(seats, 1)
    ]
    return (
        domain.RESULT_RECORDED,
        {
            "round": number,
            "table": table,
            "game": f"g-{number}-{table}",
            "game_version": game_version,
            "entered_by": [by],
            "placements": placements,
        },
    )


def confirmed(number: int, table: int, *, game_version: int = 160, by: int = 1) -> Event:
    return (
        domain.RESULT_CONFIRMED,
        {"round": number, "table": table, "game_version": game_version, "by": by},
    )


EIGHT = ("Ana", "Ben", "Cleo", "Dev", "Eva", "Finn", "Gus", "Hana")
TABLES = [["P1", "P2", "P3", "P4"], ["P5", "P6", "P7", "P8"]]


def round_one_played(*, confirm: bool = True) -> list[Event]:
    """Eight players, round 1 paired at two tables, published and both results in."""
    events: list[Event] = [
        *registered(*EIGHT),
        *checked_in(*(f"P{i}" for i in range(1, 9))),
        scorekeeper(),
        paired(1, TABLES),
        published(1, 2),
        recorded(1, 1, TABLES[0]),
        recorded(1, 2, TABLES[1]),
    ]
    if confirm:
        events += [confirmed(1, 1), confirmed(1, 2)]
    return events


def refused(code: str, decide: Callable[[], object]) -> Refusal:
    with pytest.raises(Refusal) as caught:
        decide()
    assert caught.value.code == code, caught.value.message
    assert caught.value.message  # always something to show the organizer
    return caught.value


# ----------------------------------------------------------------------------- fold


def test_creation_sets_the_settings_and_makes_the_creator_organizer() -> None:
    state = state_of(tiebreaks=["first_places", "victory_points"], confirmation="auto")
    assert state.version == 1
    assert state.status == "registration"
    assert state.config.name == "Cup"
    assert state.config.rounds == 2
    assert state.config.tiebreaks == ("first_places", "victory_points")
    assert state.config.confirmation == "auto"
    assert state.config.pairing == "manual"  # a default
    assert state.has_role(ORGANIZER_ID, domain.ORGANIZER)
    assert not state.has_role(ORGANIZER_ID, domain.SCOREKEEPER)
    assert state.usernames == {ORGANIZER_ID: "olga"}


def test_a_stream_without_creation_is_no_tournament() -> None:
    state = domain.fold([])
    assert state.version == 0
    refused("not_found", lambda: state.config)


def test_settings_changes_replace_only_the_named_fields() -> None:
    state = state_of(
        (domain.SETTINGS_CHANGED, {"changes": {"rounds": 5, "tiebreaks": ["first_places"]}})
    )
    assert state.config.rounds == 5
    assert state.config.tiebreaks == ("first_places",)
    assert state.config.name == "Cup"
    assert state.version == 2


def test_registration_numbers_players_in_order_and_keeps_rating_and_late() -> None:
    state = state_of(
        *registered("Ana"),
        (domain.REGISTERED, {"player": "P2", "name": "Ben", "rating": 1500, "late": True}),
        (domain.REGISTERED, {"player": "P3", "name": "Cleo", "checked_in": True}),
    )
    ana, ben, cleo = state.players.values()
    assert [(p.id, p.name, p.order) for p in (ana, ben, cleo)] == [
        ("P1", "Ana", 1),
        ("P2", "Ben", 2),
        ("P3", "Cleo", 3),
    ]
    assert (ana.rating, ana.late, ana.checked_in, ana.dropped) == (None, False, False, False)
    assert (ben.rating, ben.late) == (1500, True)
    assert cleo.checked_in


def test_check_in_drop_and_reinstate_mark_the_player() -> None:
    state = state_of(
        *registered("Ana", "Ben"), *checked_in("P1"), (domain.DROPPED, {"player": "P2"})
    )
    assert (state.player("P1").checked_in, state.player("P1").dropped) == (True, False)
    assert state.player("P2").dropped
    state = state_of(
        *registered("Ana", "Ben"),
        (domain.DROPPED, {"player": "P2"}),
        (domain.REINSTATED, {"player": "P2"}),
    )
    assert not state.player("P2").dropped


def test_a_change_to_an_unknown_player_changes_nothing() -> None:
    state = state_of(*registered("Ana"), (domain.DROPPED, {"player": "P9"}))
    assert list(state.players) == ["P1"]
    assert not state.player("P1").dropped
    assert state.version == 3


def test_roles_are_granted_and_revoked() -> None:
    state = state_of(scorekeeper())
    assert state.has_role(SCOREKEEPER_ID, domain.SCOREKEEPER)
    assert state.usernames[SCOREKEEPER_ID] == "sam"
    state = state_of(
        scorekeeper(),
        (
            domain.ROLE_REVOKED,
            {"user_id": SCOREKEEPER_ID, "username": "sam", "role": "scorekeeper"},
        ),
    )
    assert not state.has_role(SCOREKEEPER_ID, domain.SCOREKEEPER)
    assert not state.has_role(None, domain.ORGANIZER)


def test_pairing_a_round_proposes_its_tables_and_starts_the_tournament() -> None:
    state = state_of(*registered(*EIGHT[:5]), paired(1, [["P1", "P2", "P3", "P4"]], ("P5",)))
    assert state.status == "running"
    rnd = state.round(1)
    assert rnd is state.last_round
    assert (rnd.number, rnd.status, rnd.method, rnd.seed) == (1, "proposed", "random", 7)
    assert [(t.number, t.seats, t.game, t.result, t.confirmed) for t in rnd.tables] == [
        (1, ("P1", "P2", "P3", "P4"), None, None, False)
    ]
    assert rnd.byes == ("P5",)
    assert rnd.missing == [1]
    refused("unknown_round", lambda: state.round(2))
    refused("unknown_table", lambda: rnd.table(2))


def test_a_pairing_change_replaces_the_tables_of_its_round() -> None:
    swapped = [["P5", "P2", "P3", "P4"], ["P1", "P6", "P7", "P8"]]
    state = state_of(
        *registered(*EIGHT),
        paired(1, TABLES),
        (
            domain.PAIRING_CHANGED,
            {"round": 1, "tables": swapped, "byes": [], "change": {"swap": ["P1", "P5"]}},
        ),
    )
    assert [list(t.seats) for t in state.round(1).tables] == swapped
    assert state.round(1).status == "proposed"


def test_publishing_gives_each_table_its_game() -> None:
    state = state_of(*registered(*EIGHT), paired(1, TABLES), published(1, 2))
    rnd = state.round(1)
    assert rnd.status == "published"
    assert [t.game for t in rnd.tables] == ["g-1-1", "g-1-2"]
    found = state.table_of_game("g-1-2")
    assert found is not None
    assert (found[0].number, found[1].number) == (1, 2)
    assert state.table_of_game("g-9-9") is None


def test_scheduling_remembers_when_a_round_is_to_be_paired() -> None:
    state = state_of((domain.SCHEDULED, {"round": 1, "at": "2026-12-01T18:00:00+00:00"}))
    assert state.scheduled == {1: "2026-12-01T18:00:00+00:00"}


def test_a_recorded_result_waits_for_confirmation_unless_confirmation_is_auto() -> None:
    events = round_one_played(confirm=False)
    table = state_of(*events).round(1).table(1)
    assert table.result is not None
    assert [(p.player, p.place, p.victory_points) for p in table.result] == [
        ("P1", 1, 19),
        ("P2", 2, 18),
        ("P3", 3, 17),
        ("P4", 4, 16),
    ]
    assert (table.result_version, table.entered_by) == (160, (SCOREKEEPER_ID,))
    assert not table.confirmed
    assert state_of(*events).round(1).missing == [1, 2]
    auto = state_of(*events, confirmation="auto").round(1)
    assert all(t.confirmed for t in auto.tables)
    assert auto.missing == []


def test_a_confirmation_counts_only_for_the_result_it_saw() -> None:
    events = round_one_played(confirm=False)
    state = state_of(*events, confirmed(1, 1, by=ORGANIZER_ID), confirmed(1, 2, game_version=150))
    first, second = state.round(1).tables
    assert (first.confirmed, first.confirmed_by) == (True, ORGANIZER_ID)
    assert (second.confirmed, second.confirmed_by) == (False, None)
    assert state.round(1).missing == [2]


def test_a_new_result_for_a_table_undoes_its_confirmation() -> None:
    state = state_of(*round_one_played(), recorded(1, 1, TABLES[0][::-1], game_version=170))
    table = state.round(1).table(1)
    assert table.result is not None
    assert table.result[0].player == "P4"
    assert (table.result_version, table.confirmed, table.confirmed_by) == (170, False, None)


def test_a_withdrawn_result_empties_the_table() -> None:
    state = state_of(
        *round_one_played(), (domain.RESULT_WITHDRAWN, {"round": 1, "table": 2, "game": "g-1-2"})
    )
    table = state.round(1).table(2)
    assert (table.result, table.result_version, table.confirmed, table.confirmed_by) == (
        None,
        None,
        False,
        None,
    )
    assert state.round(1).missing == [2]


def test_closing_a_round_and_finishing_the_tournament() -> None:
    state = state_of(*round_one_played(), (domain.ROUND_CLOSED, {"round": 1}))
    assert state.round(1).status == "closed"
    assert state.status == "running"
    state = state_of(
        *round_one_played(), (domain.ROUND_CLOSED, {"round": 1}), (domain.FINISHED, {})
    )
    assert state.status == "finished"


def test_an_undone_action_is_skipped_wherever_it_stands() -> None:
    events = [
        *registered(*EIGHT),
        paired(1, TABLES),
        (domain.UNDONE, {"version": 10, "reason": "wrong seats"}),
    ]
    state = state_of(*events)
    assert state.rounds == []
    assert state.status == "registration"
    assert state.undone == {10}
    assert state.version == 11


def test_an_unknown_event_kind_is_refused_not_skipped() -> None:
    """A stream holding a type this code does not know was written by newer code: folding on
    without it would show a wrong tournament (docs/tournament-events.md)."""
    with pytest.raises(EventSchemaError, match="something_new"):
        state_of(*registered("Ana"), ("something_new", {"x": 1}))


def test_apply_one_event_at_a_time_is_the_fold() -> None:
    events = stream(*round_one_played(), (domain.ROUND_CLOSED, {"round": 1}))
    state = TournamentState()
    for version, kind, data in events:
        domain.apply(state, version, kind, data)
    assert state == domain.fold(events)


# ----------------------------------------------------------------------------- decide_register


def test_registration_gives_the_next_ids_and_cleans_spaces() -> None:
    state = state_of(*registered("Ana"))
    assert domain.decide_register(state, ["  Ben  Lopez ", "Cleo"], [1500, None]) == [
        ev.PlayerRegistered(player="P2", name="Ben Lopez", rating=1500, late=False),
        ev.PlayerRegistered(player="P3", name="Cleo", rating=None, late=False),
    ]


def test_a_player_registered_after_pairing_is_late() -> None:
    state = state_of(*registered(*EIGHT), paired(1, TABLES))
    (event,) = domain.decide_register(state, ["Ivo"])
    assert event == ev.PlayerRegistered(player="P9", name="Ivo", rating=None, late=True)


@pytest.mark.parametrize(
    ("names", "code"),
    [
        ([], "bad_players"),
        (["Ben", "   "], "bad_players"),
        (["x" * (domain.MAX_NAME + 1)], "bad_players"),
        (["ana"], "duplicate_player"),
        (["Ben", "BEN"], "duplicate_player"),
    ],
)
def test_registration_refuses_empty_long_and_duplicate_names(names: list[str], code: str) -> None:
    state = state_of(*registered("Ana"))
    refused(code, lambda: domain.decide_register(state, names))


def test_a_name_of_the_longest_length_is_accepted() -> None:
    state = state_of()
    (event,) = domain.decide_register(state, ["x" * domain.MAX_NAME])
    assert len(event.name) == domain.MAX_NAME


def test_nobody_registers_for_a_finished_tournament() -> None:
    state = state_of(*registered("Ana"), (domain.FINISHED, {}))
    refused("tournament_finished", lambda: domain.decide_register(state, ["Ben"]))


# ----------------------------------------------------------------------------- decide_player_change


def test_player_changes_are_refused_when_already_done() -> None:
    state = state_of(
        *registered("Ana", "Ben"), *checked_in("P1"), (domain.DROPPED, {"player": "P2"})
    )
    assert domain.decide_player_change(state, "P2", domain.CHECKED_IN) == ev.PlayerCheckedIn("P2")
    assert domain.decide_player_change(state, "P1", domain.DROPPED) == ev.PlayerDropped("P1")
    assert domain.decide_player_change(state, "P2", domain.REINSTATED) == ev.PlayerReinstated("P2")
    refused("already_done", lambda: domain.decide_player_change(state, "P1", domain.CHECKED_IN))
    refused("already_done", lambda: domain.decide_player_change(state, "P2", domain.DROPPED))
    refused("already_done", lambda: domain.decide_player_change(state, "P1", domain.REINSTATED))
    refused("unknown_player", lambda: domain.decide_player_change(state, "P7", domain.DROPPED))


# ----------------------------------------------------------------------------- decide_role


def test_roles_are_granted_once_and_revoked_only_when_held() -> None:
    state = state_of(scorekeeper())
    assert domain.decide_role(state, OTHER_ID, "tess", "scorekeeper", grant=True) == (
        ev.RoleGranted(user_id=OTHER_ID, username="tess", role="scorekeeper")
    )
    assert domain.decide_role(state, SCOREKEEPER_ID, "sam", "scorekeeper", grant=False)
    refused("already_done", lambda: domain.decide_role(state, 2, "sam", "scorekeeper", True))
    refused("already_done", lambda: domain.decide_role(state, 3, "tess", "scorekeeper", False))
    refused("bad_role", lambda: domain.decide_role(state, 3, "tess", "referee", True))


def test_an_organizer_may_leave_when_another_remains() -> None:
    second = (domain.ROLE_GRANTED, {"user_id": OTHER_ID, "username": "tess", "role": "organizer"})
    state = state_of(second)
    leaves = domain.decide_role(state, ORGANIZER_ID, "olga", "organizer", grant=False)
    assert isinstance(leaves, ev.RoleRevoked)
    alone = state_of(second, (ev.type_name(leaves), ev.to_data(leaves)))
    assert not alone.has_role(ORGANIZER_ID, "organizer")
    refused(
        "last_organizer", lambda: domain.decide_role(alone, OTHER_ID, "tess", "organizer", False)
    )


# ----------------------------------------------------------------------------- check_can_pair


def test_the_first_round_can_be_paired_during_registration() -> None:
    domain.check_can_pair(state_of(*registered(*EIGHT)), 1)


@pytest.mark.parametrize(
    ("extra", "number", "code"),
    [
        ([], 2, "wrong_round"),
        ([paired(1, TABLES)], 1, "wrong_round"),
        ([paired(1, TABLES)], 2, "round_not_published"),
        ([paired(1, TABLES), published(1, 2)], 2, "results_missing"),
    ],
)
def test_pairing_is_refused_until_the_last_round_is_closed(
    extra: list[Event], number: int, code: str
) -> None:
    state = state_of(*registered(*EIGHT), *extra)
    refused(code, lambda: domain.check_can_pair(state, number))


def test_pairing_names_the_tables_still_missing_a_result() -> None:
    events = [*round_one_played(confirm=False), confirmed(1, 2)]
    problem = refused("results_missing", lambda: domain.check_can_pair(state_of(*events), 2))
    assert "1" in problem.message
    assert "2" not in problem.message.replace("round 1", "")


def test_a_complete_round_must_still_be_closed_before_the_next_is_paired() -> None:
    state = state_of(*round_one_played())
    refused("round_not_closed", lambda: domain.check_can_pair(state, 2))
    domain.check_can_pair(state_of(*round_one_played(), (domain.ROUND_CLOSED, {"round": 1})), 2)


def test_no_round_beyond_the_last_and_none_after_finishing() -> None:
    last_closed = [
        *round_one_played(),
        (domain.ROUND_CLOSED, {"round": 1}),
    ]
    state = state_of(*last_closed, rounds=1)
    refused("no_more_rounds", lambda: domain.check_can_pair(state, 2))
    finished = state_of(*last_closed, (domain.FINISHED, {}))
    refused("tournament_finished", lambda: domain.check_can_pair(finished, 2))


def test_who_is_seated_depends_on_check_in_and_drops() -> None:
    events = [*registered("Ana", "Ben", "Cleo"), *checked_in("P1", "P2")]
    events.append((domain.DROPPED, {"player": "P2"}))
    assert [p.id for p in domain.seated_players(state_of(*events))] == ["P1"]
    assert [p.id for p in domain.seated_players(state_of(*events, check_in=False))] == [
        "P1",
        "P3",
    ]


# ----------------------------------------------------------------------------- decide_swap


def test_a_swap_exchanges_two_seats_across_tables_or_within_one() -> None:
    state = state_of(*registered(*EIGHT), paired(1, TABLES))
    assert domain.decide_swap(state, 1, "P1", "P8") == [
        ["P8", "P2", "P3", "P4"],
        ["P5", "P6", "P7", "P1"],
    ]
    assert domain.decide_swap(state, 1, "P2", "P3") == [
        ["P1", "P3", "P2", "P4"],
        ["P5", "P6", "P7", "P8"],
    ]
    # Deciding changes nothing: the event does.
    assert [list(t.seats) for t in state.round(1).tables] == TABLES


def test_a_swap_is_refused_for_a_bye_an_unseated_player_or_the_same_player() -> None:
    state = state_of(
        *registered(*EIGHT, "Ivo", "Jo"), paired(1, TABLES, ("P9",))
    )  # P10 not seated at all
    refused("bad_swap", lambda: domain.decide_swap(state, 1, "P1", "P1"))
    assert "bye" in refused("bad_swap", lambda: domain.decide_swap(state, 1, "P1", "P9")).message
    refused("bad_swap", lambda: domain.decide_swap(state, 1, "P10", "P1"))
    refused("unknown_player", lambda: domain.decide_swap(state, 1, "P1", "P99"))
    refused("unknown_round", lambda: domain.decide_swap(state, 2, "P1", "P2"))


def test_a_published_round_cannot_be_swapped() -> None:
    state = state_of(*registered(*EIGHT), paired(1, TABLES), published(1, 2))
    refused("round_published", lambda: domain.decide_swap(state, 1, "P1", "P5"))


# ----------------------------------------------------------------------------- check_publish


def test_a_round_is_published_once() -> None:
    proposed = state_of(*registered(*EIGHT), paired(1, TABLES))
    assert domain.check_publish(proposed, 1) is proposed.round(1)
    done = state_of(*registered(*EIGHT), paired(1, TABLES), published(1, 2))
    refused("round_published", lambda: domain.check_publish(done, 1))
    refused("unknown_round", lambda: domain.check_publish(done, 2))


def test_a_team_table_is_published_only_when_its_teams_differ_by_one_player_at_most() -> None:
    def team(number: int, name: str, size: int) -> Event:
        members = [f"{name} {i}" for i in range(1, size + 1)]
        return (domain.REGISTERED, {"player": f"P{number}", "name": name, "members": members})

    teams = [team(1, "Pizza", 2), team(2, "Fries", 3), team(3, "Sushi", 2), team(4, "Tacos", 4)]
    fair = state_of(*teams, paired(1, [["P1", "P2"], ["P3", "P4"]]))
    assert domain.check_publish(fair, 1) is fair.round(1)  # not a team game: not checked
    with pytest.raises(Refusal) as bad:
        domain.check_publish(fair, 1, teams=True)
    assert bad.value.code == "bad_teams"
    assert "table 2: Sushi has 2 players and Tacos has 4" in bad.value.message
    even = state_of(*teams, paired(1, [["P1", "P3"], ["P2", "P4"]]))
    assert domain.check_publish(even, 1, teams=True) is even.round(1)


# ----------------------------------------------------------------------------- check_confirm


@pytest.mark.parametrize(
    ("mode", "user_id", "staff", "refusal"),
    [
        # organizer mode: an organizer (or staff), or a scorekeeper who did not enter the table
        ("organizer", ORGANIZER_ID, False, None),
        ("organizer", OTHER_ID, True, None),
        ("organizer", SCOREKEEPER_ID, False, "forbidden"),  # entered it
        ("organizer", 4, False, None),  # a second scorekeeper
        ("organizer", OTHER_ID, False, "forbidden"),  # nobody
        ("organizer", None, False, "forbidden"),
        # second person: whoever entered the table never confirms it
        ("second_person", ORGANIZER_ID, False, None),
        ("second_person", SCOREKEEPER_ID, False, "second_person_required"),
        ("second_person", 4, False, None),
        ("second_person", OTHER_ID, False, "forbidden"),
    ],
)
def test_who_may_confirm_a_result(
    mode: str, user_id: int | None, staff: bool, refusal: str | None
) -> None:
    events = [*round_one_played(confirm=False), scorekeeper(4, "tess")]
    state = state_of(*events, confirmation=mode)
    if refusal is None:
        assert domain.check_confirm(state, 1, 1, user_id, staff) is state.round(1).table(1)
    else:
        refused(refusal, lambda: domain.check_confirm(state, 1, 1, user_id, staff))


def test_an_organizer_who_entered_a_result_may_not_confirm_it_under_second_person() -> None:
    events = [*round_one_played(confirm=False)[:-1], recorded(1, 2, TABLES[1], by=ORGANIZER_ID)]
    state = state_of(*events, confirmation="second_person")
    refused("second_person_required", lambda: domain.check_confirm(state, 1, 2, 1, False))
    # ... and under organizer mode they may.
    assert domain.check_confirm(state_of(*events), 1, 2, ORGANIZER_ID, False)


def test_confirming_needs_an_unconfirmed_result_in_an_open_round() -> None:
    no_result = state_of(*registered(*EIGHT), paired(1, TABLES), published(1, 2))
    refused("no_result", lambda: domain.check_confirm(no_result, 1, 1, ORGANIZER_ID, False))
    refused("unknown_table", lambda: domain.check_confirm(no_result, 1, 3, ORGANIZER_ID, False))
    done = state_of(*round_one_played())
    refused("already_done", lambda: domain.check_confirm(done, 1, 1, ORGANIZER_ID, False))
    # A closed round whose table lost its confirmation (a new result came in) stays closed.
    closed = state_of(
        *round_one_played(),
        (domain.ROUND_CLOSED, {"round": 1}),
        recorded(1, 1, TABLES[0], game_version=170),
    )
    refused("round_closed", lambda: domain.check_confirm(closed, 1, 1, ORGANIZER_ID, False))


# ----------------------------------------------------------------------------- check_close


def test_a_round_closes_once_when_published_and_complete() -> None:
    proposed = state_of(*registered(*EIGHT), paired(1, TABLES))
    refused("round_not_published", lambda: domain.check_close(proposed, 1))
    incomplete = state_of(*round_one_played(confirm=False), confirmed(1, 1))
    problem = refused("results_missing", lambda: domain.check_close(incomplete, 1))
    assert "2" in problem.message
    complete = state_of(*round_one_played())
    assert domain.check_close(complete, 1) is complete.round(1)
    closed = state_of(*round_one_played(), (domain.ROUND_CLOSED, {"round": 1}))
    refused("already_done", lambda: domain.check_close(closed, 1))
    refused("unknown_round", lambda: domain.check_close(closed, 2))


# ----------------------------------------------------------------------------- check_finish


def test_a_tournament_finishes_once_with_its_last_round_closed() -> None:
    domain.check_finish(state_of(*registered("Ana")))  # before any round: allowed
    refused("round_not_closed", lambda: domain.check_finish(state_of(*round_one_played())))
    closed = [*round_one_played(), (domain.ROUND_CLOSED, {"round": 1})]
    domain.check_finish(state_of(*closed))
    finished = state_of(*closed, (domain.FINISHED, {}))
    refused("already_done", lambda: domain.check_finish(finished))


# ----------------------------------------------------------------------------- check_undo


def undo_of(events: list[Event], version: int) -> str:
    full = stream(*events)
    return domain.check_undo(domain.fold(full), full, version)


def undo_refused(events: list[Event], version: int) -> Refusal:
    full = stream(*events)
    return refused("bad_undo", lambda: domain.check_undo(domain.fold(full), full, version))


def test_simple_actions_can_be_undone() -> None:
    events = [*registered("Ana", "Ben"), *checked_in("P1"), scorekeeper()]
    assert undo_of(events, 2) == domain.REGISTERED
    assert undo_of(events, 4) == domain.CHECKED_IN
    assert undo_of(events, 5) == domain.ROLE_GRANTED


def test_a_player_who_has_been_seated_or_had_a_bye_cannot_be_unregistered() -> None:
    events = [*registered(*EIGHT, "Ivo"), paired(1, TABLES, ("P9",))]
    assert "drop them" in undo_refused(events, 2).message
    assert "drop them" in undo_refused(events, 10).message  # Ivo, who has the bye


def test_a_pairing_is_undone_only_while_proposed() -> None:
    events = [*registered(*EIGHT), paired(1, TABLES)]
    assert undo_of(events, 10) == domain.PAIRED
    assert "final" in undo_refused([*events, published(1, 2)], 10).message


def test_results_and_publications_are_not_undone_but_confirmations_are_until_closing() -> None:
    events = round_one_played()
    versions = {kind: version for version, kind, _ in stream(*events)}  # the last of each kind
    published_at = versions[domain.PUBLISHED]
    recorded_at = versions[domain.RESULT_RECORDED]
    confirmed_at = versions[domain.RESULT_CONFIRMED]
    assert "cannot be undone" in undo_refused(events, published_at).message
    assert "cannot be undone" in undo_refused(events, recorded_at).message
    assert "cannot be undone" in undo_refused(events, 1).message  # the creation
    assert undo_of(events, confirmed_at) == domain.RESULT_CONFIRMED
    closed = [*events, (domain.ROUND_CLOSED, {"round": 1})]
    assert "closed" in undo_refused(closed, confirmed_at).message


def test_a_closing_is_undone_until_the_next_round_is_paired() -> None:
    closed = [*round_one_played(), (domain.ROUND_CLOSED, {"round": 1})]
    closed_at = len(closed) + 1
    assert undo_of(closed, closed_at) == domain.ROUND_CLOSED
    next_paired = [*closed, paired(2, [TABLES[0][::-1], TABLES[1][::-1]])]
    assert "already paired" in undo_refused(next_paired, closed_at).message
    finished = [*closed, (domain.FINISHED, {})]
    assert undo_of(finished, closed_at + 1) == domain.FINISHED


def test_an_undo_is_refused_twice_and_for_a_missing_version() -> None:
    events: list[Event] = [*registered("Ana"), (domain.UNDONE, {"version": 2, "reason": ""})]
    assert "already undone" in undo_refused(events, 2).message
    assert "cannot be undone" in undo_refused(events, 3).message  # an undo itself
    assert "no action" in undo_refused(events, 9).message


def test_the_history_knows_which_actions_can_be_undone_as_check_undo_decides() -> None:
    """undo_refusals (one pass, for the history page) says of every action what check_undo
    says of it alone: refused with the same words, or undoable."""
    swap = (
        domain.PAIRING_CHANGED,
        {
            "round": 2,
            "change": {"swap": ["P1", "P8"]},
            "tables": [TABLES[1], TABLES[0]],
            "byes": [],
        },
    )
    events: list[Event] = [
        *round_one_played(),
        (domain.ROUND_CLOSED, {"round": 1}),
        paired(2, [TABLES[0][::-1], TABLES[1][::-1]]),
        swap,  # a swap of round 2's first proposal ...
        (domain.UNDONE, {"version": 26, "reason": ""}),  # ... which is undone
        paired(2, [TABLES[0][::-1], TABLES[1][::-1]]),
        (domain.CHECKED_OUT, {"player": "P3"}),
    ]
    full = stream(*events)
    state = domain.fold(full)
    found = domain.undo_refusals(state, full)
    for version, kind, _ in full:
        if version in found:
            assert undo_refused(events, version).message == found[version], kind
        else:
            assert undo_of(events, version) == kind
    kinds = {version: kind for version, kind, _ in full}
    undoable = {kinds[v] for v in kinds if v not in found}
    assert {domain.PAIRED, domain.CHECKED_OUT} <= undoable
    seated_or_final = {domain.REGISTERED, domain.RESULT_CONFIRMED, domain.ROUND_CLOSED}
    assert not undoable & (seated_or_final | {domain.PAIRING_CHANGED, domain.PUBLISHED})
    assert found[27] == "this swap belongs to a pairing of round 2 that was undone"
    assert found[25] == "round 2 is already paired; its closing is final"
    assert found[1] == "creating the tournament cannot be undone"
    assert (
        "void a table's game" in found[next(v for v, k in kinds.items() if k == "round_published")]
    )
