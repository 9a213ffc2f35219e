"""Game services: recording a table event by event, corrections, void, results only, import and
export, and rebuilding projections. Run on SQLite and PostgreSQL."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User

from engine.tricknchef.events import dumps, from_json, to_json
from engine.tricknchef.simulate import simulate
from games import services, store
from games.models import Event, GameProjection, GameResult
from games.projection import fold_game
from games.services import Conflict, GameNotFound, KeyReused, NotAllowed, Refused

pytestmark = pytest.mark.django_db

GAME = [to_json(e) for e in simulate(seed=31, players=4)]
PLAYERS = GAME[0]["players"]
PLAYS = GAME[1:]  # what scorekeepers append after creating the table


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x")


@pytest.fixture
def scorekeeper(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("sam", password="x")


def everything() -> list[tuple[Any, ...]]:
    """The log and the projections, to show a refusal changed nothing at all."""
    return [
        *Event.objects.order_by("id").values_list(),
        *GameProjection.objects.order_by("stream_id").values_list(),
        *GameResult.objects.order_by("id").values_list(),
    ]


def new_game(user: User | None = None, **kwargs: Any) -> services.GameChange:
    return services.game_create(players=PLAYERS, suits=GAME[0]["suits"], user=user, **kwargs)


def play(
    game: services.GameChange, events: list[dict[str, Any]], **kwargs: Any
) -> services.GameChange:
    return services.game_append(
        game_id=game.game_id, expected_version=game.version, events=events, **kwargs
    )


def fold_of(game_id: uuid.UUID) -> Any:
    game = GameProjection.objects.get(stream_id=game_id)
    from games.gametypes import GAME_TYPES

    return fold_game(
        ((e.type, e.data) for e in store.read_stream(game_id)), GAME_TYPES[game.game_type]
    )


# ----------------------------------------------------------------------------- recording


def test_a_new_table_starts_with_game_started_and_is_in_progress(organizer: User) -> None:
    game = new_game(organizer)
    assert game.version == 1
    assert game.appended == ((1, "game_started"),)
    assert game.summary["state"]["next"] == {"type": "round_started", "player": None}
    row = Event.objects.get(stream_id=game.game_id)
    assert row.data == {"players": PLAYERS, "suits": GAME[0]["suits"]}
    assert row.metadata["by"] == "olga"
    assert row.metadata["request_id"]


def test_a_table_needs_3_or_4_players() -> None:
    before = everything()
    with pytest.raises(Refused) as refused:
        services.game_create(players=["a", "b"])
    assert refused.value.code == "bad_players"
    assert everything() == before


def test_each_event_returns_the_new_state_and_a_whole_game_finishes(scorekeeper: User) -> None:
    game = new_game()
    for event in PLAYS[:12]:
        game = play(game, [event], user=scorekeeper)
    assert game.version == 13
    assert game.summary["state"]["trick"] == 2  # deal, 4 picks, trick 1, two cards of trick 2
    game = play(game, PLAYS[12:])
    assert game.status == "finished"
    assert game.summary["status"] == "finished"
    results = GameResult.objects.filter(game_id=game.game_id).order_by("rank", "seat")
    assert [(r.player, r.rank, r.total) for r in results] == [
        (e["player"], e["rank"], e["total"]) for e in game.summary["ranking"]
    ]
    assert fold_of(game.game_id).summary == game.summary


def test_an_illegal_play_is_refused_with_the_rule_and_changes_nothing() -> None:
    game = play(new_game(), PLAYS[:6])  # round started, picks made, first card played
    wrong_turn = dict(PLAYS[6], player=PLAYS[5]["player"])
    before = everything()
    with pytest.raises(Refused) as refused:
        play(game, [wrong_turn])
    assert refused.value.code in {"wrong_turn", "card_not_in_hand"}
    assert refused.value.index == 0
    assert everything() == before


def test_a_batch_is_all_or_nothing() -> None:
    game = new_game()
    bad = dict(PLAYS[3], suit="purple")
    before = everything()
    with pytest.raises(Refused) as refused:
        play(game, [PLAYS[0], PLAYS[1], PLAYS[2], bad])
    assert (refused.value.code, refused.value.index) == ("bad_suit", 3)
    assert everything() == before


@pytest.mark.parametrize(
    "event",
    [
        {"type": "events_retracted", "count": 1},
        {"type": "game_voided"},
        "card_played",
        {"type": "card_played", "player": "p1", "card": "G3", "coin": 2},
    ],
)
def test_store_events_and_malformed_objects_cannot_be_appended_as_plays(event: Any) -> None:
    game = new_game()
    before = everything()
    with pytest.raises(Refused) as refused:
        play(game, [event])
    assert refused.value.code == "bad_event"
    assert everything() == before


def test_an_unknown_game_is_not_found() -> None:
    with pytest.raises(GameNotFound):
        services.game_append(game_id=uuid.uuid4(), expected_version=1, events=[PLAYS[0]])


def test_a_stale_version_is_a_conflict_with_the_current_state() -> None:
    game = new_game()
    moved = play(game, [PLAYS[0]])
    before = everything()
    with pytest.raises(Conflict) as conflict:
        play(game, [PLAYS[0]])  # expected 1, the table is at 2
    assert conflict.value.current_version == 2
    assert conflict.value.summary == moved.summary
    assert conflict.value.as_dict()["code"] == "conflict"
    assert everything() == before


# ----------------------------------------------------------------------------- idempotency


def test_the_same_key_three_times_gives_one_event_and_the_same_result() -> None:
    game = new_game()
    results = [play(game, PLAYS[:3], idempotency_key="table-7-deal") for _ in range(3)]
    assert results[0] == results[1] == results[2]
    assert results[0].as_dict() == results[2].as_dict()
    assert Event.objects.filter(stream_id=game.game_id).count() == 4


def test_a_retry_after_later_events_still_returns_the_first_result() -> None:
    game = new_game()
    first = play(game, [PLAYS[0]], idempotency_key="k-lost-response")
    play(first, PLAYS[1:5])
    assert play(game, [PLAYS[0]], idempotency_key="k-lost-response") == first


def test_a_key_reused_for_another_request_is_refused() -> None:
    game = new_game()
    play(game, [PLAYS[0]], idempotency_key="k1")
    before = everything()
    with pytest.raises(KeyReused):
        play(game, [PLAYS[1]], idempotency_key="k1")
    assert everything() == before


def test_creating_a_table_is_idempotent_too() -> None:
    first = new_game(idempotency_key="create-table-3")
    assert new_game(idempotency_key="create-table-3") == first
    assert GameProjection.objects.count() == 1


# ----------------------------------------------------------------------------- corrections


def test_a_correction_retracts_the_last_events_and_keeps_the_history(scorekeeper: User) -> None:
    game = play(new_game(), PLAYS[:20])
    fixed = services.game_correct(
        game_id=game.game_id, expected_version=21, retract=2, reason="wrong card", user=scorekeeper
    )
    assert fixed.version == 22
    assert fixed.appended == ((22, "events_retracted"),)
    reference = play(new_game(), PLAYS[:18])
    assert fixed.summary == reference.summary
    history = store.read_stream(game.game_id)
    assert len(history) == 22  # nothing deleted
    assert history[-1].data == {"count": 2, "reason": "wrong card"}
    assert history[-1].metadata["by"] == "sam"
    resumed = play(fixed, PLAYS[18:40])
    assert resumed.summary == play(reference, PLAYS[18:40]).summary


def test_a_correction_cannot_retract_more_than_was_played() -> None:
    game = play(new_game(), PLAYS[:3])
    before = everything()
    for count in (0, 4, -1):
        with pytest.raises(Refused) as refused:
            services.game_correct(game_id=game.game_id, expected_version=4, retract=count)
        assert refused.value.code == "bad_correction"
    assert "there are 3 events to retract" in refused.value.message
    assert everything() == before


def test_corrections_stack_and_the_export_leaves_retracted_events_out() -> None:
    game = play(new_game(), PLAYS[:10])
    c1 = services.game_correct(game_id=game.game_id, expected_version=11, retract=1)
    c2 = play(c1, [PLAYS[9], PLAYS[10]])
    c3 = services.game_correct(game_id=game.game_id, expected_version=c2.version, retract=3)
    exported = services.game_export_record(game_id=c3.game_id, user=_staff())
    assert exported.splitlines() == [dumps_obj(e) for e in GAME[:9]]


def _staff() -> User:
    return User.objects.create_user(f"staff-{uuid.uuid4().hex[:6]}", is_staff=True)


def dumps_obj(obj: dict[str, Any]) -> str:
    from engine.tricknchef.events import from_json

    return dumps(from_json(obj))


# ----------------------------------------------------------------------------- void


def test_the_organizer_voids_a_game_and_nothing_more_can_be_recorded(
    organizer: User, scorekeeper: User
) -> None:
    game = play(new_game(organizer), PLAYS)
    assert GameResult.objects.filter(game_id=game.game_id).count() == 4
    with pytest.raises(NotAllowed):
        services.game_void(
            game_id=game.game_id, expected_version=game.version, reason="x", user=scorekeeper
        )
    voided = services.game_void(
        game_id=game.game_id, expected_version=game.version, reason="wrong table", user=organizer
    )
    assert voided.status == "void"
    assert GameResult.objects.filter(game_id=game.game_id).count() == 0
    before = everything()
    with pytest.raises(Refused) as refused:
        services.game_correct(game_id=game.game_id, expected_version=voided.version, retract=1)
    assert refused.value.code == "game_void"
    assert everything() == before


# ----------------------------------------------------------------------------- results only


SCORES = {"p1": [9, 7, 8], "p2": [10, 8, 6], "p3": [3, 4, 5], "p4": [12, 2, 10]}


def test_results_only_entry_ranks_with_the_round_three_tie_break() -> None:
    game = new_game()
    done = services.game_enter_results(
        game_id=game.game_id,
        expected_version=1,
        scores=SCORES,
        totals={"p1": 24, "p2": 24, "p3": 12, "p4": 24},
    )
    assert done.status == "finished"
    assert [(r["player"], r["rank"]) for r in done.summary["ranking"]] == [
        ("p4", 1),
        ("p1", 2),
        ("p2", 3),
        ("p3", 4),
    ]
    row = GameProjection.objects.get(stream_id=game.game_id)
    assert row.results_only and row.status == "finished"
    results = GameResult.objects.filter(game=row).order_by("rank")
    assert [(r.player, r.round_scores) for r in results][0] == ("p4", [12, 2, 10])


def test_wrong_results_are_refused_and_change_nothing() -> None:
    game = new_game()
    before = everything()
    with pytest.raises(Refused) as refused:
        services.game_enter_results(
            game_id=game.game_id,
            expected_version=1,
            scores=SCORES,
            totals={"p1": 25, "p2": 24, "p3": 12, "p4": 24},
        )
    assert refused.value.code == "bad_results"
    assert "p1's total is 25" in refused.value.message
    assert everything() == before


def test_a_partly_played_table_can_be_closed_with_results_and_reopened_by_a_correction() -> None:
    game = play(new_game(), PLAYS[:30])
    closed = services.game_enter_results(game_id=game.game_id, expected_version=31, scores=SCORES)
    with pytest.raises(Refused) as refused:
        play(closed, [PLAYS[30]])
    assert refused.value.code == "results_entered"
    with pytest.raises(Refused):
        services.game_export_record(game_id=game.game_id, user=_staff())
    reopened = services.game_correct(game_id=game.game_id, expected_version=32, retract=1)
    assert reopened.status == "in_progress"
    assert GameResult.objects.filter(game_id=game.game_id).count() == 0
    assert play(reopened, [PLAYS[30]]).summary == play(new_game(), PLAYS[:31]).summary


def test_results_cannot_replace_a_game_played_to_the_end() -> None:
    game = play(new_game(), PLAYS)
    with pytest.raises(Refused) as refused:
        services.game_enter_results(
            game_id=game.game_id, expected_version=game.version, scores=SCORES
        )
    assert refused.value.code == "game_over"


# ----------------------------------------------------------------------------- import, export


def test_export_then_import_gives_the_same_record_and_state(organizer: User) -> None:
    game = play(new_game(organizer), PLAYS)
    record = services.game_export_record(game_id=game.game_id, user=organizer)
    assert record == "".join(dumps_obj(e) + "\n" for e in GAME)
    imported = services.game_import_record(record=record.encode(), user=organizer)
    assert imported.version == len(GAME)
    assert imported.summary == game.summary
    assert services.game_export_record(game_id=imported.game_id, user=organizer) == record
    assert GameResult.objects.filter(game_id=imported.game_id).count() == 4


def test_an_invalid_record_is_refused_at_its_line_and_nothing_is_stored() -> None:
    lines = [dumps_obj(e) for e in GAME]
    lines[40] = lines[41]
    before = everything()
    with pytest.raises(Refused) as refused:
        services.game_import_record(record="\n".join(lines))
    assert refused.value.index == 40
    assert everything() == before
    with pytest.raises(Refused) as empty:
        services.game_import_record(record=b"")
    assert empty.value.code == "bad_event"


def test_unpublished_games_are_hidden_from_anonymous_readers(organizer: User) -> None:
    hidden = new_game(organizer)
    shown = new_game(organizer, published=True)
    with pytest.raises(GameNotFound):
        services.game_get(game_id=hidden.game_id, user=None)
    assert services.game_get(game_id=shown.game_id, user=None).published
    assert services.game_get(game_id=hidden.game_id, user=organizer).stream_id == hidden.game_id
    published = services.game_publish(game_id=hidden.game_id, expected_version=1, user=organizer)
    assert published.appended == ((2, "game_published"),)
    assert services.game_get(game_id=hidden.game_id, user=None).published


# ----------------------------------------------------------------------------- rebuild


def test_rebuild_finds_no_difference_after_real_use_and_repairs_a_tampered_projection(
    organizer: User,
) -> None:
    finished = play(new_game(organizer), PLAYS)
    corrected = play(new_game(organizer), PLAYS[:25])
    services.game_correct(game_id=corrected.game_id, expected_version=26, retract=4)
    results = new_game(organizer)
    services.game_enter_results(game_id=results.game_id, expected_version=1, scores=SCORES)
    assert services.projections_rebuild(fix=False) == (3, [])

    GameProjection.objects.filter(stream_id=finished.game_id).update(status="in_progress")
    GameResult.objects.filter(game_id=finished.game_id, rank=1).delete()
    checked, differences = services.projections_rebuild(fix=True)
    assert checked == 3
    assert {d.field for d in differences} == {"status", "results"}
    assert services.projections_rebuild(fix=False) == (3, [])


def test_a_key_replays_only_for_the_user_who_sent_it(organizer: User, scorekeeper: User) -> None:
    game = new_game(organizer)
    first = play(game, [PLAYS[0]], idempotency_key="k-shared", user=scorekeeper)
    assert play(game, [PLAYS[0]], idempotency_key="k-shared", user=scorekeeper) == first
    with pytest.raises(KeyReused):
        play(game, [PLAYS[0]], idempotency_key="k-shared", user=organizer)


def test_names_and_keys_that_do_not_fit_are_refused_before_anything_is_written() -> None:
    before = everything()
    with pytest.raises(Refused) as refused:
        services.game_create(players=["a" * 101, "b", "c", "d"])
    assert refused.value.code == "bad_players"
    with pytest.raises(Refused) as refused:
        new_game(idempotency_key="")
    assert refused.value.code == "bad_request"
    with pytest.raises(Refused):
        new_game(idempotency_key="k" * 201)
    long_name = dumps(from_json({**GAME[0], "players": ["x" * 101, *PLAYERS[1:]]}))
    with pytest.raises(Refused):
        services.game_import_record(record=long_name)
    assert everything() == before


def test_the_games_list_shows_the_public_only_what_is_published(organizer: User) -> None:
    hidden = new_game(organizer)
    shown = new_game(organizer, published=True)
    assert [g.stream_id for g in services.game_list(user=None)] == [shown.game_id]
    assert [g.stream_id for g in services.game_list(user=organizer)] == [
        shown.game_id,
        hidden.game_id,
    ]
