"""Food Truck on the players' phones (games/foodtruck/phone.py, docs/scorekeeping.md "Food Truck
on the phones"), driven with the Django test client as static/js/seat.js drives it: the player
to act taps the dish they turn over (one button per dish that may be on top of their pile), their
Company card at any moment of their turn (after a refused dish too), their market card; taps out
of turn or the rules refuse answer 422 in words; a phone shows only its own seat's moves and
pile; a player undoes their own last tap; a tap queued offline is recorded in its own slot; the
panel in French, Russian and Japanese; new tables start record format v2."""

from __future__ import annotations

import json
import re
import uuid
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from engine.foodtruck.snapshot import from_snapshot
from engine.foodtruck.state import GameState, Phase
from games import services, store
from games.models import GameProjection
from tests.phones.bot import read_panel
from tests.web.i18n_compiled import ensure_compiled

pytestmark = pytest.mark.django_db

GAME = "food-truck"
NAMES = ["Ana", "Ben", "Cleo"]
FETCH = {"X-Seat-Fetch": "1"}
ROUND_1 = {
    "type": "round_started",
    "round": 1,
    "first_player": "Ana",
    "market": ["taco", "fries", "kebab"],
    "companies": {"Ana": "remove", "Ben": "rearrange", "Cleo": "copy"},
}


def new_table(*events: dict[str, Any]) -> tuple[uuid.UUID, list[str]]:
    """A 3-player table (Ana, Ben, Cleo) with round 1 started (and ``events`` after it), and
    its seats' links."""
    game = services.game_create(players=NAMES, game_type=GAME)
    services.game_append(game_id=game.game_id, expected_version=1, events=[ROUND_1, *events])
    links = services.seat_links_issue(game_id=game.game_id, user=None)
    return game.game_id, [link.token for link in links]


def version(game_id: uuid.UUID) -> int:
    return int(GameProjection.objects.get(stream_id=game_id).version)


def state(game_id: uuid.UUID) -> GameState:
    return from_snapshot(GameProjection.objects.get(stream_id=game_id).snapshot)


def page(client: Client, token: str) -> str:
    return client.get(f"/seat/{token}/state/", headers=FETCH).content.decode()


def act(client: Client, token: str, at: int, key: str, **fields: str) -> Any:
    return client.post(
        f"/seat/{token}/act/", {"version": str(at), "key": key, **fields}, headers=FETCH
    )


def moves(html: str) -> list[dict[str, str]]:
    return [m.data for m in read_panel(html).moves]


def refusal(response: Any) -> str:
    return unescape(re.sub(r"<[^>]+>", "", response.content.decode()))


def test_new_tables_start_record_format_v2() -> None:
    game_id, _ = new_table()
    first = store.read_stream(game_id)[0]
    assert first.data["version"] == 2
    assert state(game_id).version == 2


def test_the_player_to_act_taps_the_dish_they_turn_over() -> None:
    game_id, tokens = new_table()
    client = Client()
    html = page(client, tokens[0])
    assert "Your turn: turn over the dish on top of your pile" in html
    offered = moves(html)
    reveals = sorted(m["dish"] for m in offered if m["type"] == "dish_revealed")
    assert reveals == ["burger", "dessert", "hotdog", "pizza", "sandwich"]  # what may be on top
    companies = [m for m in offered if m["type"] == "company_played"]
    assert companies == []  # remove: nobody has served anything yet
    at = version(game_id)
    done = act(
        client, tokens[0], at, "a-1", type="dish_revealed", dish="pizza", round="1", turn="1"
    )
    assert done.status_code == 200 and version(game_id) == at + 1
    assert state(game_id).seats["Ana"].served == {"pizza": 1}
    # Ana has served: her Company card may still be played (remove, until Ben acts).
    after = moves(done.content.decode())
    assert {m["type"] for m in after} == {"company_played"}
    assert all(m["effect"] == "remove" and m["chosen_by"] == m["target"] for m in after)
    assert "Ben's turn" in unescape(done.content.decode())
    assert "Your turn: turn over the dish on top of your pile" in page(Client(), tokens[1])


def test_out_of_turn_and_refused_taps_answer_422_in_words() -> None:
    game_id, tokens = new_table()
    client = Client()
    at = version(game_id)
    early = act(client, tokens[1], at, "b-1", type="dish_revealed", dish="pizza")
    assert early.status_code == 422 and early["X-Seat-Refusal"] == "wrong_turn"
    assert "it is Ana's turn, not Ben's" in refusal(early)
    wrong = act(client, tokens[0], at, "a-1", type="dish_revealed", dish="sushi")
    assert wrong.status_code == 422 and wrong["X-Seat-Refusal"] == "dish_not_in_pile"
    assert "Ana has no sushi in their pile" in refusal(wrong)
    market = act(client, tokens[0], at, "a-2", type="market_taken", dish="taco")
    assert market.status_code == 422 and market["X-Seat-Refusal"] == "pile_not_empty"
    incomplete = act(client, tokens[0], at, "a-3", type="dish_revealed")
    assert incomplete.status_code == 422 and incomplete["X-Seat-Refusal"] == "bad_form"
    unknown = act(client, tokens[0], at, "a-4", type="round_started", dish="x")
    assert unknown.status_code == 422 and unknown["X-Seat-Refusal"] == "bad_form"
    # Another seat's play, through this phone's link: not its to enter.
    other = client.post(
        f"/seat/{tokens[1]}/act/",
        {"version": str(at), "key": "b-2", "type": "dish_revealed", "dish": "pizza", "as": "1"},
        headers=FETCH,
    )
    assert other.status_code in (403, 422) and version(game_id) == at


def test_a_company_card_after_a_refused_dish_then_the_market_card() -> None:
    game_id, tokens = new_table(
        {"type": "dish_revealed", "player": "Ana", "dish": "pizza"},
        {"type": "dish_revealed", "player": "Ben", "dish": "pizza"},  # refused: Ben is out
    )
    client = Client()
    html = page(client, tokens[1])
    assert "Your dish was refused: take a card from the market" in html
    offered = moves(html)
    assert sorted(m["dish"] for m in offered if m["type"] == "market_taken") == [
        "fries",
        "kebab",
        "taco",
    ]
    assert [m["effect"] for m in offered if m["type"] == "company_played"] == ["rearrange"]
    at = version(game_id)
    played = act(client, tokens[1], at, "b-1", type="company_played", effect="rearrange")
    assert played.status_code == 200 and state(game_id).seats["Ben"].company is None
    took = act(client, tokens[1], at + 1, "b-2", type="market_taken", dish="kebab")
    assert took.status_code == 200
    now = state(game_id)
    assert now.phase is Phase.TURN and now.current == "Cleo" and now.marker == "Ben"
    # Cleo's copy after her dish is served makes no sense: not offered, and refused in words.
    served = act(Client(), tokens[2], at + 2, "c-1", type="dish_revealed", dish="burger")
    assert served.status_code == 200
    late = act(Client(), tokens[2], at + 3, "c-2", type="company_played", effect="copy")
    assert late.status_code == 422 and late["X-Seat-Refusal"] == "effect_not_now"


def test_a_phone_sees_only_its_own_moves_and_pile() -> None:
    game_id, tokens = new_table()
    ana, ben = page(Client(), tokens[0]), page(Client(), tokens[1])
    assert "Your pile holds" in ana and "Your pile holds" not in ben
    assert moves(ben) == [] and read_panel(ben).forms == 0
    assert "Waiting for Ana" in ben
    # Everyone sees the market, the marker, the victory points and the piles' sizes.
    for html in (ana, ben):
        assert "taco" in html and "fries" in html and "★" in html
        assert "Victory points" in html and "Dishes in the pile" in html


def test_the_others_see_the_served_dishes_and_stacks() -> None:
    game_id, tokens = new_table(
        {"type": "dish_revealed", "player": "Ana", "dish": "burger"},
        {"type": "dish_revealed", "player": "Ben", "dish": "dessert"},
        {"type": "dish_revealed", "player": "Cleo", "dish": "pizza"},
        {"type": "dish_revealed", "player": "Ana", "dish": "burger"},
    )
    html = page(Client(), tokens[2])
    line = re.search(r'data-seat-player="Ana".*?</li>', html, re.S)
    assert line is not None and "burger ×2" in line.group()


def test_undo_of_ones_own_last_tap() -> None:
    game_id, tokens = new_table()
    client = Client()
    at = version(game_id)
    act(client, tokens[0], at, "a-1", type="dish_revealed", dish="hotdog", round="1", turn="1")
    html = page(client, tokens[0])
    assert "data-undo-own" in html and "Ana&#x27;s hot dog turned over" in html
    undone = client.post(
        f"/seat/{tokens[0]}/undo/", {"version": str(at + 1), "key": "u-1"}, headers=FETCH
    )
    assert undone.status_code == 200
    assert state(game_id).seats["Ana"].served == {} and state(game_id).current == "Ana"
    assert "Your turn: turn over the dish on top of your pile" in undone.content.decode()


def test_a_queued_tap_is_recorded_in_its_own_slot_only() -> None:
    game_id, tokens = new_table(
        {"type": "dish_revealed", "player": "Ana", "dish": "pizza"},
    )
    at = version(game_id)
    ben_html = page(Client(), tokens[1])
    slot = next(m for m in moves(ben_html) if m["type"] == "dish_revealed")
    assert (slot["round"], slot["turn"]) == ("1", "2")
    # Meanwhile Ana plays her Company card (her turn lasts until Ben acts): the table moves on,
    # Ben's turn is still the same slot.
    act(
        Client(),
        tokens[0],
        at,
        "a-1",
        type="company_played",
        effect="remove",
        target="Ana",
        dish="pizza",
        chosen_by="Ana",
    )
    assert version(game_id) == at + 1
    late = act(
        Client(),
        tokens[1],
        at,
        "b-1",
        type="dish_revealed",
        dish="burger",
        round="1",
        turn="2",
        queued="1",
    )
    assert late.status_code == 200 and version(game_id) == at + 2
    assert state(game_id).seats["Ben"].served == {"burger": 1}
    # A tap for a turn the table has passed is refused in words, never recorded elsewhere.
    stale = act(
        Client(),
        tokens[1],
        at,
        "b-2",
        type="company_played",
        effect="rearrange",
        round="1",
        turn="1",
        queued="1",
    )
    assert stale.status_code == 422 and version(game_id) == at + 2


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", "Tour de"),
        ("ru", "Ход"),
        ("ja", "の番"),
    ],
)
def test_the_panel_in_each_language(language: str, words: str) -> None:
    ensure_compiled()
    game_id, tokens = new_table()
    client = Client(headers={"Accept-Language": language})
    with translation.override(language):
        html = client.get(f"/seat/{tokens[1]}/state/", headers=FETCH).content.decode()
    assert words in html, html[:1500]
    assert "Victory points" not in html and "Dishes in the pile" not in html


def test_a_finished_game_shows_the_places_of_the_replay() -> None:
    from engine.registry import RULES

    record = RULES[GAME].simulate(3, 3)
    names = list(record[0]["players"])
    game = services.game_create(players=names, game_type=GAME)
    services.game_append(game_id=game.game_id, expected_version=1, events=record[1:])
    links = services.seat_links_issue(game_id=game.game_id, user=None)
    final = read_panel(page(Client(), links[0].token)).final
    summary = RULES[GAME].replay([json.dumps(e) for e in record])
    assert final is not None
    assert [(f.player, f.place, f.points) for f in final] == [
        (r["player"], r["rank"], r["points"]) for r in summary["ranking"]
    ]


def test_the_scorekeeper_enters_a_company_card_after_a_refused_dish(
    django_user_model: Any,
) -> None:
    from tests.web.test_table_page import page_forms

    keeper = django_user_model.objects.create_user("keeper", password="x")
    client = Client()
    client.force_login(keeper)
    game = services.game_create(players=NAMES, game_type=GAME, user=keeper)
    refused = [
        {"type": "dish_revealed", "player": "Ana", "dish": "pizza"},
        {"type": "dish_revealed", "player": "Ben", "dish": "pizza"},
    ]
    services.game_append(
        game_id=game.game_id, expected_version=1, events=[ROUND_1, *refused], user=keeper
    )
    form = page_forms(client.get(f"/table/{game.game_id}/").content.decode())["event"]
    offered = [json.loads(v) for n, v in form.buttons if n == "event"]
    late = {"type": "company_played", "player": "Ben", "effect": "rearrange"}
    assert late in offered  # in table order: after Ben's refused dish, before his market card
    answer = client.post(
        f"/table/{game.game_id}/event/",
        {**form.fields, "event": json.dumps(late)},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200
    assert state(game.game_id).seats["Ben"].company is None
    assert state(game.game_id).phase is Phase.MARKET_PICK


def test_a_remove_chosen_by_another_than_its_target_is_refused_in_words() -> None:
    game_id, tokens = new_table({"type": "dish_revealed", "player": "Ana", "dish": "pizza"})
    at = version(game_id)
    fields = {"type": "company_played", "effect": "remove", "target": "Ana", "dish": "pizza"}
    wrong = act(Client(), tokens[0], at, "a-1", **fields, chosen_by="Ben")
    assert wrong.status_code == 422 and wrong["X-Seat-Refusal"] == "wrong_chooser"
    assert "Ana chooses which of their own dishes goes under their pile" in refusal(wrong)
    missing = act(Client(), tokens[0], at, "a-2", **fields)  # v2 needs who chose
    assert missing.status_code == 422 and missing["X-Seat-Refusal"] == "bad_event"
    ensure_compiled()
    with translation.override("fr"):
        french = Client(headers={"Accept-Language": "fr"})
        again = act(french, tokens[0], at, "a-4", **fields, chosen_by="Ben")
    assert again.status_code == 422 and "c'est Ana qui choisit" in refusal(again)
    assert "manche 1" in refusal(again)  # the rulebook's word for a round
    assert act(Client(), tokens[0], at, "a-3", **fields, chosen_by="Ana").status_code == 200
