"""What the API reads and writes: request bodies and query strings (checked here for shape only;
the rules are the engine's), responses, and the error bodies (for the OpenAPI schema).

Request fields are strict: a number must be a JSON integer (not ``"3"`` or ``3.0``), a string a
JSON string and a flag a JSON boolean, as in the record format.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from engine.chefs.events import CHESTS, LOCATIONS
from engine.foodtruck.rules import EFFECTS
from engine.tricknchef.cards import SUITS
from games.gametypes import DEFAULT_GAME_TYPE, GAME_TYPES
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


TRICK_N_CHEF_EVENT = PolymorphicProxySerializer(
    component_name="TrickNChefEvent",
    serializers={
        "game_started": GameStartedEventSerializer,
        "round_started": RoundStartedEventSerializer,
        "chef_chosen": ChefChosenEventSerializer,
        "card_played": CardPlayedEventSerializer,
        "chef_taken": ChefTakenEventSerializer,
    },
    resource_type_field_name="type",
)


def _const(*values: str, **kwargs: Any) -> serializers.CharField:
    """A string that is one of ``values``, said in the schema by a pattern (an enum of the same
    values in several games' components would need a name in the settings for each)."""
    pattern = "^(" + "|".join(re.escape(v) for v in values) + ")$"
    return serializers.CharField(validators=[RegexValidator(pattern)], **kwargs)


def _name() -> serializers.CharField:
    return serializers.CharField(max_length=PLAYER_NAME_MAX)


def _game(key: str) -> serializers.CharField:
    return _const(key, help_text="The record's game.")


class FoodTruckGameStartedSerializer(serializers.Serializer[Any]):
    type = _const("game_started")
    game = _game("food-truck")
    players = serializers.ListField(child=_name(), min_length=2, max_length=5)


class FoodTruckRoundStartedSerializer(serializers.Serializer[Any]):
    type = _const("round_started")
    round = serializers.IntegerField(min_value=1)
    first_player = _name()
    market = serializers.ListField(
        child=serializers.CharField(), help_text="The dishes in the market, e.g. burger."
    )
    companies = serializers.DictField(
        child=serializers.ChoiceField(choices=list(EFFECTS)),
        help_text="Each player's Company card this round.",
    )


class FoodTruckCompanyPlayedSerializer(serializers.Serializer[Any]):
    type = _const("company_played")
    player = _name()
    effect = serializers.ChoiceField(choices=list(EFFECTS))
    target = serializers.CharField(required=False, help_text="remove: whose dish.")
    dish = serializers.CharField(required=False, help_text="remove, swap, under: the dish.")
    market = serializers.CharField(required=False, help_text="swap: the market's dish.")


class FoodTruckDishSerializer(serializers.Serializer[Any]):
    type = _const("dish_revealed", "market_taken")
    player = _name()
    dish = serializers.CharField()


FOOD_TRUCK_EVENT = PolymorphicProxySerializer(
    component_name="FoodTruckEvent",
    serializers=[
        FoodTruckGameStartedSerializer,
        FoodTruckRoundStartedSerializer,
        FoodTruckCompanyPlayedSerializer,
        FoodTruckDishSerializer,
    ],
    resource_type_field_name=None,
)


class ChefsGameStartedSerializer(serializers.Serializer[Any]):
    type = _const("game_started")
    game = _game("chefs")
    players = serializers.ListField(child=_name(), min_length=2, max_length=6)


class ChefsRoundStartedSerializer(serializers.Serializer[Any]):
    type = _const("round_started")
    round = serializers.IntegerField(min_value=1)
    starting_player = _name()


class ChefsMarkerPlacedSerializer(serializers.Serializer[Any]):
    type = _const("marker_placed")
    player = _name()
    location = serializers.ChoiceField(choices=list(LOCATIONS))
    circle = serializers.IntegerField(min_value=1)


class ChefsIngredientsTakenSerializer(serializers.Serializer[Any]):
    type = _const("ingredients_taken")
    player = _name()
    count = serializers.IntegerField(min_value=1, max_value=2)


class ChefsMealCookedSerializer(serializers.Serializer[Any]):
    type = _const("meal_cooked")
    player = _name()
    steps = serializers.IntegerField(min_value=1)
    ingredients = serializers.IntegerField(min_value=0)
    chef_card = serializers.BooleanField()


class ChefsCardsExchangedSerializer(serializers.Serializer[Any]):
    type = _const("cards_exchanged")
    player = _name()
    chest = serializers.ChoiceField(choices=list(CHESTS))


class ChefsMealServedSerializer(serializers.Serializer[Any]):
    type = _const("meal_served")
    player = _name()
    steps = serializers.IntegerField(min_value=1)
    position = serializers.IntegerField(min_value=0)


class ChefsActionPassedSerializer(serializers.Serializer[Any]):
    type = _const("action_passed")
    player = _name()


CHEFS_EVENT = PolymorphicProxySerializer(
    component_name="ChefsEvent",
    serializers=[
        ChefsGameStartedSerializer,
        ChefsRoundStartedSerializer,
        ChefsMarkerPlacedSerializer,
        ChefsIngredientsTakenSerializer,
        ChefsMealCookedSerializer,
        ChefsCardsExchangedSerializer,
        ChefsMealServedSerializer,
        ChefsActionPassedSerializer,
    ],
    resource_type_field_name=None,
)


class TeamSerializer(serializers.Serializer[Any]):
    name = _name()
    players = serializers.ListField(child=_name())


class CrazyKitchenGameStartedSerializer(serializers.Serializer[Any]):
    type = _const("game_started")
    game = _game("crazy-kitchen")
    teams = TeamSerializer(many=True)
    cooks_first = _name()
    compensation = serializers.IntegerField(min_value=0, required=False)


class CrazyKitchenRoundScoredSerializer(serializers.Serializer[Any]):
    type = _const("round_scored")
    round = serializers.IntegerField(min_value=1, max_value=6)
    cooks = _name()
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

RECORD_EVENT = PolymorphicProxySerializer(
    component_name="RecordEvent",
    serializers=[TRICK_N_CHEF_EVENT, FOOD_TRUCK_EVENT, CHEFS_EVENT, CRAZY_KITCHEN_EVENT],
    resource_type_field_name=None,
)
"""An event of the game's own record format (docs/record-format.md,
docs/foodtruck-record-format.md, docs/chefs-record-format.md,
docs/crazykitchen-record-format.md)."""


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

    status = _const("in_progress", "finished")
    players = serializers.ListField(child=serializers.CharField())
    rounds = RoundScoresSerializer(many=True)
    totals = serializers.DictField(child=serializers.IntegerField())
    ranking = RankSerializer(many=True)
    state = TableStateSerializer(allow_null=True)


class NeutralRankSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    rank = serializers.IntegerField()
    points = serializers.IntegerField()
    tiebreaks = serializers.ListField(child=serializers.IntegerField())


class FoodTruckRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    first_player = serializers.CharField()
    eliminated = serializers.ListField(child=serializers.CharField())
    winner = serializers.CharField(allow_null=True)


class FoodTruckSummarySerializer(serializers.Serializer[Any]):
    """A Food Truck game (docs/foodtruck-record-format.md); ``state`` is the table between
    events (null for a results-only game)."""

    status = _const("in_progress", "finished")
    players = serializers.ListField(child=serializers.CharField())
    victory_points = serializers.DictField(child=serializers.IntegerField())
    rounds = FoodTruckRoundSerializer(many=True)
    ranking = NeutralRankSerializer(many=True)
    state = serializers.DictField(allow_null=True)


class ChefsRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    positions = serializers.DictField(child=serializers.IntegerField())


class ChefsSummarySerializer(serializers.Serializer[Any]):
    """A Chefs game (docs/chefs-record-format.md): each chef's steps from the door."""

    game = _const("chefs")
    status = _const("in_progress", "finished")
    players = serializers.ListField(child=serializers.CharField())
    rounds = ChefsRoundSerializer(many=True)
    positions = serializers.DictField(child=serializers.IntegerField())
    ranking = NeutralRankSerializer(many=True)
    state = serializers.DictField(allow_null=True)


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

    game = _const("crazy-kitchen")
    status = _const("in_progress", "finished")
    players = serializers.ListField(child=serializers.CharField())
    teams = TeamSerializer(many=True)
    cooks_first = serializers.CharField()
    rounds = KitchenRoundSerializer(many=True)
    points = serializers.DictField(child=serializers.IntegerField())
    totals = serializers.DictField(child=serializers.IntegerField())
    ranking = KitchenRankSerializer(many=True)


GAME_SUMMARY = PolymorphicProxySerializer(
    component_name="GameState",
    serializers=[
        GameSummarySerializer,
        FoodTruckSummarySerializer,
        ChefsSummarySerializer,
        CrazyKitchenSummarySerializer,
    ],
    resource_type_field_name=None,
)
"""The summary of each game (Trick-n-Chef's is GameSummary, unchanged)."""


@extend_schema_field(GAME_SUMMARY)
class SummaryField(serializers.JSONField):
    """The stored summary, passed through as is."""


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


def _names_field(help_text: str) -> BoundedListField:
    return BoundedListField(
        child=PlayerNameField(max_length=PLAYER_NAME_MAX),
        max_length=MAX_ITEMS,
        help_text=help_text,
    )


GAME_OPTIONS: dict[str, tuple[str, ...]] = {
    "suits": ("trick-n-chef",),
    "members": ("crazy-kitchen",),
    "compensation": ("crazy-kitchen",),
}
"""The options of game_create and the games that take each."""


class NewGameSerializer(RequestSerializer):
    """Every game's create request in one body; the schema documents them one by one
    (:data:`GAME_CREATE_REQUEST`)."""

    game_type = serializers.ChoiceField(
        choices=list(GAME_TYPES),
        required=False,
        default=DEFAULT_GAME_TYPE,
        help_text="The game (default trick-n-chef).",
    )
    players = _names_field(
        "The entrants' names in clockwise seat order: Trick-n-Chef 3 or 4 players, Food Truck "
        "2 to 5, Chefs 2 to 6; Crazy Kitchen the two teams' names, the team that cooks first "
        "first."
    )
    suits = BoundedListField(
        child=StrictCharField(),
        max_length=MAX_ITEMS,
        required=False,
        allow_null=True,
        help_text="Trick-n-Chef: the suits in play: required for 3 players (three of green, "
        "red, yellow, blue); all four, or omitted, for 4.",
    )
    members = BoundedDictField(
        child=_names_field("The team's players."),
        required=False,
        allow_null=True,
        help_text="Crazy Kitchen (required): each team's players, by team name.",
    )
    compensation = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="Crazy Kitchen: the victory points of the smaller team when the number of "
        "players is odd (omitted: the rulebook's).",
    )
    published = StrictBooleanField(
        required=False, default=False, help_text="Readable by the public at once."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        game = attrs.get("game_type", DEFAULT_GAME_TYPE)
        wrong = {
            option: [gettext_lazy("This option is not one of this game's.")]
            for option, games in GAME_OPTIONS.items()
            if attrs.get(option) is not None and game not in games
        }
        if wrong:
            raise serializers.ValidationError(wrong)
        if game == "crazy-kitchen":
            members = attrs.get("members")
            if members is None:
                raise serializers.ValidationError(
                    {"members": [gettext_lazy("Crazy Kitchen needs each team's players.")]}
                )
        return attrs

    def strangers(self) -> list[str]:
        """The names in ``members`` that are not one of the teams (the rules' to refuse)."""
        teams = set(self.validated_data.get("players", ()))
        return sorted(
            name for name in self.validated_data.get("members") or {} if name not in teams
        )

    def options(self) -> dict[str, Any]:
        """The game's own options, for games.services.game_create."""
        data = self.validated_data
        return {k: data[k] for k in ("members", "compensation") if data.get(k) is not None}


def _published() -> StrictBooleanField:
    return StrictBooleanField(
        required=False, default=False, help_text="Readable by the public at once."
    )


class GameCreateSerializer(RequestSerializer):
    """A Trick-n-Chef game (the default game)."""

    game_type = _const("trick-n-chef", required=False, help_text="The game (the default).")
    players = _names_field("The players' names in clockwise seat order (3 or 4).")
    suits = BoundedListField(
        child=StrictCharField(),
        max_length=MAX_ITEMS,
        required=False,
        allow_null=True,
        help_text="The suits in play: required for 3 players (three of green, red, yellow, "
        "blue); all four, or omitted, for 4.",
    )
    published = _published()


class FoodTruckCreateSerializer(RequestSerializer):
    game_type = _const("food-truck")
    players = _names_field("The players' names in seat order (2 to 5).")
    published = _published()


class ChefsCreateSerializer(RequestSerializer):
    game_type = _const("chefs")
    players = _names_field("The chefs' names in seat order (2 to 6).")
    published = _published()


class CrazyKitchenCreateSerializer(RequestSerializer):
    game_type = _const("crazy-kitchen")
    players = _names_field("The two teams' names, the team that cooks first first.")
    members = BoundedDictField(
        child=_names_field("The team's players."),
        help_text="Each team's players, by team name (2 or more each; one more on one side "
        "with an odd number of players).",
    )
    compensation = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="The victory points of the smaller team when the number of players is odd "
        "(omitted: the rulebook's).",
    )
    published = _published()


GAME_CREATE_REQUEST = PolymorphicProxySerializer(
    component_name="NewGame",
    serializers=[
        GameCreateSerializer,
        FoodTruckCreateSerializer,
        ChefsCreateSerializer,
        CrazyKitchenCreateSerializer,
    ],
    resource_type_field_name=None,
)
"""The create request of each game, as the schema says it."""


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


def _score_map(**kwargs: Any) -> BoundedDictField:
    return BoundedDictField(
        child=BoundedListField(child=serializers.JSONField(allow_null=True), max_length=MAX_ITEMS),
        **kwargs,
    )


def _score_list() -> BoundedListField:
    return BoundedListField(child=serializers.JSONField(allow_null=True), max_length=MAX_ITEMS)


class ScoresField(serializers.Field):  # type: ignore[type-arg]
    """``scores``: Trick-n-Chef's map (each player's round scores) or Crazy Kitchen's list (the
    six round scores), each bounded; the engine checks the values."""

    default_error_messages = {
        "invalid": gettext_lazy(
            "Expected each player's round scores (a map) or, for Crazy Kitchen, the six round "
            "scores (a list)."
        )
    }

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            return _score_map().run_validation(data)
        if isinstance(data, list):
            return _score_list().run_validation(data)
        self.fail("invalid")

    def to_representation(self, value: Any) -> Any:
        return value


RESULT_SHAPES: tuple[frozenset[str], ...] = (
    frozenset({"scores", "totals"}),  # Trick-n-Chef (scores: a map)
    frozenset({"victory_points", "winner"}),  # Food Truck
    frozenset({"positions"}),  # Chefs
    frozenset({"scores", "compensation"}),  # Crazy Kitchen (scores: a list)
)


class ResultsSerializer(RequestSerializer):
    """Every game's results entry in one body; the schema documents them one by one
    (:data:`RESULTS_REQUEST`). The keys given must be one game's; whether they are the game's
    is the game's engine to say."""

    expected_version = expected_version_field()
    scores = ScoresField(required=False)
    totals = BoundedDictField(
        child=serializers.JSONField(allow_null=True), required=False, allow_null=True
    )
    victory_points = BoundedDictField(child=serializers.JSONField(allow_null=True), required=False)
    winner = StrictCharField(required=False, max_length=PLAYER_NAME_MAX)
    positions = BoundedDictField(child=serializers.JSONField(allow_null=True), required=False)
    compensation = StrictIntegerField(required=False, allow_null=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = {k for k, v in attrs.items() if k != "expected_version" and v is not None}
        if not given:
            raise serializers.ValidationError(
                {"scores": [serializers.Field.default_error_messages["required"]]}
            )
        listed = isinstance(attrs.get("scores"), list)
        shapes = [
            shape
            for shape in RESULT_SHAPES
            if given <= shape and ("scores" not in given or listed == ("compensation" in shape))
        ]
        if not shapes:
            text = gettext_lazy("These keys are not one game's results entry together.")
            raise serializers.ValidationError({key: [text] for key in sorted(given)})
        return attrs

    def entry(self) -> dict[str, Any]:
        """The game's results entry: the keys given, a null one left out."""
        data = self.validated_data
        return {k: v for k, v in data.items() if k != "expected_version" and v is not None}


class TrickNChefResultsSerializer(RequestSerializer):
    expected_version = expected_version_field()
    scores = _score_map(help_text="Each player's score in rounds 1, 2 and 3.")
    totals = BoundedDictField(
        child=serializers.JSONField(allow_null=True),
        required=False,
        allow_null=True,
        help_text="Each player's total, if the score sheet has them: checked against the sums.",
    )


class FoodTruckResultsSerializer(RequestSerializer):
    expected_version = expected_version_field()
    victory_points = BoundedDictField(
        child=serializers.IntegerField(min_value=0), help_text="Each player's victory points."
    )
    winner = StrictCharField(max_length=PLAYER_NAME_MAX, help_text="The player who won.")


class ChefsResultsSerializer(RequestSerializer):
    expected_version = expected_version_field()
    positions = BoundedDictField(
        child=serializers.IntegerField(min_value=0),
        help_text="Each chef's final position: steps from the door (21 is field 1 of the "
        "second lap).",
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


RESULTS_REQUEST = PolymorphicProxySerializer(
    component_name="GameResults",
    serializers=[
        TrickNChefResultsSerializer,
        FoodTruckResultsSerializer,
        ChefsResultsSerializer,
        CrazyKitchenResultsSerializer,
    ],
    resource_type_field_name=None,
)
"""The results entry of each game, as the schema says it."""


class EventsQuerySerializer(serializers.Serializer[Any]):
    since = serializers.IntegerField(
        min_value=0, required=False, default=0, help_text="Only events after this version."
    )


class ImportQuerySerializer(serializers.Serializer[Any]):
    game_type = serializers.ChoiceField(
        choices=list(GAME_TYPES),
        required=False,
        help_text="The record's game (default: the game its first line names, else trick-n-chef).",
    )
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
    results = serializers.SerializerMethodField(
        help_text="Once the game is finished, each entrant's game-neutral result (rank, "
        "points, tie-breaks), best first; empty before."
    )

    @extend_schema_field(PlacementSerializer(many=True))
    def get_results(self, game: GameProjection) -> list[dict[str, Any]]:
        if game.status != GameProjection.Status.FINISHED or game.game_type not in GAME_TYPES:
            return []
        placements = GAME_TYPES[game.game_type].placements(game.summary)
        return [
            {
                "player": p.player,
                "seat": p.seat,
                "rank": p.rank,
                "points": p.points,
                "tiebreaks": list(p.tiebreaks),
                "round_scores": list(p.round_scores),
            }
            for p in placements
        ]


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
