"""The club's public pages (club/public): the club, a season, ratings, the roster, a member's
page and head-to-head, the records; hidden and merged members; the season's ETag."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from club import services
from club.models import GameFeat, GameStatistic, RatingChange
from club.ratings import PROVISIONAL_GAMES
from club.services import writes
from games import statistics_words
from tests.club.public.conftest import NAMES, Season, make_season
from tests.tournaments.helpers import new_tournament, play
from tournaments import services as t

pytestmark = [pytest.mark.django_db, pytest.mark.one_backend]


def text(html: bytes) -> str:
    """The page's text, tags and runs of spaces left out."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html.decode())).split())


def test_the_club_page_links_its_leagues_roster_and_records(season: Season) -> None:
    response = Client().get("/club/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Winter league" in html
    assert f'href="{reverse("club:league", args=[season.league])}"' in html
    assert f'href="{reverse("club:members")}"' in html
    assert f'href="{reverse("club:records")}"' in html


def test_the_season_page_shows_the_table_the_rules_and_the_links(season: Season) -> None:
    response = Client().get(f"/club/leagues/{season.league}/")
    assert response.status_code == 200
    html = response.content.decode()
    page = text(response.content)
    assert "Winter league" in page
    for name in ("Club night", "Winter cup"):
        assert name in page
    # Every member linked to their page; Zed (a no-show) took part in nothing: not listed.
    ana = season.member("Ana")
    assert f'href="{reverse("club:member", args=[ana])}"' in html
    assert "Zed" not in page
    # Gus and Hal played one tournament of two: below the minimum, listed apart.
    waiting = html.split("Not ranked yet")[1]
    assert "Gus" in waiting and "Hal" in waiting
    assert ">ana<" not in waiting
    # The rules in words, the points per place, the CSV and the ratings.
    assert "A member is ranked once they have taken part in 2 tournaments" in page
    assert "Every result counts." in page
    assert "1st 25" in page
    assert f'href="/api/leagues/{season.league}/standings.csv"' in html
    assert reverse("club:ratings", args=[season.league]) + "?game=trick-n-chef" in html
    assert "Trick-n-Chef" in page


def test_a_dropped_result_is_marked_in_words_and_parentheses(
    organizer: User, django_capture_on_commit_callbacks: Any
) -> None:
    season = make_season(organizer, django_capture_on_commit_callbacks, best=1)
    response = Client().get(f"/club/leagues/{season.league}/")
    html = response.content.decode()
    page = text(response.content)
    assert "Only each member's best 1 result counts." in page
    assert "So far: the best 1 of 2 finished tournaments count." in page
    # Everyone who played both has one result struck, in parentheses, said to be dropped.
    dropped = re.findall(r'<span class="result-dropped">(.*?)</span></span>', html)
    assert len(dropped) == 6  # Ana..Fay played both tournaments
    assert all("(<s>" in d and "dropped" in d for d in dropped)
    assert "are dropped: they do not count in the total" in page


def test_the_season_page_answers_304_while_nothing_changed(season: Season) -> None:
    client = Client()
    url = f"/club/leagues/{season.league}/"
    first = client.get(url)
    tag = first["ETag"]
    assert tag.startswith('W/"')
    assert "Accept-Language" in first["Vary"]
    again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304
    assert again["ETag"] == tag
    # Another language is another page: no 304 for the English one.
    russian = client.get(url, HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_LANGUAGE="ru")
    assert russian.status_code == 200
    assert russian["ETag"] != tag
    # A club decision makes a new version: the old tag no longer matches.
    writes.league_change(league=season.league, name="Winter league 2026", user=season.organizer)
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200
    assert "Winter league 2026" in changed.content.decode()


def test_a_hidden_member_has_no_page_and_no_name_on_the_season(season: Season) -> None:
    cleo = season.member("Cleo")
    writes.member_change(member=cleo, hidden=True, user=season.organizer)
    services.club_sync()
    client = Client()
    assert client.get(f"/club/members/{cleo}/").status_code == 404
    season_page = client.get(f"/club/leagues/{season.league}/")
    page = text(season_page.content)
    assert "cleo" not in page.casefold()
    assert "Hidden member" in page
    assert reverse("club:member", args=[cleo]) not in season_page.content.decode()
    roster = text(client.get("/club/members/").content)
    assert "cleo" not in roster.casefold() and "ana" in roster
    # An official still sees the name.
    staff = Client()
    staff.force_login(season.organizer)
    assert "cleo" in text(staff.get(f"/club/leagues/{season.league}/").content)


def test_a_merged_members_old_page_redirects_to_the_survivor(season: Season) -> None:
    gus, hal = season.member("Gus"), season.member("Hal")
    writes.member_merge(member=gus, into=hal, user=season.organizer)
    services.club_sync()
    response = Client().get(f"/club/members/{gus}/")
    assert response.status_code == 302
    assert response["Location"] == reverse("club:member", args=[hal])
    page = text(Client().get(response["Location"]).content)
    assert "Registered as: Gus, Hal" in page  # the names they registered under


def test_a_members_page_shows_history_rating_and_its_explanation(season: Season) -> None:
    ana = season.member("Ana")
    response = Client().get(f"/club/members/{ana}/")
    assert response.status_code == 200
    html = response.content.decode()
    page = text(response.content)
    assert "Registered as: Ana, ana" in page
    assert f'href="{reverse("public:tournament", args=[season.first])}"' in html
    assert f'href="{reverse("public:tournament", args=[season.second])}"' in html
    assert "Trick-n-Chef" in page
    steps = RatingChange.objects.filter(member_id=ana).count()
    assert steps == 4  # two rounds in each of two tournaments
    assert page.count(" of 4 ") + page.count(" of 3 ") >= steps  # "place 2 of 4"
    assert "→" in page
    assert "±" in page
    # Four games: provisional still (below PROVISIONAL_GAMES), said in a legend.
    assert steps < PROVISIONAL_GAMES
    assert "provisional" in page
    assert f"fewer than {PROVISIONAL_GAMES} games" in page
    assert reverse("club:versus_choose", args=[ana]) in html


def test_head_to_head_counts_who_finished_ahead(season: Season) -> None:
    ana, ben = season.member("Ana"), season.member("Ben")
    choose = Client().get(f"/club/members/{ana}/vs/", {"other": ben})
    assert choose.status_code == 302
    assert choose["Location"] == reverse("club:versus", args=[ana, ben])
    theirs = dict(RatingChange.objects.filter(member_id=ben).values_list("game_id", "place"))
    mine = [
        (place, theirs[game])
        for game, place in RatingChange.objects.filter(member_id=ana).values_list(
            "game_id", "place"
        )
        if game in theirs
    ]
    ahead = sum(1 for a, b in mine if a < b)
    behind = sum(1 for a, b in mine if a > b)
    level = sum(1 for a, b in mine if a == b)
    html = Client().get(choose["Location"]).content.decode()
    counts = re.findall(r"<dd>(\d+)</dd>", html.split('class="figures versus-counts"')[1])
    assert [int(c) for c in counts[:3]] == [ahead, behind, level]
    if mine:
        assert "at a rated table" in text(html.encode())
    else:
        assert "They have not met at a rated table yet." in text(html.encode())


def test_ratings_rank_the_leagues_members(season: Season) -> None:
    response = Client().get(f"/club/leagues/{season.league}/ratings/?game=trick-n-chef")
    assert response.status_code == 200
    page = text(response.content)
    for name in ("ana", "ben", "Gus", "Hal"):  # as they last registered
        assert name in page
    assert "Zed" not in page
    assert re.search(r"\d+\.\d ± \d+\.\d", page)
    assert "Provisional: rated on fewer than" in page
    assert Client().get(f"/club/leagues/{season.league}/ratings/?game=nope").status_code == 404
    assert Client().get("/club/leagues/999/ratings/").status_code == 404
    assert Client().get("/club/leagues/999/").status_code == 404


def test_the_roster_and_records_render(season: Season) -> None:
    roster = Client().get("/club/members/")
    assert roster.status_code == 200
    assert "ana" in text(roster.content)
    records = Client().get("/club/records/")
    assert records.status_code == 200  # results only: no game played card by card, no record
    assert "No record yet" in text(records.content)


@pytest.mark.parametrize(
    ("language", "words"),
    [("ru", "Таблица сезона"), ("ja", "シーズン順位表"), ("fr", "Classement de la saison")],
)
def test_the_season_page_speaks_the_readers_language(
    season: Season, language: str, words: str
) -> None:
    response = Client().get(f"/club/leagues/{season.league}/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}"' in html
    assert words in html


@pytest.mark.parametrize(("language", "words"), [("ru", "Личные встречи"), ("ja", "直接対決")])
def test_the_member_page_speaks_the_readers_language(
    season: Season, language: str, words: str
) -> None:
    ana = season.member("Ana")
    response = Client().get(f"/club/members/{ana}/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert words in response.content.decode()


def test_divisions_are_separate_tables_each_ranked_from_one(
    organizer: User, django_capture_on_commit_callbacks: Any
) -> None:
    season = make_season(
        organizer, django_capture_on_commit_callbacks, divisions=["Gold", "Silver"]
    )
    for name in ("Ana", "Ben", "Cleo"):
        writes.league_division(
            league=season.league, member=season.member(name), division="Gold", user=organizer
        )
    for name in ("Dev", "Eli", "Fay", "Gus", "Hal"):
        writes.league_division(
            league=season.league, member=season.member(name), division="Silver", user=organizer
        )
    html = Client().get(f"/club/leagues/{season.league}/").content.decode()
    gold, silver = html.split("Division: Gold")[1].split("Division: Silver")
    assert all(f">{n}<" in gold for n in ("ana", "ben", "cleo"))
    assert ">dev<" not in gold and ">dev<" in silver
    for table in (gold, silver):
        ranks = re.findall(r'<tr>\s*<td class="num">(\d+)', table.split("</table>")[0])
        assert ranks[0] == "1"
        assert ranks == sorted(ranks, key=int)


def test_statistics_feats_and_records_of_a_game_played_card_by_card(
    organizer: User, django_capture_on_commit_callbacks: Any
) -> None:
    tid = new_tournament(organizer, names=NAMES[:4], rounds=1, confirmation="auto")
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    play(tid, 1, 1, organizer, django_capture_on_commit_callbacks, seed=5)
    t.tournament_sync_pending()
    services.club_sync()
    ana = GameStatistic.objects.get(entry__name="Ana", code="tnc.tricks_won")
    page = text(Client().get(f"/club/members/{ana.entry.member_id}/").content)
    # In the game's words (games.statistics_words), with the sample: "8 in 3 deals".
    assert f"Tricks won {ana.value} in 3 deals" in page
    assert "Best feats" in page
    best = GameFeat.objects.filter(code="tnc.best_game_total").order_by("-value", "id")[0]
    records = Client().get("/club/records/")
    html = records.content.decode()
    assert "Trick-n-Chef" in text(records.content)
    label = statistics_words.describe_feat("trick-n-chef", "tnc.best_game_total")
    assert label != "tnc.best_game_total"
    row = html.split(f"{label}</th>")[1].split("</tr>")[0]
    assert f">{best.value}<" in row
    assert reverse("club:member", args=[best.entry.member_id]) in row
    assert reverse("public:tournament", args=[tid]) in row
