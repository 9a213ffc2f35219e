"""A game's events in the API: the record events a scorekeeper appends (each game's shape, for
the schema: the engine checks them), the append request, the events read back and the global
log."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.serializers.fields import (
    MAX_EVENTS,
    BoundedListField,
    RequestSerializer,
    expected_version_field,
)
from games.api.serializers.gameapi import RegistryProxySerializer
from games.store import START, Cursor

RECORD_EVENT = RegistryProxySerializer("RecordEvent", lambda api: api.event)
"""An event of the game's own record format (docs/record-format.md,
docs/foodtruck-record-format.md, docs/chefs-record-format.md,
docs/crazykitchen-record-format.md)."""


@extend_schema_field(RECORD_EVENT)
class RecordEventField(serializers.JSONField):
    """One event of the record format, passed on as is: the engine checks it."""


class GameAppendSerializer(RequestSerializer):
    expected_version = expected_version_field()
    events = BoundedListField(
        child=RecordEventField(),
        max_length=MAX_EVENTS,
        help_text="The next events of the record, in order (record format v1).",
    )


class AppendedSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    type = serializers.CharField()


class EventsQuerySerializer(serializers.Serializer[Any]):
    since = serializers.IntegerField(
        min_value=0, required=False, default=0, help_text="Only events after this version."
    )


class GameEventSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    type = serializers.CharField()
    data = serializers.DictField()  # type: ignore[assignment]  # a field, not .data
    recorded_at = serializers.DateTimeField()
    by = serializers.SerializerMethodField(help_text="Who recorded it (null: anonymous).")

    @extend_schema_field(OpenApiTypes.STR)
    def get_by(self, event: Any) -> str | None:
        by = event.metadata.get("by")
        return None if by is None else str(by)


class GameEventsSerializer(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    version = serializers.IntegerField()
    delay = serializers.IntegerField(
        allow_null=True,
        help_text="How many seconds late this reader is shown the game (its tournament relays "
        "the table with a delay: docs/relay.md); null: as it stands now.",
    )
    events = GameEventSerializer(many=True)


# ----------------------------------------------------------------------------- the global log

BEGINNING = START

LOG_LIMIT_DEFAULT = 500
LOG_LIMIT_MAX = 1000


class LogQuerySerializer(serializers.Serializer[Any]):
    after = serializers.CharField(
        required=False,
        default=str(BEGINNING),
        validators=[
            RegexValidator(r"^[0-9]+\.[0-9]+\Z", "not a log position (like 0.42)", "invalid")
        ],
        help_text="A position from an earlier answer's `next` (default: the beginning, 0.0).",
    )
    limit = serializers.IntegerField(
        min_value=1, max_value=LOG_LIMIT_MAX, required=False, default=LOG_LIMIT_DEFAULT
    )

    def validate_after(self, value: str) -> Cursor:
        try:
            return Cursor.parse(value)
        except ValueError as error:
            raise serializers.ValidationError(str(error)) from None


class LogEventSerializer(serializers.Serializer[Any]):
    position = serializers.SerializerMethodField(help_text="This event's cursor in the log.")
    stream = serializers.UUIDField(source="stream_id")
    version = serializers.IntegerField()
    type = serializers.CharField()
    data = serializers.DictField()  # type: ignore[assignment]  # a field, not .data
    recorded_at = serializers.DateTimeField()

    def get_position(self, event: Any) -> str:
        return f"{event.tx_id}.{event.id}"


class LogSerializer(serializers.Serializer[Any]):
    events = LogEventSerializer(many=True)
    next = serializers.CharField(
        help_text="Pass it as `after` to read on (the last event's position, or `after` "
        "when there was nothing new)."
    )
