"""A whole game played from its seat phones in Debian's Chromium, for any game with a panel
(issue 25, "Measure"): the browser harness of tests/browser/test_phone_games.py. It knows no
game: it reads the registry (tests/phones/tables.py) and the seat-phone DOM contract.

One browser context per seat link at a phone's size (390x844, ``is_mobile``), every phone open
at once, each with the WATCH script (tests/browser/helpers.py: every answer its fetches got,
and when each version showed). Then, until the game is finished, a random phone among those
whose panel offers a move and shows the table's latest version taps a random one of them (a
visible ``form[data-act] button[data-move]``; its ``<details>`` opened first). Checked and
measured:

* every tap is accepted (answered 200, or 204 for a panel's own save; never a refusal) and
  shows on every other phone: per version, the delay until each other phone showed it (median
  and max printed; none over the timeout), and at the end every phone shows the last one;
* one phone goes offline (``context.set_offline``) while the table taps (up to three taps of
  the others, until the table waits for it), then comes back and catches up with every version;
  later, when its turn comes, it taps offline: the outbox keeps the tap and the page says "Not
  sent yet", nothing is recorded until the connection returns, then it is recorded once;
* every tap recorded once (one append request in the log per tap that moved the table);
* no answer a phone received, and no DOM it showed, holds a card another seat held then, where
  the game declares hidden hands (``GameType.hands``);
* no answer was a 5xx, a refusal (403, 409, 422) or a page error;
* the ``<ol data-final>`` of every phone equals ``python -m engine replay`` (a subprocess,
  this interpreter) of the record the export URL gives;
* the taps per player per round (the panel's ``data-round``; 0: a game without rounds) are
  counted and printed.

``scorekeeper`` (tests/phones/scorekeepers.py): for a game whose phones enter something that
is no choice among moves, what the table's scorekeeper records when no phone offers a move
(Trick-n-Chef's deals: with it, a 3-player Trick-n-Chef game plays through here too, 121 taps
in about a minute).
"""

from __future__ import annotations

import functools
import json
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Error, Page

from games.gametypes import GAME_TYPES
from games.models import Event, GameProjection
from tests.browser.helpers import VERSION_AT_LEAST, WATCH
from tests.phones.bot import read_panel
from tests.phones.scorekeepers import Scorekeeper, scorekeeper_enters
from tests.phones.tables import (
    TableSpec,
    create_table,
    held_by,
    hidden_rule,
    leaks,
    others_secrets,
    placements_of_summary,
)

ROOT = Path(__file__).resolve().parent.parent.parent
TIMEOUT_MS = 15_000
STEP_CAP = 1500
MOVES = "#seat-live form[data-act] button[data-move]"
STATE = f"""() => ({{
  version: Number(document.querySelector("#seat-live [data-live]")?.dataset.version || 0),
  moves: Array.from(document.querySelectorAll({json.dumps(MOVES)}))
    .map((b, i) => ({{ i, disabled: b.disabled, name: b.name, value: b.value }}))
    .filter((m) => !m.disabled),
}})"""
OPEN_DETAILS = """(button) => {
  for (let d = button.closest("details"); d; d = d.parentElement?.closest("details")) {
    d.open = true;
  }
}"""
REPLAY_WITH = """import sys, importlib, engine.registry as registry
rules = importlib.import_module(sys.argv.pop(1)).RULES
registry.RULES[rules.key] = rules
from engine.cli import main
raise SystemExit(main())"""
"""``python -m engine replay`` for a game whose rules live outside engine/ (the tests' toy):
its module's RULES added to the registry first."""


@dataclass
class Phone:
    seat: int
    player: str
    context: BrowserContext
    page: Page
    first_html: str = ""
    taps: Counter[int] = field(default_factory=Counter)
    """Taps by round (the panel's data-round when it tapped)."""
    errors: list[str] = field(default_factory=list)

    def version(self) -> int:
        return int(self.page.evaluate(
            "() => Number(document.querySelector('#seat-live [data-live]')?.dataset.version || 0)"
        ))  # fmt: skip

    def wait_version(self, version: int) -> None:
        self.page.wait_for_function(VERSION_AT_LEAST, arg=version)

    def state(self) -> dict[str, Any]:
        """The version its panel shows and the moves it offers (one round trip)."""
        found: dict[str, Any] = self.page.evaluate(STATE)
        return found

    def round(self) -> int:
        raw = self.page.evaluate(
            "() => document.querySelector('#seat-live [data-live]')?.dataset.round || '0'"
        )
        return int(raw) if str(raw).isdigit() else 0

    def tap(self, move: dict[str, Any]) -> None:
        button = self.page.locator(MOVES).nth(int(move["i"]))
        button.evaluate(OPEN_DETAILS)
        self.taps[self.round()] += 1
        button.click()


@dataclass
class Played:
    """What a whole game from the phones measured."""

    spec: TableSpec
    taps: int
    seconds: float
    delays: list[float]
    """ms from a version's first sighting to each other phone's."""
    taps_per_round: dict[str, dict[int, int]]
    offline_missed: int
    """Taps of the table the offline phone missed, then caught up with."""
    offline_tapped: bool
    """The offline phone tapped while offline, and the tap was recorded once it came back."""
    answers_checked: int
    final: list[tuple[str, int, int]]

    def line(self) -> str:
        counts = [n for rounds in self.taps_per_round.values() for n in rounds.values()]
        delays = (
            f"median {statistics.median(self.delays):.0f} ms, max {max(self.delays):.0f} ms "
            f"over {len(self.delays)} sightings"
            if self.delays
            else "no sightings"
        )
        return (
            f"{self.spec.label}: {self.taps} taps in {self.seconds:.1f} s; delay to the other "
            f"phones: {delays}; offline: missed {self.offline_missed} taps and caught up, "
            f"tapped offline: {'yes' if self.offline_tapped else 'no'}; "
            f"{self.answers_checked} answers checked for other seats' cards; taps per player "
            f"per round: mean {statistics.mean(counts) if counts else 0:.1f}, "
            f"max {max(counts, default=0)}; "
            + ", ".join(f"{p}: {dict(sorted(r.items()))}" for p, r in self.taps_per_round.items())
        )


class PhoneGame:
    """One table of ``spec`` played from its phones (``play``); ``close`` closes the contexts."""

    def __init__(
        self,
        browser: Browser,
        base_url: str,
        spec: TableSpec,
        owner: Any,
        *,
        seed: int = 1,
        rules_module: str | None = None,
        scorekeeper: Scorekeeper | None = None,
    ) -> None:
        self.spec = spec
        self.scorekeeper = scorekeeper
        self.owner = owner
        self.rng = random.Random(f"{spec.label}:{seed}")
        self.rules_module = rules_module
        self.rule = hidden_rule(spec.game_type)
        change, links = create_table(spec, owner)
        self.game_id = change.game_id
        self.appended = 0
        """Taps that moved the table (a panel's own save does not)."""
        self.secrets: dict[int, Any] = {}
        """The table's snapshot at each version it settled at (for the privacy checks)."""
        self.phones: list[Phone] = []
        for link in links:
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
            context.add_init_script(WATCH)
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            phone = Phone(link.seat, link.player, context, page)
            page.on("pageerror", functools.partial(_page_error, phone))
            response = page.goto(f"{base_url}/seat/{link.token}/")
            assert response is not None and response.status == 200, link.player
            phone.first_html = response.text()
            self.phones.append(phone)
        self.note()

    def close(self) -> None:
        for phone in self.phones:
            phone.context.close()

    # -------------------------------------------------------------------- the table

    def game(self) -> GameProjection:
        return GameProjection.objects.get(stream_id=self.game_id)

    def note(self) -> int:
        """The table's version now, its snapshot kept for the privacy checks."""
        game = self.game()
        self.secrets[game.version] = game.snapshot
        return int(game.version)

    def settle(self, version: int, phones: list[Phone] | None = None) -> None:
        for phone in phones or self.phones:
            phone.wait_version(version)

    def wait_answered(self, before: int, sent: int, phone: Phone, move: Any) -> int:
        """The tap's answer (the first POST in the phone's fetch log after ``sent`` entries):
        accepted (200, or 204 for a panel's own save), or the test fails with the phone's words
        why. Returns the table's version after it."""
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while time.monotonic() < deadline:
            log = phone.page.evaluate("n => window.__seatLog.slice(n)", sent)
            posts = [e for e in log if "/state/" not in str(e["url"])]
            if posts:
                answer = posts[0]
                status = int(answer["status"])
                shown = read_panel(str(answer["body"]))
                assert status in (200, 204), (
                    f"{self.spec.label} v{before}: {phone.player}'s phone offered {move} and "
                    f"its tap was answered {status}: {shown.refusal or shown.notice}"
                )
                version = self.note()
                if version > before:
                    self.appended += 1
                return version
            time.sleep(0.03)
        outbox = phone.page.inner_text("[data-outbox]")
        raise AssertionError(f"{phone.player}'s tap {move} had no answer (outbox: {outbox!r})")

    def tap(self, phone: Phone, move: dict[str, Any]) -> int:
        """One tap, its answer awaited (and the tapping phone's panel at its version)."""
        before = int(self.game().version)
        sent = int(phone.page.evaluate("window.__seatLog.length"))
        phone.tap(move)
        version = self.wait_answered(before, sent, phone, move)
        self.settle(version, [phone])
        return version

    def ready(self, latest: int, phones: list[Phone]) -> list[tuple[Phone, list[Any]]]:
        """The phones showing the table's latest version, with the moves each offers (waits
        for the others to catch up while none of those offers one)."""
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while True:
            states = [(p, p.state()) for p in phones]
            caught = [(p, s["moves"]) for p, s in states if int(s["version"]) >= latest]
            if any(m for _, m in caught) or len(caught) == len(states):
                return caught
            assert time.monotonic() < deadline, (
                f"{self.spec.label}: phones still behind v{latest}: "
                + ", ".join(f"{p.player} v{s['version']}" for p, s in states)
            )
            time.sleep(0.05)

    def check_private(self, phone: Phone, html: str, what: str) -> bool:
        """No card another seat held at the version the HTML shows; False: nothing to check."""
        if self.rule is None:
            return False
        shown = read_panel(html).version
        if shown is None:
            return False
        known = [v for v in self.secrets if v <= shown]
        snapshot = self.secrets[max(known)] if known else None
        secret = others_secrets(held_by(self.rule, snapshot), [phone.player])
        found = leaks(html, secret)
        assert not found, f"{phone.player}'s {what} at v{shown} shows another seat's {found}"
        return True

    # -------------------------------------------------------------------- play

    def play(self) -> Played:
        started = time.monotonic()
        taps = 0
        offline: Phone | None = None
        missed = 0
        tapped_offline = False
        skip: set[int] = set()  # versions the offline phone could not see in time
        latest = self.note()
        while self.game().status != GameProjection.Status.FINISHED:
            assert taps < STEP_CAP, f"{self.spec.label}: {taps} taps and the game is not over"
            caught = self.ready(latest, self.phones)
            offering = [(p, m) for p, m in caught if m]
            if (
                not offering
                and self.scorekeeper is not None
                and scorekeeper_enters(
                    self.scorekeeper,
                    self.spec.game_type,
                    self.game_id,
                    latest,
                    self.owner,
                    self.rng.randrange(1 << 30),
                )
            ):
                latest = self.note()
                continue
            assert offering, f"{self.spec.label} v{latest}: no phone offers a move:\n" + "\n".join(
                f"{p.player}: {p.page.inner_text('#seat-live')[:300]}" for p in self.phones
            )
            idle = [p for p, m in caught if not m]
            if offline is None and len(self.phones) > 1 and (idle or taps >= 3):
                # One phone goes offline while the others tap (up to three taps, until the
                # table waits for it), then comes back and catches up: one that waits (or,
                # where every phone always has a move, any).
                offline = self.rng.choice(idle or self.phones)
                offline.context.set_offline(True)
                shown = offline.version()
                online = [p for p in self.phones if p is not offline]
                while missed < 3 and self.game().status != GameProjection.Status.FINISHED:
                    others = [(p, m) for p, m in self.ready(latest, online) if m]
                    if not others:
                        break
                    phone, moves = self.rng.choice(others)
                    before = latest
                    latest = self.tap(phone, self.rng.choice(moves))
                    skip.update(range(before + 1, latest + 1))
                    missed += 1
                    taps += 1
                assert offline.version() == shown, "an offline phone showed a new version"
                offline.context.set_offline(False)
                self.settle(latest, [offline])  # it catches up
                continue
            mine = next((m for p, m in offering if p is offline), None)
            if offline is not None and not tapped_offline and mine:
                # Its turn: it taps offline; the outbox keeps the tap ("Not sent yet") and
                # nothing is recorded until the connection returns; then it is, once.
                before = latest
                sent = int(offline.page.evaluate("window.__seatLog.length"))
                offline.context.set_offline(True)
                move = self.rng.choice(mine)
                offline.tap(move)
                pending = offline.page.locator("[data-outbox] .ph-pending")
                pending.first.wait_for()
                texts = pending.all_inner_texts()
                assert len(texts) == 1 and "Not sent yet" in texts[0], texts
                time.sleep(0.6)
                assert self.game().version == before, "an offline tap was recorded"
                offline.context.set_offline(False)
                latest = self.wait_answered(before, sent, offline, move)
                pending.first.wait_for(state="detached")
                self.settle(latest, [offline])
                tapped_offline = True
                taps += 1
                continue
            phone, moves = self.rng.choice(offering)
            latest = self.tap(phone, self.rng.choice(moves))
            taps += 1
        seconds = time.monotonic() - started
        latest = self.note()
        self.settle(latest)  # every phone shows the end
        self.check_once()
        delays = self.delays(skip, latest)
        assert not delays or max(delays) < TIMEOUT_MS, f"a phone showed a tap {max(delays)} ms late"
        for phone in self.phones:
            self.check_private(phone, phone.page.content(), "DOM")
        return Played(
            spec=self.spec,
            taps=taps,
            seconds=seconds,
            delays=delays,
            taps_per_round={p.player: dict(p.taps) for p in self.phones},
            offline_missed=missed,
            offline_tapped=tapped_offline,
            answers_checked=self.check_answers(),
            final=self.check_final(),
        )

    def exporter(self) -> Client:
        client = Client()
        client.force_login(self.owner)
        return client

    # -------------------------------------------------------------------- checks at the end

    def delays(self, skip: set[int], last: int) -> list[float]:
        seen = {p.player: p.page.evaluate("window.__versions") for p in self.phones}
        out: list[float] = []
        for v in sorted(self.secrets):
            if v <= 1 or v in skip or v > last:
                continue
            times = sorted(next(t for ver, t in seen[p.player] if ver >= v) for p in self.phones)
            out += [t - times[0] for t in times[1:]]
        return out

    def check_answers(self) -> int:
        checked = 0
        for phone in self.phones:
            assert not phone.errors, f"{phone.player}'s page: {phone.errors}"
            log = phone.page.evaluate("window.__seatLog")
            for entry in log:
                status = int(entry["status"])
                assert status < 500, f"{phone.player}: {entry['url']} answered {status}"
                assert status not in (403, 409, 422), (
                    f"{phone.player}: {entry['url']} answered {status}: "
                    f"{read_panel(entry['body']).refusal or read_panel(entry['body']).notice}"
                )
            for html in [phone.first_html, *(str(e["body"]) for e in log)]:
                checked += self.check_private(phone, html, "answer")
        return checked

    def check_once(self) -> None:
        """One append in the log per tap that moved the table (a tap the outbox sent again is
        still one)."""
        rows = Event.objects.filter(stream_id=self.game_id).values_list("metadata", flat=True)
        requests = {m.get("request_id") for m in rows if m.get("by_seat") is not None}
        assert len(requests) == self.appended, (
            f"{self.appended} taps recorded, {len(requests)} appends from the phones"
        )

    def check_final(self) -> list[tuple[str, int, int]]:
        record = self.exporter().get(f"/api/games/{self.game_id}/record/")
        assert record.status_code == 200, record.content[:500]
        command = (
            [sys.executable, "-c", REPLAY_WITH, self.rules_module, "replay", "-"]
            if self.rules_module
            else [sys.executable, "-m", "engine", "replay", "-"]
        )
        done = subprocess.run(
            command, input=record.content, capture_output=True, cwd=ROOT, check=False
        )
        assert done.returncode == 0, done.stdout + done.stderr
        expected = placements_of_summary(self.spec.game_type, json.loads(done.stdout))
        for phone in self.phones:
            phone.page.locator("#seat-live ol[data-final]").wait_for()
            final = read_panel(phone.page.inner_html("#seat-live")).final or []
            shown = [(f.player, f.place, f.points) for f in final]
            assert shown == expected, f"{phone.player}'s phone: {shown}, the replay: {expected}"
        return expected


def _page_error(phone: Phone, error: Error) -> None:
    phone.errors.append(str(error))


def play_from_phones(
    browser: Browser,
    base_url: str,
    spec: TableSpec,
    owner: Any,
    *,
    seed: int = 1,
    rules_module: str | None = None,
    scorekeeper: Scorekeeper | None = None,
) -> Played:
    """Play one table of ``spec`` from its phones (PhoneGame) and return what it measured."""
    assert spec.game_type in GAME_TYPES, spec.game_type
    game = PhoneGame(
        browser,
        base_url,
        spec,
        owner,
        seed=seed,
        rules_module=rules_module,
        scorekeeper=scorekeeper,
    )
    try:
        return game.play()
    finally:
        game.close()
