"""Tournament event schema (``tournaments/events.py``), snapshot versions and note codes
(``tournaments/notes.py``): pure, no database."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fixtures.tournament_log import FIXTURE
from tests.tournaments.test_event_log import NEWER_THAN_THE_LOG
from tournaments import domain, events, notes


@pytest.fixture(scope="module")
def log() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


def stored(log: dict[str, Any]) -> list[tuple[int, str, dict[str, Any]]]:
    return [(e["version"], e["type"], e["data"]) for e in log["events"]]


# ----------------------------------------------------------------------------- events


def test_every_event_type_has_a_schema_version_and_round_trips(log: dict[str, Any]) -> None:
    assert set(events.SCHEMA) == set(events.EVENT_TYPES)
    state = domain.TournamentState()
    seen = set()
    for version, kind, data in stored(log):
        event = events.parse(kind, data, lambda: domain._labels(state))
        again = events.to_data(event)
        assert events.parse(kind, json.loads(json.dumps(again))) == event
        assert again.get("schema", 1) == events.SCHEMA[kind]
        seen.add(kind)
        domain.apply_event(state, version, event)
    assert seen == set(events.EVENT_TYPES) - NEWER_THAN_THE_LOG


def test_a_version_1_event_of_an_unchanged_type_is_stored_as_it_always_was(
    log: dict[str, Any],
) -> None:
    for _, kind, data in stored(log):
        if events.SCHEMA[kind] == 1:
            assert events.to_data(events.parse(kind, data)) == data


def test_version_1_pairing_notes_are_upcast_to_codes(log: dict[str, Any]) -> None:
    state = domain.fold(stored(log)[:16])
    paired = next(d for _, k, d in stored(log) if k == "round_paired")
    event = events.parse("round_paired", paired, lambda: domain._labels(state))
    assert isinstance(event, events.RoundPaired)
    assert [n["code"] for n in event.notes] == ["round_one", "small_table"]
    assert event.notes[0] == {"code": "round_one", "order": "random", "seed": 7001, "tables": 2}
    assert events.to_data(event)["schema"] == 2


def test_a_newer_or_broken_event_is_refused_with_its_type_named() -> None:
    with pytest.raises(events.EventSchemaError, match="newer than this code"):
        events.parse("round_closed", {"round": 1, "schema": 9})
    with pytest.raises(events.EventSchemaError, match="unknown fields: colour"):
        events.parse("round_closed", {"round": 1, "colour": "red"})
    with pytest.raises(events.EventSchemaError, match="round_closed"):
        events.parse("round_closed", {})
    with pytest.raises(events.EventSchemaError, match="unknown tournament event type"):
        events.parse("round_exploded", {})


# ----------------------------------------------------------------------------- notes


def test_every_old_pairing_sentence_reads_back_into_a_code_that_words_it_the_same(
    log: dict[str, Any],
) -> None:
    ids = {f"p{k}": f"p{k}" for k in range(1, 41)}
    sentences = [
        *log["pairing_notes"],
        "Table 2: p1 and p3 have met before: no allowed grouping has a lower total cost.",
        "Bye: p2, who had 2 byes before: every player present has had at least as many "
        "(byes go to the lowest-placed players among those with the fewest byes).",
    ]
    for sentence in sentences:
        code = notes.from_text(sentence, ids)
        assert code["code"] != notes.LEGACY_TEXT, sentence
        worded = notes.describe(code, str)
        if "(s)" in sentence:  # the old prose's plural hack: now "1 table", "3 tables"
            assert "(s)" not in worded and notes.from_text(worded, ids) == code, worded
        else:
            assert worded == sentence


def test_a_sentence_that_cannot_be_read_stays_as_legacy_text() -> None:
    for text in (
        "n",
        "Bye: Zed, who had no bye before (byes go to the lowest-placed players "
        "among those with the fewest byes).",
    ):
        code = notes.from_text(text, {"Ana": "P1"})
        assert code == {"code": "legacy_text", "text": text}
        assert notes.describe(code, str) == text


def test_names_containing_the_separators_are_read_back() -> None:
    ids = {"Ben and Jerry": "P1", "Ana": "P2", "Lee (jr), Sr": "P3"}
    swap = notes.from_text("Changed by hand: Ben and Jerry and Ana swapped.", ids)
    assert swap == notes.swapped("P1", "P2")
    small = notes.from_text(
        "Table 2 seats 3 (a full table seats 4): Lee (jr), Sr (2 before), Ana (1 before) had a "
        "small table before; every player present has had one.",
        ids,
    )
    assert small["before"] == [["P3", 2], ["P2", 1]]


names = st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), min_size=1)
note_codes = st.one_of(
    st.builds(notes.swapped, st.just("P1"), st.just("P2")),
    st.builds(notes.bye, st.just("P1"), st.integers(0, 5)),
    st.builds(
        notes.met_before,
        st.integers(1, 300),
        st.just("P1"),
        st.just("P2"),
        st.sampled_from([notes.FEWEST_REPEATS, notes.LOWEST_COST, notes.NO_BETTER_SWAP]),
        st.integers(0, 99),
    ),
    st.builds(
        notes.small_table,
        st.integers(1, 300),
        st.just(3),
        st.just(4),
        st.lists(st.tuples(st.sampled_from(["P1", "P2"]), st.integers(1, 9)), max_size=2),
        st.sampled_from([notes.NEVER_HAD_ONE_SEATED, notes.ALL_HAD_ONE]),
    ),
)


@settings(max_examples=200, deadline=None)
@given(note_codes, names, names)
def test_any_note_worded_with_any_names_reads_back_to_the_same_words(
    code: dict[str, Any], first: str, second: str
) -> None:
    named = {"P1": first, "P2": second}
    text = notes.describe(code, lambda p: named[p])
    back = notes.from_text(text, {first: "P1", second: "P2"})
    assert notes.describe(back, lambda p: named[p]) == text
    if first != second and back["code"] != notes.LEGACY_TEXT:
        assert back == code


# ----------------------------------------------------------------------------- snapshots


def test_a_snapshot_carries_its_schema_version_and_reads_back(log: dict[str, Any]) -> None:
    state = domain.fold(stored(log))
    snapshot = domain.to_json(state)
    assert snapshot["schema"] == domain.SNAPSHOT_SCHEMA == 3
    assert domain.from_json(json.loads(json.dumps(snapshot))) == state


def test_a_version_1_snapshot_is_upcast(log: dict[str, Any]) -> None:
    old = log["expected"]["snapshot"]
    assert "schema" not in old
    state = domain.from_json(old)
    swap_note = state.rounds[0].notes[-1]
    assert swap_note["code"] == notes.SWAPPED
    assert all(n["code"] != notes.LEGACY_TEXT for r in state.rounds for n in r.notes)


def test_a_newer_or_unfitting_snapshot_is_refused_saying_to_rebuild(log: dict[str, Any]) -> None:
    snapshot = domain.to_json(domain.fold(stored(log)))
    with pytest.raises(domain.SnapshotVersionError, match="rebuild_projections"):
        domain.from_json({**snapshot, "schema": domain.SNAPSHOT_SCHEMA + 1})
    renamed = dict(snapshot["settings"])
    renamed["points_for_bye"] = renamed.pop("bye_points")
    with pytest.raises(domain.SnapshotVersionError, match="rebuild_projections"):
        domain.from_json({**snapshot, "settings": renamed})


# ----------------------------------------------------------------------------- the fold


@st.composite
def streams(draw: st.DrawFn) -> list[tuple[int, str, dict[str, Any]]]:
    """Random tournament streams made of typed events (the fold never validates, so only
    what it needs to hold is kept: players, rounds and tables that exist)."""
    out: list[events.TournamentEvent] = [
        events.TournamentCreated(
            settings={
                "name": "T",
                "date": "2026-12-01",
                "rounds": 3,
                "game_type": "trick-n-chef",
                "confirmation": draw(st.sampled_from(["auto", "organizer"])),
            },
            organizer={"id": 1, "username": "olga"},
        )
    ]
    players: list[str] = []
    rounds: list[list[tuple[str, ...]]] = []
    for _ in range(draw(st.integers(0, 25))):
        choice = draw(st.integers(0, 9))
        if choice <= 1 or not players:
            pid = f"P{len(players) + 1}"
            players.append(pid)
            out.append(
                events.PlayerRegistered(
                    player=pid,
                    name=draw(names),
                    rating=draw(st.none() | st.integers(0, 3000)),
                    late=bool(rounds),
                    checked_in=draw(st.booleans()),
                )
            )
        elif choice == 2:
            cls: Any = draw(
                st.sampled_from(
                    [
                        events.PlayerCheckedIn,
                        events.PlayerCheckedOut,
                        events.PlayerDropped,
                        events.PlayerReinstated,
                    ]
                )
            )
            out.append(cls(player=draw(st.sampled_from(players))))
        elif choice == 3:
            cls2: Any = draw(st.sampled_from([events.RoleGranted, events.RoleRevoked]))
            out.append(cls2(user_id=draw(st.integers(1, 4)), username="u", role="scorekeeper"))
        elif choice == 4 and len(players) >= 3:
            seated = draw(st.permutations(players))
            tables = [tuple(seated[i : i + 3]) for i in range(0, len(seated) - 2, 3)]
            rounds.append(tables)
            out.append(
                events.RoundPaired(
                    round=len(rounds),
                    method="random",
                    seed=draw(st.integers(0, 9999)),
                    tables=tuple(tables),
                    byes=tuple(seated[3 * len(tables) :]),
                    cost={"total": draw(st.integers(0, 10))},
                    notes=tuple(draw(st.lists(note_codes, max_size=3))),
                )
            )
        elif choice == 5 and rounds:
            tables = rounds[-1]
            a, b = tables[0][0], tables[-1][-1]
            out.append(
                events.PairingChanged(
                    round=len(rounds), tables=tuple(tables), byes=(), change={"swap": [a, b]}
                )
            )
        elif choice == 6 and rounds:
            games = tuple({"table": t, "game": f"g{t}"} for t in range(1, len(rounds[-1]) + 1))
            out.append(events.RoundPublished(round=len(rounds), games=games))
        elif choice == 7 and rounds:
            number = draw(st.integers(1, len(rounds[-1])))
            seats = rounds[-1][number - 1]
            # either shape: Trick-n-Chef's before issue 24 (last_round) or today's (tiebreaks)
            old = draw(st.booleans())
            placements = tuple(
                {"player": p, "place": i + 1, "victory_points": 10 - i}
                | ({"last_round": 4} if old else {"tiebreaks": [4]})
                for i, p in enumerate(seats)
            )
            out.append(
                events.ResultRecorded(
                    round=len(rounds),
                    table=number,
                    game=f"g{number}",
                    game_version=7,
                    placements=placements,
                    entered_by=(1,),
                )
            )
            if draw(st.booleans()):
                out.append(
                    events.ResultConfirmed(round=len(rounds), table=number, game_version=7, by=2)
                )
        elif choice == 8 and rounds:
            out.append(events.RoundClosed(round=len(rounds)))
        else:
            out.append(events.PairingScheduled(round=len(rounds) + 1, at="2026-12-01T20:00Z"))
    if draw(st.booleans()) and len(out) > 1:
        target = draw(st.integers(2, len(out)))
        if not isinstance(out[target - 1], events.RoundPaired):
            out.append(events.ActionUndone(version=target, reason="oops"))
    out.append(events.TournamentFinished())
    return [(v, events.type_name(e), events.to_data(e)) for v, e in enumerate(out, start=1)]


@settings(max_examples=60, deadline=None)
@given(streams())
def test_random_streams_fold_the_same_through_storage_and_parsing(
    stream: list[tuple[int, str, dict[str, Any]]],
) -> None:
    state = domain.fold(stream)
    through_json = domain.fold(json.loads(json.dumps(stream)))
    assert through_json == state
    reparsed = [
        (v, k, events.to_data(events.parse(k, d))) for v, k, d in json.loads(json.dumps(stream))
    ]
    assert domain.fold(reparsed) == state
    assert domain.from_json(json.loads(json.dumps(domain.to_json(state)))) == state


# ----------------------------------------------------------------------------- newer types


def test_a_check_out_round_trips() -> None:
    """player_checked_out came after the committed log (NEWER_THAN_THE_LOG)."""
    event = events.PlayerCheckedOut(player="P1")
    kind = events.type_name(event)
    assert kind in NEWER_THAN_THE_LOG
    data = events.to_data(event)
    assert events.parse(kind, json.loads(json.dumps(data))) == event
    assert data.get("schema", 1) == events.SCHEMA[kind]
