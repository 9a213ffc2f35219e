"""The game-neutral seat-phone bot (tests/phones/bot.py) and its helpers (tests/phones/tables.py):
what it reads of a live panel by the seat-phone DOM contract (docs/games.md), and Trick-n-Chef's
panel read by it (its Chef and card taps are data-move buttons, only the legal ones, only on the
phone of the player to play; its finished panel's data-final is the engine's placements)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from engine.registry import RULES
from engine.tricknchef.events import to_json
from engine.tricknchef.referee import legal_cards
from engine.tricknchef.replay import replay
from engine.tricknchef.simulate import simulate
from games import services
from tests.phones.bot import DjangoTransport, SeatBot, read_panel
from tests.phones.tables import held_by, hidden_rule, leaks, others_secrets, placements_of_record

PANEL = """
<div class="ph-live" data-live data-version="7" data-phase="play" data-round="2">
  <p class="ph-turn"><strong>Your turn</strong></p>
  <p class="error ph-refusal" data-refusal data-key="k"><strong>Refused:</strong> not now</p>
  <form method="post" action="/seat/t/play/" data-act data-path="play/">
    <input type="hidden" name="csrfmiddlewaretoken" value="c">
    <input type="hidden" name="as" value="1">
    <input type="hidden" name="key" value="old"><input type="hidden" name="version" value="7">
    <input type="hidden" name="type" value="dish_revealed">
    <h2>Dishes</h2>
    <button type="submit" name="dish" value="burger" data-move>Burger</button>
    <details><summary>More</summary>
      <button type="submit" name="dish" value="fries" data-move>Fries <b>2</b></button>
    </details>
    <button type="submit" name="dish" value="kebab" data-move disabled>Kebab</button>
    <button type="submit" name="other" value="1">not a move</button>
  </form>
  <form method="post" action="/seat/t/undo/" data-undo data-path="undo/">
    <button type="submit" data-move>an undo is no move: its form has no data-act</button>
  </form>
  <ol data-final>
    <li data-player="Ben" data-place="1" data-points="12">Ben 12</li>
    <li data-player="Ana" data-place="2" data-points="9">Ana 9</li>
  </ol>
</div>"""


def test_a_panel_reads_as_its_moves_result_and_version() -> None:
    panel = read_panel(PANEL)
    assert panel.version == 7 and panel.phase == "play"
    assert [m.data for m in panel.moves] == [
        {"version": "7", "type": "dish_revealed", "dish": "burger"},
        {"version": "7", "type": "dish_revealed", "dish": "fries"},
    ]
    assert {m.path for m in panel.moves} == {"play/"}
    assert [m.label for m in panel.moves] == ["Burger", "Fries 2"]
    assert [m.choice for m in panel.disabled] == [("dish", "kebab")]
    assert [(f.player, f.place, f.points) for f in panel.final or []] == [
        ("Ben", 1, 12),
        ("Ana", 2, 9),
    ]
    assert panel.refusal == "Refused: not now" and panel.forms == 1


def test_a_panel_without_moves_or_result() -> None:
    panel = read_panel('<div data-live data-version="3"><p>Waiting for Ana</p></div>')
    assert panel.version == 3 and panel.moves == [] and panel.final is None
    assert read_panel("<p>no live panel</p>").version is None


def test_secrets_are_the_other_seats_and_found_as_whole_codes() -> None:
    rule = hidden_rule("trick-n-chef")
    held = held_by(rule, {"hands": {"Ana": ["R1", "B9"], "Ben": ["R10", "G2"]}})
    assert others_secrets(held, ["Ana"]) == {"R10", "G2"}
    assert leaks('<button value="R10">', {"R10", "G2"}) == ["R10"]
    assert leaks("R100 xG2 G2x", {"R10", "G2"}) == []


NAMES = ("Ana", "Ben", "Cleo", "Dev")


@pytest.fixture
def owner(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("owner", password="x")


def table(owner: Any, events: list[dict[str, Any]]) -> tuple[Any, list[SeatBot]]:
    game = services.game_create(players=list(NAMES), user=owner)
    services.game_append(game_id=game.game_id, expected_version=1, events=events, user=owner)
    links = services.seat_links_issue(game_id=game.game_id, user=owner)
    bots = [SeatBot(DjangoTransport(Client()), link.token, player=link.player) for link in links]
    for bot in bots:
        assert bot.open().status == 200
    return game, bots


@pytest.mark.django_db
def test_trick_n_chefs_phone_offers_its_legal_cards_as_moves(owner: Any) -> None:
    played = simulate(5, 4, names=NAMES, first_player="Ana")
    at = next(i for i, e in enumerate(played) if type(e).__name__ == "CardPlayed")
    _, bots = table(owner, [to_json(e) for e in played[1:at]])
    state = replay(played[:at])
    expected = str(state.expected)
    for bot in bots:
        cards = sorted(m.data["card"] for m in bot.moves if m.choice[0] == "card")
        if bot.player == expected:
            assert cards == sorted(legal_cards(state)), bot.player
        else:
            assert bot.moves == [], bot.player
    mover = next(b for b in bots if b.player == expected)
    tapped = mover.tap(next(m for m in mover.moves if m.choice[0] == "card"))
    assert tapped.answer.status == 200, tapped.panel.refusal


@pytest.mark.django_db
def test_trick_n_chefs_finished_phone_shows_the_replays_placements(owner: Any) -> None:
    played = [to_json(e) for e in simulate(6, 4, names=NAMES, first_player="Ana")]
    game, bots = table(owner, played[1:])
    exporter = Client()
    exporter.force_login(owner)
    record = exporter.get(f"/api/games/{game.game_id}/record/").content.decode()
    expected = placements_of_record("trick-n-chef", record)
    assert expected == placements_of_record("trick-n-chef", record, RULES["trick-n-chef"])
    for bot in bots:
        final = [(f.player, f.place, f.points) for f in bot.panel.final or []]
        assert final == expected, bot.player
        assert bot.moves == []
