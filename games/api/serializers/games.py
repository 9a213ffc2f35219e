"""A game in the API: the create request (one body for every game, built from the registry; the
schema documents each game's), the other writes' bodies, the import's query, and the answers
that show a game (its summary in each game's shape, its list item, its detail)."""

from __future__ import annotations

import copy
from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.serializers.events import AppendedSerializer
from games.api.serializers.fields import (
    AnyField,
    RequestSerializer,
    StrictIntegerField,
    expected_version_field,
    names_field,
    published_field,
    reason_field,
)
from games.api.serializers.gameapi import RegistryProxySerializer, api_of, game_apis
from games.api.serializers.results import PlacementSerializer
from games.gametypes import DEFAULT_GAME_TYPE, GAME_TYPES
from games.models import GameProjection
from games.services import relay


class GameKeyField(serializers.ChoiceField):
    """A registered game's key: the choices are the registry's when the field is made (a
    serializer makes its fields anew for each request and each schema)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=list(GAME_TYPES), **kwargs)


# ----------------------------------------------------------------------------- the game summary

GAME_SUMMARY = RegistryProxySerializer("GameState", lambda api: api.summary)
"""The summary of each game (Trick-n-Chef's is GameSummary, unchanged)."""


@extend_schema_field(GAME_SUMMARY)
class SummaryField(serializers.JSONField):
    """The stored summary, passed through as is."""


# ----------------------------------------------------------------------------- requests

COMMON = ("game_type", "players", "published")
"""The create request's keys every game has; a game's others are its options."""


class NewGameSerializer(RequestSerializer):
    """Every game's create request in one body: the common keys and each game's options
    (GameAPI.create), optional; the schema documents them one by one
    (:data:`GAME_CREATE_REQUEST`)."""

    game_type = GameKeyField(
        required=False,
        default=DEFAULT_GAME_TYPE,
        help_text=f"The game (default {DEFAULT_GAME_TYPE}).",
    )
    players = names_field(
        "The entrants' names in seat order (a team game's: the teams'), as many as the game seats."
    )
    published = published_field()

    def get_fields(self) -> dict[str, AnyField]:
        fields: dict[str, AnyField] = super().get_fields()
        published = fields.pop("published")
        self.game_options: dict[str, dict[str, AnyField]] = {}
        for key, api in game_apis():
            own = {k: v for k, v in api.create().get_fields().items() if k not in COMMON}
            self.game_options[key] = own
            for name, field in own.items():
                if name not in fields:
                    option = copy.deepcopy(field)
                    option.required = False
                    option.allow_null = True
                    fields[name] = option
        fields["published"] = published
        return fields

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        game = attrs.get("game_type", DEFAULT_GAME_TYPE)
        own = self.game_options[game]
        options: list[str] = list(self.fields)  # its keys
        wrong = {
            option: [gettext_lazy("This option is not one of this game's.")]
            for option in options
            if option not in COMMON and attrs.get(option) is not None and option not in own
        }
        if wrong:
            raise serializers.ValidationError(wrong)
        missing = {
            option: [field.error_messages["required"]]
            for option, field in own.items()
            if field.required and attrs.get(option) is None
        }
        if missing:
            raise serializers.ValidationError(missing)
        return attrs

    def check_refusals(self) -> None:
        """What the game's rules refuse in the (well-formed) body before the table exists:
        raises games.services.Refused (GameAPI.refuse_create)."""
        refuse = api_of(self.validated_data["game_type"]).refuse_create
        if refuse is not None:
            refuse(self.validated_data)

    def options(self) -> dict[str, Any]:
        """The game's own options, for games.services.game_create."""
        data = self.validated_data
        return {k: v for k, v in data.items() if k not in COMMON and v is not None}


GAME_CREATE_REQUEST = RegistryProxySerializer("NewGame", lambda api: api.create)
"""The create request of each game, as the schema says it."""


class CorrectionSerializer(RequestSerializer):
    expected_version = expected_version_field()
    retract = StrictIntegerField(
        help_text="How many of the last entries of the record no longer count (plays or a "
        "results entry; the first event stays)."
    )
    reason = reason_field()


class VoidSerializer(RequestSerializer):
    expected_version = expected_version_field()
    reason = reason_field()


class PublishSerializer(RequestSerializer):
    expected_version = expected_version_field()


class ImportQuerySerializer(serializers.Serializer[Any]):
    game_type = GameKeyField(
        required=False,
        help_text="The record's game (default: the game its first line names, else "
        f"{DEFAULT_GAME_TYPE}).",
    )
    published = serializers.BooleanField(
        required=False, default=False, help_text="Readable by the public at once (true|false)."
    )


# ----------------------------------------------------------------------------- responses


class GameChangeSerializer(serializers.Serializer[Any]):
    """The outcome of a write (services.GameChange.as_dict())."""

    id = serializers.UUIDField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GameProjection.Status.choices)
    appended = AppendedSerializer(many=True)
    state = SummaryField()


class GameListItemSerializer(serializers.Serializer[Any]):
    id = serializers.UUIDField(source="stream_id")
    game_type = serializers.CharField()
    status = serializers.ChoiceField(choices=GameProjection.Status.choices)
    version = serializers.IntegerField()
    published = serializers.BooleanField()
    results_only = serializers.BooleanField()
    players = serializers.ListField(child=serializers.CharField())
    updated_at = serializers.DateTimeField()


class GameDetailSerializer(serializers.Serializer[Any]):
    id = serializers.UUIDField(source="stream_id")
    game_type = serializers.CharField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GameProjection.Status.choices)
    published = serializers.BooleanField()
    results_only = serializers.BooleanField()
    players = serializers.ListField(child=serializers.CharField())
    state = SummaryField(source="summary")
    delay = serializers.SerializerMethodField(
        help_text="How many seconds late this reader is shown the game (its tournament relays "
        "the table with a delay: docs/relay.md); null: as it stands now."
    )
    results = serializers.SerializerMethodField(
        help_text="Once the game is finished, each entrant's game-neutral result (rank, "
        "points, tie-breaks), best first; empty before."
    )

    def get_delay(self, game: GameProjection) -> int | None:
        late = relay.delay_of(game)
        return None if late is None else late.delay

    @extend_schema_field(PlacementSerializer(many=True))
    def get_results(self, game: GameProjection) -> list[dict[str, Any]]:
        if game.status != GameProjection.Status.FINISHED or game.game_type not in GAME_TYPES:
            return []
        placements = GAME_TYPES[game.game_type].placements(game.summary)
        return [
            {
                "player": p.player,
                "seat": p.seat,
                "rank": p.rank,
                "points": p.points,
                "tiebreaks": list(p.tiebreaks),
                "round_scores": list(p.round_scores),
            }
            for p in placements
        ]
