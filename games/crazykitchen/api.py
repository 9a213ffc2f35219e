"""Crazy Kitchen in the API: its record events, its summary, its create request (two teams and
each team's players) and its results entry (the six round scores)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from engine.crazykitchen.rules import TOOLS
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
    head_chef = serializers.CharField(
        required=False,
        help_text="v2 (required there): the player whose phone enters for the team (CK1.5).",
    )


class CrazyKitchenGameStartedSerializer(serializers.Serializer[Any]):
    type = const("game_started")
    game = game_field(KEY)
    version = serializers.IntegerField(
        min_value=2,
        max_value=2,
        required=False,
        help_text="2 for a record v2 (what new games start); absent in a v1 record.",
    )
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


def _team() -> serializers.CharField:
    return name_field()


class CrazyKitchenOrderFulfilledSerializer(serializers.Serializer[Any]):
    """v2: an order the customers found right, entered by the cooks' phone (CK3.4)."""

    type = const("order_fulfilled")
    team = _team()
    points = serializers.IntegerField(min_value=1)


class CrazyKitchenOrderFailedSerializer(serializers.Serializer[Any]):
    """v2: an order prepared wrongly or unfinished: its penalty, positive (CK3.4)."""

    type = const("order_failed")
    team = _team()
    penalty = serializers.IntegerField(min_value=1)


class CrazyKitchenOrderStruckSerializer(serializers.Serializer[Any]):
    """v2: the cooks strike order number ``order`` of the round (CK3.5)."""

    type = const("order_struck")
    team = _team()
    order = serializers.IntegerField(min_value=1)


class CrazyKitchenRoundReturnedSerializer(serializers.Serializer[Any]):
    """v2: the customers return the round to the cooks (CK3.6)."""

    type = const("round_returned")
    team = _team()


class CrazyKitchenRoundConfirmedSerializer(serializers.Serializer[Any]):
    """v2: the customers confirm the round: it is scored (CK3.6)."""

    type = const("round_confirmed")
    team = _team()


class CrazyKitchenToolSpedUpSerializer(serializers.Serializer[Any]):
    """v2: a tool sped up at an upgrade break, for the number crossed out (CK4.4)."""

    type = const("tool_sped_up")
    team = _team()
    tool = serializers.ChoiceField(choices=list(TOOLS))
    cost = serializers.IntegerField(min_value=1)


class CrazyKitchenCardTakenSerializer(serializers.Serializer[Any]):
    """v2: a one-time improvement card taken at an upgrade break, for its cost (CK4.4)."""

    type = const("card_taken")
    team = _team()
    cost = serializers.IntegerField(min_value=1)


class CrazyKitchenUpgradesDoneSerializer(serializers.Serializer[Any]):
    """v2: the team has finished upgrading at this break; after rounds 2 and 4 both teams
    send it, the team behind first (CK4.5, CK4.6): the next round waits for it."""

    type = const("upgrades_done")
    team = _team()


CRAZY_KITCHEN_EVENT = PolymorphicProxySerializer(
    component_name="CrazyKitchenEvent",
    serializers=[
        CrazyKitchenGameStartedSerializer,
        CrazyKitchenRoundScoredSerializer,
        CrazyKitchenOrderFulfilledSerializer,
        CrazyKitchenOrderFailedSerializer,
        CrazyKitchenOrderStruckSerializer,
        CrazyKitchenRoundReturnedSerializer,
        CrazyKitchenRoundConfirmedSerializer,
        CrazyKitchenToolSpedUpSerializer,
        CrazyKitchenCardTakenSerializer,
        CrazyKitchenUpgradesDoneSerializer,
    ],
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
    version = serializers.IntegerField(
        required=False, help_text="2 for a v2 record's game (absent for v1)."
    )
    current = serializers.DictField(
        required=False,
        allow_null=True,
        help_text="v2: the round being entered (round, cooks, customers, orders, returned); "
        "null between rounds and once finished.",
    )


# ----------------------------------------------------------------------------- requests


class CrazyKitchenCreateSerializer(RequestSerializer):
    """A new Crazy Kitchen game: its record is v2 (docs/crazykitchen-record-format.md, "Format
    v2"). A client then appends the round's orders (``order_fulfilled``, ``order_failed``,
    ``order_struck``, by the cooks' team), the customers' ``round_confirmed`` (or
    ``round_returned``) and, after rounds 2 and 4, each team's upgrades and its
    ``upgrades_done`` (the team behind first): the next round waits for both."""

    game_type = const(KEY)
    players = names_field("The two teams' names, the team that cooks first first.")
    members = BoundedDictField(
        child=names_field("The team's players."),
        help_text="Each team's players, by team name (2 or more each; one more on one side "
        "with an odd number of players).",
        error_messages={"required": gettext_lazy("Crazy Kitchen needs each team's players.")},
    )
    head_chefs = BoundedDictField(
        child=name_field(),
        required=False,
        help_text="Each team's head chef (CK1.5), by team name: one of its players, whose "
        "phone enters for the team (omitted: the team's first player).",
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
    named = [*(body.get("members") or {}), *(body.get("head_chefs") or {})]
    strangers = sorted({name for name in named if name not in teams})
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
