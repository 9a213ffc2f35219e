"""Accessibility of the public pages: every page of a realistic tournament passes the checker
(tests/web/a11y.py), the checker finds what it is meant to find, and the suit colours keep the
cards' text readable (WCAG AA, 4.5:1)."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.web.a11y import assert_accessible, check_page, contrast, suit_contrast
from tests.web.public import (
    NAMES,
    Capture,
    Spring,
    build_spring,
    new_tournament,
)
from tournaments import services as t


@pytest.fixture
def spring(django_user_model: type[User], django_capture_on_commit_callbacks: Capture) -> Spring:
    organizer = django_user_model.objects.create_user("olga", password="x")
    return build_spring(organizer, django_capture_on_commit_callbacks)


def public_urls(spring: Spring) -> list[str]:
    tid = spring.id
    urls = ["/", f"/t/{tid}/", f"/t/{tid}/round/1/", f"/t/{tid}/round/2/", f"/t/{tid}/standings/"]
    urls += [f"/t/{tid}/player/P{n}/" for n in range(1, len(NAMES) + 1)]
    urls += [f"/t/{tid}/find/?name=e", f"/t/{tid}/find/?name=zz"]
    urls += [f"/g/{spring.played}/?step={n}" for n in (0, 1, 10, 15, 30)]
    urls += [f"/g/{game}/" for game in (spring.results_only, spring.finished, spring.playing)]
    return urls


@pytest.mark.django_db
def test_every_public_page_passes_the_checker(client: Client, spring: Spring) -> None:
    for url in public_urls(spring):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_accessible(response.content.decode(), where=url)


@pytest.mark.django_db
def test_pages_with_hidden_standings_downloads_and_byes_pass_too(
    client: Client, spring: Spring
) -> None:
    t.tournament_change_settings(
        tournament_id=spring.id,
        changes={"downloads_released": True, "standings_hidden_from": 2},
        user=spring.organizer,
    )
    small = new_tournament(spring.organizer, NAMES[:5], name="Small Club")
    t.tournament_pair(tournament_id=small, user=spring.organizer)
    t.tournament_publish(tournament_id=small, round=1, user=spring.organizer)
    urls = [f"/t/{spring.id}/", f"/t/{spring.id}/standings/", f"/t/{spring.id}/player/P1/"]
    urls += [f"/t/{small}/", f"/t/{small}/round/1/", f"/t/{small}/player/P5/", "/"]
    for url in urls:
        assert_accessible(client.get(url).content.decode(), where=url)
    client.force_login(spring.organizer)  # the organizer's notes on the same pages
    for url in urls:
        assert_accessible(client.get(url).content.decode(), where=f"{url} (organizer)")


@pytest.mark.django_db
def test_an_empty_home_page_and_a_game_not_started_pass(
    client: Client, django_user_model: type[User]
) -> None:
    assert_accessible(client.get("/").content.decode(), where="/")
    organizer = django_user_model.objects.create_user("olga", password="x")
    tid = new_tournament(organizer, NAMES[:4], name="Quiet Night")
    assert_accessible(client.get(f"/t/{tid}/").content.decode())
    t.tournament_pair(tournament_id=tid, user=organizer)
    game = t.tournament_publish(tournament_id=tid, round=1, user=organizer).state["rounds"][0][
        "tables"
    ][0]["game"]
    assert_accessible(client.get(f"/g/{uuid.UUID(game)}/").content.decode())


# ----------------------------------------------------------------------------- the checker


def page(body: str, head: str = "") -> str:
    return f'<!DOCTYPE html><html lang="en"><head>{head}</head><body>{body}</body></html>'


def rules(html: str) -> list[str]:
    return [p.rule for p in check_page(html)]


def test_a_good_page_has_no_problems() -> None:
    html = page(
        "<h1>Title</h1><h2>Part</h2><h3>Detail</h3><h2>Other part</h2>"
        '<label for="q">Search</label><input id="q" name="q"><input type="hidden" name="x">'
        '<label>Round <select name="r"><option>1</option></select></label>'
        '<textarea aria-label="Notes"></textarea><button type="submit">Go</button>'
        '<img src="a.png" alt="A chart"><img src="b.png" alt="">'
        '<svg role="img" aria-labelledby="t"><title id="t">Scores</title></svg>'
        '<svg aria-hidden="true"><path d="M 0 0"/></svg><svg><title>Inline name</title></svg>'
        '<span class="card" role="img" aria-label="red burger 7"></span>'
        '<table><tr><th scope="col">Player</th></tr><tr><th scope="row">Ana</th></tr></table>'
        '<a href="/t/1/">Spring Open standings</a>'
    )
    assert check_page(html) == []


@pytest.mark.parametrize(
    ("body", "rule"),
    [
        ("<h2>No title</h2>", "h1"),
        ("<h1>One</h1><h1>Two</h1>", "h1"),
        ("<h1>Title</h1><h3>Skipped a level</h3>", "heading-order"),
        ("<h2>Before</h2><h1>Title</h1>", "heading-order"),
        ('<h1>T</h1><input name="q">', "label"),
        (
            '<h1>T</h1><label for="other">Q</label><input id="q" name="q"><i id="other"></i>',
            "label",
        ),
        ("<h1>T</h1><select name='s'></select>", "label"),
        ("<h1>T</h1><textarea></textarea>", "label"),
        ('<h1>T</h1><img src="x.png">', "image-name"),
        ('<h1>T</h1><svg><path d="M 0 0"/></svg>', "image-name"),
        ("<h1>T</h1><svg><g><title>not a child</title></g></svg>", "image-name"),
        ('<h1>T</h1><span role="img"></span>', "image-name"),
        ("<h1>T</h1><table><tr><th>Player</th></tr></table>", "th-scope"),
        ('<h1>T</h1><a href="/x">click here</a>', "link-text"),
        ('<h1>T</h1><a href="/x"> </a>', "link-text"),
        ('<h1 id="a">T</h1><p id="a"></p>', "duplicate-id"),
        ('<h1>T</h1><svg role="img" aria-labelledby="nope"></svg>', "missing-id"),
    ],
)
def test_the_checker_finds_each_problem(body: str, rule: str) -> None:
    assert rule in rules(page(body))


def test_a_page_without_a_language_is_reported() -> None:
    assert "lang" in rules("<!DOCTYPE html><html><body><h1>T</h1></body></html>")


def test_problems_name_their_line() -> None:
    problems = check_page(page("<h1>T</h1>\n\n<img src='x.png'>"))
    assert [(p.rule, p.line) for p in problems] == [("image-name", 3)]
    with pytest.raises(AssertionError, match=r"in /x:\n  line 3: \[image-name\]"):
        assert_accessible(page("<h1>T</h1>\n\n<img src='x.png'>"), where="/x")


# ----------------------------------------------------------------------------- colours


def test_the_contrast_ratio_matches_wcag() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#ffffff", "#ffffff") == pytest.approx(1)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)


@pytest.mark.parametrize("element", ["card", "chip"])
def test_suit_colours_keep_the_text_readable(element: str) -> None:
    colours = suit_contrast(element=element)
    assert [c.suit for c in colours] == ["green", "red", "yellow", "blue"]
    yellow = next(c for c in colours if c.suit == "yellow")
    assert yellow.text != "#ffffff"  # dark text on yellow (--yellow-ink)
    for c in colours:
        assert c.ratio >= 4.5, f"{c.suit}: {c.text} on {c.background} is only {c.ratio:.2f}:1"


def test_the_contrast_check_reads_the_stylesheet_it_is_given() -> None:
    css = """
      :root { --green: #1b6e35; --red: #b42318; --yellow: #f2c230; --blue: #1d4ed8;
              --yellow-ink: #2b2100; --ink: #000; }
      .card { color: #fff; }
      .suit-green { background: var(--green); }
      .suit-red { background: var(--red); }
      .suit-yellow { background: var(--yellow); }  /* white on yellow: unreadable */
      .suit-blue { background: var(--blue); }
    """
    ratios = {c.suit: c.ratio for c in suit_contrast(css)}
    assert ratios["yellow"] < 4.5 <= min(ratios["green"], ratios["red"], ratios["blue"])
