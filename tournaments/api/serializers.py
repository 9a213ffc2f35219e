"""What the tournaments API reads and writes.

Requests are checked here for shape only, with the games API's strict fields (a number is a
JSON number, a flag a JSON boolean, an unknown key is refused); the rules (which presets exist,
who may pair, whether a round can close) are the services' and come back as 422 refusals. The
response serializers describe the services' dicts for the OpenAPI schema; the views pass those
dicts through as they are.
"""

from __future__ import annotations

import math
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.serializers import (
    AppendedSerializer,
    PlayerNameField,
    RequestSerializer,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    reason_field,
)
from games.gametypes import DEFAULT_GAME_TYPE, GAME_TYPES
from tournaments import domain, standings
from tournaments.api.parsers import check_player_list_size
from tournaments.domain.decisions import RELAY_DELAY_LONGEST

NAME_MAX = 200  # TournamentProjection.name
PLAYER_LIST_MAX = domain.MAX_REGISTRATION
"""The most players one request registers (a club tournament has tens), whatever the list came
as: a JSON list is refused at once (400), a pasted list or CSV once read (422 bad_players)."""


# ----------------------------------------------------------------------------- fields


TIME_ZONE_FORMAT = "iana-time-zone"
"""The schema's format for a time zone's name (Europe/Paris): one of zoneinfo's names. Listing
the ~600 names as an enum made every generated request's schema heavy (the fuzz run 3x slower)."""


@extend_schema_field({"type": "string", "format": TIME_ZONE_FORMAT, "nullable": True})
class TimeZoneField(StrictCharField):
    """A time zone's IANA name, as zoneinfo knows it (any other: 422 bad_settings)."""


class StrictFloatField(serializers.FloatField):
    """A JSON number (integer or not): not a string or a boolean."""

    def to_internal_value(self, data: Any) -> float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        value = super().to_internal_value(data)
        if not math.isfinite(value):
            self.fail("invalid")
        return value


def _one_of(options: Any) -> str:
    return ", ".join(f"`{option}`" for option in options)


def _table_size_help() -> str:
    """``table_size``'s description, from the registry when the schema is made (a game
    registered after import is in it too)."""
    return (
        "The preferred number of entrants a table (full tables), one the game allows: "
        + "; ".join(
            f"{kind.name} {', '.join(map(str, kind.table_sizes))}" for kind in GAME_TYPES.values()
        )
        + " (null: the game's largest). The next smaller size fills in where the players do "
        "not divide evenly. 422 bad_settings for a size the game does not allow."
    )


def _game_type_help() -> str:
    return f"The game played at the tables: {_one_of(GAME_TYPES)}."


def expected_version_field() -> StrictIntegerField:
    return StrictIntegerField(
        min_value=0,
        required=False,
        help_text="The tournament's version this change was decided on (from the last read). "
        "Another version means someone else changed the tournament meanwhile: 409 conflict. "
        "Without it the change is decided on the tournament as it is.",
    )


def relay_delay_field(**kwargs: Any) -> StrictIntegerField:
    """A spectators' delay in seconds (docs/relay.md), 0 to an hour."""
    return StrictIntegerField(min_value=0, max_value=RELAY_DELAY_LONGEST, **kwargs)


class SettingsFields(RequestSerializer):
    """The settings a tournament is created with (and, most of them, changed later)."""

    name = StrictCharField(max_length=NAME_MAX)
    date = serializers.DateField(input_formats=["iso-8601"], help_text="YYYY-MM-DD.")
    rounds = StrictIntegerField(help_text="The number of Swiss rounds (1 to 30).")
    scoring = StrictCharField(
        required=False, help_text=f"The scoring preset: {_one_of(standings.PRESETS)}."
    )
    tiebreaks = serializers.ListField(
        child=StrictCharField(),
        required=False,
        help_text=f"Tie-breaks in order, among {_one_of(standings.TIEBREAKS)}.",
    )
    pairing = StrictCharField(
        required=False,
        help_text=f"How rounds are paired: {_one_of(domain.PAIRING_MODES)} (auto: the next "
        "round is paired once the last table of a round has its result).",
    )
    publish = StrictCharField(
        required=False,
        help_text=f"How pairings are published: {_one_of(domain.PUBLISH_MODES)}.",
    )
    round1 = StrictCharField(
        required=False, help_text=f"Round 1's seating: {_one_of(domain.ROUND1_METHODS)}."
    )
    confirmation = StrictCharField(
        required=False,
        help_text=f"Who confirms a table's result: {_one_of(domain.CONFIRMATION_MODES)}.",
    )
    check_in = StrictBooleanField(
        required=False, help_text="Seat only the players who checked in (default true)."
    )
    bye_points = StrictFloatField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="Tournament points for a bye (null: the preset's average at the largest table).",
    )
    standings_hidden_from = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        help_text="From this round on the public does not see the standings (null: always shown).",
    )
    standings_revealed = StrictBooleanField(
        required=False, help_text="Show hidden standings to the public again (at the end)."
    )
    downloads_released = StrictBooleanField(
        required=False,
        help_text="CSV and record downloads are public (organizers can always download).",
    )
    rank_not_checked_in = StrictBooleanField(
        required=False,
        help_text="Rank players who never checked in and have played no game (false, the "
        "default: with check-in, they are listed apart, in the standings' `not_checked_in`).",
    )

    table_size = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text=lazy(_table_size_help, str)(),
    )

    time_zone = TimeZoneField(
        required=False,
        allow_null=True,
        max_length=64,
        help_text="The club's time zone, an IANA name such as Europe/Paris: the pages show and "
        "take every time in it (null: the site's, TNC_TIME_ZONE). The API's times stay UTC. "
        "422 bad_settings for a name that is not a time zone.",
    )
    relay_delay = relay_delay_field(
        required=False,
        help_text="How many seconds spectators wait to see a table's plays and results (0 to "
        f"{RELAY_DELAY_LONGEST}; 0, the default: none). The tournament's organizers and "
        "scorekeepers and the table's own seats are never delayed. A round may have its own "
        "(`POST .../rounds/{round}/delay/`). Changeable at any time.",
    )

    def validate_tiebreaks(self, value: list[str]) -> list[str]:
        repeated = sorted({key for key in value if value.count(key) > 1})
        if repeated:
            raise serializers.ValidationError(
                _("%(tiebreaks)s is listed more than once") % {"tiebreaks": ", ".join(repeated)}
            )
        return value


# ----------------------------------------------------------------------------- requests


class TournamentCreateSerializer(SettingsFields):
    game_type = StrictCharField(
        required=False,
        default=DEFAULT_GAME_TYPE,
        help_text=lazy(_game_type_help, str)(),
    )
    seed = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="The random seed of every pairing (default: drawn at random). The same seed "
        "and the same results give the same tables.",
    )


class TournamentSettingsChangeSerializer(SettingsFields):
    """Only the settings given change (at least one). Scoring, tie-breaks, round 1's
    seating, check-in and bye points are fixed once round 1 is paired."""

    expected_version = expected_version_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not set(attrs) - {"expected_version"}:
            raise serializers.ValidationError(_("give at least one setting to change"))
        return attrs


class TournamentWriteSerializer(RequestSerializer):
    """A write with nothing to say but (optionally) the version it was decided on."""

    expected_version = expected_version_field()


class TournamentTeamSerializer(RequestSerializer):
    name = PlayerNameField(help_text="The team's name.")
    members = serializers.ListField(
        child=PlayerNameField(),
        max_length=50,
        help_text="The team's players (Crazy Kitchen: 2 to 6).",
    )


class TournamentRegisterSerializer(RequestSerializer):
    expected_version = expected_version_field()
    teams = serializers.ListField(
        child=TournamentTeamSerializer(),
        required=False,
        max_length=PLAYER_LIST_MAX,
        help_text="In a team game (Crazy Kitchen) the entrants are teams: each with its name "
        "and its players (instead of `names` or `text`).",
    )
    names = serializers.ListField(
        child=PlayerNameField(),
        required=False,
        max_length=PLAYER_LIST_MAX,
        help_text=f"The players' names (at most {PLAYER_LIST_MAX}).",
    )
    ratings = serializers.ListField(
        child=StrictIntegerField(allow_null=True),
        required=False,
        max_length=PLAYER_LIST_MAX,
        help_text="With `names`: each player's rating (or null), in the same order.",
    )
    text = StrictCharField(
        required=False,
        trim_whitespace=False,
        help_text="Or a pasted list (one name a line) or CSV text (a `name` column and "
        "optionally a `rating` column; without a header the first column is the name): at "
        f"most {domain.MAX_PLAYER_LIST_BYTES // 1024} KiB (UTF-8) and "
        f"{domain.MAX_REGISTRATION} names.",
    )
    checked_in = StrictBooleanField(
        required=False, default=False, help_text="Register them as checked in already."
    )

    def validate_text(self, value: str) -> str:
        check_player_list_size(value)  # as a text/csv or text/plain body (413)
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if [key in attrs for key in ("names", "text", "teams")].count(True) != 1:
            raise serializers.ValidationError(_("give one of names, text or teams"))
        if attrs.get("ratings") is not None and "names" not in attrs:  # one per name: the rules'
            raise serializers.ValidationError(
                {"ratings": [_("give one rating (or null) per name, with names")]}
            )
        return attrs


class TournamentRegisterQuerySerializer(serializers.Serializer[Any]):
    """For a player list sent as the body itself (text/csv or text/plain)."""

    checked_in = serializers.BooleanField(
        required=False, default=False, help_text="A text body: register them as checked in."
    )
    expected_version = serializers.IntegerField(
        required=False, min_value=0, help_text="A text body: the version it was decided on."
    )


class TournamentRoleSerializer(RequestSerializer):
    expected_version = expected_version_field()
    username = StrictCharField(help_text="The user's username.")
    role = StrictCharField(help_text=f"{_one_of(domain.ROLES)}.")
    grant = StrictBooleanField(
        required=False, default=True, help_text="true grants the role, false revokes it."
    )


class TournamentPairSerializer(RequestSerializer):
    expected_version = expected_version_field()
    round = StrictIntegerField(
        required=False,
        min_value=1,
        help_text="The round to pair (default: the next one). Naming it makes a retry safe: "
        "the same round is never paired twice.",
    )


class TournamentSwapSerializer(RequestSerializer):
    expected_version = expected_version_field()
    a = StrictCharField(help_text="A player's id (e.g. P3).")
    b = StrictCharField(help_text="Another player's id.")


class TournamentScheduleSerializer(RequestSerializer):
    expected_version = expected_version_field()
    at = serializers.DateTimeField(
        help_text="When to pair (and, if the tournament publishes automatically, publish) the "
        "round, once the round before is complete (ISO 8601; without an offset, the server's "
        "time zone)."
    )


class TournamentClockSerializer(RequestSerializer):
    expected_version = expected_version_field()
    ends_at = serializers.DateTimeField(
        required=False,
        help_text="When the round's play ends (ISO 8601; without an offset, the server's time "
        "zone): later than now, within 24 hours.",
    )
    minutes = StrictIntegerField(
        required=False, min_value=1, max_value=600, help_text="Or: the round lasts this long."
    )
    stop = StrictBooleanField(
        required=False,
        help_text="Or, true: stop the round's clock. Exactly one of ends_at, minutes and stop "
        "(else 422, bad_clock).",
    )


class TournamentDelaySerializer(RequestSerializer):
    expected_version = expected_version_field()
    seconds = relay_delay_field(
        allow_null=True,
        help_text="How many seconds spectators wait to see the round's tables (0 to "
        f"{RELAY_DELAY_LONGEST}), or null: the tournament's `relay_delay` again. A proposed or "
        "published round (a closed one: 422 round_closed); the same delay again: 422 unchanged.",
    )


class TournamentUndoSerializer(RequestSerializer):
    expected_version = expected_version_field()
    version = StrictIntegerField(min_value=1, help_text="The version of the action to undo.")
    reason = reason_field()


# ----------------------------------------------------------------------------- responses


class TournamentListItemSerializer(serializers.Serializer[Any]):
    id = serializers.UUIDField(source="stream_id")
    name = serializers.CharField()
    date = serializers.DateField()
    status = serializers.CharField(help_text="registration, running or finished.")
    current_round = serializers.IntegerField(help_text="The rounds paired so far.")
    rounds_planned = serializers.IntegerField()


class TournamentSettingsSerializer(serializers.Serializer[Any]):
    rounds = serializers.IntegerField()
    scoring = serializers.CharField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    pairing = serializers.CharField()
    publish = serializers.CharField()
    round1 = serializers.CharField()
    confirmation = serializers.CharField()
    check_in = serializers.BooleanField()
    bye_points = serializers.FloatField(allow_null=True)
    rank_not_checked_in = serializers.BooleanField(
        required=False,
        help_text="Present (true) when players who never checked in and have played no game "
        "are ranked; absent: they are listed apart in the standings' `not_checked_in`.",
    )
    table_size = serializers.IntegerField(
        required=False, help_text="The organizer's preferred table size, when one was chosen."
    )
    time_zone = serializers.CharField(
        required=False, help_text="The club's time zone (an IANA name), when one was chosen."
    )
    relay_delay = serializers.IntegerField(
        required=False,
        help_text="How many seconds spectators wait to see a table (the relay's delay), when "
        "not 0.",
    )


class TournamentPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="The player's id in this tournament (P1, P2, ...).")
    name = serializers.CharField()
    rating = serializers.IntegerField(allow_null=True)
    late = serializers.BooleanField(help_text="Registered after round 1 was paired.")
    checked_in = serializers.BooleanField()
    dropped = serializers.BooleanField()
    members = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="A team's players (team games only: the entrant is the team).",
    )


class TournamentSeatSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    name = serializers.CharField()
    members = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="A team's players (team games only); seat 1 is the team that cooks first.",
    )


class TournamentPlacementSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    name = serializers.CharField()
    place = serializers.IntegerField()
    victory_points = serializers.IntegerField()
    last_round = serializers.IntegerField()
    tiebreaks = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="The game's own tie-break values, in the order it applies them; only for a "
        "game other than Trick-n-Chef that has some (Trick-n-Chef's is last_round).",
    )


class TournamentTableSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    seats = TournamentSeatSerializer(many=True, help_text="Seat 1 first (round 1's first player).")
    game = serializers.UUIDField(allow_null=True, help_text="The table's game, once published.")
    result = TournamentPlacementSerializer(many=True, allow_null=True)
    confirmed = serializers.BooleanField()


class TournamentRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    status = serializers.CharField(
        help_text="proposed (shown to the tournament's organizers only), published or closed."
    )
    method = serializers.CharField()
    seed = serializers.IntegerField()
    tables = TournamentTableSerializer(many=True)
    byes = TournamentSeatSerializer(many=True)
    cost = serializers.DictField(help_text="The pairing's cost, by criterion.")
    lower_bound = serializers.FloatField()
    notes = serializers.ListField(child=serializers.CharField())
    missing = serializers.ListField(
        child=serializers.IntegerField(), help_text="Tables without a confirmed result yet."
    )
    ends_at = serializers.DateTimeField(
        allow_null=True,
        required=False,
        help_text="When the round's play ends (its clock), if the organizers set one; null "
        "once the round is closed.",
    )
    relay_delay = serializers.IntegerField(
        required=False,
        help_text="The round's own spectators' delay in seconds, when the organizers set one "
        "(else the tournament's `settings.relay_delay`, or none).",
    )


class TournamentRoleEntrySerializer(serializers.Serializer[Any]):
    user = serializers.CharField()
    roles = serializers.ListField(child=serializers.CharField())


class TournamentSummarySerializer(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    name = serializers.CharField()
    date = serializers.DateField()
    status = serializers.CharField(help_text="registration, running or finished.")
    version = serializers.IntegerField()
    game_type = serializers.CharField()
    settings = TournamentSettingsSerializer()
    players = TournamentPlayerSerializer(many=True)
    rounds = TournamentRoundSerializer(many=True)
    roles = TournamentRoleEntrySerializer(many=True)


class TournamentChangeSerializer(serializers.Serializer[Any]):
    """The outcome of a write (services.TournamentChange.as_dict())."""

    id = serializers.UUIDField()
    version = serializers.IntegerField()
    appended = AppendedSerializer(many=True)
    tournament = TournamentSummarySerializer()


class StandingsColumnSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    title = serializers.CharField()


class StandingsRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    name = serializers.CharField()
    dropped = serializers.BooleanField()
    points = serializers.FloatField()
    tiebreaks = serializers.DictField(
        child=serializers.FloatField(), help_text="The tie-breaks' values by key."
    )
    games = serializers.IntegerField()
    byes = serializers.IntegerField()
    first_places = serializers.IntegerField(
        help_text="Games won (a shared first place counts; a match game: wins, a bye counted "
        "as a win included)."
    )
    victory_points = serializers.IntegerField(
        help_text="The game's points added up (Trick-n-Chef and Food Truck: victory points; "
        "Chefs: final positions; Crazy Kitchen: points scored)."
    )
    wins = serializers.IntegerField(required=False, help_text="A match game (Crazy Kitchen) only.")
    draws = serializers.IntegerField(required=False, help_text="A match game only.")
    losses = serializers.IntegerField(required=False, help_text="A match game only.")


class StandingsCriterionSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()


class StandingsMatchPointsSerializer(serializers.Serializer[Any]):
    win = serializers.IntegerField()
    draw = serializers.IntegerField()
    loss = serializers.IntegerField()


class StandingsRuleSerializer(serializers.Serializer[Any]):
    game_type = serializers.CharField()
    kind = serializers.ChoiceField(
        choices=["match", "place"],
        help_text="match: two entrants a table, a win, a draw or a loss (Crazy Kitchen); "
        "place: placement points by place at the table (Food Truck, Chefs).",
    )
    match_points = StandingsMatchPointsSerializer(
        allow_null=True, help_text="A match game's points for a win, a draw and a loss."
    )
    bye = serializers.ChoiceField(
        choices=["win", "draw", "loss"],
        allow_null=True,
        help_text="What a bye counts as in a match game.",
    )
    scale = serializers.CharField(
        allow_null=True, help_text="A place game's scoring preset (the tournament's scoring)."
    )
    bye_points = serializers.FloatField(help_text="What a bye is worth now.")
    tiebreaks = StandingsCriterionSerializer(
        many=True, help_text="The criteria after points, in the order they apply."
    )


class StandingsEntrantSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    name = serializers.CharField()


class StandingsSerializer(serializers.Serializer[Any]):
    columns = StandingsColumnSerializer(
        many=True, help_text="The columns to show, in order; `key` names a row's field."
    )
    rows = StandingsRowSerializer(many=True)
    not_checked_in = StandingsEntrantSerializer(
        many=True,
        required=False,
        help_text="Registered entrants who never checked in and have played no game, listed "
        "apart from `rows` (not ranked) unless the tournament's `rank_not_checked_in` is set.",
    )
    rule = StandingsRuleSerializer(
        required=False,
        help_text="How the game is ranked, for every game but Trick-n-Chef (whose scoring "
        "and tie-breaks are the tournament's settings).",
    )


class HistoryEntrySerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    type = serializers.CharField()
    data = serializers.DictField()  # type: ignore[assignment]  # a field, not .data
    by = serializers.CharField(allow_null=True, help_text="Who did it (system: a task).")
    at = serializers.DateTimeField()
    undone_by = serializers.IntegerField(
        allow_null=True, help_text="The version of the action that undid it, if undone."
    )
    cannot_undo = serializers.CharField(
        allow_null=True,
        help_text="Why this action cannot be undone now (what an undo would be refused with); "
        "null if it can be.",
    )


class TournamentConflictDetailSerializer(serializers.Serializer[Any]):
    code = serializers.ChoiceField(choices=["conflict"])
    message = serializers.CharField()
    current_version = serializers.IntegerField()
    state = TournamentSummarySerializer()


class TournamentConflictSerializer(serializers.Serializer[Any]):
    error = TournamentConflictDetailSerializer()
