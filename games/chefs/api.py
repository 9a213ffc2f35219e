"""Chefs in the API: its record events, its summary, its create request and its results entry
(each chef's final position)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from engine.chefs.events import CHESTS, COOKERS, LOCATIONS
from games.api.schema import players_counted
from games.api.serializers.fields import (
    AnyField,
    BoundedDictField,
    RequestSerializer,
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

KEY = "chefs"

# ----------------------------------------------------------------------------- record events
# For the schema only: the engine parses and checks events (docs/chefs-record-format.md).


class ChefsGameStartedSerializer(serializers.Serializer[Any]):
    type = const("game_started")
    game = game_field(KEY)
    version = serializers.ChoiceField(
        choices=[2], required=False, help_text="2 for record format v2; absent in v1."
    )
    players = serializers.ListField(child=name_field(), min_length=2, max_length=6)


class ChefsRoundStartedSerializer(serializers.Serializer[Any]):
    type = const("round_started")
    round = serializers.IntegerField(min_value=1)
    starting_player = name_field()


class ChefsMarkerPlacedSerializer(serializers.Serializer[Any]):
    type = const("marker_placed")
    player = name_field()
    location = serializers.ChoiceField(choices=list(LOCATIONS))
    circle = serializers.IntegerField(min_value=1)


class ChefsIngredientsTakenSerializer(serializers.Serializer[Any]):
    type = const("ingredients_taken")
    player = name_field()
    count = serializers.IntegerField(min_value=1, max_value=2)


class ChefsMealCookedSerializer(serializers.Serializer[Any]):
    type = const("meal_cooked")
    player = name_field()
    steps = serializers.IntegerField(min_value=1)
    ingredients = serializers.IntegerField(min_value=0)
    chef_card = serializers.BooleanField()


class ChefsCardsExchangedSerializer(serializers.Serializer[Any]):
    type = const("cards_exchanged")
    player = name_field()
    chest = serializers.ChoiceField(choices=list(CHESTS))


class ChefsMealServedSerializer(serializers.Serializer[Any]):
    type = const("meal_served")
    player = name_field()
    steps = serializers.IntegerField(min_value=1)
    position = serializers.IntegerField(min_value=0)


class ChefsActionPassedSerializer(serializers.Serializer[Any]):
    type = const("action_passed")
    player = name_field()


class ChefsMealLaidSerializer(serializers.Serializer[Any]):
    """Record v2: a meal card put out face up at a cooker."""

    type = const("meal_laid")
    cooker = serializers.ChoiceField(choices=list(COOKERS))
    steps = serializers.IntegerField(min_value=1)
    ingredients = serializers.IntegerField(min_value=1)


class ChefsGameCalledSerializer(serializers.Serializer[Any]):
    """Record v2: the organizer ends the game called for time."""

    type = const("game_called")


CHEFS_EVENT = PolymorphicProxySerializer(
    component_name="ChefsEvent",
    serializers=[
        ChefsGameStartedSerializer,
        ChefsRoundStartedSerializer,
        ChefsMarkerPlacedSerializer,
        ChefsIngredientsTakenSerializer,
        ChefsMealCookedSerializer,
        ChefsCardsExchangedSerializer,
        ChefsMealServedSerializer,
        ChefsActionPassedSerializer,
        ChefsMealLaidSerializer,
        ChefsGameCalledSerializer,
    ],
    resource_type_field_name=None,
)


# ----------------------------------------------------------------------------- the summary


class ChefsRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    positions = serializers.DictField(child=serializers.IntegerField())


class ChefsSummarySerializer(serializers.Serializer[Any]):
    """A Chefs game (docs/chefs-record-format.md): each chef's steps from the door."""

    game = const(KEY)
    status = status_field()
    players = serializers.ListField(child=serializers.CharField())
    rounds = ChefsRoundSerializer(many=True)
    positions = serializers.DictField(child=serializers.IntegerField())
    ranking = NeutralRankSerializer(many=True)
    state = serializers.DictField(allow_null=True)


# ----------------------------------------------------------------------------- requests


class ChefsCreateSerializer(RequestSerializer):
    game_type = const(KEY)
    players = names_field("The chefs' names in seat order (2 to 6).")
    published = published_field()


class ChefsResultsSerializer(RequestSerializer):
    expected_version = expected_version_field()
    positions = BoundedDictField(
        child=serializers.IntegerField(min_value=0),
        help_text="Each chef's final position: steps from the door (21 is field 1 of the "
        "second lap).",
    )


def entry() -> dict[str, AnyField]:
    """The results entry: each chef's final position."""
    return {"positions": value_map(required=False)}


API = GameAPI(
    create=ChefsCreateSerializer,
    event=CHEFS_EVENT,
    summary=ChefsSummarySerializer,
    results=ChefsResultsSerializer,
    entry=entry,
    schema_rules={"ChefsCreate": players_counted(KEY)},
)
