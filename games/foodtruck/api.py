"""Food Truck in the API: its record events, its summary, its create request and its results
entry (each player's victory points and the winner)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from engine.foodtruck.rules import EFFECTS
from games.api.schema import players_counted
from games.api.serializers.fields import (
    PLAYER_NAME_MAX,
    AnyField,
    BoundedDictField,
    RequestSerializer,
    StrictCharField,
    const,
    expected_version_field,
    game_field,
    name_field,
    names_field,
    published_field,
    status_field,
    value_map,
)
from games.api.serializers.gameapi import GameAPI
from games.api.serializers.results import NeutralRankSerializer

KEY = "food-truck"

# ----------------------------------------------------------------------------- record events
# For the schema only: the engine parses and checks events (docs/foodtruck-record-format.md).


class FoodTruckGameStartedSerializer(serializers.Serializer[Any]):
    type = const("game_started")
    game = game_field(KEY)
    version = serializers.IntegerField(
        required=False,
        min_value=2,
        max_value=2,
        help_text="The record format's version: 2 (new tables); absent in a version 1 record.",
    )
    players = serializers.ListField(child=name_field(), min_length=2, max_length=5)


class FoodTruckRoundStartedSerializer(serializers.Serializer[Any]):
    type = const("round_started")
    round = serializers.IntegerField(min_value=1)
    first_player = name_field()
    market = serializers.ListField(
        child=serializers.CharField(), help_text="The dishes in the market, e.g. burger."
    )
    companies = serializers.DictField(
        child=serializers.ChoiceField(choices=list(EFFECTS)),
        help_text="Each player's Company card this round.",
    )


class FoodTruckCompanyPlayedSerializer(serializers.Serializer[Any]):
    type = const("company_played")
    player = name_field()
    effect = serializers.ChoiceField(choices=list(EFFECTS))
    target = serializers.CharField(required=False, help_text="remove: whose dish.")
    dish = serializers.CharField(required=False, help_text="remove, swap, under: the dish.")
    market = serializers.CharField(required=False, help_text="swap: the market's dish.")
    chosen_by = serializers.CharField(
        required=False,
        help_text="remove, record format v2: who chose the dish (the target, FT6.8).",
    )


class FoodTruckDishSerializer(serializers.Serializer[Any]):
    type = const("dish_revealed", "market_taken")
    player = name_field()
    dish = serializers.CharField()


FOOD_TRUCK_EVENT = PolymorphicProxySerializer(
    component_name="FoodTruckEvent",
    serializers=[
        FoodTruckGameStartedSerializer,
        FoodTruckRoundStartedSerializer,
        FoodTruckCompanyPlayedSerializer,
        FoodTruckDishSerializer,
    ],
    resource_type_field_name=None,
)


# ----------------------------------------------------------------------------- the summary


class FoodTruckRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    first_player = serializers.CharField()
    eliminated = serializers.ListField(child=serializers.CharField())
    winner = serializers.CharField(allow_null=True)


class FoodTruckSummarySerializer(serializers.Serializer[Any]):
    """A Food Truck game (docs/foodtruck-record-format.md); ``state`` is the table between
    events (null for a results-only game)."""

    status = status_field()
    players = serializers.ListField(child=serializers.CharField())
    victory_points = serializers.DictField(child=serializers.IntegerField())
    rounds = FoodTruckRoundSerializer(many=True)
    ranking = NeutralRankSerializer(many=True)
    state = serializers.DictField(allow_null=True)


# ----------------------------------------------------------------------------- requests


class FoodTruckCreateSerializer(RequestSerializer):
    game_type = const(KEY)
    players = names_field("The players' names in seat order (2 to 5).")
    published = published_field()


class FoodTruckResultsSerializer(RequestSerializer):
    expected_version = expected_version_field()
    victory_points = BoundedDictField(
        child=serializers.IntegerField(min_value=0), help_text="Each player's victory points."
    )
    winner = StrictCharField(max_length=PLAYER_NAME_MAX, help_text="The player who won.")


def entry() -> dict[str, AnyField]:
    """The results entry: each player's victory points and the winner."""
    return {
        "victory_points": value_map(required=False),
        "winner": StrictCharField(required=False, max_length=PLAYER_NAME_MAX),
    }


API = GameAPI(
    create=FoodTruckCreateSerializer,
    event=FOOD_TRUCK_EVENT,
    summary=FoodTruckSummarySerializer,
    results=FoodTruckResultsSerializer,
    entry=entry,
    schema_rules={"FoodTruckCreate": players_counted(KEY)},
)
