"""The token request and answer (POST /api/auth/token/)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class TokenRequestSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    password = serializers.CharField()


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField()
