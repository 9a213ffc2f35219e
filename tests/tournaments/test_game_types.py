"""Tournaments of every game type, through the services: the preferred table size, teams as
entrants (Crazy Kitchen), head-to-head pairing with sides, and each table's game created with
the game's options. Results are entered results-only; nothing here reads the standings."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import services as games
from games.models import Event, GameProjection
from games.services import Refused
from tests.tournaments.helpers import Capture, summary
from tournaments import services as t

pytestmark = pytest.mark.django_db

TEAMS = {
    "Pizza": ["Ana", "Ben"],
    "Fries": ["Cleo", "Dev", "Eli"],
    "Sushi": ["Fay", "Gus"],
    "Tacos": ["Hal", "Ivo"],
}


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x")


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks: Capture) -> Iterator[Callable[[], Any]]:
    yield lambda: django_capture_on_commit_callbacks(execute=True)


def create(user: User, game_type: str, **settings: Any) -> uuid.UUID:
    settings = {"name": "Club night", "date": "2026-12-01", "rounds": 3, "seed": 7, **settings}
    return t.tournament_create(user=user, game_type=game_type, **settings).tournament_id


def register_teams(tid: uuid.UUID, user: User, teams: dict[str, list[str]] = TEAMS) -> None:
    t.tournament_register(
        tournament_id=tid,
        user=user,
        names=list(teams),
        members=list(teams.values()),
        checked_in=True,
    )


def refused(code: str, action: Callable[[], Any]) -> str:
    with pytest.raises(Refused) as caught:
        action()
    assert caught.value.code == code, caught.value.message
    return caught.value.message


# ----------------------------------------------------------------------------- table sizes


@pytest.mark.parametrize(
    ("game_type", "size", "words"),
    [
        ("food-truck", 6, "a Food Truck table seats 2 to 5 players, not 6"),
        ("chefs", 1, "a Chefs table seats 2 to 6 players, not 1"),
        ("trick-n-chef", 5, "a Trick-n-Chef table seats 3 to 4 players, not 5"),
        ("crazy-kitchen", 4, "a Crazy Kitchen table is two teams: its size is 2, not 4"),
    ],
)
def test_a_table_size_the_game_does_not_allow_is_refused_in_words(
    organizer: User, game_type: str, size: int, words: str
) -> None:
    message = refused("bad_settings", lambda: create(organizer, game_type, table_size=size))
    assert message == words


def test_the_preferred_size_is_the_full_table_and_the_next_smaller_fills_in(
    organizer: User,
) -> None:
    tid = create(organizer, "food-truck", table_size=3, round1="order")
    names = [f"P{n}" for n in range(1, 12)]  # 11 = 3 + 3 + 3 + 2
    t.tournament_register(tournament_id=tid, user=organizer, names=names, checked_in=True)
    t.tournament_pair(tournament_id=tid, user=organizer)
    sizes = [len(table["seats"]) for table in summary(tid)["rounds"][0]["tables"]]
    assert sizes == [3, 3, 3, 2]
    assert summary(tid)["settings"]["table_size"] == 3


def test_the_table_size_can_change_between_rounds_and_is_checked(organizer: User) -> None:
    tid = create(organizer, "chefs")
    t.tournament_change_settings(tournament_id=tid, changes={"table_size": 4}, user=organizer)
    assert summary(tid)["settings"]["table_size"] == 4
    refused(
        "bad_settings",
        lambda: t.tournament_change_settings(
            tournament_id=tid, changes={"table_size": 7}, user=organizer
        ),
    )


def test_a_trick_n_chef_tournament_without_a_size_is_stored_as_before(organizer: User) -> None:
    tid = create(organizer, "trick-n-chef")
    assert "table_size" not in summary(tid)["settings"]


# ----------------------------------------------------------------------------- teams


def test_teams_register_with_their_members(organizer: User) -> None:
    tid = create(organizer, "crazy-kitchen")
    register_teams(tid, organizer)
    players = summary(tid)["players"]
    assert [(p["name"], p["members"]) for p in players] == list(TEAMS.items())


@pytest.mark.parametrize(
    ("teams", "code", "words"),
    [
        ({"Solo": ["Ana"]}, "bad_team", "team Solo has 1 player; a team needs at least 2"),
        (
            {"Crowd": [f"C{n}" for n in range(7)]},
            "bad_team",
            "team Crowd has 7 players; a team has at most 6",
        ),
        (
            {"Pizza": ["Ana", "Ben"], "Fries": ["ana", "Cleo"]},
            "duplicate_player",
            "ana already plays in team Pizza: a player plays in one team",
        ),
        (
            {"Pizza": ["Ana", "Ben"], "pizza": ["Cleo", "Dev"]},
            "duplicate_player",
            "there is already a team named pizza; give each team a name of its own",
        ),
    ],
)
def test_a_team_the_game_cannot_seat_is_refused_at_registration(
    organizer: User, teams: dict[str, list[str]], code: str, words: str
) -> None:
    tid = create(organizer, "crazy-kitchen")
    assert refused(code, lambda: register_teams(tid, organizer, teams)) == words


def test_a_team_game_needs_members_and_a_player_game_refuses_them(organizer: User) -> None:
    kitchen = create(organizer, "crazy-kitchen")
    refused(
        "bad_players",
        lambda: t.tournament_register(tournament_id=kitchen, user=organizer, names=["Pizza"]),
    )
    trucks = create(organizer, "food-truck")
    refused(
        "bad_players",
        lambda: t.tournament_register(
            tournament_id=trucks, user=organizer, names=["Ana"], members=[["Ana", "Ben"]]
        ),
    )


# ----------------------------------------------------------------------------- head to head


def enter_kitchen(tid: uuid.UUID, number: int, user: User, on_commit: Any) -> None:
    """Each table of the round: six round scores, seat 1 (who cooked first) ahead."""
    for table in summary(tid)["rounds"][number - 1]["tables"]:
        game = GameProjection.objects.get(stream_id=table["game"])
        with on_commit():
            games.game_enter_results(
                game_id=game.stream_id,
                expected_version=game.version,
                entry={"scores": [10, 5, 10, 5, 10, 5]},
                user=user,
            )
        t.tournament_confirm(tournament_id=tid, round=number, table=table["table"], user=user)
    t.tournament_close_round(tournament_id=tid, round=number, user=user)


def test_crazy_kitchen_pairs_head_to_head_and_its_games_get_the_teams(
    organizer: User, on_commit: Any
) -> None:
    tid = create(organizer, "crazy-kitchen", round1="order")
    register_teams(tid, organizer)
    t.tournament_pair(tournament_id=tid, user=organizer)
    first = summary(tid)["rounds"][0]
    assert [len(table["seats"]) for table in first["tables"]] == [2, 2]
    assert first["notes"][0].startswith("Paired head to head (exhaustive)")
    assert (
        first["tables"][0]["seats"][0]["members"] == TEAMS[first["tables"][0]["seats"][0]["name"]]
    )
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    for table in summary(tid)["rounds"][0]["tables"]:
        game = GameProjection.objects.get(stream_id=table["game"])
        cooks, customers = (seat["name"] for seat in table["seats"])
        start = Event.objects.get(stream_id=game.stream_id, version=1).data
        assert start["cooks_first"] == cooks  # seat 1 cooks first
        assert [team["name"] for team in start["teams"]] == [cooks, customers]
        assert start["teams"][0]["players"] == TEAMS[cooks]
    enter_kitchen(tid, 1, organizer, on_commit)
    t.tournament_pair(tournament_id=tid, user=organizer)
    one, two = (summary(tid)["rounds"][n]["tables"] for n in (0, 1))
    met = {frozenset(s["player"] for s in table["seats"]) for table in one}
    assert not met & {frozenset(s["player"] for s in table["seats"]) for table in two}
    cooked = {table["seats"][0]["player"] for table in one}
    # Sides alternate as colours do: who cooked first in round 1 is a customer first now.
    assert cooked.isdisjoint(table["seats"][0]["player"] for table in two)


def test_teams_too_different_in_size_for_one_table_are_refused_at_publishing(
    organizer: User,
) -> None:
    tid = create(organizer, "crazy-kitchen", round1="order")
    register_teams(tid, organizer, {"Pizza": ["Ana", "Ben"], "Crowd": ["C1", "C2", "C3", "C4"]})
    t.tournament_pair(tournament_id=tid, user=organizer)
    words = refused(
        "bad_teams", lambda: t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    )
    assert "teams at a table differ by one player at most" in words


def test_an_odd_number_of_teams_gives_a_bye(organizer: User) -> None:
    tid = create(organizer, "crazy-kitchen")
    register_teams(tid, organizer, {k: v for k, v in list(TEAMS.items())[:3]})
    t.tournament_pair(tournament_id=tid, user=organizer)
    first = summary(tid)["rounds"][0]
    assert len(first["tables"]) == 1 and len(first["byes"]) == 1
    assert first["byes"][0]["members"]


# ----------------------------------------------------------------------------- other games


def food_truck(names: list[str]) -> dict[str, Any]:
    goal = 2 if len(names) == 5 else 3  # the victory points that end the game
    return {
        "victory_points": {n: goal if n == names[-1] else 1 for n in names},
        "winner": names[-1],
    }


def chefs(names: list[str]) -> dict[str, Any]:
    return {"positions": {n: 25 if n == names[-1] else i for i, n in enumerate(names)}}


@pytest.mark.parametrize(("game_type", "entry"), [("food-truck", food_truck), ("chefs", chefs)])
def test_other_games_publish_tables_of_their_own_game_and_pair_again(
    organizer: User, on_commit: Any, game_type: str, entry: Callable[[list[str]], Any]
) -> None:
    tid = create(organizer, game_type)
    names = [f"Cook {n}" for n in range(1, 11)]
    t.tournament_register(tournament_id=tid, user=organizer, names=names, checked_in=True)
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    for table in summary(tid)["rounds"][0]["tables"]:
        game = GameProjection.objects.get(stream_id=table["game"])
        assert game.game_type == game_type
        seated = [s["name"] for s in table["seats"]]
        with on_commit():
            games.game_enter_results(
                game_id=game.stream_id,
                expected_version=game.version,
                entry=entry(seated),
                user=organizer,
            )
        t.tournament_confirm(tournament_id=tid, round=1, table=table["table"], user=organizer)
    t.tournament_close_round(tournament_id=tid, round=1, user=organizer)
    t.tournament_pair(tournament_id=tid, user=organizer)
    assert len(summary(tid)["rounds"]) == 2


def test_a_swap_by_hand_in_a_head_to_head_round_is_costed_head_to_head(organizer: User) -> None:
    tid = create(organizer, "crazy-kitchen", round1="order")
    register_teams(tid, organizer)
    t.tournament_pair(tournament_id=tid, user=organizer)
    (one, two) = summary(tid)["rounds"][0]["tables"]
    a, b = one["seats"][0]["player"], two["seats"][1]["player"]
    t.tournament_swap(tournament_id=tid, round=1, a=a, b=b, user=organizer)
    rnd = summary(tid)["rounds"][0]
    assert rnd["tables"][0]["seats"][0]["player"] == b
    assert set(rnd["cost"]) == {
        "repeats",
        "side_violations",
        "score_difference",
        "side_preferences",
    }
    assert rnd["notes"][-1].startswith("Changed by hand:")


@pytest.mark.parametrize(
    ("game_type", "has_it"),
    [("trick-n-chef", True), ("food-truck", True), ("chefs", False), ("crazy-kitchen", False)],
)
def test_round_ones_first_player_rule_is_the_games_that_have_one(
    game_type: str, has_it: bool
) -> None:
    """Seat 1 starts round 1 where the game leaves round 1's first player free; a tournament
    table of another game is not subject to it (its seating names no first player)."""
    from types import SimpleNamespace

    from tournaments.gamepolicy import _check_first_player, _has_first_player_rule

    game = SimpleNamespace(game_type=game_type)
    assert _has_first_player_rule(game) is has_it
    table = SimpleNamespace(seats=["Ana", "Ben"])
    other = [{"type": "round_started", "round": 1, "first_player": "Ben"}]
    if has_it:
        with pytest.raises(Refused):
            _check_first_player(game, table, other)  # type: ignore[arg-type]
    else:
        _check_first_player(game, table, other)  # type: ignore[arg-type]
