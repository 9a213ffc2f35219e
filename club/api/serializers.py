"""What the club's API reads and writes (docs/api.md, "The club: leagues, ratings and members").

Requests are checked here for shape only, with the games API's strict fields (a number is a JSON
number, a flag a JSON boolean, an unknown key is refused: 400 ``bad_request``); what the club's
rules decide (a division the league has, two members that exist, division names that differ)
is the services' and comes back as a 422 refusal with its code. The response serializers
describe the dicts the views make of the services' reads, for the OpenAPI schema.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.serializers import (
    BoundedListField,
    RequestSerializer,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
)

NAME_MAX = 100  # a league's name, a member's display name (club.models, club.services.writes)
MEMBER_ID_MAX = 12  # club.domain.member_id
PLAYER_MAX = 40  # MemberEntry.player
DIVISION_MAX = 40
RULE_MAX = 1000  # club.domain.league_rules
POINTS_MAX = 10_000
POINTS_LENGTH = 200
DIVISIONS_MAX = 20
INDEX_MAX = 1000
"""A team member's index in an entry (0: a player; a team has a handful of members)."""


# ----------------------------------------------------------------------------- requests


class StrictUUIDField(serializers.UUIDField):
    """A UUID as a JSON string (DRF's would take the number 7 for UUID int 7)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid", value=data)
        return super().to_internal_value(data)


class LeagueRulesSerializer(RequestSerializer):
    """A league's rules; a key left out keeps its default (a new league) or its value (a
    change)."""

    points = BoundedListField(
        child=StrictIntegerField(min_value=0, max_value=POINTS_MAX),
        min_length=1,
        max_length=POINTS_LENGTH,
        required=False,
        help_text="Points by tournament place, first place first (default 25, 18, 15, 12, "
        "10, 8, 6, 4, 2, 1).",
    )
    points_beyond = StrictIntegerField(
        min_value=0,
        max_value=RULE_MAX,
        required=False,
        help_text="Points for a place beyond the list (default 0).",
    )
    best = StrictIntegerField(
        min_value=1,
        max_value=RULE_MAX,
        allow_null=True,
        required=False,
        help_text="Count only a member's best N results (null, the default: all).",
    )
    drop_worst = StrictIntegerField(
        min_value=0,
        max_value=RULE_MAX,
        required=False,
        help_text="Drop a member's X worst results (default 0).",
    )
    min_events = StrictIntegerField(
        min_value=1,
        max_value=RULE_MAX,
        required=False,
        help_text="A member is ranked once they took part in this many tournaments (default 1).",
    )
    divisions = BoundedListField(
        child=StrictCharField(min_length=1, max_length=DIVISION_MAX),
        max_length=DIVISIONS_MAX,
        required=False,
        help_text="The season's divisions, in order (none: one table). Names differ (else "
        "422 bad_divisions).",
    )


class LeagueCreateSerializer(RequestSerializer):
    name = StrictCharField(min_length=1, max_length=NAME_MAX, help_text="The league's name.")
    rules = LeagueRulesSerializer(required=False, help_text="Defaults for any rule left out.")


class LeagueChangeSerializer(RequestSerializer):
    name = StrictCharField(min_length=1, max_length=NAME_MAX, required=False)
    rules = LeagueRulesSerializer(required=False, help_text="Only the rules given change.")


class LeagueLinkSerializer(RequestSerializer):
    tournament = StrictUUIDField(help_text="The tournament's id.")


class LeagueDivisionSerializer(RequestSerializer):
    member = StrictCharField(min_length=1, max_length=MEMBER_ID_MAX, help_text="A member's id.")
    division = StrictCharField(
        allow_blank=True,
        max_length=DIVISION_MAX,
        help_text='One of the league\'s divisions ("": in none).',
    )


class MemberMergeSerializer(RequestSerializer):
    member = StrictCharField(
        min_length=1, max_length=MEMBER_ID_MAX, help_text="The member merged away."
    )
    into = StrictCharField(
        min_length=1, max_length=MEMBER_ID_MAX, help_text="The member who stays."
    )


class MemberSplitSerializer(RequestSerializer):
    tournament = StrictUUIDField(help_text="The tournament of the entry.")
    player = StrictCharField(
        min_length=1, max_length=PLAYER_MAX, help_text="The entrant's id in it (P1, P2, ...)."
    )
    index = StrictIntegerField(
        min_value=0,
        max_value=INDEX_MAX,
        required=False,
        default=0,
        help_text="0 for a player; for a team, the member's place in it, from 1.",
    )


class MemberChangeSerializer(RequestSerializer):
    display_name = StrictCharField(
        allow_blank=True,
        max_length=NAME_MAX,
        required=False,
        help_text='The name pages show ("": the latest registered name again).',
    )
    hidden = StrictBooleanField(
        required=False, help_text="Hidden from public pages (their games stay, their name not)."
    )


class StandingsQuerySerializer(serializers.Serializer[Any]):
    format = serializers.CharField(required=False, max_length=10)


class GameQuerySerializer(serializers.Serializer[Any]):
    game = serializers.CharField(required=False, max_length=40)


# ----------------------------------------------------------------------------- responses


class RulesSerializer(serializers.Serializer[Any]):
    points = serializers.ListField(child=serializers.IntegerField())
    points_beyond = serializers.IntegerField()
    best = serializers.IntegerField(allow_null=True)
    drop_worst = serializers.IntegerField()
    min_events = serializers.IntegerField()
    divisions = serializers.ListField(child=serializers.CharField())


class LeagueListItemSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    rules = RulesSerializer()
    tournaments = serializers.ListField(
        child=serializers.UUIDField(), help_text="The league's tournaments, as linked."
    )


class LeagueTournamentSerializer(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    name = serializers.CharField()
    date = serializers.DateField()
    game_type = serializers.CharField()
    status = serializers.CharField()


class LeagueSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    rules = RulesSerializer()
    tournaments = LeagueTournamentSerializer(many=True, help_text="By date, then name.")
    games = serializers.ListField(
        child=serializers.CharField(), help_text="The game types of its tournaments."
    )


class SeasonResultSerializer(serializers.Serializer[Any]):
    tournament = serializers.UUIDField()
    place = serializers.IntegerField()
    points = serializers.IntegerField()
    counted = serializers.BooleanField()


class SeasonRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(allow_null=True, help_text="null: not ranked yet.")
    member = serializers.CharField(
        allow_null=True, help_text="The member's id (null for a hidden member, to the public)."
    )
    name = serializers.CharField()
    division = serializers.CharField()
    total = serializers.IntegerField()
    played = serializers.IntegerField()
    results = SeasonResultSerializer(many=True)


class SeasonTableSerializer(serializers.Serializer[Any]):
    league = serializers.IntegerField()
    name = serializers.CharField()
    rules = RulesSerializer()
    tournaments = LeagueTournamentSerializer(many=True)
    rows = SeasonRowSerializer(many=True)


class RatingSerializer(serializers.Serializer[Any]):
    member = serializers.CharField(
        allow_null=True, help_text="The member's id (null for a hidden member, to the public)."
    )
    name = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: the rating shown.")
    games = serializers.IntegerField(help_text="Rated games played.")
    provisional = serializers.BooleanField(help_text="Fewer than 6 rated games.")


class MemberRatingSerializer(serializers.Serializer[Any]):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()
    rank = serializers.IntegerField(help_text="Among the club's ratings of the game.")


class RatingChangeSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField(help_text="The game's place in the ratings' order.")
    game = serializers.UUIDField()
    tournament = serializers.UUIDField()
    tournament_name = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    place = serializers.IntegerField()
    size = serializers.IntegerField(help_text="The number of teams at the table.")
    ordinal_before = serializers.FloatField()
    ordinal = serializers.FloatField()
    change = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class StatisticSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    value = serializers.IntegerField()
    sample = serializers.IntegerField()
    games = serializers.IntegerField()


class FeatSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    value = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True)
    tournament_name = serializers.CharField()


class MemberGameSerializer(serializers.Serializer[Any]):
    game_type = serializers.CharField()
    rating = MemberRatingSerializer(allow_null=True)
    changes = RatingChangeSerializer(many=True)
    statistics = StatisticSerializer(many=True)
    feats = FeatSerializer(many=True)


class MemberHistoryEntrySerializer(serializers.Serializer[Any]):
    tournament = serializers.UUIDField()
    tournament_name = serializers.CharField()
    date = serializers.DateField()
    game_type = serializers.CharField()
    name = serializers.CharField()
    team = serializers.CharField()
    place = serializers.IntegerField(allow_null=True, help_text="null: a no-show.")
    games = serializers.IntegerField()
    finished = serializers.BooleanField()
    player = serializers.CharField()
    index = serializers.IntegerField()


class MemberLeagueSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class MemberSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    names = serializers.ListField(child=serializers.CharField())
    display_name = serializers.CharField()
    hidden = serializers.BooleanField()
    leagues = MemberLeagueSerializer(many=True)
    history = MemberHistoryEntrySerializer(many=True)
    games = MemberGameSerializer(many=True)


class MeetingSerializer(serializers.Serializer[Any]):
    game = serializers.UUIDField()
    game_type = serializers.CharField()
    tournament = serializers.UUIDField()
    tournament_name = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    place = serializers.IntegerField()
    other_place = serializers.IntegerField()


class MemberRefSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()


class HeadToHeadSerializer(serializers.Serializer[Any]):
    member = MemberRefSerializer()
    other = MemberRefSerializer()
    ahead = serializers.IntegerField()
    behind = serializers.IntegerField()
    level = serializers.IntegerField()
    meetings = MeetingSerializer(many=True)


class RecordSerializer(serializers.Serializer[Any]):
    game_type = serializers.CharField()
    code = serializers.CharField()
    value = serializers.IntegerField()
    member = serializers.CharField(allow_null=True)
    name = serializers.CharField()
    tournament = serializers.UUIDField()
    tournament_name = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    game = serializers.UUIDField()


class ExportTeamSerializer(serializers.Serializer[Any]):
    members = serializers.ListField(child=serializers.CharField())
    place = serializers.IntegerField()


class ExportGameSerializer(serializers.Serializer[Any]):
    game_type = serializers.CharField()
    seq = serializers.IntegerField()
    game = serializers.UUIDField()
    tournament = serializers.UUIDField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    rated = serializers.BooleanField(
        help_text="false: not rated (fewer than two teams, or a member twice at the table)."
    )
    teams = ExportTeamSerializer(many=True)


class ClubChangeSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="The club's version after the change.")
    events = serializers.ListField(child=serializers.CharField())
    member = serializers.CharField(help_text="The member the change is about.")
