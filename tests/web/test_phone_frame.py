"""The seat-phone frame (games/phone/) with a panel it has never seen: a small one written here
for Food Truck (each phone reveals its dish), given through ``GameType.phone`` as a game's
package gives it. The frame alone does the rest: the page, the poll's 304, the envelope (a tap
appended at the version the phone saw, once per key), 409, 422 in the rule's words, an
incomplete form, undo in the panel's words, unknown actions."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from django.conf import LazySettings
from django.test import Client

from engine.registry import RULES
from games import services
from games.gametypes import GAME_TYPES
from games.models import GameProjection
from games.phone.panel import Append, Panel, SeatNow, Shown, Tap
from tests.games.records import start_args

pytestmark = pytest.mark.django_db

GAME = "food-truck"
FETCH = {"X-Seat-Fetch": "1"}
TEMPLATE = """{% extends "phone/live.html" %}{% block panel %}
<form method="post" action="{{ phone.base }}reveal/" data-act data-path="reveal/">
  {% include "phone/_fields.html" %}<input type="hidden" name="key" value="{{ key }}">
  <input type="hidden" name="version" value="{{ view.version }}">
  {% for dish in panel.dishes %}
    <button type="submit" name="dish" value="{{ dish }}">{{ dish }}</button>
  {% endfor %}
</form>{% endblock %}"""


class RevealPanel:
    """Each phone reveals its player's dish (whatever the rules then say of it)."""

    template = "frame-test/phone.html"
    seat_plays = frozenset({"dish_revealed"})

    def view(self, now: SeatNow) -> Shown:
        turn = now.state.expected if hasattr(now.state, "expected") else None
        return Shown(
            headline=f"Reveal test · {now.focus.player}",
            waiting_for=None if turn in (None, now.focus.player) else str(turn),
            panel={"dishes": ["burger", "sandwich", "kebab", "fries", "dessert"]},
        )

    def reveal(self, tap: Tap) -> Append | None:
        dish = tap.text("dish")
        if not dish:
            return None
        return Append([{"type": "dish_revealed", "player": tap.player, "dish": dish}])

    actions = {"reveal": reveal}

    def tap_words(self, event: Mapping[str, Any]) -> str:
        return f"{event['player']}'s {event['dish']}"

    def texts(self) -> dict[str, str]:
        return {"revealTest": "a tap of the test panel"}


PANEL: Panel = RevealPanel()


@pytest.fixture(autouse=True)
def panel(
    monkeypatch: pytest.MonkeyPatch, settings: LazySettings, tmp_path: Path
) -> Iterator[None]:
    (tmp_path / "frame-test").mkdir()
    (tmp_path / "frame-test" / "phone.html").write_text(TEMPLATE)
    engine: dict[str, Any] = dict(settings.TEMPLATES[0])
    engine["DIRS"] = [*engine["DIRS"], tmp_path]
    templates = [engine]
    settings.TEMPLATES = templates
    monkeypatch.setattr(GAME_TYPES[GAME], "phone", __name__)
    yield


def new_table() -> tuple[uuid.UUID, list[str], list[dict[str, Any]]]:
    """A Food Truck table at its first reveal, its seats' links, and the record to come."""
    record = RULES[GAME].simulate(1, 4)
    players, options = start_args(record[0])
    game = services.game_create(players=players, game_type=GAME, options=options)
    services.game_append(game_id=game.game_id, expected_version=1, events=record[1:2])
    links = services.seat_links_issue(game_id=game.game_id, user=None)
    return game.game_id, [link.token for link in links], record


def version(game_id: uuid.UUID) -> int:
    return int(GameProjection.objects.get(stream_id=game_id).version)


def test_the_frame_serves_a_panel_it_does_not_know() -> None:
    game_id, tokens, record = new_table()
    first = record[2]  # the first player's reveal
    seat = ["p1", "p2", "p3", "p4"].index(first["player"])
    client = Client()
    page = client.get(f"/seat/{tokens[seat]}/")
    html = page.content.decode()
    assert page.status_code == 200 and page["Referrer-Policy"] == "no-referrer"
    assert f"Reveal test · {first['player']}" in html
    assert 'data-path="reveal/"' in html and "a tap of the test panel" in html
    poll = client.get(
        f"/seat/{tokens[seat]}/state/", headers={**FETCH, "If-None-Match": page["ETag"]}
    )
    assert poll.status_code == 304

    at = version(game_id)
    tap = {"dish": first["dish"], "version": str(at), "key": "r-1"}
    done = client.post(f"/seat/{tokens[seat]}/reveal/", tap, headers=FETCH)
    assert done.status_code == 200 and version(game_id) == at + 1
    again = client.post(f"/seat/{tokens[seat]}/reveal/", tap, headers=FETCH)  # a retry
    assert again.status_code == 200 and version(game_id) == at + 1  # recorded once
    stale = client.post(f"/seat/{tokens[seat]}/reveal/", {**tap, "key": "r-2"}, headers=FETCH)
    assert stale.status_code == 409 and stale["X-Seat-Refusal"] == "conflict"
    incomplete = client.post(
        f"/seat/{tokens[seat]}/reveal/", {"version": str(at + 1)}, headers=FETCH
    )
    assert incomplete.status_code == 422 and incomplete["X-Seat-Refusal"] == "bad_form"
    # Undo, in the panel's words.
    undo_page = client.get(f"/seat/{tokens[seat]}/state/", headers=FETCH).content.decode()
    assert f"{first['player']}&#x27;s {first['dish']}" in undo_page
    assert client.post(f"/seat/{tokens[seat]}/unknown/", tap).status_code == 404
    assert client.get(f"/seat/{tokens[seat]}/reveal/").status_code == 405


def test_a_panel_tap_the_rules_refuse_answers_422_in_the_rules_words() -> None:
    game_id, tokens, record = new_table()
    first = record[2]
    seat = ["p1", "p2", "p3", "p4"].index(first["player"])
    other = (seat + 1) % 4
    client = Client()
    at = version(game_id)
    early = {"dish": "burger", "version": str(at), "key": "o-1"}
    refused = client.post(f"/seat/{tokens[other]}/reveal/", early, headers=FETCH)
    assert refused.status_code == 422 and refused["X-Seat-Refusal"]
    assert "<strong>Refused:</strong>" in refused.content.decode()
    assert version(game_id) == at
    # The frame's panel answer keeps the panel's view (what the seat sees, not another's).
    assert "Reveal test · " + ["p1", "p2", "p3", "p4"][other] in refused.content.decode()
