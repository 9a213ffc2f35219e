"""Helpers for the browser tests: looking at a page (screenshot and accessibility), entering a
simulated game tap by tap on the scorekeeper's table page, and the standings expected from the
games' scores, computed here without the app's standings code.

Controls are found by their accessible names (what a screen reader says), so a control that
loses its name fails the test.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from playwright.sync_api import Locator, Page, Response, expect

from engine.tricknchef.cards import (
    CARD_STARS,
    CARD_SUIT,
    CARD_VALUE,
    COIN_STEP,
    DISH,
    Card,
    describe,
)
from engine.tricknchef.events import CardPlayed, ChefChosen, ChefTaken, Event, RoundStarted
from engine.tricknchef.referee import legal_cards
from engine.tricknchef.replay import step
from engine.tricknchef.state import GameState, Phase
from games.tricknchef.table_presenters import coin_words
from tests.web.a11y import check_page

if TYPE_CHECKING:
    from tests.browser.recorders import Console, Shots


# ----------------------------------------------------------------------------- looking at pages


WIDER_THAN_THE_SCREEN = """() => {
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= width) return [];
  const inScrollingBox = (el) => {
    for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
      if (getComputedStyle(box).overflowX !== "visible") return true;
    }
    return false;
  };
  return Array.from(document.querySelectorAll("body *"))
    .filter((el) => el.getBoundingClientRect().right > width + 0.5 && !inScrollingBox(el))
    .slice(0, 5)
    .map((el) => `<${el.tagName.toLowerCase()} class="${el.className}"> ends at ` +
                 `${Math.round(el.getBoundingClientRect().right)}px of ${width}px`);
}"""


BROKEN_WORDS = r"""() => {
  // A word (the letters between spaces, hyphens and Japanese punctuation) set on more than one
  // line: "Se/at", "2n/d". Japanese has no spaces: in a table's header or cell and on a button
  // or badge, a run of up to 10 CJK characters must not break either ("対/戦/相/手", "コ/イ/ン");
  // elsewhere Japanese is prose and wraps as Japanese does. An address (a URL, or text marked
  // up as code or with data-breaks) is not a word: it breaks where it must.
  const cjk = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/;
  const label = "th, td, button, .button, .badge, dt, .step-position";
  const found = [];
  const range = document.createRange();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("script, style, noscript, svg, [hidden], [aria-hidden=true]")) continue;
    if (!el.getClientRects().length) continue;
    if (el.closest("code, kbd, samp, [data-breaks]") || node.data.includes("://")) continue;
    const pieces = /[^\s\-\u2010\u2013\u2014\/\u3000-\u303f\u30fb\uff08\uff09\uff0c\uff1a]+/g;
    for (let m = pieces.exec(node.data); m; m = pieces.exec(node.data)) {
      const word = m[0];
      const prose = cjk.test(word) && (word.length > 10 || !el.closest(label));
      if (word.length < 2 || prose) continue;
      range.setStart(node, m.index);
      range.setEnd(node, m.index + word.length);
      const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
      const lines = [];
      for (const r of rects) {
        if (!lines.some((top) => Math.abs(top - r.top) < r.height / 2)) lines.push(r.top);
      }
      if (lines.length > 1) {
        found.push(`"${word}" in <${el.tagName.toLowerCase()} class="${el.className}"> ` +
                   `is broken over ${lines.length} lines`);
        if (found.length >= 8) return found;
      }
    }
  }
  return found;
}"""
"""Words the page breaks across lines (issue 23: "Se/at", "Pla/ce", "2n/d", "対/戦/相/手")."""


def broken_words(page: Page) -> list[str]:
    """Each word this page shows broken across two or more lines (empty when there is none)."""
    found: list[str] = page.evaluate(BROKEN_WORDS)
    return found


def look(page: Page, shots: Shots, what: str) -> None:
    """A screenshot of the page as it is; the accessibility checker on its DOM (after the
    scripts ran), failing with one problem per line; and no sideways scrolling on a phone."""
    shots.take(page, what)
    problems = [str(p) for p in check_page(page.content())]
    problems += page.evaluate(WIDER_THAN_THE_SCREEN)
    if problems:
        listed = "\n".join(f"  {p}" for p in problems)
        raise AssertionError(f"problems on {what} ({page.url}):\n{listed}")


def starting(text: str) -> re.Pattern[str]:
    """An accessible name that starts with ``text`` (followed by nothing or a separator)."""
    return re.compile("^" + re.escape(text) + r"(?:$|[:,( ])")


def whole(text: str) -> re.Pattern[str]:
    """Exactly this accessible name (Playwright's ``exact=True`` trims; this does not)."""
    return re.compile("^" + re.escape(text) + "$")


VERSION_AT_LEAST = "v => Number(document.querySelector('[data-live]')?.dataset.version || 0) >= v"
"""A seat phone's page shows the game at version ``v`` or later (its live panel's)."""

WATCH = """
(() => {
  window.__seatLog = [];
  window.__versions = [];
  const original = window.fetch;
  window.fetch = async (...args) => {
    const response = await original(...args);
    response.clone().text().then((body) => {
      window.__seatLog.push({ url: String(args[0]), status: response.status, body });
    });
    return response;
  };
  document.addEventListener("DOMContentLoaded", () => {
    const box = document.getElementById("seat-live");
    if (!box) return;
    const note = () => {
      const live = box.querySelector("[data-live]");
      if (live) window.__versions.push([Number(live.dataset.version), Date.now()]);
    };
    note();
    new MutationObserver(note).observe(box, { childList: true });
  });
})();
"""
"""A seat phone's init script (``context.add_init_script``): ``window.__seatLog`` holds every
answer its fetches received (url, status, body), ``window.__versions`` each version its live
panel showed, with the time it did (``[version, Date.now()]``)."""


# ----------------------------------------------------------------------------- a game, replayed


def card_name(card: Card) -> str:
    """How the card drawing names a card: "red burger 9, 3 stars"."""
    stars = CARD_STARS[card]
    suit = CARD_SUIT[card]
    return f"{suit} {DISH[suit]} {CARD_VALUE[card]}, {stars} star{'s' if stars > 1 else ''}"


def replayed(events: Sequence[Event]) -> GameState:
    state = GameState()
    for event in events:
        step(state, event)
    return state


def banner_words(state: GameState) -> str:
    """What the turn banner says in this state (docs/scorekeeping.md)."""
    player = state.expected
    if state.phase is Phase.ROUND_START:
        return f"Deal {state.round_no + 1}: deal the cards"
    if state.phase is Phase.CHEF_PICK:
        return f"{player}'s turn: pick a Chef"
    if state.phase is Phase.PLAY:
        return f"{player}'s turn: " + ("play a card" if state.trick else "lead trick")
    if state.phase is Phase.CHEF_TAKE:
        return f"{player} played the lowest card and takes a Chef: tap a colour"
    return "The game is over"


@dataclass(frozen=True, slots=True)
class Revoke:
    """A moment where the player to play holds the led suit: ``card`` is one they may not play."""

    index: int
    player: str
    card: Card
    led: str
    held: tuple[Card, ...]
    """The player's cards of the led suit, lowest first (as the refusal lists them)."""


def first_revoke(events: Sequence[Event]) -> Revoke:
    state = replayed(events[:1])
    for index, event in enumerate(events[1:], start=1):
        player, led = state.expected, state.led_suit
        if state.phase is Phase.PLAY and player is not None and led is not None:
            illegal = sorted(set(state.hands[player]) - set(legal_cards(state)))
            if illegal:
                held = sorted(
                    (c for c in state.hands[player] if CARD_SUIT[c] == led),
                    key=CARD_VALUE.__getitem__,
                )
                return Revoke(index, player, illegal[0], led, tuple(held))
        step(state, event)
    raise AssertionError("this game never lets a player revoke: choose another seed")


def a_wrong_card(events: Sequence[Event], after: int) -> tuple[int, Card]:
    """The first card play after index ``after`` where another legal card was possible: (its
    index, a legal card that was not played)."""
    state = replayed(events[: after + 1])
    for index in range(after + 1, len(events)):
        event = events[index]
        if isinstance(event, CardPlayed):
            others = sorted(set(legal_cards(state)) - {event.card})
            if others:
                return index, others[0]
        step(state, event)
    raise AssertionError("no other legal card anywhere: choose another seed")


# ----------------------------------------------------------------------------- the table page


class TablePage:
    """The scorekeeper's table page, tapped as a scorekeeper would."""

    def __init__(self, page: Page, state: GameState) -> None:
        self.page = page
        self.state = state
        self.banner = page.locator("#table-turn")

    # -- one tap, answered by the table panel

    def tap(self, click: Callable[[], None]) -> None:
        """Click a control that posts to the table: its answer must be a success (the new
        table panel)."""
        with self.page.expect_response(self._table_post) as answer:
            click()
        assert answer.value.ok, f"{answer.value.status} from {answer.value.url}"

    @staticmethod
    def _table_post(response: Response) -> bool:
        return response.request.method == "POST" and "/table/" in response.url

    def shows_turn(self) -> None:
        expect(self.banner).to_contain_text(banner_words(self.state))

    def enter(self, event: Event, before_tap: Callable[[], None] | None = None) -> None:
        """Every tap ``event`` takes, then wait for the page to show the state after it;
        ``before_tap`` runs just before a card is tapped, its coins set."""
        if isinstance(event, RoundStarted):
            self.deal(event)
        elif isinstance(event, ChefChosen):
            name = f"{event.player} picks the {event.suit} ({DISH[event.suit]}) Chef"
            button = self.page.get_by_role("button", name=whole(name))
            self.tap(button.click)
        elif isinstance(event, CardPlayed):
            self.set_coins(event.coins)
            if before_tap is not None:
                before_tap()
            self.tap(self.card_button(event.player, event.card, event.coins).click)
        elif isinstance(event, ChefTaken):
            name = f"{event.player} takes a {event.suit} ({DISH[event.suit]}) Chef"
            button = self.page.get_by_role("button", name=starting(name))
            self.tap(button.click)
        else:
            raise AssertionError(f"no tap enters {event!r}")
        step(self.state, event)
        self.shows_turn()

    # -- the deal

    def deal(self, event: RoundStarted) -> None:
        page = self.page
        expect(
            page.get_by_role("heading", name=f"Deal {event.round}: deal the cards")
        ).to_be_visible()
        dealing = page.get_by_role("group", name="Dealing to")
        players = [player for player, _ in event.hands]
        for seat, (player, hand) in enumerate(event.hands[:-1]):
            dealing.get_by_role("radio", name=starting(player)).check()
            for card in hand:
                page.get_by_role("button", name=starting(card_name(card))).click()
            expect(dealing.locator(f'[data-count="{seat}"]')).to_have_text("10")
        last = players[-1]
        # The last hand fills itself with the 10 cards left.
        expect(page.get_by_text(f"the 10 cards left went to {last}.")).to_be_visible()
        for card in event.hand(last):
            name = f"{card_name(card)}: in {last}'s hand"
            expect(page.get_by_role("button", name=whole(name))).to_be_visible()
        first = page.get_by_role("group", name=starting("Who plays first"))
        first.get_by_role("radio", name=starting(event.first_player)).check()
        self.tap(page.get_by_role("button", name=whole("Confirm the deal")).click)

    # -- cards and coins

    def set_coins(self, coins: int) -> None:
        """The −2 / +2 stepper, to ``coins`` (a signed count) from nothing."""
        if not coins:
            return
        step_button = self.page.get_by_role(
            "button", name=starting("plus" if coins > 0 else "minus")
        )
        for _ in range(abs(coins)):
            step_button.click()
        expect(self.page.locator("output.tbl-coin-words")).to_have_text(coin_words(coins))

    def card_button(
        self, player: str, card: Card, coins: int = 0, must_follow: str | None = None
    ) -> Locator:
        """A card of the hand on show; ``must_follow``: the led suit, for a card the player may
        not play (still offered, marked as such)."""
        name = f"{player} plays {card_name(card)}"
        if must_follow is not None:
            name += f" (not allowed: {player} must follow {must_follow})"
        if coins:
            counts = CARD_VALUE[card] + COIN_STEP * coins
            name += f", with {coin_words(coins)}: counts {counts}"
        return self.page.get_by_role("button", name=whole(name))

    def refused(self, revoke: Revoke, console: Console) -> None:
        """Tap a card against the rules: the page says why, in the rule's words, and the table
        stays where it was (the same turn; the game's version is the caller's to check)."""
        button = self.card_button(revoke.player, revoke.card, must_follow=revoke.led)
        with console.refusal(self.page, 422):
            button.click()
        held = ", ".join(describe(card) for card in revoke.held)  # "yellow 8", not "Y8"
        rule = (
            f"{revoke.player} must follow {revoke.led}: {revoke.led} was led and "
            f"{revoke.player} holds {held}"
        )
        expect(self.page.locator("#table-refusal")).to_contain_text(f"Refused: {rule}")
        self.shows_turn()

    def wrong_card_undone(self, player: str, card: Card) -> None:
        """Tap a legal card that was not the one played, see the table move on, and take it
        back with the Undo button, which names the card it undoes."""
        self.tap(self.card_button(player, card).click)
        expect(self.banner).not_to_contain_text(banner_words(self.state))
        undo = self.page.get_by_role(
            "button", name=whole(f"Undo last: {player}'s {describe(card)}")
        )
        self.tap(undo.click)
        self.shows_turn()


# ----------------------------------------------------------------------------- standings


def places(totals: Mapping[str, int], last_round: Mapping[str, int]) -> dict[str, int]:
    """Places at a table (R10.2): by total, then round-3 score; equal on both, a shared place
    (competition numbering: 1, 1, 3)."""
    order = sorted(totals, key=lambda p: (-totals[p], -last_round[p]))
    placed: dict[str, int] = {}
    for position, player in enumerate(order, start=1):
        before = order[position - 2] if position > 1 else None
        same = before is not None and (totals[before], last_round[before]) == (
            totals[player],
            last_round[player],
        )
        placed[player] = placed[before] if same and before is not None else position
    return placed


def scaled_points(placed: Mapping[str, int]) -> dict[str, Fraction]:
    """The "scaled" preset: 6, 4, 2, 0 at a table of 4 (6 * (size - place) / (size - 1));
    players sharing a place split the points of the places they cover."""
    size = len(placed)
    worth = {q: Fraction(6 * (size - q), size - 1) for q in range(1, size + 1)}
    sharing = Counter(placed.values())
    return {
        player: sum((worth[q] for q in range(place, place + sharing[place])), Fraction(0))
        / sharing[place]
        for player, place in placed.items()
    }


def shown(value: Fraction) -> str:
    """A figure as the standings print it: at most 2 decimals, no trailing zeros."""
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
