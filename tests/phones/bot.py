"""A seat-phone bot that knows no game: it reads a phone's live panel through the seat-phone DOM
contract (docs/games.md, "The seat-phone DOM contract") and taps as the page's script
(static/js/seat.js) does.

* :func:`read_panel` parses a live panel's HTML (the standard library's html.parser) into the
  moves it offers: each ``<button type="submit" data-move>`` of a ``<form data-act>``, as the
  form's path (``data-path``), its hidden inputs and the button's own name and value; the
  finished game's ``<ol data-final>`` (one ``<li data-player data-place data-points>`` per
  player or team); the version it shows (``data-live data-version``) and its refusal or notice.
* :class:`SeatBot` is one phone: it opens its seat link, polls ``state/`` with the ETag it last
  got (``If-None-Match``; 304 while nothing moved) and posts a move with the frame's envelope
  (the ``X-Seat-Fetch`` header, the CSRF token, a fresh idempotency ``key`` per tap, the
  ``version`` its panel showed, ``queued=0``), as seat.js's outbox sends a tap.

The transport is the caller's: :class:`DjangoTransport` wraps Django's test client (the tests),
:class:`HttpTransport` a keep-alive HTTP connection to a running server (benchmarks/phones.py).
Both answer an :class:`Answer`. Nothing here imports Django at module level: the benchmarks'
phone processes import it without Django's settings.
"""

from __future__ import annotations

import http.client
import random
import re
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, Protocol
from urllib.parse import urlencode

FETCH = "X-Seat-Fetch"
"""The header seat.js sends with every poll and tap (games.phone.views.FETCH): answer with the
live panel, not a redirect."""
REFUSAL = "X-Seat-Refusal"
"""The header of a refused tap's answer: the refusal's code (games.phone.views.REFUSAL)."""
SKIPPED_FIELDS = frozenset({"csrfmiddlewaretoken", "as", "key"})
"""The form fields seat.js does not copy into a tap (the CSRF token goes in a header, ``as`` is
the phone's focus, ``key`` a fresh idempotency key per tap)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One move a phone offers: posting ``fields`` to the panel's ``path`` (relative to the
    seat page) is the whole move."""

    path: str
    """The form's ``data-path`` (``play/``): the panel's action, below the page's address."""
    fields: tuple[tuple[str, str], ...]
    """The form's hidden inputs (but the CSRF token, ``as`` and ``key``), then the button's
    own name and value."""
    label: str
    """The button's text, for messages."""

    @property
    def data(self) -> dict[str, str]:
        return dict(self.fields)

    @property
    def choice(self) -> tuple[str, str]:
        """The button's own name and value (the last field)."""
        return self.fields[-1] if self.fields else ("", "")


@dataclass(frozen=True, slots=True)
class Final:
    """One line of a finished game's ``<ol data-final>``."""

    player: str
    place: int
    points: int


@dataclass(slots=True)
class Panel:
    """What one live panel shows, as the DOM contract marks it."""

    version: int | None = None
    """``data-live``'s ``data-version`` (None: no live panel in the HTML)."""
    phase: str = ""
    moves: list[Move] = field(default_factory=list)
    disabled: list[Move] = field(default_factory=list)
    """``data-move`` buttons marked ``disabled`` (not offered now)."""
    final: list[Final] | None = None
    """The result, once the game is finished (None: no ``data-final`` list)."""
    refusal: str = ""
    notice: str = ""
    forms: int = 0
    """Forms marked ``data-act`` (with or without a move)."""
    text: str = ""
    """The panel's text, for messages."""


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.panel = Panel()
        self._form: dict[str, Any] | None = None
        self._button: dict[str, Any] | None = None
        self._final = False
        self._grab: str | None = None  # "refusal" or "notice": collecting its text
        self._depth = 0
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if "data-live" in a and self.panel.version is None:
            version = a.get("data-version", "")
            self.panel.version = int(version) if version.isdigit() else None
            self.panel.phase = a.get("data-phase", "")
        if tag == "form":
            self._form = (
                {"path": a.get("data-path") or "act/", "hidden": []} if "data-act" in a else None
            )
            if self._form is not None:
                self.panel.forms += 1
        elif tag == "input" and self._form is not None:
            name = a.get("name", "")
            if a.get("type", "").lower() == "hidden" and name and name not in SKIPPED_FIELDS:
                self._form["hidden"].append((name, a.get("value", "")))
        elif tag == "button" and self._form is not None and "data-move" in a:
            self._button = {**a, "_text": []}
        elif tag == "ol" and "data-final" in a:
            self._final = True
            self.panel.final = []
        elif tag == "li" and self._final and self.panel.final is not None and "data-player" in a:
            self.panel.final.append(
                Final(
                    a["data-player"], int(a.get("data-place") or 0), int(a.get("data-points") or 0)
                )
            )
        if self._grab is None and ("data-refusal" in a or "data-notice" in a):
            self._grab = "refusal" if "data-refusal" in a else "notice"
            self._depth = 0
        if self._grab is not None:
            self._depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "button" and self._button is not None and self._form is not None:
            b = self._button
            self._button = None
            fields = list(self._form["hidden"])
            if b.get("name"):
                fields.append((b["name"], b.get("value", "")))
            move = Move(self._form["path"], tuple(fields), " ".join("".join(b["_text"]).split()))
            (self.panel.disabled if "disabled" in b else self.panel.moves).append(move)
        elif tag == "form":
            self._form = None
        elif tag == "ol":
            self._final = False
        if self._grab is not None:
            self._depth -= 1
            if self._depth <= 0:
                self._grab = None

    def handle_data(self, data: str) -> None:
        if self._button is not None:
            self._button["_text"].append(data)
        if self._grab == "refusal":
            self.panel.refusal += data
        elif self._grab == "notice":
            self.panel.notice += data
        self._text.append(data)


def read_panel(html: str) -> Panel:
    """The moves, the result and the version a phone's live panel (or whole page) shows."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    panel = reader.panel
    panel.refusal = " ".join(panel.refusal.split())
    panel.notice = " ".join(panel.notice.split())
    panel.text = " ".join(" ".join(reader._text).split())
    return panel


CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]*)"')


# ------------------------------------------------------------------------------- transports


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    headers: Mapping[str, str]
    """Lower-case names."""
    body: str
    seconds: float = 0.0
    """The client's time for the request (the server's is in its access log)."""

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), "")


class Transport(Protocol):
    def get(self, path: str, headers: Mapping[str, str]) -> Answer: ...

    def post(self, path: str, data: Mapping[str, str], headers: Mapping[str, str]) -> Answer: ...


class DjangoTransport:
    """Django's test client (its own cookies: one per phone)."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def _answer(self, response: Any, took: float) -> Answer:
        headers = {k.lower(): v for k, v in response.headers.items()}
        body = b"".join(response.streaming_content) if response.streaming else response.content
        return Answer(response.status_code, headers, body.decode("utf-8", "replace"), took)

    def get(self, path: str, headers: Mapping[str, str]) -> Answer:
        took = time.perf_counter()
        response = self.client.get(path, headers=dict(headers))
        return self._answer(response, time.perf_counter() - took)

    def post(self, path: str, data: Mapping[str, str], headers: Mapping[str, str]) -> Answer:
        took = time.perf_counter()
        response = self.client.post(path, data=dict(data), headers=dict(headers))
        return self._answer(response, time.perf_counter() - took)


class HttpTransport:
    """One keep-alive connection to a server (a phone's), with its CSRF cookie."""

    def __init__(self, host: str, port: int, timeout: float = 30) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection(host, port, timeout=timeout)

    def _send(self, method: str, path: str, body: str | None, headers: dict[str, str]) -> Answer:
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        took = time.perf_counter()
        for attempt in range(3):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
                if attempt == 2:
                    raise
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        found = {k.lower(): v for k, v in response.getheaders()}
        return Answer(
            response.status, found, data.decode("utf-8", "replace"), time.perf_counter() - took
        )

    def get(self, path: str, headers: Mapping[str, str]) -> Answer:
        return self._send("GET", path, None, dict(headers))

    def post(self, path: str, data: Mapping[str, str], headers: Mapping[str, str]) -> Answer:
        sent = {
            **headers,
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": f"http://{self.host}:{self.port}",
        }
        return self._send("POST", path, urlencode(dict(data)), sent)


# ------------------------------------------------------------------------------- the phone


@dataclass(slots=True)
class Tapped:
    """One move posted and what the server answered."""

    move: Move
    version: int
    """The version the phone's panel showed when it tapped."""
    answer: Answer
    panel: Panel


class SeatBot:
    """One seat's phone: its page, its last panel and ETag, its taps."""

    def __init__(
        self, transport: Transport, token: str, *, seat: int = 0, player: str = ""
    ) -> None:
        self.transport = transport
        self.token = token
        self.seat = seat
        self.player = player
        self.base = f"/seat/{token}/"
        self.etag = ""
        self.csrf = ""
        self.html = ""
        self.panel = Panel()
        self.answers: list[Answer] = []
        """Every answer this phone received (for the privacy checks)."""
        self.versions: list[int] = []
        """Every version a panel it received showed, in order."""

    def _took(self, answer: Answer) -> Answer:
        self.answers.append(answer)
        if answer.header("ETag"):
            self.etag = answer.header("ETag")
        if answer.status != 304 and "data-live" in answer.body:
            self.html = answer.body
            self.panel = read_panel(answer.body)
            if self.panel.version is not None:
                self.versions.append(self.panel.version)
        return answer

    def open(self) -> Answer:
        """The seat page, as the phone's browser first loads it."""
        answer = self.transport.get(self.base, {})
        found = CSRF_META.search(answer.body)
        if found:
            self.csrf = found.group(1)
        return self._took(answer)

    def poll(self) -> Answer:
        """``state/`` with the last ETag, as seat.js polls (304: nothing moved)."""
        headers = {FETCH: "1"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        return self._took(self.transport.get(self.base + "state/", headers))

    def tap(self, move: Move) -> Tapped:
        """Post one move with the frame's envelope (seat.js's ``send``)."""
        version = self.panel.version or 0
        data = {**move.data, "key": uuid.uuid4().hex, "queued": "0"}
        headers = {FETCH: "1"}
        if self.csrf:
            headers["X-CSRFToken"] = self.csrf
        answer = self._took(self.transport.post(self.base + move.path, data, headers))
        return Tapped(move, version, answer, read_panel(answer.body))

    @property
    def moves(self) -> list[Move]:
        return self.panel.moves


def pick(bots: Sequence[SeatBot], rng: random.Random) -> tuple[SeatBot, Move] | None:
    """A random phone among those whose panel offers a move, and a random move of it."""
    offering = [b for b in bots if b.moves]
    if not offering:
        return None
    bot = rng.choice(offering)
    return bot, rng.choice(bot.moves)


__all__ = [
    "Answer",
    "DjangoTransport",
    "Final",
    "HttpTransport",
    "Move",
    "Panel",
    "SeatBot",
    "Tapped",
    "Transport",
    "pick",
    "read_panel",
]
