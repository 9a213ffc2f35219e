"""Crazy Kitchen in the API: its record events, its summary, its create request (two teams and
each team's players) and its results entry (the six round scores)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games.api.schema import counted, merge
from games.api.serializers.fields import (
    AnyField,
    BoundedDictField,
    BoundedListField,
    RequestSerializer,
    StrictIntegerField,
    const,
    expected_version_field,
    game_field,
    name_field,
    names_field,
    published_field,
    score_list,
    status_field,
)
from games.api.serializers.gameapi import GameAPI
from games.gametypes import GAME_TYPES
from games.services import Refused

KEY = "crazy-kitchen"

# ----------------------------------------------------------------------------- record events
# For the schema only: the engine parses and checks events (docs/crazykitchen-record-format.md).


class TeamSerializer(serializers.Serializer[Any]):
    name = name_field()
    players = serializers.ListField(child=name_field())


class CrazyKitchenGameStartedSerializer(serializers.Serializer[Any]):
    type = const("game_started")
    game = game_field(KEY)
    teams = TeamSerializer(many=True)
    cooks_first = name_field()
    compensation = serializers.IntegerField(min_value=0, required=False)


class CrazyKitchenRoundScoredSerializer(serializers.Serializer[Any]):
    type = const("round_scored")
    round = serializers.IntegerField(min_value=1, max_value=6)
    cooks = name_field()
    fulfilled = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        help_text="The victory points of the orders fulfilled.",
    )
    penalties = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        help_text="The penalty points of the orders not fulfilled (2 for a -2 order).",
    )
    score = serializers.IntegerField(min_value=0)


CRAZY_KITCHEN_EVENT = PolymorphicProxySerializer(
    component_name="CrazyKitchenEvent",
    serializers=[CrazyKitchenGameStartedSerializer, CrazyKitchenRoundScoredSerializer],
    resource_type_field_name=None,
)


# ----------------------------------------------------------------------------- the summary


class KitchenRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    cooks = serializers.CharField()
    fulfilled = serializers.ListField(child=serializers.IntegerField())
    penalties = serializers.ListField(child=serializers.IntegerField())
    score = serializers.IntegerField()


class KitchenRankSerializer(serializers.Serializer[Any]):
    team = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    rank = serializers.IntegerField()
    points = serializers.IntegerField()
    tiebreaks = serializers.ListField(child=serializers.IntegerField())


class CrazyKitchenSummarySerializer(serializers.Serializer[Any]):
    """A Crazy Kitchen game (docs/crazykitchen-record-format.md): ``players`` are the two
    teams' names (the team that cooks first first), ``teams`` their players."""

    game = const(KEY)
    status = status_field()
    players = serializers.ListField(child=serializers.CharField())
    teams = TeamSerializer(many=True)
    cooks_first = serializers.CharField()
    rounds = KitchenRoundSerializer(many=True)
    points = serializers.DictField(child=serializers.IntegerField())
    totals = serializers.DictField(child=serializers.IntegerField())
    ranking = KitchenRankSerializer(many=True)


# ----------------------------------------------------------------------------- requests


class CrazyKitchenCreateSerializer(RequestSerializer):
    game_type = const(KEY)
    players = names_field("The two teams' names, the team that cooks first first.")
    members = BoundedDictField(
        child=names_field("The team's players."),
        help_text="Each team's players, by team name (2 or more each; one more on one side "
        "with an odd number of players).",
        error_messages={"required": gettext_lazy("Crazy Kitchen needs each team's players.")},
    )
    compensation = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="The victory points of the smaller team when the number of players is odd "
        "(omitted: the rulebook's).",
    )
    published = published_field()


def refuse_create(body: Mapping[str, Any]) -> None:
    """The names in ``members`` that are not one of the teams: refused (422 bad_teams)."""
    teams = set(body.get("players", ()))
    strangers = sorted(name for name in body.get("members") or {} if name not in teams)
    if strangers:
        raise Refused(
            _("%(names)s: not one of the teams (%(teams)s)")
            % {"names": ", ".join(strangers), "teams": ", ".join(body["players"])},
            "bad_teams",
            0,
        )


class CrazyKitchenResultsSerializer(RequestSerializer):
    expected_version = expected_version_field()
    scores = BoundedListField(
        child=serializers.IntegerField(min_value=0),
        min_length=6,
        max_length=6,
        help_text="The six round scores from the scoreboard (round 1 cooked by the first team).",
    )
    compensation = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="The smaller team's points (omitted: as the game was started).",
    )


def entry() -> dict[str, AnyField]:
    """The results entry: the six round scores (a list), and the compensation if given."""
    return {
        "scores": score_list(required=False),
        "compensation": StrictIntegerField(required=False, allow_null=True),
    }


def create_rule(component: dict[str, Any]) -> dict[str, Any]:
    """Two teams, each with its own players (which team holds whom, and the compensation an
    odd number of players allows, are the rules' to say)."""
    merge(component, "players", counted(KEY))
    least, most = GAME_TYPES[KEY].team_members or (1, 1)
    entrants = max(GAME_TYPES[KEY].table_sizes)
    merge(component, "members", {"minProperties": entrants, "maxProperties": entrants})
    members = component["properties"]["members"].get("additionalProperties")
    if isinstance(members, dict):
        members.update({"minItems": least, "maxItems": most, "uniqueItems": True})
    merge(component, "compensation", {"minimum": 0})
    return {}


API = GameAPI(
    create=CrazyKitchenCreateSerializer,
    event=CRAZY_KITCHEN_EVENT,
    summary=CrazyKitchenSummarySerializer,
    results=CrazyKitchenResultsSerializer,
    entry=entry,
    entry_kind_messages={
        "scores": gettext_lazy(
            "Expected each player's round scores (a map) or, for Crazy Kitchen, the six round "
            "scores (a list)."
        )
    },
    refuse_create=refuse_create,
    schema_rules={"CrazyKitchenCreate": create_rule},
)
