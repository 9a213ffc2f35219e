"""Tournament projections: derived from the tournament's stream (games_event) and rebuilt from
it. Nothing here is the source of truth."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.fields import JSONTextField
from games.models import Stream


class TournamentProjection(models.Model):
    stream = models.OneToOneField(
        Stream, primary_key=True, on_delete=models.PROTECT, related_name="tournament"
    )
    name = models.CharField(max_length=200)
    date = models.DateField()
    status = models.CharField(max_length=20)
    game_type = models.CharField(max_length=40)
    version = models.PositiveIntegerField()
    rounds_planned = models.PositiveSmallIntegerField()
    current_round = models.PositiveSmallIntegerField(default=0)
    state = JSONTextField()
    """tournaments.domain.to_json of the state folded up to ``snapshot_version`` (a snapshot:
    the events after it are folded in when the state is read; tournaments.services.snapshots)."""
    snapshot_version = models.PositiveIntegerField(default=0)
    standings = JSONTextField()
    """The standings (tournaments.rounds.standings_json) as of ``standings_version``: brought up
    to date when read stale (tournaments.services.reads), not by every event."""
    standings_version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"


class TournamentRole(models.Model):
    """Who may do what in a tournament (a projection of role events, for permission checks)."""

    tournament = models.ForeignKey(
        TournamentProjection, on_delete=models.CASCADE, related_name="roles"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    role = models.CharField(max_length=20)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user", "role"], name="tournament_role")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.role} of {self.tournament_id}"


class TournamentTable(models.Model):
    """A published table and its game: how a game finds its tournament."""

    tournament = models.ForeignKey(
        TournamentProjection, on_delete=models.CASCADE, related_name="tables"
    )
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Stream, on_delete=models.PROTECT, related_name="tournament_table")
    seats = models.JSONField()
    """Player names in seat order (seat 1 first)."""

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "number"], name="tournament_table_number"
            )
        ]
        ordering = ["tournament", "round", "number"]

    def __str__(self) -> str:
        return f"round {self.round} table {self.number}"


class TournamentCode(models.Model):
    """A tournament's short address (/t/<code>/, tournaments.shortcodes). Not an event and not a
    projection: an address of this site for the tournament, assigned once when it is created
    (derived from its id), unique across tournaments (which only a table's constraint can
    promise). A rebuild keeps it; a restore assigns it again (docs/tournament-events.md)."""

    stream = models.OneToOneField(
        Stream, primary_key=True, on_delete=models.PROTECT, related_name="short_code"
    )
    code = models.CharField(max_length=6, unique=True)

    def __str__(self) -> str:
        return f"/t/{self.code}/"
