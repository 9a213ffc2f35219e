"""Every game type through the store's seam: a whole simulated game appended play by play, a
results-only entry, and the game-neutral placements the tournaments read (issue 15, "The seam")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.registry import RULES
from games import services
from games.gametypes import GAME_TYPES
from games.models import GameResult
from games.services import Refused
from tests.games.records import start_args

pytestmark = pytest.mark.django_db

GAMES = list(GAME_TYPES)


def _start(key: str, seed: int) -> tuple[list[dict[str, Any]], services.GameChange]:
    record = RULES[key].simulate(seed, 4)
    players, options = start_args(record[0])
    game = services.game_create(players=players, game_type=key, options=options, published=True)
    return record, game


@pytest.mark.parametrize("key", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_game_played_event_by_event_gives_the_engines_ranking(key: str, seed: int) -> None:
    record, game = _start(key, seed)
    version = game.version
    for obj in record[1:]:
        version = services.game_append(
            game_id=game.game_id, expected_version=version, events=[obj]
        ).version
    view = services.game_view(game_id=game.game_id)
    expected = RULES[key].replay([json.dumps(e) for e in record])
    assert view.status == "finished"
    assert view.summary["ranking"] == expected["ranking"]
    stored = {
        r.player: (r.rank, r.total, tuple(r.tiebreaks))
        for r in GameResult.objects.filter(game_id=game.game_id)
    }
    assert stored == {
        p.player: (p.rank, p.points, p.tiebreaks) for p in GAME_TYPES[key].placements(view.summary)
    }


@pytest.mark.parametrize("key", GAMES)
def test_a_refused_play_is_refused_in_the_rules_words_and_nothing_is_stored(key: str) -> None:
    record, game = _start(key, 3)
    with pytest.raises(Refused) as refused:
        services.game_append(
            game_id=game.game_id, expected_version=game.version, events=[record[0]]
        )
    assert refused.value.message
    assert services.game_view(game_id=game.game_id).version == game.version


def test_food_truck_results_only() -> None:
    game = services.game_create(players=["Ann", "Bo", "Cy"], game_type="food-truck")
    with pytest.raises(Refused):
        services.game_enter_results(
            game_id=game.game_id,
            expected_version=game.version,
            entry={"victory_points": {"Ann": 3, "Bo": 3, "Cy": 0}, "winner": "Ann"},
        )
    done = services.game_enter_results(
        game_id=game.game_id,
        expected_version=game.version,
        entry={"victory_points": {"Ann": 1, "Bo": 3, "Cy": 1}, "winner": "Bo"},
    )
    assert done.status == "finished"
    ranks = {r.player: r.rank for r in GameResult.objects.filter(game_id=game.game_id)}
    assert ranks == {"Bo": 1, "Ann": 2, "Cy": 2}


def test_chefs_results_only_shares_equal_positions() -> None:
    game = services.game_create(players=["Ann", "Bo", "Cy"], game_type="chefs")
    done = services.game_enter_results(
        game_id=game.game_id,
        expected_version=game.version,
        entry={"positions": {"Ann": 22, "Bo": 17, "Cy": 22}},
    )
    assert done.status == "finished"
    ranks = {r.player: (r.rank, r.total) for r in GameResult.objects.filter(game_id=game.game_id)}
    assert ranks == {"Ann": (1, 22), "Cy": (1, 22), "Bo": (3, 17)}


def test_crazy_kitchen_results_only_counts_the_smaller_teams_compensation() -> None:
    game = services.game_create(
        players=["Pizza", "Fries"],
        game_type="crazy-kitchen",
        options={"members": {"Pizza": ["Ann", "Bo", "Cy"], "Fries": ["Di", "Ed"]}},
    )
    done = services.game_enter_results(
        game_id=game.game_id,
        expected_version=game.version,
        entry={"scores": [10, 12, 8, 9, 7, 10]},
    )
    assert done.status == "finished"
    totals = {r.player: (r.rank, r.total) for r in GameResult.objects.filter(game_id=game.game_id)}
    # Pizza cooks in rounds 1, 3, 5 (25); Fries in 2, 4, 6 (31) plus 15 for the smaller team
    assert totals == {"Fries": (1, 46), "Pizza": (2, 25)}


@pytest.mark.parametrize("key", GAMES)
def test_a_record_file_of_each_game_imports_and_exports_unchanged(key: str) -> None:
    record, _ = _start(key, 4)
    text = "".join(json.dumps(e, separators=(",", ":"), ensure_ascii=False) + "\n" for e in record)
    game = services.game_import_record(record=text, game_type=key, published=True)
    assert game.status == "finished"
    kind = GAME_TYPES[key]
    assert kind.write_record(record) == kind.write_record(
        services.game_view(game_id=game.game_id).record_events
    )


def test_a_team_records_names_are_checked_on_import_like_any_players() -> None:
    record = RULES["crazy-kitchen"].simulate(5, 4)
    record[0]["teams"][1]["players"][0] = "Cy  Smith"  # a repeated space: two spellings
    text = "".join(json.dumps(e) + "\n" for e in record)
    with pytest.raises(Refused) as refused:
        services.game_import_record(record=text, game_type="crazy-kitchen")
    assert refused.value.code == "bad_players"


@pytest.mark.parametrize("key", GAMES)
def test_finished_says_what_the_summary_says_at_every_step(key: str) -> None:
    kind = GAME_TYPES[key]
    state = kind.new_state()
    for obj in RULES[key].simulate(6, 4):
        kind.step(state, kind.parse(obj))
        assert kind.finished(state) == (kind.summary(state)["status"] == "finished")
    assert kind.finished(state)
