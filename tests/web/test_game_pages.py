"""The table page, results-only form and undo of the games whose pages are the shared frame's
(games/pages/frame.py: Food Truck, Chefs, Crazy Kitchen), driven with the Django test client:
the forms are read back from the page's HTML (tests/web/test_table_page.py's reader) and posted
as a browser would."""

from __future__ import annotations

import copy
import json
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from engine.registry import RULES
from games import services
from games.gametypes import GAME_TYPES
from games.models import Event as StoredEvent
from games.models import GameProjection, GameResult
from games.pages import pages_for
from games.pages.frame import PresenterPages
from tests.games.records import start_args
from tests.web.test_table_page import page_forms, text

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
TEAMS = {"Pizza": ["Ann", "Bo", "Cy"], "Fries": ["Di", "Ed"]}
FRAME_GAMES = [key for key in GAME_TYPES if isinstance(pages_for(key), PresenterPages)]
"""The registered games whose pages are a presenter in the shared frame."""


@pytest.fixture
def keeper(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("keeper", password="x")


@pytest.fixture
def client_in(client: Client, keeper: User) -> Client:
    client.force_login(keeper)
    return client


def new_game(user: User, key: str, players: list[str] | None = None) -> uuid.UUID:
    if GAME_TYPES[key].teams:
        change = services.game_create(
            players=list(TEAMS), game_type=key, options={"members": TEAMS}, user=user
        )
    else:
        names = players or ["Ann", "Bo", "Cy"]
        options = GAME_TYPES[key].table_options(len(names))  # Trick-n-Chef's 3: its suits
        change = services.game_create(players=names, game_type=key, options=options, user=user)
    return change.game_id


def results_url(game_id: uuid.UUID) -> str:
    return f"/table/{game_id}/results/"


def page_url(game_id: uuid.UUID) -> str:
    return f"/table/{game_id}/"


def post_results(client: Client, game_id: uuid.UUID, values: dict[str, str]) -> Any:
    html = client.get(results_url(game_id)).content.decode()
    form = page_forms(html)["results"]
    return client.post(results_url(game_id), {**form.fields, **values})


# ----------------------------------------------------------------------------- results only


@pytest.mark.parametrize("key", list(GAME_TYPES))
def test_the_table_page_of_each_game_answers_and_links_its_results_form(
    client_in: Client, keeper: User, key: str
) -> None:
    game_id = new_game(keeper, key)
    response = client_in.get(page_url(game_id))
    assert response.status_code == 200
    assert results_url(game_id) in response.content.decode()
    assert client_in.get(results_url(game_id)).status_code == 200


def test_food_truck_results_are_entered_from_the_sheet(client_in: Client, keeper: User) -> None:
    game_id = new_game(keeper, "food-truck")
    response = post_results(
        client_in, game_id, {"vp-0": "1", "vp-1": "3", "vp-2": "0", "winner": "1"}
    )
    assert response.status_code == 303
    ranks = {r.player: (r.rank, r.total) for r in GameResult.objects.filter(game_id=game_id)}
    assert ranks == {"Bo": (1, 3), "Ann": (2, 1), "Cy": (3, 0)}
    page = text(client_in.get(page_url(game_id)).content.decode())
    assert "Final ranking" in page and "3 victory points" in page


def test_a_refused_entry_says_why_above_the_form_and_keeps_what_was_typed(
    client_in: Client, keeper: User
) -> None:
    game_id = new_game(keeper, "food-truck")
    response = post_results(
        client_in, game_id, {"vp-0": "3", "vp-1": "3", "vp-2": "0", "winner": "1"}
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert "The results were not recorded" in text(html)
    assert page_forms(html)["results"].fields["vp-0"] == "3"
    assert not GameResult.objects.filter(game_id=game_id).exists()


def test_a_word_for_a_number_is_refused_in_words(client_in: Client, keeper: User) -> None:
    game_id = new_game(keeper, "chefs")
    response = post_results(client_in, game_id, {"pos-0": "far", "pos-1": "22", "pos-2": ""})
    assert response.status_code == 422
    page = text(response.content.decode())
    assert "Ann's final position must be a whole number" in page
    assert "Cy's final position is missing" in page


def test_chefs_positions_rank_the_table(client_in: Client, keeper: User) -> None:
    game_id = new_game(keeper, "chefs")
    response = post_results(client_in, game_id, {"pos-0": "22", "pos-1": "17", "pos-2": "22"})
    assert response.status_code == 303
    ranks = {r.player: r.rank for r in GameResult.objects.filter(game_id=game_id)}
    assert ranks == {"Ann": 1, "Cy": 1, "Bo": 3}


def test_crazy_kitchen_shows_who_cooks_and_the_compensation_then_the_upgrades(
    client_in: Client, keeper: User
) -> None:
    game_id = new_game(keeper, "crazy-kitchen")
    form_page = text(client_in.get(results_url(game_id)).content.decode())
    assert "Round 1 (Pizza cooks)" in form_page and "Round 2 (Fries cooks)" in form_page
    assert "Fries, the smaller team, gets 15 points of compensation" in form_page
    scores = {f"round-{n}": str(s) for n, s in enumerate([10, 12, 8, 9, 7, 10], start=1)}
    response = post_results(client_in, game_id, scores)
    assert response.status_code == 303
    totals = {r.player: r.total for r in GameResult.objects.filter(game_id=game_id)}
    assert totals == {"Fries": 46, "Pizza": 25}
    page = text(client_in.get(page_url(game_id)).content.decode())
    assert "Upgrades" in page


def test_a_stale_version_is_a_conflict(client_in: Client, keeper: User) -> None:
    game_id = new_game(keeper, "chefs")
    html = client_in.get(results_url(game_id)).content.decode()
    form = page_forms(html)["results"]
    services.game_void(game_id=game_id, expected_version=1, reason="x", user=keeper)
    response = client_in.post(
        results_url(game_id), {**form.fields, "pos-0": "22", "pos-1": "1", "pos-2": "0"}
    )
    assert response.status_code == 409


def test_the_results_undo_takes_them_back(client_in: Client, keeper: User) -> None:
    game_id = new_game(keeper, "chefs")
    post_results(client_in, game_id, {"pos-0": "22", "pos-1": "17", "pos-2": "3"})
    html = client_in.get(page_url(game_id)).content.decode()
    undo = page_forms(html)["undo"]
    response = client_in.post(f"/table/{game_id}/undo/", undo.fields, headers=HTMX)
    assert response.status_code == 200
    game = GameProjection.objects.get(stream_id=game_id)
    assert not game.results_only


@pytest.fixture
def food_truck_tournament(
    django_user_model: type[User], keeper: User
) -> tuple[Any, uuid.UUID, User]:
    from tournaments import services as t

    organizer = django_user_model.objects.create_user("olga", password="x")
    tid = t.tournament_create(
        user=organizer,
        name="Truck night",
        date="2026-12-01",
        rounds=3,
        seed=7,
        game_type="food-truck",
    ).tournament_id
    t.tournament_register(
        tournament_id=tid, user=organizer, names=["Ana", "Ben", "Cleo", "Dev"], checked_in=True
    )
    t.tournament_set_role(
        tournament_id=tid, username="keeper", role="scorekeeper", grant=True, user=organizer
    )
    t.tournament_pair(tournament_id=tid, user=organizer)
    state = t.tournament_publish(tournament_id=tid, round=1, user=organizer).state
    return tid, uuid.UUID(state["rounds"][0]["tables"][0]["game"]), organizer


def test_only_the_tournaments_scorekeepers_enter_its_tables(
    client: Client, keeper: User, oscar: User, food_truck_tournament: tuple[Any, uuid.UUID, User]
) -> None:
    game_id = food_truck_tournament[1]
    client.force_login(oscar)
    assert client.get(page_url(game_id)).status_code == 403
    assert client.get(results_url(game_id)).status_code == 403
    client.force_login(keeper)
    html = client.get(page_url(game_id)).content.decode()
    assert "Truck night · round 1 · table 1" in text(html)
    # Round 1's first player is seat 1 at a tournament table: the only one offered.
    assert len(page_forms(html)["event"].choices["first_player"]) == 1
    form = page_forms(client.get(results_url(game_id)).content.decode())["results"]
    client.force_login(oscar)
    points = {name: "0" for name in form.inputs if name.startswith("vp-")}
    response = client.post(
        results_url(game_id), {**form.fields, **points, "vp-0": "3", "winner": "0"}
    )
    assert response.status_code == 403


def test_the_login_comes_first(client: Client, keeper: User) -> None:
    game_id = new_game(keeper, "food-truck")
    response = client.get(page_url(game_id))
    assert response.status_code == 302 and "/login" in response["Location"]


def test_a_posted_event_must_be_one_of_the_games_types(client_in: Client, keeper: User) -> None:
    game_id = new_game(keeper, "crazy-kitchen")
    response = client_in.post(
        f"/table/{game_id}/event/",
        {"version": "1", "key": "k1", "event": json.dumps({"type": "card_played"})},
    )
    assert response.status_code == 422


@pytest.mark.parametrize("key", FRAME_GAMES)
def test_the_rules_refuse_a_wrong_play_in_words(client_in: Client, keeper: User, key: str) -> None:
    game_id = new_game(keeper, key)
    bad = {} if GAME_TYPES[key].teams else {"type": "round_started", "round": 7}
    response = client_in.post(
        f"/table/{game_id}/event/",
        {"version": "1", "key": "k2", "event": json.dumps(bad or {"type": "round_scored"})},
    )
    assert response.status_code == 422
    assert "Refused" in text(response.content.decode())


# ----------------------------------------------------------------------------- replay


def played(key: str, seed: int, upto: int | None = None) -> tuple[uuid.UUID, list[dict[str, Any]]]:
    """A published game of ``key`` from a simulated record (all of it, or its first lines)."""
    record = RULES[key].simulate(seed, 5 if GAME_TYPES[key].teams else 3)
    players, options = start_args(record[0])
    game = services.game_create(players=players, game_type=key, options=options, published=True)
    version = game.version
    for obj in record[1:upto]:
        version = services.game_append(
            game_id=game.game_id, expected_version=version, events=[obj]
        ).version
    return game.game_id, record


@pytest.mark.parametrize("key", FRAME_GAMES)
def test_the_replay_steps_through_the_events_in_words(client: Client, key: str) -> None:
    game_id, record = played(key, 5)
    first = text(client.get(f"/g/{game_id}/").content.decode())
    assert "Final ranking" in first or "Result" in first
    assert f"Step 1 of {len(record) - 1}" not in first  # step 0 is the start
    step = text(client.get(f"/g/{game_id}/?step=1").content.decode())
    assert f"Step 1 of {len(record) - 1}" in step
    last = text(client.get(f"/g/{game_id}/?step=999").content.decode())
    assert f"Step {len(record) - 1} of {len(record) - 1}" in last


def test_the_food_truck_replay_shows_only_what_the_table_saw(client: Client) -> None:
    game_id, record = played("food-truck", 3, upto=4)
    html = text(client.get(f"/g/{game_id}/?step=3").content.decode())
    # The piles are face down: their sizes only, never which dishes are left in them.
    assert "Dishes in the pile" in html
    revealed = [e for e in record[1:4] if e["type"] == "dish_revealed"]
    for event in revealed:
        assert f"{event['player']} turns over" in html


def test_a_results_only_game_shows_its_entry(client: Client, keeper: User) -> None:
    game = services.game_create(
        players=["Ann", "Bo", "Cy"], game_type="chefs", published=True, user=keeper
    )
    services.game_enter_results(
        game_id=game.game_id,
        expected_version=game.version,
        entry={"positions": {"Ann": 22, "Bo": 9, "Cy": 3}},
    )
    html = text(client.get(f"/g/{game.game_id}/").content.decode())
    assert "entered as results only" in html
    assert "Ann 22" in html and "position 22" in html


# ----------------------------------------------------------------------------- score sheets


def test_a_food_truck_round_prints_its_own_score_sheets(
    client: Client, food_truck_tournament: tuple[Any, uuid.UUID, User]
) -> None:
    tid, _game, organizer = food_truck_tournament
    client.force_login(organizer)
    response = client.get(f"/desk/{tid}/round/1/sheets/print/")
    assert response.status_code == 200
    page = text(response.content.decode())
    assert "Rounds won" in page and "Victory points" in page
    assert "Deal 1" not in page


def test_each_games_score_sheet_has_the_games_own_boxes() -> None:
    from games.pages import pages_for

    kitchen = pages_for("crazy-kitchen").sheet(["Pizza", "Fries"])
    assert kitchen.rounds[0] == "Round 1 · Pizza cooks"
    assert kitchen.rounds[1] == "Round 2 · Fries cooks"
    assert len(kitchen.rounds) == 6
    assert kitchen.round_boxes == ("Orders fulfilled", "Penalties", "Score")
    assert pages_for("chefs").sheet(["A", "B"]).boxes[0] == "Final position"
    assert pages_for("trick-n-chef").sheet(["A", "B", "C"]).boxes[:3] == (
        "Deal 1",
        "Deal 2",
        "Deal 3",
    )


# ----------------------------------------------------------------------------- play by play


def tap(client: Client, game_id: uuid.UUID, obj: dict[str, Any]) -> Any:
    """Enter one record event as the scorekeeper would: the button offering exactly it, or the
    game's form filled in with its fields."""
    html = client.get(page_url(game_id)).content.decode()
    forms_ = page_forms(html)
    form = forms_["event"]
    offered = [json.loads(v) for n, v in form.buttons if n == "event"]
    if obj in offered:
        return client.post(
            f"/table/{game_id}/event/", {**form.fields, "event": json.dumps(obj)}, headers=HTMX
        )
    fields = dict(form.fields)
    kind = obj["type"]
    if kind == "round_started" and "market" in obj:
        fields["first_player"] = obj["first_player"]
        players = list(obj["companies"])
        for i, dish in enumerate(obj["market"]):
            fields[f"market-{i}"] = dish
        for seat, player in enumerate(players):
            fields[f"company-{seat}"] = obj["companies"][player]
    elif kind == "round_scored":
        fields["fulfilled"] = " ".join(map(str, obj["fulfilled"]))
        fields["penalties"] = ", ".join(map(str, obj["penalties"]))
    elif kind in ("order_fulfilled", "order_failed"):  # Crazy Kitchen v2's order form
        fields["value"] = str(obj.get("points", obj.get("penalty")))
        fields["kind"] = "fulfilled" if kind == "order_fulfilled" else "failed"
    elif kind in ("tool_sped_up", "card_taken"):  # and its upgrade form
        fields.update(upgrade=obj.get("tool", "card"), cost=str(obj["cost"]))
    elif kind in ("meal_cooked", "meal_laid"):
        fields.update(steps=str(obj["steps"]), ingredients=str(obj["ingredients"]))
        if obj.get("chef_card"):
            fields["chef_card"] = "on"
    else:
        raise AssertionError(f"the page offers no way to enter {obj}; it offers {offered}")
    return client.post(f"/table/{game_id}/event/", fields, headers=HTMX)


@pytest.mark.parametrize("key", FRAME_GAMES)
def test_a_whole_game_is_entered_play_by_play_on_the_table_page(
    client_in: Client, keeper: User, key: str
) -> None:
    record = RULES[key].simulate(4, 5 if GAME_TYPES[key].teams else 3)
    players, options = start_args(record[0])
    game_id = services.game_create(
        players=players, game_type=key, options=options, user=keeper
    ).game_id
    for obj in record[1:]:
        response = tap(client_in, game_id, obj)
        assert response.status_code == 200, text(response.content.decode())
    view = services.game_view(game_id=game_id, user=keeper)
    assert view.status == "finished"
    assert view.summary["ranking"] == RULES[key].replay([json.dumps(e) for e in record])["ranking"]
    assert "Final ranking" in text(client_in.get(page_url(game_id)).content.decode())


def test_undo_takes_back_the_last_play(client_in: Client, keeper: User) -> None:
    record = RULES["food-truck"].simulate(2, 3)
    game_id = new_game(keeper, "food-truck", record[0]["players"])
    tap(client_in, game_id, record[1])
    tap(client_in, game_id, record[2])
    html = client_in.get(page_url(game_id)).content.decode()
    assert "Undo last:" in text(html)
    response = client_in.post(f"/table/{game_id}/undo/", page_forms(html)["undo"].fields)
    assert response.status_code == 303
    assert len(services.game_view(game_id=game_id, user=keeper).record_events) == 2


def test_a_refused_round_keeps_what_was_typed(client_in: Client, keeper: User) -> None:
    game_id = new_game(keeper, "food-truck")
    form = page_forms(client_in.get(page_url(game_id)).content.decode())["event"]
    fields = {
        **form.fields,
        "first_player": "Ann",
        "market-0": "taco",
        "market-1": "dessert",
        "market-2": "burger",
        "company-0": "swap",
        "company-1": "copy",
        "company-2": "under",
    }
    response = client_in.post(f"/table/{game_id}/event/", fields, headers=HTMX)
    assert response.status_code == 422
    html = response.content.decode()
    assert "desserts are never in the market" in text(html)
    again = page_forms(html)["event"].fields
    assert again["market-0"] == "taco" and again["company-1"] == "copy"
    missing = {**fields, "market-2": ""}
    response = client_in.post(f"/table/{game_id}/event/", missing, headers=HTMX)
    assert response.status_code == 422
    assert "Write the 3 dishes of the market" in text(response.content.decode())


def test_a_crazy_kitchen_round_in_words_not_numbers_is_refused(
    client_in: Client, keeper: User
) -> None:
    game_id = new_game(keeper, "crazy-kitchen")
    form = page_forms(client_in.get(page_url(game_id)).content.decode())["event"]
    response = client_in.post(
        f"/table/{game_id}/event/", {**form.fields, "value": "three", "kind": "fulfilled"}
    )
    assert response.status_code == 422
    assert "write a whole number, such as 3" in text(response.content.decode())


# ----------------------------------------------------------------------------- accessibility


@pytest.mark.parametrize("key", FRAME_GAMES)
def test_the_pages_of_a_game_under_way_pass_the_accessibility_checker(
    client: Client, keeper: User, key: str
) -> None:
    from tests.web.a11y import assert_accessible

    game_id, record = played(key, 6, upto=3 if GAME_TYPES[key].teams else 9)
    client.force_login(keeper)
    for url in (page_url(game_id), f"/g/{game_id}/?step=2"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_accessible(response.content.decode(), where=url)


def test_a_play_sent_from_a_stale_page_is_a_conflict(client_in: Client, keeper: User) -> None:
    game_id, record = played("crazy-kitchen", 6, upto=3)
    form = page_forms(client_in.get(page_url(game_id)).content.decode())["event"]
    stale = {**form.fields, "version": str(int(form.fields["version"]) - 1)}
    response = client_in.post(
        f"/table/{game_id}/event/", {**stale, "value": "3", "kind": "fulfilled"}, headers=HTMX
    )
    assert response.status_code == 409
    assert "Someone else changed this table" in text(response.content.decode())
    assert "<html" not in response.content.decode()  # the panel, for htmx


def test_the_pages_speak_the_readers_language(client_in: Client, keeper: User) -> None:
    game_id, _record = played("food-truck", 6, upto=3)
    french = client_in.get(page_url(game_id), headers={"accept-language": "fr"})
    page = text(french.content.decode())
    assert "Carte Compagnie" in page and "Points de victoire" in page
    japanese = client_in.get(f"/g/{game_id}/?step=1", headers={"accept-language": "ja"})
    replay = text(japanese.content.decode())
    assert "ステップ1／2" in replay


# ----------------------------------------------------------------------------- a correction

SHEETS: dict[str, tuple[dict[str, str], str, str, tuple[str, Any]]] = {
    # The sheet as first entered, the box corrected, its right value, and where the entry keeps
    # that box.
    "food-truck": (
        {"vp-0": "1", "vp-1": "3", "vp-2": "0", "winner": "1"},
        "vp-2",
        "2",
        ("victory_points", "Cy"),
    ),
    "chefs": ({"pos-0": "22", "pos-1": "17", "pos-2": "3"}, "pos-1", "11", ("positions", "Bo")),
    "crazy-kitchen": (
        {f"round-{n}": str(s) for n, s in enumerate([10, 12, 8, 9, 7, 10], start=1)},
        "round-4",
        "19",
        ("scores", 3),
    ),
}


def results_entries(game_id: uuid.UUID) -> list[tuple[str, dict[str, Any]]]:
    """The game's results entries and corrections, as stored, in order."""
    rows = StoredEvent.objects.filter(stream_id=game_id).order_by("version")
    return [(e.type, e.data) for e in rows if e.type in ("results_entered", "events_retracted")]


@pytest.mark.parametrize("key", list(SHEETS))
def test_a_correction_opens_the_results_form_filled_in_and_one_number_is_one_number(
    client_in: Client, keeper: User, key: str
) -> None:
    game_id = new_game(keeper, key)
    sheet, box, right, (part, at) = SHEETS[key]
    assert post_results(client_in, game_id, sheet).status_code == 303
    html = client_in.get(page_url(game_id)).content.decode()
    assert "Their form opens filled in with what was entered" in text(html)
    undo = page_forms(html)["undo"]
    response = client_in.post(
        f"/table/{game_id}/undo/", {**undo.fields, "reason": "a box was wrong"}, headers=HTMX
    )
    # The undo answers with the results form (htmx follows HX-Redirect), filled in with the
    # entry the correction took back: every box as it was typed.
    assert response.status_code == 200
    assert response["HX-Redirect"] == results_url(game_id)
    html = client_in.get(results_url(game_id)).content.decode()
    assert "The results that were taken back are filled in below" in text(html)
    form = page_forms(html)["results"]
    assert {name: form.fields.get(name) for name in sheet} == sheet
    # The table page, opened meanwhile, offers the correction first.
    table = text(client_in.get(page_url(game_id)).content.decode())
    assert "Correct the results" in table and "did not record play by play?" not in table
    # One number changed, then submit: the correction is recorded, the rest as it was.
    response = client_in.post(results_url(game_id), {**form.fields, box: right})
    assert response.status_code == 303
    (first_type, first), (undo_type, _), (again_type, again) = results_entries(game_id)
    assert (first_type, undo_type, again_type) == (
        "results_entered",
        "events_retracted",
        "results_entered",
    )
    expected = copy.deepcopy(first)
    expected[part][at] = int(right)
    assert again == expected
    # Entered again: the form is closed, nothing is offered to fill in any more.
    assert "filled in below" not in text(client_in.get(results_url(game_id)).content.decode())


@pytest.mark.parametrize("key", list(SHEETS))
def test_correct_the_results_opens_the_recorded_results_and_records_both_events(
    client_in: Client, keeper: User, key: str
) -> None:
    game_id = new_game(keeper, key)
    sheet, box, right, (part, at) = SHEETS[key]
    assert post_results(client_in, game_id, sheet).status_code == 303
    table = client_in.get(page_url(game_id)).content.decode()
    assert f'href="{results_url(game_id)}"' in table and "Correct the results" in text(table)
    html = client_in.get(results_url(game_id)).content.decode()
    form = page_forms(html)["results"]
    assert {name: form.fields.get(name) for name in sheet} == sheet
    response = client_in.post(
        results_url(game_id), {**form.fields, box: right, "reason": "misread the sheet"}
    )
    assert response.status_code == 303
    (_, first), (_, undone), (_, again) = results_entries(game_id)
    assert undone == {"count": 1, "reason": "misread the sheet"}
    expected = copy.deepcopy(first)
    expected[part][at] = int(right)
    assert again == expected
