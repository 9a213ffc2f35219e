"""The fields every request body is built of: strict JSON fields (a number must be a JSON
integer, not ``"3"`` or ``3.0``; a string a JSON string; a flag a JSON boolean, as in the record
format), bounded lists and maps, and :class:`RequestSerializer`, which refuses a key it does not
define."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypeAlias

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

AnyField: TypeAlias = "serializers.Field[Any, Any, Any, Any]"
"""Any serializer field (for type hints)."""

PLAYER_NAME_MAX = 100
"""The longest player name the results table stores (games.models.GameResult.player)."""

REASON_MAX = 1000

MAX_EVENTS = 500
"""Events in one request: three times a whole game (a 4-player game has at most about 170), so
a table can send its whole record at once (docs/api.md, "Limits")."""

MAX_ITEMS = 100
"""Any other list or map in a request (players, suits, scores): far more than a game has."""


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


PLAYER_NAME_COMPONENT = "PlayerName"
"""The schema's component for a player's name (games.api.schema writes it: games.names's rule,
as a pattern)."""


@extend_schema_field({"$ref": f"#/components/schemas/{PLAYER_NAME_COMPONENT}"})
class PlayerNameField(StrictCharField):
    """A player's (or a team's) name in a request: taken as it is written (blank or not), for
    games.names to spell it once and refuse a blank one (422 bad_players); the schema says what
    that rule lets through (:data:`PLAYER_NAME_COMPONENT`)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allow_blank", True)
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)


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


def const(*values: str, **kwargs: Any) -> serializers.CharField:
    """A string that is one of ``values``, said in the schema by a pattern (an enum of the same
    values in several games' components would need a name in the settings for each)."""
    pattern = "^(" + "|".join(re.escape(v) for v in values) + ")$"
    return serializers.CharField(validators=[RegexValidator(pattern)], **kwargs)


def name_field() -> serializers.CharField:
    """A player's (or a team's) name in a record event or a summary."""
    return serializers.CharField(max_length=PLAYER_NAME_MAX)


def game_field(key: str) -> serializers.CharField:
    """A record's ``game`` key (its first event's)."""
    return const(key, help_text="The record's game.")


def status_field() -> serializers.CharField:
    """A summary's ``status``."""
    return const("in_progress", "finished")


def names_field(help_text: str) -> BoundedListField:
    """The names of a request (players, a team's members)."""
    return BoundedListField(
        child=PlayerNameField(max_length=PLAYER_NAME_MAX),
        max_length=MAX_ITEMS,
        help_text=help_text,
    )


def published_field() -> StrictBooleanField:
    return StrictBooleanField(
        required=False, default=False, help_text="Readable by the public at once."
    )


def score_map(**kwargs: Any) -> BoundedDictField:
    """Each player's list of scores, the values left for the engine to check."""
    return BoundedDictField(
        child=BoundedListField(child=serializers.JSONField(allow_null=True), max_length=MAX_ITEMS),
        **kwargs,
    )


def score_list(**kwargs: Any) -> BoundedListField:
    """A list of scores, the values left for the engine to check."""
    return BoundedListField(
        child=serializers.JSONField(allow_null=True), max_length=MAX_ITEMS, **kwargs
    )


def value_map(**kwargs: Any) -> BoundedDictField:
    """A value for each player, left for the engine to check."""
    return BoundedDictField(child=serializers.JSONField(allow_null=True), **kwargs)


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
