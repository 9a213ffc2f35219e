"""The club evening in Russian and in Japanese, in a real browser at a phone's width (issue 14).

Debian's Chromium (Playwright, tests/browser/conftest.py) against the live server, 390 x 844:
the language is chosen as a user would, with the chooser in the page header (a GET form to
/i18n/choose/) on the home page, and must stick (the language cookie) on every page after it.
Olga logs in; the tournament (8 players, checked in) is created through the services to save
time; then, in the browser: the desk, round 1 paired and published, table 1's scorekeeper page,
one seat's phone page, table 1's results from its paper sheet (the results form, not play by
play), table 2's too, both tables confirmed and the round closed on the desk, then the public
tournament, round and standings pages.

On every page visited, and after every change the desk swaps in: a screenshot and the checks of
``look`` (accessibility, nothing wider than the screen), ``<html lang>`` is the language, and no
English is left: every run of two or more Latin letters in the visible text
(``document.body.innerText``), the document's title, and the ``title``, ``aria-label``,
``placeholder`` and ``alt`` of visible elements must be a name (players, the tournament, the
username, "Trick-n-Chef", the chooser's own language names) or one of the few technical words
that every language writes in Latin (``TECHNICAL``). Card codes (``Y8``) hold a single letter,
so they never count as a word. In Japanese, a Latin full stop after Japanese text fails too: a
sentence joined to another by the code rather than by its translation ("待っています. 全員").

Controls are found without their English names: by form actions, input names and ids, or by
their name in the language, from the catalogue (``said``: gettext of the exact msgid under
``translation.override``).
"""

from __future__ import annotations

import re
import uuid
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("playwright.sync_api")

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.utils import translation  # noqa: E402
from playwright.sync_api import Locator, Page, ViewportSize, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from games.services import seat_links_of  # noqa: E402
from tests.browser.helpers import look  # noqa: E402
from tournaments import services as t  # noqa: E402

if TYPE_CHECKING:
    from tests.browser.recorders import Shots

pytestmark = pytest.mark.django_db(transaction=True)

USERNAME, PASSWORD = "olga", "Trick-n-Chef 2026!"
TOURNAMENT = "Friday Cup"
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]
PAPER_SHEETS = {
    1: ([10, 12, 8], [9, 9, 9], [15, 3, 12], [7, 11, 10]),
    2: ([12, 10, 9], [8, 8, 8], [11, 11, 11], [5, 14, 7]),
}
"""Each table's round scores, by seat, as its paper sheet has them."""
PHONE: ViewportSize = {"width": 390, "height": 844}
TIMEOUT_MS = 10_000

NAMES_ALLOWED = (
    "Trick-n-Chef",
    # The club's other games, offered on the desk's new-tournament form: brands, written as
    # Trick-n-Chef is (tests/web/test_i18n_crawl.py allows them too).
    "Food Truck",
    "Chefs",
    "Crazy Kitchen",
    *(translation.get_language_info(code)["name_local"] for code, _ in settings.LANGUAGES),
)
"""Written the same in every language: the games' names, and the language chooser's options
(each language is named in itself, never translated: "English", "français")."""
TECHNICAL = (
    # The footer's link to the API documentation: the interface's name, an acronym that
    # Russian and Japanese technical writing keep in Latin letters.
    "API",
    # The players' list uploaded as a file, and the results downloaded: the file format's
    # name ("файл CSV", "CSV ファイル").
    "CSV",
    # The tables' codes to scan: "QR-код", "QRコード" (a trademark's name).
    "QR",
    # The round schedule's time zone, as clocks and settings write it in every language.
    "UTC",
    # The downloads' formats, named as the files are: the results as "JSON Lines" (the
    # record format's name, docs/record-format.md) and every game's record in a "zip".
    "JSON Lines",
    "zip",
)
"""Words that every language writes in Latin letters: keep this list short, each one justified."""

ADDRESS = re.compile(r"\bhttps?://\S+")
"""A web address (the seat links, the public address): an address, not words."""
DESK_FORMATS = ("PUBLIC_URL", "name", "rating")
"""On the desk only, names of formats, typed as they are: the setting to give the public
address, and the column names the players' CSV must have (its header row: not translated)."""
LATIN_STOP_IN_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]\. ")
"""A Latin full stop after Japanese text ("待っています. 全員"): Japanese ends a sentence with 。"""
LATIN_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ɏ]{2,}")

SEEN_TEXT = """() => {
  const shown = (el) => el.checkVisibility({visibilityProperty: true});
  const attributes = [];
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder], [alt]")) {
    if (el.closest("head") || !shown(el)) continue;
    for (const name of ["title", "aria-label", "placeholder", "alt"]) {
      const value = el.getAttribute(name);
      if (value) attributes.push(`<${el.tagName.toLowerCase()} ${name}="${value}">`);
    }
  }
  return {text: document.body.innerText, title: document.title, attributes};
}"""

ZONE = re.compile(
    r"\b(?:Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific)/[A-Za-z_/-]+"
)
"""A time zone's IANA name (Europe/Paris): the same in every language, typed as it is."""


def said(lang: str, msgid: str, context: str | None = None) -> str:
    """The catalogue's words for ``msgid`` in ``lang`` (what the page must say)."""
    with translation.override(lang):
        if context is None:
            return translation.gettext(msgid)
        return translation.pgettext(context, msgid)


def english_left(text: str, allowed: tuple[str, ...]) -> list[str]:
    """The runs of Latin letters in ``text`` that are neither part of an allowed name or
    technical word (whole words only: "Ana", not the "ana" of "banana") nor of a web address,
    each with its line ("words in: the line")."""
    phrases = sorted((*allowed, *TECHNICAL), key=len, reverse=True)  # "Friday Cup" first
    known = re.compile(
        r"(?<![A-Za-zÀ-ɏ])(?:" + "|".join(map(re.escape, phrases)) + r")(?![A-Za-zÀ-ɏ])"
    )
    found = []
    for line in text.splitlines():
        words = LATIN_WORD.findall(known.sub(" ", ZONE.sub(" ", ADDRESS.sub(" ", line))))
        if words:
            found.append(f"{' '.join(words)} in: {line.strip()[:160]}")
    return found


def test_english_left_is_what_the_check_finds() -> None:
    """The check itself, without a browser: names, card codes, addresses and the technical
    words pass; English words are listed with their line."""
    allowed = ("Ana", "Friday Cup", "Trick-n-Chef")
    assert english_left("Ana сыграла Y8 и G10 · Friday Cup · API · QR-код", allowed) == []
    assert english_left("ссылка: http://localhost:8000/seat/abc/", allowed) == []
    assert english_left("Banana\nИгрок Points", allowed) == [
        "Banana in: Banana",
        "Points in: Игрок Points",
    ]


class Visit:
    """Looks at each page in the language chosen: screenshot, lang, no English left."""

    def __init__(self, page: Page, shots: Shots, lang: str, allowed: tuple[str, ...]) -> None:
        self.page, self.shots, self.lang, self.allowed = page, shots, lang, allowed

    def __call__(self, what: str, formats: tuple[str, ...] = ()) -> None:
        page, allowed = self.page, (*self.allowed, *formats)
        look(page, self.shots, f"{self.lang}-{what}")
        assert page.locator("html").get_attribute("lang") == self.lang, (what, page.url)
        seen: dict[str, Any] = page.evaluate(SEEN_TEXT)
        found = {
            "text": english_left(seen["text"], allowed),
            "title": english_left(seen["title"], allowed),
            "attribute": [
                attribute
                for attribute in seen["attributes"]
                if english_left(attribute.split('="', 1)[1], allowed)
            ],
        }
        if self.lang == "ja":  # a sentence joined to another by code, not by its translation
            found["full stop"] = [
                line for line in seen["text"].splitlines() if LATIN_STOP_IN_JAPANESE.search(line)
            ]
        problems = [f"  {where}: {line}" for where, lines in found.items() for line in lines]
        assert not problems, f"Not in {self.lang} on {what} ({page.url}):\n" + "\n".join(problems)
        cookie = {c["name"]: c["value"] for c in page.context.cookies()}
        assert cookie.get("django_language") == self.lang, (what, cookie)


def seating(tid: uuid.UUID, organizer: User) -> list[tuple[uuid.UUID, list[str]]]:
    """Round 1's tables: each one's game and its players in seat order."""
    summary = t.tournament_get(tournament_id=tid, user=organizer).summary
    return [
        (uuid.UUID(table["game"]), [s["name"] for s in table["seats"]])
        for table in summary["rounds"][0]["tables"]
    ]


def desk_button(page: Page, action_ends: str) -> Locator:
    """The round panel's one-button form posting to the URL ending with ``action_ends``."""
    return page.locator(f'#round-panel form[action$="{action_ends}"] button[type="submit"]')


def enter_results(page: Page, game: uuid.UUID, table: int, visit: Visit) -> None:
    """From the scorekeeper's table page: the results form, filled from the paper sheet."""
    page.locator(f'a[href="/table/{game}/results/"]').click()
    form = page.locator(f'form[action="/table/{game}/results/"]')
    expect(form).to_be_visible()
    for seat, scores in enumerate(PAPER_SHEETS[table]):  # score-<seat from 0>-<deal>
        for number, score in enumerate(scores, start=1):
            form.locator(f'input[name="score-{seat}-{number}"]').fill(str(score))
    visit(f"table-{table}-results-form")
    form.locator('button[type="submit"]').click()
    expect(page.locator("ol.tbl-ranking > li")).to_have_count(4)
    visit(f"table-{table}-final")


@pytest.mark.parametrize("lang", ["ru", "ja"])
def test_a_club_evening_in_the_language_chosen(
    lang: str,
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    shots: Shots,
) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    page.set_viewport_size(PHONE)
    olga = django_user_model.objects.create_user(USERNAME, password=PASSWORD)
    tid = t.tournament_create(
        user=olga, name=TOURNAMENT, date="2026-12-04", rounds=3, seed=5
    ).tournament_id
    t.tournament_register(tournament_id=tid, user=olga, names=NAMES, checked_in=True)
    visit = Visit(page, shots, lang, (*NAMES_ALLOWED, TOURNAMENT, USERNAME, *NAMES))

    # 1. The home page in English (the browser asks for nothing else); the chooser in the
    # header changes the language, and the page comes back in it.
    page.goto(live_server.url + "/")
    assert page.locator("html").get_attribute("lang") == "en"
    chooser = page.locator('header form[action="/i18n/choose/"]')
    chooser.locator('select[name="language"]').select_option(lang)
    chooser.locator('button[type="submit"]').click()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    assert page.url == live_server.url + "/"
    visit("home")

    # 2. The login page, from the header's link; back home, logged in.
    page.locator('header a[href^="/accounts/login/"]').click()
    expect(page.locator("h1")).to_have_text(said(lang, "Log in"))
    page.locator("#id_username").fill(USERNAME)
    page.locator("#id_password").fill(PASSWORD)
    visit("login")
    page.locator('main form[action="/accounts/login/"] button[type="submit"]').click()
    expect(page.locator('header form[action="/accounts/logout/"]')).to_be_visible()

    # 3. The desk: the tournament, round 1 paired, the proposal, published.
    page.locator('header a[href="/desk/"]').click()
    visit("desk-home")
    page.locator(f'a[href="/desk/{tid}/"]').click()
    expect(page.locator("h1")).to_have_text(TOURNAMENT)
    visit("desk-registered", DESK_FORMATS)
    desk_button(page, "/pair/").click()
    expect(desk_button(page, "/round/1/publish/")).to_be_visible()
    visit("desk-proposal", DESK_FORMATS)
    desk_button(page, "/round/1/publish/").click()  # it asks first, in the page
    expect(page.locator("#confirm-box")).to_be_focused()
    visit("desk-publish-asks", DESK_FORMATS)
    page.locator('#confirm-box form input[name="confirmed"] ~ button').click()
    expect(desk_button(page, "/round/1/close/")).to_be_visible()
    visit("desk-published", DESK_FORMATS)
    page.locator("#round-panel").screenshot(path=str(shots.folder / f"{lang}-round-panel.png"))
    (game_1, seats_1), (game_2, _) = seating(tid, olga)

    # 4. Table 1: its scorekeeper page, a seat's phone page, its results from the paper sheet.
    page.locator(f'#round-panel a[href="/table/{game_1}/"]').click()
    expect(page.locator(f'a[href="/table/{game_1}/results/"]')).to_be_visible()
    visit("table-1")
    link = seat_links_of([game_1])[game_1][0]
    assert link.player == seats_1[0]
    page.goto(f"{live_server.url}/seat/{link.token}/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    visit("seat-phone")
    page.go_back()
    enter_results(page, game_1, 1, visit)

    # 5. Table 2, from the desk: its results from the paper sheet.
    page.locator('header a[href="/desk/"]').click()
    page.locator(f'a[href="/desk/{tid}/"]').click()
    page.locator(f'#round-panel a[href="/table/{game_2}/"]').click()
    enter_results(page, game_2, 2, visit)

    # 6. The desk: both tables confirmed, round 1 closed.
    page.locator('header a[href="/desk/"]').click()
    page.locator(f'a[href="/desk/{tid}/"]').click()
    visit("desk-to-confirm", DESK_FORMATS)
    for number in (1, 2):
        desk_button(page, f"/round/1/table/{number}/confirm/").click()
        expect(desk_button(page, f"/round/1/table/{number}/confirm/")).to_have_count(0)
    visit("desk-confirmed", DESK_FORMATS)
    desk_button(page, "/round/1/close/").click()
    page.locator('#confirm-box form input[name="confirmed"] ~ button').click()
    expect(page.locator("#round-panel details.closed-round")).to_be_visible()
    visit("desk-closed", DESK_FORMATS)

    # 7. The public pages: the tournament, round 1, the standings.
    page.locator(f'nav.jump a[href="/t/{tid}/"]').click()
    expect(page.locator("h1")).to_contain_text(TOURNAMENT)
    visit("public-tournament")
    page.locator(f'a[href="/t/{tid}/round/1/"]').first.click()
    expect(page).to_have_url(f"{live_server.url}/t/{tid}/round/1/")
    visit("public-round")
    page.locator(f'a[href="/t/{tid}/standings/"]').first.click()
    expect(page.locator("h1")).to_have_text(said(lang, "Standings"))
    expect(page.locator("main table tbody tr")).to_have_count(len(NAMES))
    visit("public-standings")
