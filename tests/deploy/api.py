"""The stack's HTTP API as a client sees it through the HTTPS proxy, for the deploy tests that
run the whole stack (natively: test_native_stack.py; in docker compose: test_compose.py): a
token-authenticated client over plain http.client, a scorekeeper finishing a table event by
event, and the demo tournament's announcement (``manage.py demo``)."""

from __future__ import annotations

import http.client
import json
import re
import uuid
from typing import Any

from engine.jsonline import split_lines
from engine.tricknchef.events import GameStarted, loads, to_json
from engine.tricknchef.simulate import play_on

HTTP_TIMEOUT = 30.0
"""Seconds one request may take (two cores, the whole stack and the test suite on them)."""

DEMO_OUTPUT = re.compile(
    r"demo tournament created: \S+/t/(?P<id>[0-9a-f-]{36})/.*"
    r"'organizer' with the password (?P<password>\S+).*"
    r"'scorekeeper' with the password (?P<scorekeeper>\S+)",
    re.DOTALL,
)

PROXY = {"X-Forwarded-Proto": "https"}
"""What the HTTPS proxy in front of gunicorn adds to every request (.env.example trusts it)."""


def fetch(
    port: int, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One GET through the proxy's eyes unless ``headers`` says otherwise: (status, headers,
    body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HTTP_TIMEOUT)
    try:
        connection.request("GET", path, headers=PROXY if headers is None else headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


class Api:
    """The HTTP API over plain http.client, as a scorekeeper's app or a club's script uses it
    (through the HTTPS proxy)."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.token = token

    def headers(self) -> dict[str, str]:
        headers = {"Accept": "application/json", **PROXY}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        return headers

    def request(
        self, method: str, path: str, body: Any = None, *, key: str | None = None
    ) -> tuple[int, Any]:
        headers = self.headers()
        payload = None
        if body is not None:
            payload = json.dumps(body)
            headers["Content-Type"] = "application/json"
        if key is not None:
            headers["Idempotency-Key"] = key
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT)
        try:
            connection.request(method, path, body=payload, headers=headers)
            response = connection.getresponse()
            data = response.read()
        finally:
            connection.close()
        return response.status, json.loads(data) if data else None

    def get(self, path: str) -> Any:
        status, body = self.request("GET", path)
        assert status == 200, (path, status, body)
        return body

    def post(self, path: str, body: Any = None, *, key: str | None = None) -> Any:
        status, answer = self.request("POST", path, body, key=key)
        assert status == 201, (path, status, answer)
        return answer

    def login(self, username: str, password: str) -> Api:
        status, body = self.request(
            "POST", "/api/auth/token/", {"username": username, "password": password}
        )
        assert status == 200 and body["token"], (status, body)
        return Api(self.port, body["token"])


def finish_table(api: Api, game: str, seed: int) -> str:
    """A scorekeeper records the rest of a table's game, one event a request, from where its
    record (``GET /api/games/<id>/record/``) stands. The game's final status."""
    status, _, body = fetch(api.port, f"/api/games/{game}/record/", api.headers())
    assert status == 200, (status, body[:500])
    so_far = [loads(line) for line in split_lines(body)]
    version = api.get(f"/api/games/{game}/")["version"]  # the stream's, beyond the record's
    # The tournament's rule for its tables: seat 1 leads round 1 (when it has not begun).
    assert isinstance(so_far[0], GameStarted)
    first = so_far[0].players[0]
    for event in play_on(so_far, seed, first_player=first):
        change = api.post(
            f"/api/games/{game}/events/",
            {"expected_version": version, "events": [to_json(event)]},
            key=str(uuid.uuid4()),
        )
        version, status_now = change["version"], change["status"]
    return str(status_now)


def of_round(history: list[dict[str, Any]], kind: str, number: int) -> list[dict[str, Any]]:
    return [e for e in history if e["type"] == kind and e["data"].get("round") == number]
