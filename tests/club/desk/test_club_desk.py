"""The club desk (/desk/club/, club.desk): staff users only; leagues made, changed, linked to
tournaments and unlinked (asked first); members merged (asked first, saying what happens), an
entry split off, a display name, hiding; refused forms keep what was typed; CSRF is checked."""

from __future__ import annotations

import re
import uuid
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from club import services
from club.desk import names
from club.models import Member
from club.services import reads
from tests.club.helpers import season_tournament
from tests.web.a11y import assert_accessible

# One backend (SQLite): these tests check the desk's pages and forms. On PostgreSQL the club's
# consumer reads only the log's transactions older than every one still running on the server
# (games.store.read_all), which a test's own rolled-back transaction, or any other open one on
# the server, never is: the consumer's own tests say how it behaves there.
pytestmark = [pytest.mark.django_db, pytest.mark.one_backend]
HOME = "/desk/club/"


@pytest.fixture
def official(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x", is_staff=True)


@pytest.fixture
def client_of(official: User) -> Client:
    client = Client()
    client.force_login(official)
    return client


def text(response: Any) -> str:
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split()))


def member_named(name: str) -> Member:
    return Member.objects.get(name=name, merged_into="")


@pytest.fixture
def two_spellings(official: User, django_capture_on_commit_callbacks: Any) -> tuple[Member, Member]:
    """Olga Petrova played the first night, Olga Petrov (the same person) the second."""
    others = ["Ana", "Ben", "Cleo"]
    season_tournament(
        official,
        ["Olga Petrova", *others],
        on_commit=django_capture_on_commit_callbacks,
        name="Night one",
    )
    season_tournament(
        official,
        ["Olga Petrov", *others],
        on_commit=django_capture_on_commit_callbacks,
        name="Night two",
        date="2026-12-08",
    )
    services.club_sync()
    return member_named("Olga Petrova"), member_named("Olga Petrov")


# ----------------------------------------------------------------------------- who may


def test_a_visitor_is_sent_to_log_in() -> None:
    response = Client().get(HOME)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/desk/club/")


def test_a_user_who_is_not_staff_gets_the_desks_forbidden_page(
    django_user_model: type[User],
) -> None:
    client = Client()
    client.force_login(django_user_model.objects.create_user("oscar", password="x"))
    for response in (
        client.get(HOME),
        client.post(HOME + "leagues/new/", {"league-name": "Winter"}),
    ):
        assert response.status_code == 403
        assert "You cannot do this here" in text(response)
        assert "club's officials" in text(response)
    assert reads.league_list() == []


def test_a_staff_user_sees_the_club_desk_and_the_desk_links_to_it(client_of: Client) -> None:
    response = client_of.get(HOME)
    assert response.status_code == 200
    assert "Club desk" in text(response)
    assert 'href="/club/"' in response.content.decode()
    assert 'href="/desk/club/"' in client_of.get("/desk/").content.decode()


def test_the_desks_home_has_no_club_link_for_other_users(django_user_model: type[User]) -> None:
    client = Client()
    client.force_login(django_user_model.objects.create_user("oscar", password="x"))
    assert 'href="/desk/club/"' not in client.get("/desk/").content.decode()


def test_a_post_without_the_csrf_token_is_refused(official: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(official)
    response = client.post(HOME + "leagues/new/", {"league-name": "Winter"})
    assert response.status_code == 403
    assert reads.league_list() == []


# ----------------------------------------------------------------------------- leagues


def new_league(client: Client, **fields: str) -> Any:
    data = {
        "league-name": "Winter season",
        "league-points": "25, 20, 16, 13",
        "league-best": "",
        "league-drop_worst": "0",
        "league-min_events": "1",
        "league-divisions": "",
    }
    data.update({f"league-{k}": v for k, v in fields.items()})
    return client.post(HOME + "leagues/new/", data)


def test_the_new_league_form_offers_the_default_points(client_of: Client) -> None:
    page = client_of.get(HOME).content.decode()
    assert 'value="25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1"' in page


def test_a_league_is_created_with_its_rules(client_of: Client) -> None:
    response = new_league(client_of, best="4", divisions="Open, Juniors")
    (league,) = reads.league_list()
    assert response.status_code == 302
    assert response["Location"] == f"/desk/club/leagues/{league.id}/"
    assert league.name == "Winter season"
    assert league.rules.points == (25, 20, 16, 13)
    assert league.rules.best == 4
    assert league.rules.divisions == ("Open", "Juniors")
    page = client_of.get(response["Location"])
    assert "The league Winter season is created." in text(page)


@pytest.mark.parametrize(
    ("points", "words"),
    [
        ("25, twenty, 16", "Give the points as whole numbers separated by commas"),
        ("25, 20000, 16", "Points per place must be a list of whole numbers from 0 to 10000"),
    ],
)
def test_bad_points_are_refused_with_what_was_typed_kept(
    client_of: Client, points: str, words: str
) -> None:
    response = new_league(client_of, name="Spring", points=points, divisions="Open, Juniors")
    assert response.status_code == 422
    page = response.content.decode()
    assert words in text(response)
    assert f'value="{points}"' in page
    assert 'value="Spring"' in page
    assert 'value="Open, Juniors"' in page
    assert 'aria-invalid="true"' in page
    assert reads.league_list() == []


def test_a_leagues_rules_change(client_of: Client) -> None:
    new_league(client_of)
    (league,) = reads.league_list()
    url = f"/desk/club/leagues/{league.id}/"
    form = client_of.get(url).content.decode()
    assert 'value="Winter season"' in form and 'value="25, 20, 16, 13"' in form
    response = client_of.post(
        url + "change/",
        {
            "league-name": "Winter league",
            "league-points": "10, 5",
            "league-best": "",
            "league-drop_worst": "1",
            "league-min_events": "2",
            "league-divisions": "",
        },
    )
    assert response.status_code == 302
    changed = reads.league_get(league.id)
    assert changed.name == "Winter league"
    assert changed.rules.points == (10, 5)
    assert (changed.rules.drop_worst, changed.rules.min_events) == (1, 2)


def test_a_tournament_is_linked_then_unlinked_after_a_confirmation(
    client_of: Client, official: User, django_capture_on_commit_callbacks: Any
) -> None:
    tid = season_tournament(
        official,
        ["Ana", "Ben", "Cleo", "Dev"],
        on_commit=django_capture_on_commit_callbacks,
        name="December night",
    )
    new_league(client_of)
    (league,) = reads.league_list()
    url = f"/desk/club/leagues/{league.id}/"
    assert f'<option value="{tid}">December night (2026-12-01)</option>' in (
        client_of.get(url).content.decode()
    )

    response = client_of.post(url + "link/", {"link-tournament": str(tid)})
    assert response.status_code == 302
    assert reads.league_get(league.id).tournaments == [str(tid)]
    page = client_of.get(url)
    assert "December night counts for Winter season now." in text(page)
    assert f'<option value="{tid}"' not in page.content.decode()  # linked: not offered again

    asked = client_of.post(url + "unlink/", {"tournament": str(tid)})
    assert asked.status_code == 200
    assert "Take December night out of Winter season?" in text(asked)
    assert "Its results stop counting in the league's season table" in text(asked)
    assert reads.league_get(league.id).tournaments == [str(tid)]  # nothing changed yet

    done = client_of.post(url + "unlink/", {"tournament": str(tid), "confirmed": "1"})
    assert done.status_code == 302
    assert reads.league_get(league.id).tournaments == []
    assert "December night no longer counts for Winter season." in text(client_of.get(url))


def test_an_unknown_tournament_cannot_be_linked(client_of: Client) -> None:
    new_league(client_of)
    (league,) = reads.league_list()
    response = client_of.post(
        f"/desk/club/leagues/{league.id}/link/", {"link-tournament": str(uuid.uuid4())}
    )
    assert response.status_code == 422
    assert reads.league_get(league.id).tournaments == []


def test_an_unknown_league_is_not_found(client_of: Client) -> None:
    assert client_of.get("/desk/club/leagues/99/").status_code == 404


def test_members_are_put_in_divisions(
    client_of: Client, two_spellings: tuple[Member, Member]
) -> None:
    new_league(client_of, divisions="Open, Juniors")
    (league,) = reads.league_list()
    url = f"/desk/club/leagues/{league.id}/"
    night_one = reads.member_view(two_spellings[0].id, official=True).history[0].tournament
    client_of.post(url + "link/", {"link-tournament": night_one})
    ana = member_named("Ana")
    response = client_of.post(url + "division/", {"member": ana.id, "division": "Juniors"})
    assert response.status_code == 302
    assert reads.league_get(league.id).divisions == {ana.id: "Juniors"}
    page = client_of.get(url)
    assert "Ana plays in the Juniors division." in text(page)
    assert '<option value="Juniors" selected>' in page.content.decode()
    refused = client_of.post(url + "division/", {"member": ana.id, "division": "Seniors"})
    assert refused.status_code == 422
    assert "This league has no such division." in text(refused)


# ----------------------------------------------------------------------------- members


def test_the_members_list_searches_and_suggests_the_two_spellings(
    client_of: Client, two_spellings: tuple[Member, Member]
) -> None:
    petrova, petrov = two_spellings
    page = client_of.get(HOME)
    html = page.content.decode()
    suggested = html.split('id="duplicates-h"')[1]
    assert f"/desk/club/members/{petrov.id}/" in suggested
    assert f"/desk/club/members/{petrova.id}/" in suggested
    assert "/desk/club/members/" + member_named("Ana").id not in suggested
    found = client_of.get(HOME, {"q": "petrov"})
    assert "Olga Petrova" in text(found) and "Olga Petrov" in text(found)
    assert "Ben" not in text(found)


def test_two_spellings_merged_after_a_confirmation_show_both_entries(
    client_of: Client,
    two_spellings: tuple[Member, Member],
    django_capture_on_commit_callbacks: Any,
) -> None:
    petrova, petrov = two_spellings
    url = f"/desk/club/members/{petrov.id}/"
    page = client_of.get(url)
    assert f'<option value="{petrova.id}">Olga Petrova</option>' in page.content.decode()

    asked = client_of.post(url + "merge/", {"merge-into": petrova.id})
    assert asked.status_code == 200
    assert "Merge Olga Petrov into Olga Petrova?" in text(asked)
    assert "Every entry of Olga Petrov will count for Olga Petrova" in text(asked)
    assert 'name="confirmed" value="1"' in asked.content.decode()
    assert member_named("Olga Petrov")  # nothing changed yet

    with django_capture_on_commit_callbacks(execute=True):
        done = client_of.post(url + "merge/", {"merge-into": petrova.id, "confirmed": "1"})
    assert done.status_code == 302
    assert done["Location"] == f"/desk/club/members/{petrova.id}/"
    merged = client_of.get(done["Location"])
    assert "Olga Petrov is merged into Olga Petrova" in text(merged)
    rows = text(merged).split("Entries", 1)[1]
    assert "Night one" in rows and "Night two" in rows
    assert "Olga Petrov " in rows  # the name registered in Night two
    # The old address leads to the member they were merged into.
    assert client_of.get(url)["Location"] == f"/desk/club/members/{petrova.id}/"


def test_a_member_cannot_be_merged_into_themselves(
    client_of: Client, two_spellings: tuple[Member, Member]
) -> None:
    petrova, _ = two_spellings
    url = f"/desk/club/members/{petrova.id}/"
    response = client_of.post(url + "merge/", {"merge-into": petrova.id, "confirmed": "1"})
    assert response.status_code == 422
    assert not Member.objects.exclude(merged_into="").exists()


def test_an_entry_is_split_off_into_a_new_member(
    client_of: Client,
    official: User,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Two people named Ana: the second night's Ana gets a member of her own."""
    for night, date in (("Night one", "2026-12-01"), ("Night two", "2026-12-08")):
        season_tournament(
            official,
            ["Ana", "Ben", "Cleo", "Dev"],
            on_commit=django_capture_on_commit_callbacks,
            name=night,
            date=date,
        )
    services.club_sync()
    ana = member_named("Ana")
    url = f"/desk/club/members/{ana.id}/"
    second = next(
        e for e in reads.member_view(ana.id, official=True).history if e.date > "2026-12-02"
    )
    entry = {"tournament": second.tournament, "player": second.player, "index": str(second.index)}

    asked = client_of.post(url + "split/", entry)
    assert asked.status_code == 200
    assert "Split off Ana's entry in Night two?" in text(asked)
    assert "That entry will count for a new member of its own, no longer for Ana" in text(asked)

    with django_capture_on_commit_callbacks(execute=True):
        done = client_of.post(url + "split/", {**entry, "confirmed": "1"})
    assert done.status_code == 302
    page = client_of.get(url)
    assert "Ana's entry in Night two counts for a new member now." in text(page)
    kept = text(page).split("Entries", 1)[1]
    assert "Night one" in kept and "Night two" not in kept
    anas = Member.objects.filter(name="Ana", merged_into="")
    assert anas.count() == 2


def test_a_display_name_and_hiding(
    client_of: Client,
    two_spellings: tuple[Member, Member],
    django_capture_on_commit_callbacks: Any,
) -> None:
    petrova, _ = two_spellings
    url = f"/desk/club/members/{petrova.id}/"
    with django_capture_on_commit_callbacks(execute=True):
        response = client_of.post(url + "name/", {"name-display_name": "Olga P."})
    assert response.status_code == 302
    page = client_of.get(url)
    assert "Every page shows this member as Olga P. now." in text(page)
    assert "<h1>Olga P.</h1>" in page.content.decode()
    assert Member.objects.get(id=petrova.id).display_name == "Olga P."

    too_long = client_of.post(url + "name/", {"name-display_name": "x" * 101})
    assert too_long.status_code == 422
    assert "x" * 101 in too_long.content.decode()  # kept as typed

    with django_capture_on_commit_callbacks(execute=True):
        client_of.post(url + "hide/", {"hidden": "1"})
    assert Member.objects.get(id=petrova.id).hidden
    assert reads.shown_name(Member.objects.get(id=petrova.id)) == "Hidden member"
    page = client_of.get(url)
    assert "Hidden from the public pages" in text(page)
    assert "Show on the public pages" in text(page)
    with django_capture_on_commit_callbacks(execute=True):
        client_of.post(url + "hide/", {"hidden": "0"})
    assert not Member.objects.get(id=petrova.id).hidden


def test_an_unknown_member_is_not_found(client_of: Client) -> None:
    assert client_of.get("/desk/club/members/000000000000/").status_code == 404


# ----------------------------------------------------------------------------- close names


def test_close_names() -> None:
    assert names.loose_key("Zoé  O'Brien-Smith") == "zoe obrien smith"
    members = [
        names.Named("1", "Olga Petrova"),
        names.Named("2", "Olga Petrov"),
        names.Named("3", "Zoé"),
        names.Named("4", "zoe"),
        names.Named("5", "Al"),
        names.Named("6", "Alan"),
        names.Named("7", "Ben"),
    ]
    pairs = {(s.first.id, s.second.id) for s in names.suggested_duplicates(members)}
    assert pairs == {("2", "1"), ("3", "4")}  # "Al" is too short to be the start of a name
    assert names.matches("Olga Petrova", "petr olga")
    assert not names.matches("Olga Petrova", "ivan")


# ----------------------------------------------------------------------------- languages


@pytest.mark.parametrize(
    ("language", "title", "refusal"),
    [
        ("fr", "Espace du club", "Les points par place doivent être une liste"),
        ("ru", "Пульт клуба", "Очки за место должны быть списком"),
        ("ja", "クラブデスク", "順位ごとの点は0から10000までの整数のリスト"),
    ],
)
def test_the_club_desk_speaks_the_readers_language(
    client_of: Client, language: str, title: str, refusal: str
) -> None:
    try:
        page = client_of.get(HOME, HTTP_ACCEPT_LANGUAGE=language)
        assert f"<h1>{title}</h1>" in page.content.decode()
        refused = client_of.post(
            HOME + "leagues/new/",
            {"league-name": "Winter", "league-points": "25, 20000"},
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert refused.status_code == 422
        assert refusal in text(refused)
    finally:
        translation.deactivate()


def test_the_pages_are_accessible(client_of: Client, two_spellings: tuple[Member, Member]) -> None:
    petrova, petrov = two_spellings
    new_league(client_of, divisions="Open, Juniors")
    (league,) = reads.league_list()
    night_one = reads.member_view(petrova.id, official=True).history[0].tournament
    league_url = f"/desk/club/leagues/{league.id}/"
    client_of.post(league_url + "link/", {"link-tournament": night_one})
    member_url = f"/desk/club/members/{petrov.id}/"
    pages = {
        HOME: client_of.get(HOME),
        league_url: client_of.get(league_url),
        "unlink asked": client_of.post(league_url + "unlink/", {"tournament": night_one}),
        member_url: client_of.get(member_url),
        "merge asked": client_of.post(member_url + "merge/", {"merge-into": petrova.id}),
        "bad league": new_league(client_of, points="x"),
    }
    for where, response in pages.items():
        assert response.status_code in (200, 422), where
        assert_accessible(response.content.decode(), where=where)


def test_htmx_requests_log_in_as_a_whole_page_and_see_the_forbidden_notice(
    django_user_model: type[User],
) -> None:
    htmx = {"HX-Request": "true", "HX-Current-URL": "http://testserver/desk/club/"}
    visitor = Client().post(HOME + "leagues/new/", {"league-name": "Winter"}, headers=htmx)
    assert visitor.status_code == 200
    assert visitor["HX-Redirect"] == "/accounts/login/?next=/desk/club/"
    client = Client()
    client.force_login(django_user_model.objects.create_user("oscar", password="x"))
    refused = client.get(HOME, headers=htmx)
    assert refused.status_code == 403
    assert refused["HX-Retarget"] == "#main"
    assert refused["HX-Reselect"] == ".forbidden"
