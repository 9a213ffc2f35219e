"""A game's results in the API: the results-only entry (one body for every game, built from the
registry; the schema documents each game's), and the game-neutral result of a finished game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from games.api.serializers.fields import AnyField, RequestSerializer, expected_version_field
from games.api.serializers.gameapi import GameAPI, RegistryProxySerializer, game_apis


def _kind(field: AnyField) -> type | None:
    """The JSON kind a field takes (a map, a list), None: another."""
    if isinstance(field, serializers.DictField):
        return Mapping
    if isinstance(field, serializers.ListField):
        return list
    return None


def _fits(field: AnyField, value: Any) -> bool:
    kind = _kind(field)
    return kind is None or isinstance(value, kind)


class EitherKindField(serializers.Field):  # type: ignore[type-arg]
    """A key several games' results entries have, each with its own kind of value (one game's
    map, another's list): the value is checked by the field of its kind."""

    def __init__(
        self, fields: list[AnyField], message: str | Promise | None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.choices = fields
        self.message = message

    def to_internal_value(self, data: Any) -> Any:
        for field in self.choices:
            if _kind(field) is not None and _fits(field, data):
                return field.run_validation(data)
        if self.message is not None:
            raise serializers.ValidationError(str(self.message), code="invalid")
        return self.choices[0].run_validation(data)

    def to_representation(self, value: Any) -> Any:
        return value


def _entry_fields() -> tuple[dict[str, AnyField], list[dict[str, AnyField]]]:
    """The shared body's fields (each game's keys, in the registry's order) and each game's."""
    shapes: list[dict[str, AnyField]] = []
    shared: dict[str, list[AnyField]] = {}
    messages: dict[str, str | Promise] = {}
    apis: list[GameAPI] = [api for _key, api in game_apis()]
    for api in apis:
        shapes.append(api.entry())
        for key, field in api.entry().items():
            shared.setdefault(key, []).append(field)
        messages.update(api.entry_kind_messages)
    fields: dict[str, AnyField] = {}
    for key, same in shared.items():
        if len(same) == 1:
            fields[key] = same[0]
        else:
            fields[key] = EitherKindField(
                same, messages.get(key), required=False, allow_null=any(f.allow_null for f in same)
            )
    return fields, shapes


class ResultsSerializer(RequestSerializer):
    """Every game's results entry in one body (each game's keys: GameAPI.entry); the schema
    documents them one by one (:data:`RESULTS_REQUEST`). The keys given must be one game's;
    whether they are the game's is the game's engine to say."""

    expected_version = expected_version_field()

    def get_fields(self) -> dict[str, AnyField]:
        fields: dict[str, AnyField] = super().get_fields()
        entry, self.shapes = _entry_fields()
        fields.update(entry)
        return fields

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = {k: v for k, v in attrs.items() if k != "expected_version" and v is not None}
        if not given:
            names: list[str] = list(self.fields)  # its keys
            first = next(name for name in names if name != "expected_version")
            raise serializers.ValidationError(
                {first: [serializers.Field.default_error_messages["required"]]}
            )
        if not any(
            set(given) <= set(shape) and all(_fits(shape[k], v) for k, v in given.items())
            for shape in self.shapes
        ):
            text = gettext_lazy("These keys are not one game's results entry together.")
            raise serializers.ValidationError({key: [text] for key in sorted(given)})
        return attrs

    def entry(self) -> dict[str, Any]:
        """The game's results entry: the keys given, a null one left out."""
        data = self.validated_data
        return {k: v for k, v in data.items() if k != "expected_version" and v is not None}


RESULTS_REQUEST = RegistryProxySerializer("GameResults", lambda api: api.results)
"""The results entry of each game, as the schema says it."""


# A place in a game-neutral summary's ``ranking`` (no docstring: it would be the schema's
# description).
class NeutralRankSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    rank = serializers.IntegerField()
    points = serializers.IntegerField()
    tiebreaks = serializers.ListField(child=serializers.IntegerField())


class PlacementSerializer(serializers.Serializer[Any]):
    """One entrant's game-neutral result (games.gametypes.Placement)."""

    player = serializers.CharField(help_text="The entrant (a team's name in a team game).")
    seat = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="1, 1, 3 when two share first place.")
    points = serializers.IntegerField(help_text="The game's points (Trick-n-Chef: the total).")
    tiebreaks = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The game's tie-break values, higher is better (Trick-n-Chef: the last "
        "round's score).",
    )
    round_scores = serializers.ListField(
        child=serializers.IntegerField(), help_text="Each round's points, where rounds score."
    )
