"""Trick-n-Chef in the API: its record events, its summary, its create request (three players
name three suits) and its results entry (each player's three deal scores)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from engine.tricknchef.cards import SUITS
from games.api.schema import counted, merge
from games.api.serializers.fields import (
    MAX_ITEMS,
    AnyField,
    BoundedDictField,
    BoundedListField,
    RequestSerializer,
    StrictCharField,
    const,
    expected_version_field,
    names_field,
    published_field,
    score_map,
    status_field,
    value_map,
)
from games.api.serializers.gameapi import GameAPI
from games.gametypes import GAME_TYPES

KEY = "trick-n-chef"

# ----------------------------------------------------------------------------- record events
# For the schema only: the engine parses and checks events (docs/record-format.md).


class GameStartedEventSerializer(serializers.Serializer[Any]):
    type = serializers.ChoiceField(choices=["game_started"])
    players = serializers.ListField(child=serializers.CharField(), min_length=3, max_length=4)
    suits = serializers.ListField(
        child=serializers.ChoiceField(choices=list(SUITS)), required=False
    )


class RoundStartedEventSerializer(serializers.Serializer[Any]):
    type = serializers.ChoiceField(choices=["round_started"])
    round = serializers.IntegerField(min_value=1, max_value=3)
    first_player = serializers.CharField()
    hands = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Each player's 10 cards, e.g. G3 or R10.",
    )


class ChefChosenEventSerializer(serializers.Serializer[Any]):
    type = serializers.ChoiceField(choices=["chef_chosen"])
    player = serializers.CharField()
    suit = serializers.ChoiceField(choices=list(SUITS))


class CardPlayedEventSerializer(serializers.Serializer[Any]):
    type = serializers.ChoiceField(choices=["card_played"])
    player = serializers.CharField()
    card = serializers.CharField(help_text="A card code: suit letter G R Y B and value 1..10.")
    coins = serializers.IntegerField(
        required=False, help_text="Signed count of coins placed on the card (default 0)."
    )


class ChefTakenEventSerializer(serializers.Serializer[Any]):
    type = serializers.ChoiceField(choices=["chef_taken"])
    player = serializers.CharField()
    suit = serializers.ChoiceField(choices=list(SUITS))


TRICK_N_CHEF_EVENT = PolymorphicProxySerializer(
    component_name="TrickNChefEvent",
    serializers={
        "game_started": GameStartedEventSerializer,
        "round_started": RoundStartedEventSerializer,
        "chef_chosen": ChefChosenEventSerializer,
        "card_played": CardPlayedEventSerializer,
        "chef_taken": ChefTakenEventSerializer,
    },
    resource_type_field_name="type",
)


# ----------------------------------------------------------------------------- the summary


class NextEventSerializer(serializers.Serializer[Any]):
    type = serializers.CharField()
    player = serializers.CharField(allow_null=True)


class TableStateSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    trick = serializers.IntegerField()
    next = NextEventSerializer(allow_null=True)
    trump = serializers.ListField(child=serializers.CharField())
    centre_chefs = serializers.DictField(child=serializers.IntegerField())
    coins = serializers.DictField(child=serializers.IntegerField())
    chefs = serializers.DictField(child=serializers.DictField(child=serializers.IntegerField()))
    tricks_won = serializers.DictField(child=serializers.IntegerField())


class RoundScoresSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    scores = serializers.DictField(child=serializers.IntegerField())


class RankSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    rank = serializers.IntegerField()
    total = serializers.IntegerField()
    last_round = serializers.IntegerField()


class GameSummarySerializer(serializers.Serializer[Any]):
    """What ``python -m engine replay`` prints for the game's effective record
    (docs/record-format.md); ``state`` is null for a results-only game."""

    status = status_field()
    players = serializers.ListField(child=serializers.CharField())
    rounds = RoundScoresSerializer(many=True)
    totals = serializers.DictField(child=serializers.IntegerField())
    ranking = RankSerializer(many=True)
    state = TableStateSerializer(allow_null=True)


# ----------------------------------------------------------------------------- requests


class GameCreateSerializer(RequestSerializer):
    """A Trick-n-Chef game (the default game)."""

    game_type = const(KEY, required=False, help_text="The game (the default).")
    players = names_field("The players' names in clockwise seat order (3 or 4).")
    suits = BoundedListField(
        child=StrictCharField(),
        max_length=MAX_ITEMS,
        required=False,
        allow_null=True,
        help_text="The suits in play: required for 3 players (three of green, red, yellow, "
        "blue); all four, or omitted, for 4.",
    )
    published = published_field()


class TrickNChefResultsSerializer(RequestSerializer):
    expected_version = expected_version_field()
    scores = score_map(help_text="Each player's score in rounds 1, 2 and 3.")
    totals = BoundedDictField(
        child=serializers.JSONField(allow_null=True),
        required=False,
        allow_null=True,
        help_text="Each player's total, if the score sheet has them: checked against the sums.",
    )


def entry() -> dict[str, AnyField]:
    """The results entry: each player's deal scores (a map), and their totals if given."""
    return {
        "scores": score_map(required=False),
        "totals": value_map(required=False, allow_null=True),
    }


def create_rule(component: dict[str, Any]) -> dict[str, Any]:
    """Three players name the three suits in play; four play with all four (or name none)."""
    merge(component, "players", counted(KEY))
    merge(component, "suits", {"items": {"type": "string", "enum": list(SUITS)}})
    merge(component, "suits", {"uniqueItems": True})
    three, four = sorted(GAME_TYPES[KEY].table_sizes)
    return {
        "anyOf": [
            {
                "required": ["players", "suits"],
                "properties": {
                    "players": {"maxItems": three},
                    "suits": {"type": "array", "minItems": three, "maxItems": three},
                },
            },
            {
                "properties": {  # suits null or left out: all four
                    "players": {"minItems": four},
                    "suits": {"minItems": four, "maxItems": four},
                },
            },
        ]
    }


API = GameAPI(
    create=GameCreateSerializer,
    event=TRICK_N_CHEF_EVENT,
    summary=GameSummarySerializer,
    results=TrickNChefResultsSerializer,
    entry=entry,
    schema_rules={"GameCreate": create_rule},
)
