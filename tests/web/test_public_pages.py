"""The public pages: the tournaments list, a tournament, a round's pairings, the standings (live,
hidden), a player's games and the game replay viewer, read as an anonymous visitor.

The tournaments are built through the services as an organizer would run them: tables played
card by card (simulated games) or entered as results only, results confirmed, rounds closed.
Game writes run their on-commit hooks (the result's way into the tournament) as a real commit
would.
"""

from __future__ import annotations

import re
import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services as games
from games.tricknchef.card_tags import card_info
from tests.web.public import (
    NAMES,
    Capture,
    Spring,
    enter_results,
    finish_round_two,
    logged_in,
    new_tournament,
    page,
    rows_of,
    seat_names,
    section,
    table_entry,
    text,
)
from tournaments import services as t
from tournaments.standings import table_points

pytestmark = pytest.mark.django_db


# ----------------------------------------------------------------------------- home


def test_home_lists_the_tournaments_newest_first_with_status_and_round(
    client: Client, spring: Spring, organizer: User
) -> None:
    older = t.tournament_create(
        user=organizer, name="Winter Cup", date="2025-12-06", rounds=4
    ).tournament_id
    html = page(client, "/")
    assert "<h1>Trick-n-Chef</h1>" in html and "tournament manager" in html
    assert html.index("Spring Open") < html.index("Winter Cup")
    assert f'href="/t/{spring.id}/"' in html and f'href="/t/{older}/"' in html
    words = text(html)
    assert "Spring Open Sat 14 Mar 2026 In progress Round 2 of 3" in words
    assert "Winter Cup Sat 6 Dec 2025 Registration open 4 rounds planned" in words


def test_home_without_tournaments_says_so(client: Client) -> None:
    assert "No tournaments yet" in page(client, "/")


# ----------------------------------------------------------------------------- tournament


def test_the_tournament_page_shows_its_rounds_standings_and_players(
    client: Client, spring: Spring
) -> None:
    html = page(client, f"/t/{spring.id}/")
    words = text(html)
    assert "<h1>Spring Open</h1>" in html
    assert "Saturday 14 March 2026 In progress Round 2 of 3" in words
    assert f'href="/t/{spring.id}/round/1/">Round 1 pairings and results' in html
    assert f'href="/t/{spring.id}/round/2/">Round 2 pairings and results' in html
    assert "/round/3/" not in html
    assert "2 of 2 tables finished" in words and "1 of 2 tables finished" in words
    assert f'href="/t/{spring.id}/standings/">Full standings' in html
    for number, name in enumerate(NAMES, start=1):
        assert f'href="/t/{spring.id}/player/P{number}/">{name}</a>' in html
    assert re.search(r">Gus</a>\s*<span class=\"badge badge-dropped\">dropped</span>", html)
    assert "Scaled scoring." in words


def test_downloads_are_linked_only_once_the_organizer_releases_them(
    client: Client, spring: Spring
) -> None:
    api = f"/api/tournaments/{spring.id}"
    html = page(client, f"/t/{spring.id}/")
    assert "Downloads" not in html and ".csv" not in html and "games.zip" not in html
    t.tournament_change_settings(
        tournament_id=spring.id, changes={"downloads_released": True}, user=spring.organizer
    )
    html = page(client, f"/t/{spring.id}/")
    links = section(html, "downloads-heading")
    for url in (f"{api}/standings.csv", f"{api}/results.csv", f"{api}/games.zip"):
        assert f'href="{url}"' in links
        assert client.get(url).status_code == 200  # the API serves them to the public now
    assert "Not released to the public yet" not in html


def test_an_organizer_sees_unreleased_downloads_marked_as_such(
    client: Client, spring: Spring
) -> None:
    with logged_in(client, spring.organizer):
        html = page(client, f"/t/{spring.id}/")
    assert "Not released to the public yet" in html
    assert f"/api/tournaments/{spring.id}/standings.csv" in html


def test_an_unknown_tournament_is_not_found(client: Client) -> None:
    assert client.get(f"/t/{uuid.uuid4()}/").status_code == 404
    assert client.get(f"/t/{uuid.uuid4()}/standings/").status_code == 404


# ----------------------------------------------------------------------------- pairings


def test_a_rounds_pairings_show_each_table_in_seat_order_with_its_game_and_result(
    client: Client, spring: Spring
) -> None:
    html = page(client, f"/t/{spring.id}/round/1/")
    assert "<h1>Round 1</h1>" in html
    one, two = re.findall(r'<section class="table-card".*?</section>', html, re.S)
    seats = [text(s) for s in re.findall(r'<th scope="row">(.*?)</th>', one, re.S)]
    assert seats == ["Ana first player", "Ben", "Cleo", "Dev"]
    assert "Finished" in one and "result confirmed" in one
    assert f'href="/g/{spring.played}/">Replay the game of table 1</a>' in one
    result = table_entry(spring.id, spring.organizer, 1, 1)["result"]
    for placed in result:
        row = re.search(
            rf">{placed['name']}</a>.*?</th>\s*<td class=\"num\">(.*?)</td>\s*"
            rf"<td class=\"num\">(.*?)</td>",
            one,
            re.S,
        )
        assert row is not None
        assert row.group(1).startswith(str(placed["place"]))
        assert row.group(2) == str(placed["victory_points"])
    # the results-only table: places from the entered scores (31, 24, 18)
    two_rows = re.findall(r'<th scope="row">(.*?)</th>\s*<td class="num">(.*?)</td>\s*'
                          r'<td class="num">(.*?)</td>', two, re.S)  # fmt: skip
    assert [(text(n), p, v) for n, p, v in two_rows] == [
        ("Eli first player", "1st", "31"),
        ("Fay", "2nd", "24"),
        ("Gus dropped", "3rd", "18"),
    ]


def test_a_round_in_play_shows_each_games_progress_and_refreshes_itself(
    client: Client, spring: Spring
) -> None:
    html = page(client, f"/t/{spring.id}/round/2/")
    one, two = re.findall(r'<section class="table-card".*?</section>', html, re.S)
    assert "Finished" in one and "awaiting confirmation" in one
    assert "In progress" in two and re.search(r"Deal \d, trick \d+", two)
    assert f'href="/g/{spring.playing}/">Follow the game of table 2</a>' in two
    assert 'hx-trigger="every 30s' in html
    partial = page(client, f"/t/{spring.id}/round/2/", HX_Request="true")
    assert "<html" not in partial and partial.lstrip().startswith('<div id="round-tables"')
    assert partial.count('class="table-card"') == 2


def test_a_proposed_round_is_not_shown_to_the_public(
    client: Client, spring: Spring, capture: Capture
) -> None:
    finish_round_two(spring, capture)
    t.tournament_pair(tournament_id=spring.id, user=spring.organizer)  # round 3: proposed
    assert client.get(f"/t/{spring.id}/round/3/").status_code == 404
    html = page(client, f"/t/{spring.id}/")
    assert "/round/3/" not in html and "Round 2 of 3" in text(html)
    with logged_in(client, spring.organizer):
        html = page(client, f"/t/{spring.id}/round/3/")
    assert "This round is only proposed" in html


def test_byes_are_listed_with_the_round(client: Client, organizer: User) -> None:
    tid = new_tournament(organizer, NAMES[:5], name="Small Club")
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    html = page(client, f"/t/{tid}/round/1/")
    byes = section(html, "byes-heading")
    assert f'href="/t/{tid}/player/P5/">Eli</a>' in byes
    player = text(page(client, f"/t/{tid}/player/P5/"))
    assert "Round 1 A bye: not seated this round, worth 3 tournament points." in player


# ----------------------------------------------------------------------------- standings


def test_the_standings_are_in_order_with_every_tiebreak_column(
    client: Client, spring: Spring
) -> None:
    html = page(client, f"/t/{spring.id}/standings/")
    expected = t.tournament_standings(tournament_id=spring.id, user=None)
    header = re.search(r"<thead>(.*?)</thead>", html, re.S)
    assert header is not None
    titles = [text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", header.group(1), re.S)]
    assert titles == [c["title"] for c in expected["columns"]]
    assert titles[:6] == [
        "Rank", "Player", "Points", "Victory points", "Opponents' average", "First places",
    ]  # fmt: skip
    rows = rows_of(html, "standings")
    assert [r[1].replace(" dropped", "") for r in rows] == [r["name"] for r in expected["rows"]]
    points = [float(r[2]) for r in rows]
    assert points == sorted(points, reverse=True) and points[0] == 6
    gus = next(r for r in rows if r[1].startswith("Gus"))
    assert gus[1] == "Gus dropped"
    # only confirmed results count: round 2's finished table is awaiting confirmation
    assert "1 table result awaiting confirmation is not counted yet" in text(html)
    assert "1 table still playing" in text(html)


def test_the_standings_refresh_themselves_through_an_htmx_partial_while_running(
    client: Client, spring: Spring
) -> None:
    html = page(client, f"/t/{spring.id}/standings/")
    poll = re.search(r'<div id="standings" hx-get="([^"]+)" hx-trigger="([^"]+)"', html)
    assert poll is not None
    assert poll.group(1) == f"/t/{spring.id}/standings/"
    assert poll.group(2).startswith("every 20s")
    partial = page(client, poll.group(1), HX_Request="true")
    assert "<html" not in partial and "<h1" not in partial
    assert partial.lstrip().startswith('<div id="standings"')
    assert rows_of(partial, "standings") == rows_of(html, "standings")
    response = client.get(poll.group(1), headers={"HX-Request": "true"})
    assert "HX-Request" in response["Vary"]


def test_shared_ranks_are_marked_and_a_finished_tournament_stops_refreshing(
    client: Client, organizer: User, capture: Capture
) -> None:
    tid = new_tournament(organizer, NAMES[:6], name="Tie Night", rounds=1)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    for table in (1, 2):
        entry = table_entry(tid, organizer, 1, table)
        names = seat_names(entry)
        same = dict(zip(names, ([9, 9, 9], [7, 7, 7], [5, 5, 5]), strict=True))
        enter_results(entry["game"], organizer, capture, same)
        t.tournament_confirm(tournament_id=tid, round=1, table=table, user=organizer)
    t.tournament_close_round(tournament_id=tid, round=1, user=organizer)
    t.tournament_finish(tournament_id=tid, user=organizer)
    html = page(client, f"/t/{tid}/standings/")
    ranks = [text(r[0]) for r in rows_of(html, "standings")]
    assert ranks == ["1 = (shared)", "1 = (shared)", "3 = (shared)", "3 = (shared)",
                     "5 = (shared)", "5 = (shared)"]  # fmt: skip
    assert "hx-trigger" not in html
    assert "Finished" in text(html)


def test_hidden_standings_show_a_clear_note_instead(
    client: Client, organizer: User, capture: Capture
) -> None:
    tid = new_tournament(organizer, NAMES[:6], name="Secret Cup", standings_hidden_from=1)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    for url in (f"/t/{tid}/standings/", f"/t/{tid}/", f"/t/{tid}/player/P1/"):
        html = page(client, url)
        assert "hidden the standings until the end of the tournament" in html
        assert 'class="standings"' not in html and 'class="leaders"' not in html
    partial = page(client, f"/t/{tid}/standings/", HX_Request="true")
    assert "hidden the standings until the end of the tournament" in partial
    with logged_in(client, organizer):
        html = page(client, f"/t/{tid}/standings/")
    assert 'class="standings"' in html and "Hidden from the public for now" in html
    t.tournament_change_settings(
        tournament_id=tid, changes={"standings_revealed": True}, user=organizer
    )
    assert 'class="standings"' in page(client, f"/t/{tid}/standings/")


# ----------------------------------------------------------------------------- players


def test_a_players_page_lists_each_rounds_table_opponents_and_points(
    client: Client, spring: Spring
) -> None:
    html = page(client, f"/t/{spring.id}/player/P2/")  # Ben
    assert "<h1>Ben</h1>" in html
    cards = re.findall(r'<article class="round-card".*?</article>', html, re.S)
    assert len(cards) == 2
    result = table_entry(spring.id, spring.organizer, 1, 1)["result"]
    mine = next(r for r in result if r["name"] == "Ben")
    points = table_points("scaled", [r["place"] for r in result])[result.index(mine)]
    first = text(cards[0])
    assert first.startswith("Round 1, table 1 Seat 2 Place")
    assert f"Victory points {mine['victory_points']}" in first
    assert f"Tournament points {float(points):g}" in first
    assert "Opponents: Ana , Cleo , Dev" in first
    assert f'href="/g/{spring.played}/">Replay the game of round 1</a>' in cards[0]
    assert f'href="/t/{spring.id}/player/P1/">Ana</a>' in cards[0]
    standing = section(html, "standing-heading")
    assert "Rank" in standing and "Opponents&#x27; average" in standing


def test_a_dropped_players_page_says_so_and_shows_the_rounds_not_seated(
    client: Client, spring: Spring
) -> None:
    words = text(page(client, f"/t/{spring.id}/player/P7/"))  # Gus
    assert "dropped No longer seated in new rounds" in words
    assert "Round 1, table 2 Seat 3 Place 3rd Victory points 18 Tournament points 0" in words
    assert "Round 2 Not seated this round." in words


def test_a_players_table_now_comes_first_while_the_round_is_played(
    client: Client, spring: Spring, capture: Capture
) -> None:
    html = page(client, f"/t/{spring.id}/player/P2/")  # Ben, round 2 under way
    now = section(html, "now-heading")
    entry = next(
        table
        for number in (1, 2)
        if "Ben" in seat_names(table := table_entry(spring.id, spring.organizer, 2, number))
    )
    seat = seat_names(entry).index("Ben") + 1
    words = text(now)
    assert words.startswith(f"Your table now: round 2, table {entry['table']} Seat {seat}")
    for name in seat_names(entry):
        if name != "Ben":
            assert f">{name}</a>" in now
    assert html.index('id="now-heading"') < html.index('id="games-heading"')
    finish_round_two(spring, capture)  # round 2 closed: no table now
    assert 'id="now-heading"' not in page(client, f"/t/{spring.id}/player/P2/")


def test_find_your_table_by_a_part_of_the_name_without_case_or_accents(
    client: Client, spring: Spring
) -> None:
    entry = next(
        table
        for number in (1, 2)
        if "Cleo" in seat_names(table := table_entry(spring.id, spring.organizer, 2, number))
    )
    for page_url in (f"/t/{spring.id}/", f"/t/{spring.id}/round/2/"):
        assert f'action="/t/{spring.id}/find/"' in page(client, page_url)
    one = client.get(f"/t/{spring.id}/find/", {"name": "  CLÉO "})
    assert one.status_code == 302 and one["Location"] == f"/t/{spring.id}/player/P3/"
    several = text(page(client, f"/t/{spring.id}/find/?name=e"))
    seat = seat_names(entry).index("Cleo") + 1
    assert f"Cleo round 2: table {entry['table']}, seat {seat}" in several
    shown = re.findall(r'/player/P\d+/">(\w+)</a>', page(client, f"/t/{spring.id}/find/?name=e"))
    assert shown == ["Ben", "Cleo", "Dev", "Eli"]
    none = text(page(client, f"/t/{spring.id}/find/?name=Zed"))
    assert "No player's name holds “Zed”" in none


def test_an_unknown_player_is_not_found(client: Client, spring: Spring) -> None:
    assert client.get(f"/t/{spring.id}/player/P99/").status_code == 404


# ----------------------------------------------------------------------------- replay


def test_the_replay_steps_through_the_game_trick_by_trick(client: Client, spring: Spring) -> None:
    game_id = uuid.UUID(spring.played)
    tricks = games.game_view(game_id=game_id).state.tricks
    assert len(tricks) == 30
    url = f"/g/{game_id}/"

    start = page(client, url)
    assert "<h1>Game: Ana, Ben, Cleo, Dev</h1>" in start
    assert "Start of the game" in start and "<strong>Ana</strong> plays first" in start
    assert 'id="replay-prev" class="button" aria-disabled="true"' in start
    assert f'href="{url}?step=1"' in start

    middle = page(client, f"{url}?step=15")
    trick = tricks[14]
    assert (trick.round, trick.number) == (2, 5)
    assert "Deal 2, trick 5" in middle
    assert "Trick 15 of 30" in middle
    for play_ in trick.plays:
        assert card_info(play_.card)["label"] in middle
    assert f"<strong>{trick.winner}</strong> won the trick." in middle
    assert f"<strong>{trick.chef_taker}</strong> played the lowest card" in middle
    plays = re.findall(r'<span class="play-who">(\w+)', middle)
    assert plays == [p.player for p in trick.plays]
    assert f'href="{url}?step=14"' in middle and f'href="{url}?step=16"' in middle
    table = rows_of(middle, "table-state")  # after the trick, in seat order
    assert [row[0] for row in table] == ["Ana", "Ben", "Cleo", "Dev"]
    state = games.game_view(game_id=game_id).state
    assert sum(int(row[3]) for row in table) == 5  # tricks won so far in round 2
    assert all(len(row) == 5 for row in table) and state.players == ("Ana", "Ben", "Cleo", "Dev")

    last = page(client, f"{url}?step=30")
    assert "Trick 30 of 30" in last and "End of deal 3" in last
    assert 'id="replay-next" class="button" aria-disabled="true"' in last
    assert "Trick 30 of 30" in page(client, f"{url}?step=99")  # past the end: the last trick

    partial = page(client, f"{url}?step=15", HX_Request="true")
    assert "<html" not in partial and "<h1" not in partial
    assert partial.lstrip().startswith('<nav class="stepper"')
    assert 'hx-target="#replay-step"' in partial and 'hx-push-url="true"' in partial
    assert f'<p id="replay-status" hx-swap-oob="innerHTML">Deal 2, trick 5: {trick.winner}' in (
        partial
    )


def test_the_replay_shows_the_result_the_score_chart_and_its_table(
    client: Client, spring: Spring
) -> None:
    game_id = uuid.UUID(spring.played)
    summary = games.game_get(game_id=game_id).summary
    html = page(client, f"/g/{game_id}/")
    chart = section(html, "scores-heading")
    assert re.search(r'<svg viewBox="0 0 \d+ \d+" role="img" aria-labelledby="chart-title', chart)
    assert '<title id="chart-title">Points after each deal</title>' in chart
    assert chart.count('class="series series-') == 8  # a line per player, and its legend
    rows = rows_of(chart, "scores")
    for row in rows:
        player = row[0]
        running = 0
        for cell, scored in zip(row[1:], summary["rounds"], strict=True):
            running += scored["scores"][player]
            assert cell == f"{scored['scores'][player]} → , running total {running}"
    ranking = summary["ranking"]
    first = re.search(
        r'<tbody>\s*<tr><td class="place">(.*?)</td><th scope="row">(.*?)<span',
        section(html, "result-heading"),
    )
    assert first is not None and first[2] == ranking[0]["player"]  # the winner's row first
    # The record file waits until the organizer releases the tournament's downloads.
    assert f'href="/api/games/{game_id}/record/"' not in html
    assert client.get(f"/api/games/{game_id}/record/").status_code == 403
    t.tournament_change_settings(
        tournament_id=spring.id, changes={"downloads_released": True}, user=spring.organizer
    )
    html = page(client, f"/g/{game_id}/")
    assert f'href="/api/games/{game_id}/record/"' in html
    assert client.get(f"/api/games/{game_id}/record/").status_code == 200


def test_a_tournament_games_breadcrumb_leads_to_its_tournament_round_and_table(
    client: Client, spring: Spring
) -> None:
    html = page(client, f"/g/{spring.playing}/")  # round 2, table 2
    trail = re.search(r'<nav class="breadcrumb".*?</nav>', html, re.S)
    assert trail is not None
    links = re.findall(r'<a href="([^"]+)">([^<]+)</a>', trail.group(0))
    assert links == [
        ("/", "All tournaments"),
        (f"/t/{spring.id}/", "Spring Open"),
        (f"/t/{spring.id}/round/2/", "Round 2"),
        (f"/t/{spring.id}/round/2/#table-2", "Table 2"),
    ]
    assert 'id="table-2"' in page(client, f"/t/{spring.id}/round/2/")


def test_a_results_only_game_shows_its_scores_and_chart_without_a_replay(
    client: Client, spring: Spring
) -> None:
    html = page(client, f"/g/{spring.results_only}/")
    assert "entered as results only" in html
    assert "replay-next" not in html and "/record/" not in html
    assert 'role="img"' in html
    rows = rows_of(section(html, "scores-heading"), "scores")
    assert rows == [
        ["Eli", "10 → , running total 10", "12 → , running total 22", "9 → , running total 31"],
        ["Fay", "8 → , running total 8", "8 → , running total 16", "8 → , running total 24"],
        ["Gus", "5 → , running total 5", "6 → , running total 11", "7 → , running total 18"],
    ]
    assert "1st" in section(html, "result-heading")


def test_a_game_being_played_shows_the_tricks_so_far(client: Client, spring: Spring) -> None:
    html = page(client, f"/g/{spring.playing}/")
    assert "In progress" in html and "The game is being played" in html
    assert 'id="result-heading"' not in html


def test_an_unpublished_game_is_not_found_for_anonymous_visitors(
    client: Client, organizer: User
) -> None:
    game = games.game_create(players=["Ana", "Ben", "Cleo", "Dev"], user=organizer)
    assert client.get(f"/g/{game.game_id}/").status_code == 404
    with logged_in(client, organizer):
        assert client.get(f"/g/{game.game_id}/").status_code == 200
    assert client.get(f"/g/{uuid.uuid4()}/").status_code == 404
