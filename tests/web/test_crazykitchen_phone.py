"""Crazy Kitchen on the phones (games/crazykitchen/phone.py, docs/scorekeeping.md "Crazy Kitchen
on the phones"), driven with the Django test client as static/js/seat.js drives it: one phone
per team, its head chef's (``GameType.phone_seats``); the cooks' phone taps each order, strikes
one, the customers' phone confirms or returns the round; after round 2 the team behind buys its
upgrades within its budget, then the other; refusals in the rules' words (and the reader's
language), undo of one's own last tap, and nothing entered for the other team."""

from __future__ import annotations

import json
import re
import uuid
from html import unescape
from typing import Any

import pytest
from django.test import Client

from engine.crazykitchen import RULES
from engine.crazykitchen.events import dumps, loads
from engine.crazykitchen.replay import replay_lines
from engine.crazykitchen.simulate import simulate, simulate_v1
from games import services, store
from games.gametypes import GAME_TYPES
from games.models import GameProjection, SeatLink
from tests.phones.bot import read_panel
from tests.web.i18n_compiled import ensure_compiled

pytestmark = pytest.mark.django_db

FETCH = {"X-Seat-Fetch": "1"}
MEMBERS = {"Reds": ["Ana", "Ben"], "Blues": ["Cleo", "Dev", "Eli"]}


def new_game(**options: Any) -> tuple[uuid.UUID, dict[str, str]]:
    """Reds cook first; each team's seat link, by team."""
    game = services.game_create(
        players=["Reds", "Blues"],
        game_type="crazy-kitchen",
        options={"members": MEMBERS, **options},
    )
    links = services.seat_links_issue(game_id=game.game_id, user=None)
    return game.game_id, {link.player: link.token for link in links}


def version(game_id: uuid.UUID) -> int:
    return GameProjection.objects.get(stream_id=game_id).version


def post(token: str, path: str, game_id: uuid.UUID, **fields: str) -> Any:
    key = f"k-{uuid.uuid4()}"
    data = {"version": str(version(game_id)), "key": key, **fields}
    return Client().post(f"/seat/{token}/{path}", data, headers=FETCH)


def panel(token: str, **headers: str) -> str:
    return unescape(
        Client().get(f"/seat/{token}/state/", headers={**FETCH, **headers}).content.decode()
    )


def refusal(response: Any) -> str:
    said = re.findall(r"Refused:</strong>([^<]*)", unescape(response.content.decode()))
    return said[0].strip() if said else ""


def record(game_id: uuid.UUID) -> list[dict[str, Any]]:
    return [{"type": e.type, **e.data} for e in store.read_stream(game_id)]


def moves(token: str) -> list[tuple[str, dict[str, str]]]:
    return [(m.path, m.data) for m in read_panel(panel(token)).moves]


def test_each_team_gets_one_phone_its_head_chefs() -> None:
    game_id, tokens = new_game(head_chefs={"Blues": "Dev"})
    assert sorted(tokens) == ["Blues", "Reds"]
    assert SeatLink.objects.filter(game_id=game_id).count() == 2
    started = record(game_id)[0]
    assert started["version"] == 2
    assert [t["head_chef"] for t in started["teams"]] == ["Ana", "Dev"]
    page = panel(tokens["Blues"])
    assert "head chef Dev" in page and "head chef Ana" in page


def test_a_v1_game_gets_no_phones_and_other_games_one_per_seat() -> None:
    v1 = [dumps(e) for e in simulate_v1(3, 4)]  # a table started before v2
    kitchen = GAME_TYPES["crazy-kitchen"]
    teams = [t.name for t in loads(v1[0]).teams]  # type: ignore[union-attr]
    assert kitchen.phone_seats(teams, RULES.replay(v1[:1])) == []
    v2 = RULES.replay([dumps(simulate(3, 4)[0])])
    assert kitchen.phone_seats(["Pizza", "French Fries"], v2) == [(1, "Pizza"), (2, "French Fries")]
    chefs = GAME_TYPES["chefs"]
    assert chefs.phone_seats(["A", "B", "C"], {}) == [(1, "A"), (2, "B"), (3, "C")]


def test_the_cooks_tap_orders_and_the_customers_confirm_the_round() -> None:
    game_id, tokens = new_game()
    cooks, customers = tokens["Reds"], tokens["Blues"]
    offered = moves(cooks)
    assert ("order/", {"kind": "fulfilled", "value": "3"}) in [
        (p, {k: v for k, v in d.items() if k != "version"}) for p, d in offered
    ]
    assert all(path == "order/" for path, _ in offered)  # nothing to strike or confirm yet
    assert [p for p, _ in moves(customers)] == ["confirm/", "return/"]
    for kind, value in (
        ("fulfilled", "3"),
        ("fulfilled", "2"),
        ("failed", "2"),
        ("fulfilled", "5"),
    ):
        assert post(cooks, "order/", game_id, kind=kind, value=value).status_code == 200
    assert "strike/" in [p for p, _ in moves(cooks)]
    assert post(cooks, "strike/", game_id, order="2").status_code == 200
    assert post(customers, "confirm/", game_id).status_code == 200
    events = record(game_id)[1:]
    assert events == [
        {"type": "order_fulfilled", "team": "Reds", "points": 3},
        {"type": "order_fulfilled", "team": "Reds", "points": 2},
        {"type": "order_failed", "team": "Reds", "penalty": 2},
        {"type": "order_fulfilled", "team": "Reds", "points": 5},
        {"type": "order_struck", "team": "Reds", "order": 2},
        {"type": "round_confirmed", "team": "Blues"},
    ]
    summary = GameProjection.objects.get(stream_id=game_id).summary
    assert summary["rounds"][0] == {
        "round": 1,
        "cooks": "Reds",
        "fulfilled": [3, 5],
        "penalties": [2],
        "score": 6,
    }
    # Round 2: the roles swap, on the same two phones.
    assert "you cook" in panel(customers)
    assert [p for p, _ in moves(cooks)] == ["confirm/", "return/"]


def test_a_tap_for_the_other_teams_role_is_refused_in_words() -> None:
    game_id, tokens = new_game()
    answer = post(tokens["Blues"], "order/", game_id, kind="fulfilled", value="3")
    assert answer.status_code == 422 and answer["X-Seat-Refusal"] == "wrong_team"
    assert refusal(answer) == "Reds cook this round: their head chef's phone enters the orders"
    answer = post(tokens["Reds"], "confirm/", game_id)
    assert answer["X-Seat-Refusal"] == "wrong_team"
    assert "Blues are this round's customers" in refusal(answer)
    assert post(tokens["Reds"], "order/", game_id, kind="fulfilled", value="0").status_code == 422
    answer = post(tokens["Reds"], "strike/", game_id, order="4")
    assert answer["X-Seat-Refusal"] == "no_such_order"
    assert refusal(answer) == "there is no order 4: 0 entered this round"
    incomplete = post(tokens["Reds"], "order/", game_id, kind="maybe", value="3")
    assert incomplete.status_code == 422
    assert len(record(game_id)) == 1


def test_a_phone_never_enters_for_the_other_team() -> None:
    game_id, tokens = new_game()
    # A forged event naming the other team, through the frame's own check (games.services).
    with pytest.raises(services.NotAllowed):
        services.game_append(
            game_id=game_id,
            expected_version=version(game_id),
            events=[{"type": "order_fulfilled", "team": "Reds", "points": 3}],
            seat=services.seat_open(tokens["Blues"]),
            seat_plays={"order_fulfilled"},
        )
    assert len(record(game_id)) == 1


def test_a_returned_round_waits_for_the_cooks() -> None:
    game_id, tokens = new_game()
    post(tokens["Reds"], "order/", game_id, kind="fulfilled", value="4")
    assert post(tokens["Blues"], "return/", game_id).status_code == 200
    assert moves(tokens["Blues"]) == []
    assert "Waiting for Reds" in panel(tokens["Blues"])
    assert "the customers returned the orders" in panel(tokens["Reds"])
    post(tokens["Reds"], "strike/", game_id, order="1")
    assert [p for p, _ in moves(tokens["Blues"])] == ["confirm/", "return/"]


def play_two_rounds(game_id: uuid.UUID, tokens: dict[str, str]) -> None:
    """Reds score 6 in round 1, Blues 8 in round 2: Reds upgrade first, for up to 8."""
    post(tokens["Reds"], "order/", game_id, kind="fulfilled", value="6")
    post(tokens["Blues"], "confirm/", game_id)
    post(tokens["Blues"], "order/", game_id, kind="fulfilled", value="8")
    post(tokens["Reds"], "confirm/", game_id)


def test_the_upgrades_are_chosen_within_the_budget_team_by_team() -> None:
    game_id, tokens = new_game()
    play_two_rounds(game_id, tokens)
    assert moves(tokens["Blues"]) == []
    assert "Waiting for Reds" in panel(tokens["Blues"])
    reds = moves(tokens["Reds"])
    buys = [d["buy"] for p, d in reds if p == "buy/"]
    assert "tool:oven:1" in buys and "card:6" in buys and "tool:oven:7" not in buys
    assert ("done/", {"version": str(version(game_id))}) in reds
    assert post(tokens["Reds"], "buy/", game_id, buy="tool:oven:3").status_code == 200
    assert post(tokens["Reds"], "buy/", game_id, buy="card:4").status_code == 200
    buys = [d["buy"] for p, d in moves(tokens["Reds"]) if p == "buy/"]
    # 1 left: a card or a tool for 1, but not the oven (its next number is 3 or more).
    assert "card:1" in buys and "tool:knife:1" in buys
    assert not [b for b in buys if b.startswith("tool:oven") or b.endswith(":2")]
    over = post(tokens["Reds"], "buy/", game_id, buy="card:2")
    assert over.status_code == 422 and over["X-Seat-Refusal"] == "over_budget"
    assert refusal(over) == (
        "Reds upgrade for up to 8 victory points after round 2: 7 spent, 2 more is over"
    )
    early = post(tokens["Blues"], "buy/", game_id, buy="card:1")
    assert early["X-Seat-Refusal"] == "wrong_team"
    assert post(tokens["Reds"], "done/", game_id).status_code == 200
    assert moves(tokens["Reds"]) == []
    blues = [d["buy"] for p, d in moves(tokens["Blues"]) if p == "buy/"]
    assert "tool:oven:2" not in blues and "tool:oven:3" in blues  # the row is shared
    assert post(tokens["Blues"], "done/", game_id).status_code == 200
    assert "you cook" in panel(tokens["Reds"])  # round 3
    state = replay_lines([json.dumps(e) for e in record(game_id)])
    assert state.spent(2, "Reds") == 7 and state.done[2] == ["Reds", "Blues"]


def test_a_team_undoes_its_own_last_tap() -> None:
    game_id, tokens = new_game()
    post(tokens["Reds"], "order/", game_id, kind="fulfilled", value="5")
    page = panel(tokens["Reds"])
    assert "Undo my last play" in page and "Reds: order fulfilled, 5 points" in page
    assert "Undo my last play" not in panel(tokens["Blues"])
    assert post(tokens["Reds"], "undo/", game_id).status_code == 200
    summary = GameProjection.objects.get(stream_id=game_id).summary
    assert summary["current"]["orders"] == []


def test_the_phone_speaks_the_readers_language() -> None:
    ensure_compiled()
    game_id, tokens = new_game()
    french = panel(tokens["Blues"], **{"accept-language": "fr"})
    assert "Renvoyer la manche aux cuisiniers" in french
    answer = Client().post(
        f"/seat/{tokens['Blues']}/order/",
        {"version": str(version(game_id)), "key": "fr-1", "kind": "fulfilled", "value": "3"},
        headers={**FETCH, "accept-language": "ru"},
    )
    assert "заказы вводит телефон их шеф-повара" in unescape(answer.content.decode())
    japanese = panel(tokens["Reds"], **{"accept-language": "ja"})
    assert "スコアボード" in japanese and "料理長" in japanese


def test_a_v1_game_keeps_the_scorekeepers_round_form_and_has_no_phones(
    django_user_model: Any,
) -> None:
    keeper = django_user_model.objects.create_user("keeper", password="x")
    v1 = "".join(dumps(e) + "\n" for e in simulate_v1(4, 4)[:2])  # started before v2
    game = services.game_import_record(record=v1, game_type="crazy-kitchen", user=keeper)
    assert services.seat_links_issue(game_id=game.game_id, user=None) == []
    client = Client()
    client.force_login(keeper)
    page = client.get(f"/table/{game.game_id}/").content.decode()
    assert 'name="fulfilled"' in page and 'name="kind"' not in page
    fields = dict(re.findall(r'name="(version|key)" value="([^"]*)"', page))
    answer = client.post(
        f"/table/{game.game_id}/event/", {**fields, "fulfilled": "3 2", "penalties": "1"}
    )
    assert answer.status_code == 303  # POST/redirect/GET: recorded
    last = record(game.game_id)[-1]
    assert last["type"] == "round_scored" and last["round"] == 2 and last["score"] == 4
