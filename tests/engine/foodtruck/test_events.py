"""Food Truck record format v1: the events' JSON form, read strictly."""

from __future__ import annotations

import json

import pytest

from engine.errors import BadEvent
from engine.foodtruck.events import (
    EVENT_TYPES,
    CompanyPlayed,
    DishRevealed,
    Event,
    GameStarted,
    MarketTaken,
    RoundStarted,
    dumps,
    loads,
    to_json,
)
from engine.foodtruck.simulate import simulate

EXAMPLES: list[Event] = [
    GameStarted(("ana", "ben")),
    RoundStarted(1, "ben", ("taco", "fries"), (("ana", "copy"), ("ben", "swap"))),
    CompanyPlayed("ana", "rearrange"),
    CompanyPlayed("ana", "remove", target="ben", dish="pizza"),
    CompanyPlayed("ana", "swap", dish="burger", market="taco"),
    CompanyPlayed("ana", "under", dish="burger"),
    CompanyPlayed("ana", "copy"),
    DishRevealed("ben", "dessert"),
    MarketTaken("ben", "fish-chips"),
]


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda e: type(e).__name__)
def test_every_event_round_trips_through_its_line(event: Event) -> None:
    assert loads(dumps(event)) == event
    assert to_json(event)["type"] in EVENT_TYPES


def test_simulated_records_round_trip() -> None:
    for seed in range(10):
        for event in simulate(seed, 2 + seed % 4):
            assert loads(dumps(event)) == event


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("", "bad_json"),
        ("{", "bad_json"),
        ("[]", "bad_json"),
        ('{"type":"dish_revealed","player":"a","dish":NaN}', "bad_json"),
        ('{"player":"a","dish":"taco"}', "bad_event"),
        ('{"type":"card_played","player":"a","card":"G3"}', "bad_event"),
        ('{"type":"dish_revealed","player":"a","dish":"taco","dish":"fries"}', "bad_event"),
        ('{"type":"dish_revealed","player":"a","dish":"taco","coins":1}', "bad_event"),
        ('{"type":"dish_revealed","player":"a"}', "bad_event"),
        ('{"type":"dish_revealed","player":1,"dish":"taco"}', "bad_event"),
        ('{"type":"dish_revealed","player":"a","dish":"Taco"}', "bad_dish"),
        ('{"type":"market_taken","player":"a","dish":["taco"]}', "bad_dish"),
        ('{"type":"game_started","players":["a","b"]}', "bad_event"),
        ('{"type":"game_started","game":"trick-n-chef","players":["a","b"]}', "bad_event"),
        ('{"type":"game_started","game":"food-truck","players":"a,b"}', "bad_event"),
        (
            '{"type":"round_started","round":1.0,"first_player":"a","market":[],"companies":{}}',
            "bad_event",
        ),
        (
            '{"type":"round_started","round":true,"first_player":"a","market":[],"companies":{}}',
            "bad_event",
        ),
        (
            '{"type":"round_started","round":1,"first_player":"a","market":"taco","companies":{}}',
            "bad_event",
        ),
        (
            '{"type":"round_started","round":1,"first_player":"a","market":["x y"],"companies":[]}',
            "bad_dish",
        ),
        (
            '{"type":"round_started","round":1,"first_player":"a","market":[],"companies":[]}',
            "bad_event",
        ),
        (
            '{"type":"round_started","round":1,"first_player":"a","market":[],'
            '"companies":{"a":"steal"}}',
            "bad_effect",
        ),
        ('{"type":"company_played","player":"a","effect":"copy","dish":"taco"}', "bad_event"),
        ('{"type":"company_played","player":"a","effect":"remove","dish":"taco"}', "bad_event"),
        (
            '{"type":"company_played","player":"a","effect":"swap","dish":"taco","market":"X"}',
            "bad_dish",
        ),
        ('{"type":"company_played","player":"a","effect":"steal","extra":1}', "bad_effect"),
    ],
)
def test_lines_are_read_strictly(line: str, code: str) -> None:
    with pytest.raises(BadEvent) as refused:
        loads(line)
    assert refused.value.code == code, refused.value.message


def test_the_game_line_names_food_truck() -> None:
    line = dumps(GameStarted(("a", "b")))
    assert json.loads(line) == {"type": "game_started", "game": "food-truck", "players": ["a", "b"]}
