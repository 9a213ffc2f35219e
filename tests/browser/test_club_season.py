"""A club's season in a real browser (issue 26): two tournaments of one league, one with a
no-show and a correction; the league made on the club's desk; then the season table, the
ratings and a member's page read on a phone in English, Russian and Japanese.

The tournaments are run through the services (results entered as results only, as from
paper sheets; the correction is a scorekeeper's, with its reason) to save time: their pages are
browser-tested elsewhere. What this test adds is the season: the desk's league form and its
tournament links, and what the phone shows, checked against the club's own reads (the same
projections, so the page shows what the consumer made of the log) and, in Russian and
Japanese, with no English left (tests/browser/test_club_evening_languages.py's check).
"""

from __future__ import annotations

import re
import uuid
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from club import ratings  # noqa: E402
from club import services as club  # noqa: E402
from club.models import MemberEntry, RatingChange  # noqa: E402
from club.services import reads  # noqa: E402
from games import services as games  # noqa: E402
from games.models import GameProjection  # noqa: E402
from tests.browser.helpers import look  # noqa: E402
from tests.browser.test_club_evening_languages import NAMES_ALLOWED, PHONE, Visit  # noqa: E402
from tests.club.helpers import by_seat, season_tournament  # noqa: E402
from tournaments.models import TournamentTable  # noqa: E402

if TYPE_CHECKING:
    from tests.browser.recorders import Shots

pytestmark = pytest.mark.django_db(transaction=True)

USERNAME, PASSWORD = "olga", "Season 2026 of the club!"
LEAGUE = "Autumn Season"
CUPS = ("Autumn Cup One", "Autumn Cup Two")
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]
NO_SHOW = "Zed"
TIMEOUT_MS = 10_000


class Run:
    """Runs ``on_commit`` callbacks as they come (the live server's transactions commit)."""

    def __call__(self, execute: bool = False) -> Any:
        import contextlib

        return contextlib.nullcontext()


def correct(tid: uuid.UUID, olga: User) -> tuple[uuid.UUID, list[str]]:
    """Round 1 table 1's paper sheet was read upside down: its results entered again, the last
    seat first. Returns the game and its players in their new order (winner first)."""
    game_id = TournamentTable.objects.get(tournament_id=tid, round=1, number=1).game_id
    game = GameProjection.objects.get(stream_id=game_id)
    order = list(game.players)[::-1]
    games.game_correct_results(
        game_id=game_id,
        expected_version=game.version,
        entry=by_seat(order),
        reason="the sheet was read upside down",
        user=olga,
    )
    return game_id, order


def test_a_season_read_on_a_phone_in_three_languages(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    shots: Shots,
) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    olga = django_user_model.objects.create_user(USERNAME, password=PASSWORD, is_staff=True)
    first = season_tournament(
        olga, NAMES, on_commit=Run(), name=CUPS[0], date="2026-11-27", no_shows=(NO_SHOW,)
    )
    second = season_tournament(olga, NAMES, on_commit=Run(), name=CUPS[1], date="2026-12-04")
    corrected, order = correct(first, olga)

    # 1. The club's desk (an official, in English): the league, best 1 result of the season,
    # and both tournaments linked.
    page.goto(live_server.url + "/accounts/login/?next=/desk/club/")
    page.locator("#id_username").fill(USERNAME)
    page.locator("#id_password").fill(PASSWORD)
    page.locator('main form[action^="/accounts/login/"] button[type="submit"]').click()
    page.wait_for_url(live_server.url + "/desk/club/")
    form = page.locator('form[action="/desk/club/leagues/new/"]')
    form.locator('input[name="league-name"]').fill(LEAGUE)
    form.locator('input[name="league-best"]').fill("1")
    look(page, shots, "desk-new-league")
    form.locator('button[type="submit"]').click()
    expect(page.locator("h1")).to_contain_text(LEAGUE)
    league = max(league.id for league in reads.league_list())
    for tid in (first, second):
        link = page.locator(f'form[action="/desk/club/leagues/{league}/link/"]')
        link.locator('select[name="link-tournament"]').select_option(str(tid))
        link.locator('button[type="submit"]').click()
        expect(
            page.locator(f'form[action="/desk/club/leagues/{league}/unlink/"] input[value="{tid}"]')
        ).to_have_count(1)
    look(page, shots, "desk-league")
    page.locator('header form[action="/accounts/logout/"] button').click()
    club.club_sync()  # whatever the nudges left (they ran on each commit)

    season = reads.season_view(league)
    assert [t.name for t in season.tournaments] == list(CUPS)
    ranked = [r for r in season.rows if r.rank is not None]
    assert len(ranked) == len(NAMES)  # the no-show took no place: not in the season
    assert NO_SHOW not in season.names.values()
    assert all(sum(r.counted for r in row.results) == 1 for row in ranked)  # best 1 of 2
    leader = season.names[ranked[0].member]
    board = reads.league_ratings(league, "trick-n-chef")
    assert len(board) == len(NAMES)
    assert all(row.provisional == (row.games < ratings.PROVISIONAL_GAMES) for row in board)
    # The correction re-rated: round 1 table 1's winner is now its last seat.
    winner = MemberEntry.objects.get(tournament_id=first, name=order[0]).member
    assert RatingChange.objects.get(game_id=corrected, member=winner).place == 1

    # 2. On a phone, in each language, chosen with the header's chooser.
    page.set_viewport_size(PHONE)
    allowed = (*NAMES_ALLOWED, LEAGUE, *CUPS, *NAMES, NO_SHOW, USERNAME)
    for lang in ("en", "ru", "ja"):
        page.goto(live_server.url + "/club/")
        chooser = page.locator('header form[action="/i18n/choose/"]')
        chooser.locator('select[name="language"]').select_option(lang)
        chooser.locator('button[type="submit"]').click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        checked = Visit(page, shots, lang, allowed)

        def visit(what: str, lang: str = lang, checked: Visit = checked) -> None:
            if lang == "en":  # English is the words as written: the screenshot and looks only
                look(page, shots, f"en-{what}")
            else:  # no English left in Russian or Japanese
                checked(what)

        page.locator(f'a[href="/club/leagues/{league}/"]').first.click()
        table = page.locator("table.season")
        expect(table.locator("tbody tr")).to_have_count(len(NAMES))
        first_row = table.locator("tbody tr").first
        expect(first_row.locator("th")).to_have_text(leader)
        expect(first_row.locator("td.points")).to_have_text(str(ranked[0].total))
        expect(table.locator(".result-dropped")).to_have_count(len(NAMES))  # one each
        expect(page.locator("main")).not_to_contain_text(NO_SHOW)
        visit("season")

        page.locator(f'a[href^="/club/leagues/{league}/ratings/"]').first.click()
        rows = page.locator("table.standings tbody tr")
        expect(rows).to_have_count(len(NAMES))
        expect(rows.locator("th a")).to_have_text([row.name for row in board])
        visit("ratings")

        page.locator(f'table.standings a[href="/club/members/{winner.id}/"]').click()
        expect(page.locator("h1")).to_contain_text(winner.shown)
        main = page.locator("main")
        for cup in CUPS:
            expect(
                main.locator(f'a[href="/t/{first if cup == CUPS[0] else second}/"]').first
            ).to_be_visible()
        expect(main).to_contain_text(re.compile(CUPS[0]))
        visit("member")
