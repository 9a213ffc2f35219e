"""The organizer desk (/desk/) end to end with Django's test client, with and without htmx.

Olga organizes; Sam is a scorekeeper she invites by username; Oscar is nobody in particular.
Tables are finished with results only (games.services.game_enter_results); a finished game
reaches its tournament through an on_commit callback (the eager Celery task), so those writes
run inside ``django_capture_on_commit_callbacks(execute=True)``.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from tests.web.desk import (
    CONFLICT,
    HTMX,
    NAMES,
    Capture,
    desk,
    finish_table,
    html,
    logged_in,
    messages_of,
    new_tournament,
    summary,
    tables,
    text,
    version,
)
from tournaments import services as t

pytestmark = pytest.mark.django_db


# ----------------------------------------------------------------------------- the whole evening


def test_an_organizer_runs_a_tournament_from_the_desk(
    olga: User, django_capture_on_commit_callbacks: Capture
) -> None:
    client = logged_in(olga)

    # The desk's home: nothing yet, and the form for a new tournament with the presets explained.
    home = client.get("/desk/")
    assert home.status_code == 200
    assert "You do not organize or keep score for any tournament yet" in html(home)
    assert "First place is worth 6 points" in html(home)  # the scaled preset's description
    assert 'name="tiebreak_1"' in html(home) and "Opponents&#x27; average" in html(home)

    created = client.post(
        "/desk/new/",
        {
            "name": "Friday Cup",
            "date": "2026-12-04",
            "rounds": "3",
            "scoring": "scaled",
            "tiebreak_1": "first_places",
            "tiebreak_2": "victory_points",
            "tiebreak_3": "",
            "tiebreak_4": "",
            "pairing": "manual",
            "publish": "manual",
            "round1": "random",
            "confirmation": "organizer",
            "check_in": "on",
            "bye_points": "",
        },
    )
    assert created.status_code == 302
    tid = created["Location"].split("/")[2]
    state = summary(tid, olga)
    assert state["name"] == "Friday Cup" and state["date"] == "2026-12-04"
    assert state["settings"]["tiebreaks"] == ["first_places", "victory_points"]
    assert state["settings"]["check_in"] is True
    dashboard = client.get(desk(tid), follow=True)
    assert "<h1>Friday Cup</h1>" in html(dashboard)
    assert "Friday Cup is created. Register the players next." in html(dashboard)
    assert "Friday Cup" in html(client.get("/desk/"))

    # Paste the list: eight players, nobody checked in yet.
    pasted = client.post(desk(tid, "players/"), {"list-text": "\n".join(NAMES)})
    assert pasted.status_code == 302
    page = client.get(desk(tid))
    assert "Registered 8 players: Ana, Ben, Cleo, Dev, Eli, Fay and 2 more." in html(page)
    assert "8 registered · 0 checked in" in text(page)
    assert [p["name"] for p in summary(tid, olga)["players"]] == NAMES

    # Check in with the toggles: htmx answers with the row and the refreshed counts...
    for n in range(1, 5):
        row = client.post(desk(tid, f"players/P{n}/check-in/"), {"checked_in": "1"}, headers=HTMX)
        assert row.status_code == 200
        assert html(row).lstrip().startswith(f'<tr id="player-P{n}"')
        assert 'aria-pressed="true"' in html(row)
    assert 'id="player-counts" class="counts" hx-swap-oob="true"' in html(row)
    assert "4 checked in" in text(row)
    assert 'id="round-panel"' in html(row)  # the round panel (and its version) follows
    # ... a second tap takes the check-in back, a third gives it again ...
    off = client.post(desk(tid, "players/P4/check-in/"), {"checked_in": "0"}, headers=HTMX)
    assert 'aria-pressed="false"' in html(off) and "3 checked in" in text(off)
    again = client.post(desk(tid, "players/P4/check-in/"), {"checked_in": "1"}, headers=HTMX)
    assert 'aria-pressed="true"' in html(again)
    # ... a stale double tap changes nothing ...
    same = client.post(desk(tid, "players/P4/check-in/"), {"checked_in": "1"}, headers=HTMX)
    assert same.status_code == 200 and "4 checked in" in text(same)
    # ... and without JavaScript each tap is a form that redirects back with a message.
    for n in range(5, 9):
        plain = client.post(desk(tid, f"players/P{n}/check-in/"), {"checked_in": "1"})
        assert plain.status_code == 302
        assert plain["Location"] == desk(tid) + f"#player-P{n}"
    assert "Hal is checked in." in messages_of(client.get(desk(tid)))
    assert all(p["checked_in"] for p in summary(tid, olga)["players"])

    # Pair round 1: the proposal with its cost, notes and the tables in seat order.
    paired = client.post(desk(tid, "pair/"), {"round": "1", "expected_version": version(tid, olga)})
    assert paired.status_code == 302
    proposal = client.get(desk(tid))
    first = tables(tid, olga, 1)
    assert len(first) == 2 and sorted(sum(first, [])) == sorted(NAMES)
    body = text(proposal)
    assert "Publish round 1" in body and "Undo this pairing" in body
    assert "nobody has points yet" in body and "Why these tables" in body
    assert "Random seating" in body  # the pairing's own notes
    assert "first player" in body

    # Swap by two taps: choose a player (htmx asks for the round panel with ?pick=) ...
    a, b = first[0][0], first[1][0]
    ids = {p["name"]: p["id"] for p in summary(tid, olga)["players"]}
    picked = client.get(desk(tid, f"round/?pick={ids[a]}"), headers=HTMX)
    assert picked.status_code == 200
    assert f"{a} is selected" in text(picked)
    assert f'name="a" value="{ids[a]}"' in html(picked)
    assert f'name="b" value="{ids[b]}"' in html(picked)
    # ... the same choice works without JavaScript, as a link to the dashboard ...
    assert f"{a} is selected" in text(client.get(desk(tid) + f"?pick={ids[a]}"))
    # ... then tap the other: a POST with both.
    swapped = client.post(
        desk(tid, "round/1/swap/"),
        {"a": ids[a], "b": ids[b], "expected_version": version(tid, olga)},
        headers=HTMX,
    )
    assert swapped.status_code == 200
    assert f"{a} and {b} swapped places." in text(swapped)
    after = tables(tid, olga, 1)
    assert after[0][0] == b and after[1][0] == a
    assert "Undo the last swap" in text(swapped)
    # The plain "Swap two players" form answers next to itself.
    same = client.post(
        desk(tid, "round/1/swap/"),
        {"a": ids[a], "b": ids[a], "via": "form", "expected_version": version(tid, olga)},
    )
    assert same.status_code == 422
    form_part = html(same).split('id="swap-form"')[1]
    assert "Choose two different players." in form_part

    # Undo the pairing, pair again: the same tables as first proposed.
    undone = client.post(
        desk(tid, "round/1/undo-pairing/"),
        {"confirmed": "1", "expected_version": version(tid, olga)},
    )
    assert undone.status_code == 302
    assert summary(tid, olga)["rounds"] == []
    assert "Pair round 1" in text(client.get(desk(tid)))
    client.post(desk(tid, "pair/"), {"round": "1", "expected_version": version(tid, olga)})
    assert tables(tid, olga, 1) == first

    # Publish: every table has its scorekeeper link and a QR code to stick on it.
    published = client.post(
        desk(tid, "round/1/publish/"), {"confirmed": "1", "expected_version": version(tid, olga)}
    )
    assert published.status_code == 302
    page = client.get(desk(tid))
    games_ = [table["game"] for table in summary(tid, olga)["rounds"][0]["tables"]]
    for number, game in enumerate(games_, start=1):
        assert f'href="/table/{game}/"' in html(page)
        qr = rf'<img src="/desk/{tid}/qr/{game}\.svg\?at=\w+" alt="QR code of table {number}&#x27;s'
        assert re.search(qr, html(page))
    assert "0 of 2 tables confirmed. Not started: 1, 2." in text(page)

    # Closing now is refused, naming the missing tables, next to the round's buttons.
    refused = client.post(
        desk(tid, "round/1/close/"), {"confirmed": "1", "expected_version": version(tid, olga)}
    )
    assert refused.status_code == 422
    assert "Round 1 cannot close: tables 1, 2 have no confirmed result yet." in text(refused)
    assert summary(tid, olga)["rounds"][0]["status"] == "published"
    early = client.post(
        desk(tid, "pair/"),
        {
            "round": "2",
            "close_first": "1",
            "confirmed": "1",
            "expected_version": version(tid, olga),
        },
        headers=HTMX,
    )
    assert early.status_code == 422
    assert "tables 1, 2 have no confirmed result yet" in text(early)

    # Results come in from the tables; the organizer confirms each one.
    finish_table(tid, olga, 1, 1, django_capture_on_commit_callbacks)
    finish_table(tid, olga, 1, 2, django_capture_on_commit_callbacks)
    page = client.get(desk(tid))
    assert "Finished: to confirm" in text(page)
    assert "Confirm table 1" in text(page) and "Confirm table 2" in text(page)
    confirmed = client.post(
        desk(tid, "round/1/table/1/confirm/"),
        {"expected_version": version(tid, olga)},
        headers=HTMX,
    )
    assert confirmed.status_code == 200
    assert "Table 1&#x27;s result is confirmed." in html(confirmed)
    assert "1 of 2 tables confirmed. Finished, to confirm: 2." in text(confirmed)
    plain = client.post(
        desk(tid, "round/1/table/2/confirm/"), {"expected_version": version(tid, olga)}
    )
    assert plain.status_code == 302 and plain["Location"].endswith("#table-2")
    assert "Every table is confirmed." in text(client.get(desk(tid)))

    # Close, then pair round 2.
    closed = client.post(
        desk(tid, "round/1/close/"), {"confirmed": "1", "expected_version": version(tid, olga)}
    )
    assert closed.status_code == 302
    page = client.get(desk(tid))
    assert "Round 1 is closed." in messages_of(page)
    assert "Pair round 2" in text(page)
    second = client.post(
        desk(tid, "pair/"), {"round": "2", "expected_version": version(tid, olga)}, headers=HTMX
    )
    assert second.status_code == 200
    assert "Round 2 is paired: check the tables, swap if needed, publish." in text(second)
    assert "Round 2 of 3 · proposed" in text(second)  # the status line, out of band
    rounds = summary(tid, olga)["rounds"]
    assert [r["status"] for r in rounds] == ["closed", "proposed"]


def test_close_and_pair_next_in_one_tap(
    olga: User, django_capture_on_commit_callbacks: Capture
) -> None:
    tid = new_tournament(olga)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    for table in (1, 2):
        finish_table(tid, olga, 1, table, django_capture_on_commit_callbacks)
        t.tournament_confirm(tournament_id=tid, round=1, table=table, user=olga)
    client = logged_in(olga)
    assert "Close and pair round 2" in text(client.get(desk(tid)))
    response = client.post(
        desk(tid, "pair/"),
        {
            "round": "2",
            "close_first": "1",
            "confirmed": "1",
            "expected_version": version(tid, olga),
        },
    )
    assert response.status_code == 302
    assert [r["status"] for r in summary(tid, olga)["rounds"]] == ["closed", "proposed"]


def test_a_stale_page_is_told_and_shown_the_tournament_as_it_is(olga: User) -> None:
    tid = new_tournament(olga)
    client = logged_in(olga)
    stale = version(tid, olga)
    t.tournament_pair(tournament_id=tid, user=olga)  # a co-organizer pairs meanwhile
    response = client.post(
        desk(tid, "pair/"), {"round": "1", "expected_version": stale}, headers=HTMX
    )
    assert response.status_code == 409
    assert CONFLICT in html(response)
    assert "Publish round 1" in text(response)  # the round as it stands now
    publish = client.post(
        desk(tid, "round/1/publish/"), {"confirmed": "1", "expected_version": stale}
    )
    assert publish.status_code == 409 and CONFLICT in html(publish)
    assert summary(tid, olga)["rounds"][0]["status"] == "proposed"


# ----------------------------------------------------------------------------- registration


def test_a_duplicate_name_is_refused_next_to_the_form_and_the_list_is_kept(olga: User) -> None:
    tid = new_tournament(olga, names=["Ana", "Ben"])
    client = logged_in(olga)
    typed = "Cleo\nana\nDev"
    response = client.post(desk(tid, "players/"), {"list-text": typed})
    assert response.status_code == 422
    page = html(response)
    assert "There is already a player named ana; add something to tell them apart" in page
    assert f">\n{typed}</textarea>" in page
    assert len(summary(tid, olga)["players"]) == 2  # nobody of the list was registered
    # With htmx: the players panel alone, the same message, the same text kept.
    panel = client.post(desk(tid, "players/"), {"list-text": typed}, headers=HTMX)
    assert panel.status_code == 422
    assert html(panel).lstrip().startswith('<section id="players-panel"')
    assert "There is already a player named ana" in html(panel)
    assert f">\n{typed}</textarea>" in html(panel)
    # One by one: the same refusal, the name kept in its field.
    single = client.post(desk(tid, "players/add/"), {"add-name": "BEN", "add-rating": "1500"})
    assert single.status_code == 422
    assert "There is already a player named BEN" in html(single)
    assert 'value="BEN"' in html(single) and 'value="1500"' in html(single)


def test_a_csv_upload_registers_names_and_ratings(olga: User) -> None:
    tid = new_tournament(olga, names=[])
    client = logged_in(olga)
    upload = SimpleUploadedFile(
        "players.csv", "\ufeffname,rating\nAna,1500\nBen,\nCleo,1720\n".encode(), "text/csv"
    )
    response = client.post(desk(tid, "players/"), {"list-file": upload}, headers=HTMX)
    assert response.status_code == 200
    assert "Registered 3 players: Ana, Ben, Cleo." in text(response)
    players = summary(tid, olga)["players"]
    assert [(p["name"], p["rating"]) for p in players] == [
        ("Ana", 1500),
        ("Ben", None),
        ("Cleo", 1720),
    ]
    # A list and a file at once: which one? The organizer says; the list is kept.
    both = client.post(
        desk(tid, "players/"),
        {"list-text": "Dev", "list-file": SimpleUploadedFile("p.csv", b"Eli\n")},
    )
    assert both.status_code == 422
    assert "Paste a list or upload a file, not both" in html(both)
    assert ">\nDev</textarea>" in html(both)
    # An empty form says what to do.
    empty = client.post(desk(tid, "players/"), {"list-text": "  "})
    assert "Paste at least one name, or choose a file." in html(empty)


def test_drop_and_reinstate_and_late_entries(olga: User) -> None:
    tid = new_tournament(olga)
    client = logged_in(olga)
    dropped = client.post(desk(tid, "players/P2/drop/"), headers=HTMX)
    assert dropped.status_code == 200
    assert 'class="dropped"' in html(dropped) and "Reinstate" in html(dropped)
    assert "7 to be seated" in text(dropped)
    again = client.post(desk(tid, "players/P2/drop/"), headers=HTMX)
    assert "Ben has already dropped." in html(again)  # in the row, next to the button
    back = client.post(desk(tid, "players/P2/reinstate/"))
    assert back.status_code == 302
    assert not summary(tid, olga)["players"][1]["dropped"]
    t.tournament_pair(tournament_id=tid, user=olga)
    client.post(desk(tid, "players/add/"), {"add-name": "Ivy"})
    page = client.get(desk(tid))
    assert "late entry" in html(page)
    assert any("late entries" in m for m in messages_of(page))

    # At the door: registered and checked in at once; checked out again (not here after all),
    # which is not a drop: nothing is marked, and a tap again checks them back in.
    client.post(desk(tid, "players/add/"), {"add-name": "Zed", "add-here": "on"})
    zed = summary(tid, olga)["players"][-1]
    assert zed["name"] == "Zed" and zed["checked_in"]
    url = desk(tid, f"players/{zed['id']}/check-in/")
    off = client.post(url, {"checked_in": "0"}, headers=HTMX)
    assert off.status_code == 200
    assert "Zed is checked out: not seated at the next pairing." in text(off)
    assert 'aria-pressed="false"' in html(off) and 'class="dropped"' not in html(off)
    zed = summary(tid, olga)["players"][-1]
    assert not zed["checked_in"] and not zed["dropped"]
    kinds = [e["type"] for e in t.tournament_history(tournament_id=tid, user=olga)]
    assert kinds[-1] == "player_checked_out" and "action_undone" not in kinds
    again = client.post(url, {"checked_in": "0"}, headers=HTMX)  # a double tap: no harm
    assert again.status_code == 200
    assert not summary(tid, olga)["players"][-1]["checked_in"]
    back = client.post(url, {"checked_in": "1"})
    assert back.status_code == 302
    assert summary(tid, olga)["players"][-1]["checked_in"]


def test_dropping_a_player_whose_table_is_being_played_asks_first(olga: User) -> None:
    tid = new_tournament(olga)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    client = logged_in(olga)
    player = summary(tid, olga)["players"][1]
    name, url = player["name"], desk(tid, f"players/{player['id']}/drop/")
    number = next(n for n, seats in enumerate(tables(tid, olga, 1), start=1) if name in seats)
    asked = client.post(url, headers=HTMX)
    assert asked.status_code == 422
    said = text(asked)
    assert f"{name} plays at table {number} of round 1, which is not finished." in said
    assert f"Dropping {name} does not end that game" in said
    assert f"Yes, drop {name}" in said and 'name="confirm" value="1"' in html(asked)
    assert not summary(tid, olga)["players"][1]["dropped"]
    # Without JavaScript: the dashboard asks the same, in the player's row.
    plain = client.post(url)
    assert plain.status_code == 422
    assert f"Yes, drop {name}" in text(plain)

    done = client.post(url, {"confirm": "1"}, headers=HTMX)
    assert done.status_code == 200
    assert summary(tid, olga)["players"][1]["dropped"]
    assert f"Table {number} of round 1 still needs its result." in text(done)
    # The API drops at once, as it always did (a client there decides for itself).
    other = summary(tid, olga)["players"][2]["id"]
    t.tournament_drop(tournament_id=tid, player=other, user=olga)
    assert summary(tid, olga)["players"][2]["dropped"]


# ----------------------------------------------------------------------------- roles


def test_a_scorekeeper_invited_by_username_sees_the_tournament_but_cannot_pair(
    olga: User, sam: User, oscar: User
) -> None:
    tid = new_tournament(olga)
    organizer = logged_in(olga)
    unknown = organizer.post(
        desk(tid, "roles/"), {"role-username": "samm", "role-role": "scorekeeper"}
    )
    assert unknown.status_code == 422
    assert "There is no user &#x27;samm&#x27;." in html(unknown)
    assert 'value="samm"' in html(unknown)
    invited = organizer.post(
        desk(tid, "roles/"), {"role-username": "sam", "role-role": "scorekeeper"}, headers=HTMX
    )
    assert invited.status_code == 200
    assert "sam is now a scorekeeper of this tournament." in text(invited)
    assert '<th scope="row">sam</th>' in html(invited)

    keeper = logged_in(sam)
    home = keeper.get("/desk/")
    assert "Club night" in html(home) and "Scorekeeper" in html(home)
    dashboard = keeper.get(desk(tid))
    assert dashboard.status_code == 200
    assert "you keep score" in text(dashboard)
    assert "Pair round" not in text(dashboard) and 'id="players-panel"' not in html(dashboard)
    for path, data in (
        ("pair/", {"round": "1"}),
        ("players/", {"list-text": "Zed"}),
        ("history/", None),
    ):
        response = keeper.post(desk(tid, path), data) if data else keeper.get(desk(tid, path))
        assert response.status_code == 403, path
        assert "only an organizer of this tournament can do this" in html(response).casefold()
    t.tournament_pair(tournament_id=tid, user=olga)
    forbidden = keeper.post(desk(tid, "round/1/publish/"), {}, headers=HTMX)
    assert forbidden.status_code == 403
    assert forbidden["HX-Retarget"] == "#main" and forbidden["HX-Reselect"] == ".forbidden"
    assert "You cannot do this here" in html(forbidden)
    assert summary(tid, olga)["rounds"][0]["status"] == "proposed"

    # Someone with no role in it gets a 403 page that says why.
    stranger = logged_in(oscar).get(desk(tid))
    assert stranger.status_code == 403
    assert "ask an organizer to invite you" in html(stranger)
    assert "Club night" not in html(logged_in(oscar).get("/desk/"))

    # Revoked: the tournament leaves Sam's desk.
    organizer.post(desk(tid, "roles/revoke/"), {"username": "sam", "role": "scorekeeper"})
    assert "Club night" not in html(keeper.get("/desk/"))
    assert keeper.get(desk(tid)).status_code == 403
    last = organizer.post(desk(tid, "roles/revoke/"), {"username": "olga", "role": "organizer"})
    assert last.status_code == 422 and "A tournament keeps at least one organizer." in html(last)


def test_a_scorekeeper_confirms_a_table_they_did_not_enter(
    olga: User, sam: User, django_capture_on_commit_callbacks: Capture
) -> None:
    tid = new_tournament(olga)
    t.tournament_set_role(
        tournament_id=tid, username="sam", role="scorekeeper", grant=True, user=olga
    )
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    finish_table(tid, sam, 1, 1, django_capture_on_commit_callbacks)
    finish_table(tid, olga, 1, 2, django_capture_on_commit_callbacks)
    keeper = logged_in(sam)
    page = keeper.get(desk(tid))
    assert "Confirm table 1" in text(page) and "Close round" not in text(page)
    own = keeper.post(
        desk(tid, "round/1/table/1/confirm/"), {"expected_version": version(tid, olga)}
    )
    assert own.status_code == 422  # shown by the table, not as a 403 page
    assert "a scorekeeper who did not enter the table" in html(own)
    other = keeper.post(
        desk(tid, "round/1/table/2/confirm/"), {"expected_version": version(tid, olga)}
    )
    assert other.status_code == 302
    assert [tb["confirmed"] for tb in summary(tid, olga)["rounds"][0]["tables"]] == [False, True]


def test_anonymous_visitors_are_sent_to_log_in(olga: User) -> None:
    tid = new_tournament(olga)
    client = Client()
    home = client.get("/desk/")
    assert home.status_code == 302 and home["Location"] == "/accounts/login/?next=/desk/"
    page = client.get(desk(tid))
    assert page.status_code == 302 and page["Location"].startswith("/accounts/login/?next=")
    write = client.post(desk(tid, "pair/"), {"round": "1"})
    assert write.status_code == 302 and write["Location"].startswith("/accounts/login/")
    htmx = client.post(
        desk(tid, "pair/"),
        {"round": "1"},
        headers={**HTMX, "HX-Current-URL": f"http://testserver{desk(tid)}"},
    )
    assert htmx["HX-Redirect"] == f"/accounts/login/?next={desk(tid)}"
    assert summary(tid, olga)["rounds"] == []


# ----------------------------------------------------------------------------- settings


def test_what_the_public_sees_and_the_schedule(olga: User) -> None:
    tid = new_tournament(olga)
    client = logged_in(olga)
    saved = client.post(
        desk(tid, "settings/"),
        {"public-standings_hidden_from": "3", "public-downloads_released": "on"},
        headers=HTMX,
    )
    assert saved.status_code == 200
    assert "Saved: the public pages show this now." in text(saved)
    settings = summary(tid, olga)["settings"]
    assert settings["standings_hidden_from"] == 3
    assert settings["downloads_released"] is True and settings["standings_revealed"] is False
    nothing = client.post(
        desk(tid, "settings/"),
        {"public-standings_hidden_from": "3", "public-downloads_released": "on"},
    )
    assert nothing.status_code == 302
    assert "Nothing to change." in messages_of(client.get(desk(tid)))
    bad = client.post(desk(tid, "settings/"), {"public-standings_hidden_from": "0"})
    assert bad.status_code == 422 and 'aria-invalid="true"' in html(bad)

    at = timezone.localtime() + timedelta(days=1)
    scheduled = client.post(
        desk(tid, "schedule/"), {"round": "1", "schedule-at": at.strftime("%Y-%m-%dT%H:%M")}
    )
    assert scheduled.status_code == 302
    assert list(summary(tid, olga)["scheduled"]) == ["1"]
    assert "Round 1 will be paired at" in text(client.get(desk(tid)))
    past = client.post(desk(tid, "schedule/"), {"round": "1", "schedule-at": "2020-01-01T10:00"})
    assert past.status_code == 422 and "Choose a time in the future." in html(past)


def test_the_new_tournament_form_keeps_what_was_typed(olga: User) -> None:
    client = logged_in(olga)
    response = client.post(
        "/desk/new/",
        {
            "name": "",
            "date": "2026-12-04",
            "rounds": "5",
            "scoring": "wins",
            "tiebreak_1": "victory_points",
            "tiebreak_2": "victory_points",
            "pairing": "auto",
            "publish": "auto",
            "round1": "rating",
            "confirmation": "second_person",
        },
    )
    assert response.status_code == 422
    page = html(response)
    assert "This field is required." in page
    assert "Victory points is already the first tie-break." in page
    assert 'name="rounds" value="5"' in page
    assert 'value="wins" id="id_scoring_1" required checked' in page
    assert 'value="rating" id="id_round1_2" required checked' in page
    assert 'aria-invalid="true"' in page
    assert not t.tournament_list().exists()


def test_finish(olga: User) -> None:
    tid = new_tournament(olga, rounds=1)
    client = logged_in(olga)
    response = client.post(
        desk(tid, "finish/"), {"confirmed": "1", "expected_version": version(tid, olga)}
    )
    assert response.status_code == 302
    assert summary(tid, olga)["status"] == "finished"
    assert "The tournament is finished" in text(client.get(desk(tid)))


# ----------------------------------------------------------------------------- history, printing


def test_the_history_lists_every_action_with_who_and_undoes(olga: User, sam: User) -> None:
    tid = new_tournament(olga, names=["Ana", "Ben", "Cleo", "Dev"], checked_in=False)
    t.tournament_set_role(
        tournament_id=tid, username="sam", role="organizer", grant=True, user=olga
    )
    t.tournament_check_in(tournament_id=tid, player="P1", user=sam)
    client = logged_in(olga)
    page = client.get(desk(tid, "history/"))
    assert page.status_code == 200
    rows = text(page)
    assert "Tournament created" in rows and "Player registered" in rows
    assert "Checked in Ana sam" in rows  # action, details, who
    assert "Role given sam: organizer olga" in rows

    checked = next(
        e
        for e in t.tournament_history(tournament_id=tid, user=olga)
        if e["type"] == "player_checked_in"
    )
    # Asked first, in the page (no browser confirm()): nothing changes until Yes.
    asked = client.post(desk(tid, "history/undo/"), {"version": checked["version"]}, headers=HTMX)
    assert asked.status_code == 200 and 'role="alertdialog"' in html(asked)
    assert f"Undo action #{checked['version']} (" in text(asked)
    assert summary(tid, olga)["players"][0]["checked_in"]
    assert "hx-confirm" not in html(client.get(desk(tid, "history/")))
    undo = client.post(
        desk(tid, "history/undo/"), {"version": checked["version"], "confirmed": "1"}, headers=HTMX
    )
    assert undo.status_code == 200
    assert f"Action #{checked['version']} is undone." in text(undo)
    assert f"undone by #{checked['version'] + 1}" in text(undo)
    assert not summary(tid, olga)["players"][0]["checked_in"]

    # What cannot be undone is refused, with the reason next to it.
    t.tournament_check_in(tournament_id=tid, player="P1", user=olga)
    for player in ("P2", "P3", "P4"):
        t.tournament_check_in(tournament_id=tid, player=player, user=olga)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    paired = next(
        e for e in t.tournament_history(tournament_id=tid, user=olga) if e["type"] == "round_paired"
    )
    # The page offers Undo only where it can work, and says why not elsewhere.
    listed = html(client.get(desk(tid, "history/")))
    row = listed.split(f'id="action-{paired["version"]}"')[1].split("</tr>")[0]
    assert f'id="undo-{paired["version"]}"' not in row
    assert "Round 1 is published; its pairing is final." in row
    created = listed.split('id="action-1"')[1].split("</tr>")[0]
    assert "Creating the tournament cannot be undone." in created and "undo-1" not in created
    assert f'id="undo-{checked["version"]}"' not in listed  # undone already: marked instead
    assert 'id="undo-' in listed  # the check-ins since can be
    # A page opened before the round was published offers it: refused, with the reason.
    refused = client.post(
        desk(tid, "history/undo/"), {"version": paired["version"], "confirmed": "1"}
    )
    assert refused.status_code == 422
    assert "Round 1 is published; its pairing is final." in html(refused)
    assert 'role="alert"' in html(refused).split(f'id="action-{paired["version"]}"')[1]


def test_printouts_have_one_sheet_per_table(olga: User) -> None:
    names = NAMES + ["Ivy", "Jo"]  # 10 players: a table of 4 and two of 3
    tid = new_tournament(olga, names=names)
    t.tournament_pair(tournament_id=tid, user=olga)
    client = logged_in(olga)
    proposal = client.get(desk(tid, "round/1/pairings/print/"))
    assert proposal.status_code == 200
    assert "Proposal: not published yet" in html(proposal)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    layout = tables(tid, olga, 1)
    assert sorted(len(seats) for seats in layout) == [3, 3, 4]

    pairings = client.get(desk(tid, "round/1/pairings/print/"))
    assert pairings.status_code == 200
    body = html(pairings)
    assert "Proposal" not in body
    for seats in layout:
        assert f"<strong>{seats[0]} ★</strong>" in body  # the first player, marked
    find = body.split("Find your table")[1]
    assert all(f'<th scope="row">{name}</th>' in find for name in names)

    sheets = client.get(desk(tid, "round/1/sheets/print/"))
    assert sheets.status_code == 200
    page = html(sheets)
    assert page.count('class="page sheet"') == 3
    assert page.count('<svg role="img" aria-label="QR code of table') == 3
    assert page.count('<svg role="img"') == 3 + 10  # and each seat's own (an organizer's sheets)
    assert page.count('class="box"') == 3 * 5 + 10 * 5  # headers and each player's boxes
    for number, seats in enumerate(layout, start=1):
        sheet = page.split(f'id="sheet-{number}-h"')[1].split('class="page sheet"')[0]
        assert re.findall(r'<th scope="row">([^<]+?)(?: <span|</th>)', sheet) == seats
    assert "Scorekeeper:" in page and "Signature" in page
    assert client.get(desk(tid, "round/2/sheets/print/")).status_code == 404


def test_every_desk_page_passes_the_accessibility_checks(
    olga: User, django_capture_on_commit_callbacks: Capture
) -> None:
    from tests.web.a11y import assert_accessible

    tid = new_tournament(olga, names=[*NAMES, "Ivy"])
    client = logged_in(olga)

    def check(path: str, response: Any = None) -> None:
        response = response or client.get(path)
        assert response.status_code in (200, 422), path
        assert_accessible(html(response), where=path)

    check("/desk/")
    check("/desk/new/", client.post("/desk/new/", {"name": "", "tiebreak_1": "x"}))
    check(desk(tid))
    check(desk(tid), client.post(desk(tid, "players/"), {"list-text": "Ana"}))
    t.tournament_pair(tournament_id=tid, user=olga)
    check(desk(tid))
    check(desk(tid) + "?pick=P1")
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    finish_table(tid, olga, 1, 1, django_capture_on_commit_callbacks)
    check(desk(tid))
    check(desk(tid, "history/"))
    check(desk(tid, "round/1/pairings/print/"))
    check(desk(tid, "round/1/sheets/print/"))
