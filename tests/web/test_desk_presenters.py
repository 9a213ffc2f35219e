"""The desk's read models (tournaments.desk.presenters, .history): pure functions of the
services' summary, tested without a database or a request."""

from __future__ import annotations

from typing import Any

from django.utils import translation

from tournaments import domain
from tournaments.desk.history import describe, history_rows
from tournaments.desk.presenters.common import SWAP_NOTE
from tournaments.desk.presenters.dashboard import (
    Counts,
    Links,
    counts,
    player_rows,
    stage,
    standings_view,
    status_line,
)
from tournaments.desk.presenters.round import round_view

LINKS = Links("https://club.example", ("/table/", "/"), ("/desk/T/qr/", ".svg"))


def player(pid: str, name: str, **flags: Any) -> dict[str, Any]:
    return {
        "id": pid,
        "name": name,
        "rating": flags.get("rating"),
        "late": flags.get("late", False),
        "checked_in": flags.get("checked_in", True),
        "dropped": flags.get("dropped", False),
    }


def seat(pid: str, name: str) -> dict[str, str]:
    return {"player": pid, "name": name}


def table(number: int, seats: list[dict[str, str]], **rest: Any) -> dict[str, Any]:
    return {
        "table": number,
        "seats": seats,
        "game": rest.get("game"),
        "result": rest.get("result"),
        "confirmed": rest.get("confirmed", False),
        "spread": 1,
        "points_spread": 0.5,
        "repeats": rest.get("repeats", []),
    }


def a_round(number: int, status: str, tables: list[dict[str, Any]], **rest: Any) -> dict[str, Any]:
    return {
        "round": number,
        "status": status,
        "method": "swiss",
        "tables": tables,
        "byes": rest.get("byes", []),
        "cost": {"total": 2.0, "repeats": 0},
        "lower_bound": rest.get("lower_bound", 2.0),
        "notes": rest.get("notes", []),
        "missing": rest.get("missing", []),
    }


NAMES = {"a": "Ana", "b": "Ben", "c": "Cleo", "d": "Dev", "e": "Eli", "f": "Fay", "g": "Gus"}
PLAYERS = [player(pid, name) for pid, name in NAMES.items()]


def four(pids: str) -> list[dict[str, str]]:
    return [seat(p, NAMES[p]) for p in pids]


def summary(rounds: list[dict[str, Any]], **settings: Any) -> dict[str, Any]:
    return {
        "id": "T",
        "name": "Club night",
        "date": "2026-12-01",
        "status": "running",
        "version": 9,
        "game_type": "trick-n-chef",
        "settings": {"rounds": 3, "check_in": True, **settings},
        "standings_visible": True,
        "players": PLAYERS,
        "rounds": rounds,
        "scheduled": {},
        "roles": [],
    }


def test_player_rows_number_players_and_say_where_they_sit_and_whether_they_are_ready() -> None:
    players = [
        player("a", "Ana"),
        player("b", "Ben", checked_in=False),
        player("c", "Cleo", dropped=True),
        player("d", "Dev", late=True, rating=1500),
    ]
    current = a_round(1, "published", [table(1, [seat("d", "Dev"), seat("a", "Ana")])])
    current["byes"] = [seat("b", "Ben")]
    rows = player_rows(players, current, check_in=True, errors={"player-c": "No."})
    assert [(r.number, r.name, r.ready, r.seated) for r in rows] == [
        (1, "Ana", True, ("1", "seat 2")),
        (2, "Ben", False, ("bye", "")),
        (3, "Cleo", False, ("", "")),
        (4, "Dev", True, ("1", "seat 1")),
    ]
    assert rows[2].error == "No." and rows[3].rating == 1500
    without_check_in = player_rows(players, None, check_in=False)
    assert [r.ready for r in without_check_in] == [True, True, False, True]
    only = player_rows(players, current, check_in=True, only="d")
    assert [(r.number, r.name) for r in only] == [(4, "Dev")]
    assert counts(players, check_in=True) == Counts(
        registered=4, checked_in=2, dropped=1, late=1, ready=2
    )


def test_a_published_round_shows_each_tables_status_links_and_what_is_missing() -> None:
    result = [
        {"player": "e", "name": "Eli", "place": 2, "victory_points": 10},
        {"player": "f", "name": "Fay", "place": 1, "victory_points": 12},
    ]
    rnd = a_round(
        1,
        "published",
        [
            table(1, four("abcd"), game="g1"),
            table(2, four("efg"), game="g2", result=result),
        ],
        missing=[1, 2],
    )
    view = round_view(summary([rnd]), rnd, LINKS, errors={"table-2": "Not yet."})
    first, second = view.tables
    assert (first.status, first.status_label, first.link) == (
        "playing",
        "In progress",
        "/table/g1/",
    )
    assert first.url == "https://club.example/table/g1/" and first.qr_src == "/desk/T/qr/g1.svg"
    assert [s.name for s in first.seats] == ["Ana", "Ben", "Cleo", "Dev"] and first.seats[0].first
    assert second.status == "finished" and [p.name for p in second.result] == ["Fay", "Eli"]
    assert second.small and second.size == 3 and second.error == "Not yet."
    assert (view.playing, view.to_confirm, view.missing) == ((1,), (2,), (1, 2))
    assert view.seated[0] == ("a", "Ana (table 1, seat 1)")


def test_a_proposal_says_who_sat_short_or_had_a_bye_before_and_which_notes_are_swaps() -> None:
    played = a_round(
        1, "closed", [table(1, four("abcd")), table(2, four("efg"))], byes=[seat("a", "Ana")]
    )
    proposed = a_round(
        2,
        "proposed",
        [table(1, four("abcd")), table(2, four("efg"))],
        byes=[seat("a", "Ana")],
        notes=["Seats by standing.", f"{SWAP_NOTE}: Ana and Eli"],
        lower_bound=1.0,
    )
    view = round_view(summary([played, proposed]), proposed, LINKS, pick="e")
    assert view.tables[1].small_before == ("Eli (round 1)", "Fay (round 1)", "Gus (round 1)")
    assert view.tables[0].small_before == ()
    assert [(b.name, b.before) for b in view.byes] == [("Ana", "round 1")]
    assert view.swaps == (f"{SWAP_NOTE}: Ana and Eli",)
    assert not view.best and view.pick_name == "Eli" and view.tables[1].seats[0].picked
    assert {t.status for t in view.tables} == {"proposed"} and view.tables[0].link == ""


def test_status_line_stage_and_the_standings_figures() -> None:
    assert status_line(summary([])) == "Registration · 3 rounds planned"
    published = summary([a_round(2, "published", [])])
    assert status_line(published) == "Round 2 of 3 · in play"
    assert stage(published) == "published" and stage(summary([])) == "unpaired"
    finished = {**published, "status": "finished"}
    assert status_line(finished) == "Finished" and stage(finished) == "finished"
    data = {
        "columns": [{"key": "rank"}, {"key": "points"}, {"key": "buchholz"}],
        "rows": [
            {
                "rank": 1,
                "player": "a",
                "name": "Ana",
                "dropped": False,
                "points": 6.0,
                "tiebreaks": {"buchholz": 8.63},
            }
        ],
    }
    standings = standings_view(data)
    assert [c["key"] for c in standings.columns] == ["points", "buchholz"]
    assert standings.rows[0].cells == ("6", "8.6")  # one decimal, as on the public pages
    with translation.override("ru"):  # the language's decimal separator, as in public pages
        assert standings_view(data).rows[0].cells == ("6", "8,6")


def test_the_history_describes_events_in_the_organizers_words_newest_first() -> None:
    names = {"a": "Ana"}
    assert describe(domain.CHECKED_IN, {"player": "a"}, names) == "Ana"
    assert describe(domain.REGISTERED, {"name": "Zed", "rating": 1400, "late": True}, names) == (
        "Zed, rating 1400 (late entry)"
    )
    events = [
        {
            "version": v,
            "type": kind,
            "data": {"player": "a"},
            "by": "olga",
            "at": "2026-12-01T14:00:00+00:00",
            "undone_by": undone,
            "cannot_undo": why,
        }
        for v, kind, undone, why in (
            (2, domain.CHECKED_IN, 3, "the action at version 2 is already undone"),
            (3, domain.DROPPED, None, None),
            (4, domain.CHECKED_OUT, None, "someone said no"),
        )
    ]
    rows = history_rows(events, [player("a", "Ana")], errors={2: "Too late."})
    assert [(r.version, r.action, r.undoable, r.cannot_undo, r.error) for r in rows] == [
        (4, "Checked out", False, "Someone said no.", ""),  # the services' words, a sentence
        (3, "Dropped", True, "", ""),
        (2, "Checked in", False, "", "Too late."),  # undone: marked, no reason repeated
    ]
