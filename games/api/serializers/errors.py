"""The API's error bodies, for the schema (games.api.errors writes them)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.serializers.games import SummaryField


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
