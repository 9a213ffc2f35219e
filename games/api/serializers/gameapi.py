"""What a game gives the API (:class:`GameAPI`, ``API`` in the module its game type names:
``GameType.api``, e.g. ``"games.foodtruck.api"``), and how the shared serializers find it: by
the registry, each time they are asked (:func:`game_apis`, :class:`RegistryProxySerializer`), so
a game registered after import is served like the others."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from drf_spectacular.serializers import PolymorphicProxySerializerExtension
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games.api.serializers.fields import AnyField
from games.gametypes import GAME_TYPES

Rule = Callable[[dict[str, Any]], dict[str, Any]]
"""A schema rule for one request component (games.api.schema): it may tighten the component's
properties and returns keys to add to it (``anyOf`` ...)."""

SerializerLike = type[serializers.Serializer[Any]] | serializers.Serializer[Any]


@dataclass(frozen=True)
class GameAPI:
    """A game's part of the API: the shapes the schema documents (each a serializer, its class
    name the component's), and what the shared request bodies take from the game."""

    create: type[serializers.Serializer[Any]]
    """The create request (POST /api/games/) as the schema says it. Its keys other than
    ``game_type``, ``players`` and ``published`` are the game's options: the shared body
    (games.api.serializers.games.NewGameSerializer) takes them, optional, and refuses them for
    another game; one this body requires is required for the game, with its ``required``
    message. An option an earlier game has too is checked by that game's field."""
    event: SerializerLike
    """A record event (often a PolymorphicProxySerializer of the game's event types)."""
    summary: type[serializers.Serializer[Any]]
    """The game's summary (what ``python -m engine replay`` prints)."""
    results: type[serializers.Serializer[Any]]
    """The results-only entry as the schema says it (with ``expected_version``)."""
    entry: Callable[[], dict[str, AnyField]]
    """The results entry's keys for the shared results body (games.api.serializers.results),
    each optional and its values left for the engine to check (a wrong value is a 422 the rules
    say, not a 400). A key another game has too takes a map from the game whose field is a map,
    a list from the one whose field is a list."""
    entry_kind_messages: Mapping[str, str | Promise] = field(default_factory=dict)
    """For a key of :attr:`entry` an earlier game has too: what the shared body says of a value
    that is neither game's kind (absent: the earlier game's field says it)."""
    refuse_create: Callable[[Mapping[str, Any]], None] | None = None
    """A check of the create body's (well-formed) values the rules refuse before the table
    exists: raises games.services.Refused."""
    schema_rules: Mapping[str, Rule] = field(default_factory=dict)
    """The game's request components (by name) and what the schema says of them beyond their
    fields (games.api.schema): its number of players, a rule across keys."""


def api_of(key: str) -> GameAPI:
    """The API of a game type (by key); KeyError for an unknown one."""
    module = importlib.import_module(GAME_TYPES[key].api)
    api: GameAPI = module.API
    return api


def game_apis() -> list[tuple[str, GameAPI]]:
    """Every registered game's API, in the registry's order."""
    return [(key, api_of(key)) for key in GAME_TYPES]


class RegistryProxySerializer(PolymorphicProxySerializer):
    """A schema's one-of-each-game shape whose games are read from the registry each time the
    schema is made (drf-spectacular's own proxy reads a callable once)."""

    def __init__(
        self,
        component_name: str,
        shapes: Callable[[GameAPI], SerializerLike],
        **kwargs: Any,
    ) -> None:
        self.shapes = shapes
        super().__init__(
            component_name=component_name,
            serializers=self._each_game,
            resource_type_field_name=None,
            **kwargs,
        )

    def _each_game(self) -> list[SerializerLike]:
        return [self.shapes(api) for _key, api in game_apis()]

    @property
    def serializers(self) -> Any:
        made = self._serializers
        return made() if callable(made) else made

    @serializers.setter
    def serializers(self, value: Any) -> None:
        self._serializers = value


class RegistryProxySerializerExtension(PolymorphicProxySerializerExtension):  # type: ignore[no-untyped-call]
    """drf-spectacular's handling of its proxy, for :class:`RegistryProxySerializer` (its
    extensions match the exact class)."""

    target_class = "games.api.serializers.gameapi.RegistryProxySerializer"
