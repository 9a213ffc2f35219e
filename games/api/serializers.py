"""What the API reads and writes: request bodies and query strings (checked here for shape only;
the rules are the engine's), responses, and the error bodies (for the OpenAPI schema).

Request fields are strict: a number must be a JSON integer (not ``"3"`` or ``3.0``), a string a
JSON string and a flag a JSON boolean, as in the record format.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from engine.cards import SUITS
from games.models import GameProjection
from games.store import START, Cursor

PLAYER_NAME_MAX = 100
"""The longest player name the results table stores (games.models.GameResult.player)."""

REASON_MAX = 1000

MAX_EVENTS = 500
"""Events in one request: three times a whole game (a 4-player game has at most about 170), so
a table can send its whole record at once (docs/api.md, "Limits")."""

MAX_ITEMS = 100
"""Any other list or map in a request (players, suits, scores): far more than a game has."""


# ----------------------------------------------------------------------------- strict fields


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: not a string, a float or a boolean."""

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A JSON string: a number is not turned into one."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """A JSON boolean: not ``"true"`` or ``1``."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class BoundedListField(serializers.ListField):
    """A list whose length is checked before its items: a list of 100,000 items is refused at
    once, not after 100,000 item checks."""

    def to_internal_value(self, data: Any) -> list[Any]:
        if self.max_length is not None and isinstance(data, list) and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return list(super().to_internal_value(data))


class BoundedDictField(serializers.DictField):
    """A map with at most ``max_items`` keys, counted before its values are checked."""

    default_error_messages = {"too_many": "Ensure this field has no more than {max_items} keys."}

    def __init__(self, *, max_items: int = MAX_ITEMS, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_items = max_items

    def to_internal_value(self, data: Any) -> dict[Any, Any]:
        if isinstance(data, Mapping) and len(data) > self.max_items:
            self.fail("too_many", max_items=self.max_items)
        return dict(super().to_internal_value(data))


def expected_version_field() -> StrictIntegerField:
    return StrictIntegerField(
        min_value=0,
        help_text="The game's version this change was decided on (from the last read). "
        "Another version means someone else changed the game meanwhile: 409 conflict.",
    )


def reason_field() -> StrictCharField:
    return StrictCharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=REASON_MAX,
        help_text="Why (kept in the game's history).",
    )


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


RECORD_EVENT = PolymorphicProxySerializer(
    component_name="RecordEvent",
    serializers={
        "game_started": GameStartedEventSerializer,
        "round_started": RoundStartedEventSerializer,
        "chef_chosen": ChefChosenEventSerializer,
        "card_played": CardPlayedEventSerializer,
        "chef_taken": ChefTakenEventSerializer,
    },
    resource_type_field_name="type",
)


@extend_schema_field(RECORD_EVENT)
class RecordEventField(serializers.JSONField):
    """One event of the record format, passed on as is: the engine checks it."""


# ----------------------------------------------------------------------------- the game summary


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

    status = serializers.ChoiceField(choices=["in_progress", "finished"])
    players = serializers.ListField(child=serializers.CharField())
    rounds = RoundScoresSerializer(many=True)
    totals = serializers.DictField(child=serializers.IntegerField())
    ranking = RankSerializer(many=True)
    state = TableStateSerializer(allow_null=True)


@extend_schema_field(GameSummarySerializer)
class SummaryField(serializers.JSONField):
    """The stored summary, passed through as is."""


# ----------------------------------------------------------------------------- requests


class RequestSerializer(serializers.Serializer[Any]):
    """A request body: a key it does not define is refused, not ignored (a misspelt
    ``"publshed": true`` must not quietly create an unpublished game)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in data if key not in self.fields)
            if unknown:
                raise serializers.ValidationError(
                    {key: ["This field is not expected here."] for key in unknown}
                )
        return super().to_internal_value(data)


class GameCreateSerializer(RequestSerializer):
    players = BoundedListField(
        child=StrictCharField(allow_blank=True, trim_whitespace=False, max_length=PLAYER_NAME_MAX),
        max_length=MAX_ITEMS,
        help_text="The players' names in clockwise seat order (3 or 4).",
    )
    suits = BoundedListField(
        child=StrictCharField(),
        max_length=MAX_ITEMS,
        required=False,
        allow_null=True,
        help_text="The suits in play: required for 3 players (three of green, red, yellow, "
        "blue); all four, or omitted, for 4.",
    )
    published = StrictBooleanField(
        required=False, default=False, help_text="Readable by the public at once."
    )


class GameAppendSerializer(RequestSerializer):
    expected_version = expected_version_field()
    events = BoundedListField(
        child=RecordEventField(),
        max_length=MAX_EVENTS,
        help_text="The next events of the record, in order (record format v1).",
    )


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


class ResultsSerializer(RequestSerializer):
    expected_version = expected_version_field()
    scores = BoundedDictField(
        child=BoundedListField(child=serializers.JSONField(allow_null=True), max_length=MAX_ITEMS),
        help_text="Each player's score in rounds 1, 2 and 3.",
    )
    totals = BoundedDictField(
        child=serializers.JSONField(allow_null=True),
        required=False,
        allow_null=True,
        help_text="Each player's total, if the score sheet has them: checked against the sums.",
    )


class EventsQuerySerializer(serializers.Serializer[Any]):
    since = serializers.IntegerField(
        min_value=0, required=False, default=0, help_text="Only events after this version."
    )


class ImportQuerySerializer(serializers.Serializer[Any]):
    published = serializers.BooleanField(
        required=False, default=False, help_text="Readable by the public at once (true|false)."
    )


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


# ----------------------------------------------------------------------------- responses


class AppendedSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    type = serializers.CharField()


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
    events = GameEventSerializer(many=True)


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


class TokenRequestSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    password = serializers.CharField()


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField()


# ----------------------------------------------------------------------------- errors


class ErrorDetailSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="A stable code (docs/api.md lists them).")
    message = serializers.CharField(help_text="What went wrong, in the user's words.")
    event = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="The refused event's index in the request (a record's 0-based line).",
    )
    details = serializers.DictField(
        required=False, help_text="A malformed request: the messages per field."
    )
    retry_after = serializers.IntegerField(required=False, help_text="Throttled: seconds to wait.")


class ErrorSerializer(serializers.Serializer[Any]):
    error = ErrorDetailSerializer()


class ConflictDetailSerializer(serializers.Serializer[Any]):
    code = serializers.ChoiceField(choices=["conflict"])
    message = serializers.CharField()
    current_version = serializers.IntegerField()
    state = SummaryField()


class ConflictSerializer(serializers.Serializer[Any]):
    error = ConflictDetailSerializer()
