"""The standings on a phone and the big screen (issue 23, items 1, 10, 14 and 17).

A Trick-n-Chef club night (13 players and a no-show) and a Chefs night at tables of 6 and 5
(scaled points with decimals), in Debian's Chromium. On a phone at 320 and 390 px, in English,
Russian and Japanese: no sideways scrolling, no word broken over two lines, and every row's
rank, points and deciding values (labelled) inside the screen, equal to the standings' own
values (to one decimal); the no-show is not ranked but listed apart. The big screen at
1280x720 and 1920x1080: the QR code and the whole address line in sight, names large enough
to read from the back of a room, the tables paged when they do not fit, the standings with
their tie-break values.

One page object for every width and language (set_viewport_size and the language cookie).
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, ViewportSize  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from games import services as games  # noqa: E402
from games.models import GameProjection  # noqa: E402
from tests.browser.helpers import WIDER_THAN_THE_SCREEN, broken_words  # noqa: E402
from tournaments import services as t  # noqa: E402

pytestmark = pytest.mark.slow

NAMES = [
    "Anastasia Kuznetsova", "Ben", "Chloé Dubois-Lefèvre", "Dev", "Eli", "Fay", "Gus",
    "Hiroshi Watanabe", "Ida", "Jo", "Kim", "Lou", "Zoë O'Brien",
]  # fmt: skip
NO_SHOW = "Renée Côté"
PHONES: list[ViewportSize] = [{"width": 320, "height": 640}, {"width": 390, "height": 844}]
SCREENS: list[ViewportSize] = [{"width": 1280, "height": 720}, {"width": 1920, "height": 1080}]
LANGUAGES = ("en", "ru", "ja")

ROWS = """() => Array.from(document.querySelectorAll("table.standings tbody tr")).map((tr) => {
  const box = (el) => { const r = el.getBoundingClientRect();
                        return {left: r.left, right: r.right, width: r.width, height: r.height}; };
  const points = tr.querySelector("td.points");
  return {
    rank: tr.cells[0].querySelector("span") ? tr.cells[0].firstChild.textContent
                                            : tr.cells[0].textContent,
    name: tr.querySelector("th a").textContent,
    points: points.textContent, pointsBox: box(points), rankBox: box(tr.cells[0]),
    figures: Array.from(tr.querySelectorAll(".row-figures .figure")).map((f) => ({
      label: f.querySelector(".figure-label").textContent,
      value: f.textContent.slice(f.querySelector(".figure-label").textContent.length).trim(),
      box: box(f),
    })),
  };
})"""


def results_only(tid: uuid.UUID, user: User, number: int, entry: Any) -> None:
    """Enter every table of round ``number`` as results (``entry(seat names)``)."""
    rnd = t.tournament_get(tournament_id=tid, user=user).summary["rounds"][number - 1]
    for table in rnd["tables"]:
        game = GameProjection.objects.get(stream_id=table["game"])
        names = [s["name"] for s in table["seats"]]
        games.game_enter_results(
            game_id=game.stream_id, expected_version=game.version, user=user, **entry(names)
        )


def trick_n_chef_night(olga: User, names: list[str], rounds_out: int = 2) -> uuid.UUID:
    """Round 1 entered and confirmed; round 2 published (``rounds_out`` 2). ``NO_SHOW``
    registered, never here."""
    tid = t.tournament_create(
        user=olga, name="Club night at the Café de la Gare", date="2026-12-01", rounds=3, seed=5
    ).tournament_id
    t.tournament_register(tournament_id=tid, user=olga, names=names, checked_in=True)
    t.tournament_register(tournament_id=tid, user=olga, names=[NO_SHOW])
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    results_only(
        tid, olga, 1, lambda seated: {"scores": {n: [i + 3, i, 2] for i, n in enumerate(seated)}}
    )
    t.tournament_confirm_finished(tournament_id=tid, round=1, user=olga)
    if rounds_out == 2:
        t.tournament_close_round(tournament_id=tid, round=1, user=olga)
        t.tournament_pair(tournament_id=tid, user=olga)
        t.tournament_publish(tournament_id=tid, round=2, user=olga)
    return tid


def chefs_night(olga: User) -> uuid.UUID:
    """Chefs at a table of 6 and one of 5, scaled points (4.8, 3.6, ... and shared places)."""
    tid = t.tournament_create(
        user=olga, name="Chefs", date="2026-12-01", rounds=2, seed=3, game_type="chefs",
        table_size=6, confirmation="auto",
    ).tournament_id  # fmt: skip
    t.tournament_register(tournament_id=tid, user=olga, names=NAMES[:11], checked_in=True)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    positions = [23, 19, 19, 14, 9, 5]
    results_only(
        tid,
        olga,
        1,
        lambda seated: {
            "entry": {"positions": dict(zip(seated, positions[: len(seated)], strict=True))}
        },
    )
    return tid


def expected_rows(tid: uuid.UUID) -> list[dict[str, Any]]:
    """The standings' rows and each one's deciding values (exact), in order."""
    data = t.tournament_standings(tournament_id=tid, user=None)
    rule = data.get("rule")
    if rule is not None:
        keys = [c["key"] for c in rule["tiebreaks"]]
    else:
        keys = ["victory_points", "opponents_average", "first_places"]  # the default order
    return [
        {
            "rank": r["rank"],
            "name": r["name"],
            "points": r["points"],
            "deciding": [r["tiebreaks"].get(k, r.get(k)) for k in keys],
        }
        for r in data["rows"]
    ]


def number(text: str) -> float:
    return float(text.replace(",", ".").replace("\u2212", "-"))


def check_phone_rows(page: Page, tid: uuid.UUID, where: str) -> list[str]:
    problems = [f"{where}: {w}" for w in page.evaluate(WIDER_THAN_THE_SCREEN)]
    problems += [f"{where}: {w}" for w in broken_words(page)]
    width = page.viewport_size["width"] if page.viewport_size else 0
    shown, expected = page.evaluate(ROWS), expected_rows(tid)
    assert [r["name"] for r in shown] == [r["name"] for r in expected], where
    for row, want in zip(shown, expected, strict=True):
        boxes = [row["rankBox"], row["pointsBox"], *(f["box"] for f in row["figures"])]
        if any(b["width"] <= 1 or b["left"] < 0 or b["right"] > width + 0.5 for b in boxes):
            problems.append(f"{where}: {row['name']}'s figures are not all in sight: {boxes}")
        assert int(row["rank"].strip()) == want["rank"], where
        assert abs(number(row["points"]) - want["points"]) <= 0.05 + 1e-9, (where, row)
        values = [number(f["value"]) for f in row["figures"]]
        assert len(values) == len(want["deciding"]), (where, row)
        for value, exact in zip(values, want["deciding"], strict=True):
            assert abs(value - exact) <= 0.05 + 1e-9, (where, row, want)
        assert all(f["label"] for f in row["figures"]), (where, row)
        for text in (row["points"], *(f["value"] for f in row["figures"])):
            assert re.fullmatch(r"-?\d+([.,]\d)?", text), (where, text)  # one decimal at most
    return problems


def test_standings_on_a_phone_show_points_and_tiebreaks_in_every_language(
    live_server: LiveServer, transactional_db: None, django_user_model: type[User], page: Page
) -> None:
    olga = django_user_model.objects.create_user("olga", password="Trick-n-Chef 2026!")
    nights = {"trick-n-chef": trick_n_chef_night(olga, NAMES), "chefs": chefs_night(olga)}
    problems: list[str] = []
    host = live_server.url.split("//")[1].split(":")[0]
    for language in LANGUAGES:
        page.context.add_cookies([{"name": "django_language", "value": language, "domain": host,
                                   "path": "/"}])  # fmt: skip
        for game, tid in nights.items():
            page.goto(f"{live_server.url}/t/{tid}/standings/")
            for size in PHONES:
                page.set_viewport_size(size)
                where = f"{game} {language} {size['width']} px"
                problems += check_phone_rows(page, tid, where)
            if game == "trick-n-chef":  # the no-show: not ranked, listed apart
                apart = page.locator("#not-checked-in")
                assert NO_SHOW in apart.inner_text() and apart.is_visible()
                assert NO_SHOW not in page.locator("table.standings").inner_text()
    assert not problems, "\n".join(problems)


SCREEN = """() => {
  const inSight = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5
           && r.right <= innerWidth + 0.5; };
  const address = document.querySelector(".screen-follow figcaption");
  const qr = document.querySelector(".screen-follow svg");
  const tables = Array.from(document.querySelectorAll(".screen-table"));
  const seat = document.querySelector(".screen-table:not([hidden]) .screen-seats li");
  return {
    address: address && inSight(address), qr: qr && inSight(qr),
    shown: tables.filter((el) => !el.hidden).length, all: tables.length,
    allShownInSight: tables.filter((el) => !el.hidden).every(inSight),
    pageOf: document.querySelector("#screen-pairings .screen-page-of").textContent,
    nameSize: seat ? parseFloat(getComputedStyle(seat).fontSize) : 0,
    scrolls: document.documentElement.scrollHeight > innerHeight + 1,
  };
}"""
REFRESH_UNSEEN = """() => new Promise((done) => {
  // every frame the browser paints while htmx brings the screen again: how many tables show
  let most = 0, frames = 0;
  const count = () => Array.from(document.querySelectorAll(".screen-table"))
    .filter((el) => !el.hidden).length;
  const frame = () => {
    most = Math.max(most, count()); frames += 1; requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  document.body.addEventListener("htmx:afterSettle", () => {
    requestAnimationFrame(() => requestAnimationFrame(() => done({most, frames, now: count()})));
  }, {once: true});
  htmx.ajax("GET", location.pathname, {target: "#screen", swap: "outerHTML"});
})"""
"""The most tables seen in any painted frame around an htmx refresh of a paged screen."""
STANDINGS_SHOWN = """() => !document.getElementById("screen-standings").hidden"""
SCREEN_ROWS = """() => Array.from(document.querySelectorAll(".screen-standings tbody tr"))
  .filter((tr) => !tr.hidden).map((tr) => {
    const r = tr.getBoundingClientRect();
    return {cells: [tr.cells[0].textContent, tr.querySelector("th").firstChild.textContent,
                    ...Array.from(tr.querySelectorAll("td")).slice(1).map((c) => c.textContent)]
              .map((c) => c.trim()),
            inSight: r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5};
  })"""


def test_the_big_screen_fits_projector_and_tv_and_pages_the_tables(
    live_server: LiveServer, transactional_db: None, django_user_model: type[User], page: Page
) -> None:
    olga = django_user_model.objects.create_user("olga", password="Trick-n-Chef 2026!")
    small = trick_n_chef_night(olga, NAMES)  # 13 players: one page of tables
    many = [
        f"{first} {last}"
        for first in ("Ana", "Bea", "Cai", "Dan", "Eva", "Finn")
        for last in ("Moreau", "Tanaka", "Ivanova", "Schmidt", "Okafor", "Lindqvist")
    ]
    big = trick_n_chef_night(olga, many, rounds_out=1)  # 9 tables: more than a screen holds
    for size in SCREENS:
        page.set_viewport_size(size)
        for tid, paged in ((small, False), (big, True)):
            page.goto(f"{live_server.url}/t/{tid}/screen/")
            seen = page.evaluate(SCREEN)
            where = f"{size['width']}x{size['height']} {seen['all']} tables"
            assert seen["address"] and seen["qr"], (where, seen)
            assert not seen["scrolls"] and seen["allShownInSight"], (where, seen)
            assert seen["nameSize"] >= size["height"] / 40, (where, seen)  # 18 px at 720
            if paged:
                assert 0 < seen["shown"] < seen["all"] and seen["pageOf"], (where, seen)
                refresh = page.evaluate(REFRESH_UNSEEN)  # no flash of the whole list
                assert refresh["most"] == refresh["now"] == seen["shown"], (where, refresh)
            else:
                assert seen["shown"] == seen["all"] and not seen["pageOf"], (where, seen)
        # the standings' turn: points and the tie-breaks' values, every row in sight
        page.evaluate("""() => { document.getElementById("screen").dataset.rotate = "0.01"; }""")
        page.wait_for_function(STANDINGS_SHOWN)
        rows = page.evaluate(SCREEN_ROWS)
        expected = expected_rows(big)
        assert rows and all(r["inSight"] for r in rows), rows
        for row in rows:
            want = next(e for e in expected if e["name"] == row["cells"][1])
            figures = [number(c) for c in row["cells"][2:]]
            assert len(figures) == 1 + len(want["deciding"]), row
            for value, exact in zip(figures, [want["points"], *want["deciding"]], strict=True):
                assert abs(value - exact) <= 0.05 + 1e-9, (row, want)
