"""What the API reads and writes, by concern: request bodies and query strings (checked here
for shape only; the rules are the engine's), responses, and the error bodies (for the OpenAPI
schema). Each game's own shapes are in its package (``games/<game>/api.py``, named by its game
type: :class:`~games.api.serializers.gameapi.GameAPI`); the bodies every game shares are built
from the registry.

* :mod:`~games.api.serializers.fields`: the strict fields and the request body's base
* :mod:`~games.api.serializers.gameapi`: what a game gives the API, and how it is found
* :mod:`~games.api.serializers.games`: a game (create, correct, void, publish, import; read)
* :mod:`~games.api.serializers.events`: record events, appending them, reading them, the log
* :mod:`~games.api.serializers.results`: the results-only entry and the game-neutral result
* :mod:`~games.api.serializers.errors`, :mod:`~games.api.serializers.tokens`
"""

from __future__ import annotations

from games.api.serializers.errors import (
    ConflictDetailSerializer,
    ConflictSerializer,
    ErrorDetailSerializer,
    ErrorSerializer,
)
from games.api.serializers.events import (
    BEGINNING,
    LOG_LIMIT_DEFAULT,
    LOG_LIMIT_MAX,
    RECORD_EVENT,
    AppendedSerializer,
    EventsQuerySerializer,
    GameAppendSerializer,
    GameEventSerializer,
    GameEventsSerializer,
    LogEventSerializer,
    LogQuerySerializer,
    LogSerializer,
    RecordEventField,
)
from games.api.serializers.fields import (
    MAX_EVENTS,
    MAX_ITEMS,
    PLAYER_NAME_COMPONENT,
    PLAYER_NAME_MAX,
    REASON_MAX,
    BoundedDictField,
    BoundedListField,
    PlayerNameField,
    RequestSerializer,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    expected_version_field,
    reason_field,
)
from games.api.serializers.gameapi import GameAPI, api_of
from games.api.serializers.games import (
    GAME_CREATE_REQUEST,
    GAME_SUMMARY,
    CorrectionSerializer,
    GameChangeSerializer,
    GameDetailSerializer,
    GameListItemSerializer,
    ImportQuerySerializer,
    NewGameSerializer,
    PublishSerializer,
    SummaryField,
    VoidSerializer,
)
from games.api.serializers.results import (
    RESULTS_REQUEST,
    NeutralRankSerializer,
    PlacementSerializer,
    ResultsSerializer,
)
from games.api.serializers.tokens import TokenRequestSerializer, TokenSerializer

__all__ = [
    "BEGINNING",
    "GAME_CREATE_REQUEST",
    "GAME_SUMMARY",
    "LOG_LIMIT_DEFAULT",
    "LOG_LIMIT_MAX",
    "MAX_EVENTS",
    "MAX_ITEMS",
    "PLAYER_NAME_COMPONENT",
    "PLAYER_NAME_MAX",
    "REASON_MAX",
    "RECORD_EVENT",
    "RESULTS_REQUEST",
    "AppendedSerializer",
    "BoundedDictField",
    "BoundedListField",
    "ConflictDetailSerializer",
    "ConflictSerializer",
    "CorrectionSerializer",
    "ErrorDetailSerializer",
    "ErrorSerializer",
    "EventsQuerySerializer",
    "GameAPI",
    "GameAppendSerializer",
    "GameChangeSerializer",
    "GameDetailSerializer",
    "GameEventSerializer",
    "GameEventsSerializer",
    "GameListItemSerializer",
    "ImportQuerySerializer",
    "LogEventSerializer",
    "LogQuerySerializer",
    "LogSerializer",
    "NeutralRankSerializer",
    "NewGameSerializer",
    "PlacementSerializer",
    "PlayerNameField",
    "PublishSerializer",
    "RecordEventField",
    "RequestSerializer",
    "ResultsSerializer",
    "StrictBooleanField",
    "StrictCharField",
    "StrictIntegerField",
    "SummaryField",
    "TokenRequestSerializer",
    "TokenSerializer",
    "VoidSerializer",
    "api_of",
    "expected_version_field",
    "reason_field",
]
