"""High Card's API bodies (``GameType.api``: games.api.serializers.gameapi.GameAPI): its
events, its summary, its create and results bodies and its schema rule (two players)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.schema import players_counted
from games.api.serializers.fields import (
    AnyField,
    RequestSerializer,
    const,
    expected_version_field,
    names_field,
    published_field,
    value_map,
)
from games.api.serializers.gameapi import GameAPI
from tests.highcard.engine import GAME_KEY as KEY


class HighCardEventSerializer(serializers.Serializer[Any]):
    type = const("game_started", "card_played")
    players = serializers.ListField(child=serializers.CharField(), required=False)
    player = serializers.CharField(required=False)
    card = serializers.IntegerField(min_value=1, max_value=10, required=False)


class HighCardSummarySerializer(serializers.Serializer[Any]):
    game = const(KEY)
    players = serializers.ListField(child=serializers.CharField())
    cards = serializers.DictField(child=serializers.IntegerField(allow_null=True))
    status = serializers.CharField()


class HighCardCreateSerializer(RequestSerializer):
    game_type = const(KEY)
    players = names_field("The two players.")
    published = published_field()


class HighCardResultsSerializer(RequestSerializer):
    expected_version = expected_version_field()
    cards = serializers.DictField(child=serializers.IntegerField(min_value=1, max_value=10))


def entry() -> dict[str, AnyField]:
    return {"cards": value_map(required=False)}


API = GameAPI(
    create=HighCardCreateSerializer,
    event=HighCardEventSerializer,
    summary=HighCardSummarySerializer,
    results=HighCardResultsSerializer,
    entry=entry,
    schema_rules={"HighCardCreate": players_counted(KEY)},
)
