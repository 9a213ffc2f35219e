"""The club's projections (docs/season.md): derived from the log (the club's stream and the
tournaments' streams) by the club's tracked consumer (club.services.sync) and rebuilt by
``manage.py rebuild_projections``. Nothing here is the source of truth."""

from __future__ import annotations

from django.db import models

from games.models import Stream
from tournaments.models import TournamentProjection


class ClubProjection(models.Model):
    """The club's stream, one row: its version, moved with every club event appended (the
    writers' lock; the state itself is folded from the stream, which holds only the club's
    decisions, and kept per version in each process: club.services.state)."""

    stream = models.OneToOneField(
        Stream, primary_key=True, on_delete=models.PROTECT, related_name="club"
    )
    version = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"club v{self.version}"


class LogPosition(models.Model):
    """A tracked consumer's position in the whole log (games.store.Cursor), moved in the same
    transaction as what it wrote: every event is handled exactly once."""

    name = models.CharField(max_length=40, primary_key=True)
    tx = models.BigIntegerField(default=0)
    event = models.BigIntegerField(default=0)
    generation = models.PositiveBigIntegerField(default=0)
    """Counts the consumer's writes: what the club's pages show changed (their cache key)."""
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.name} at {self.tx}.{self.event}"


class Member(models.Model):
    """A member of the club: the people behind the tournaments' entries (club.domain)."""

    id = models.CharField(max_length=12, primary_key=True)
    name = models.CharField(max_length=100)
    """The name of their latest entry."""
    display_name = models.CharField(max_length=100, blank=True)
    hidden = models.BooleanField(default=False)
    merged_into = models.CharField(max_length=12, blank=True)
    """Set when this member was merged into another (their old address redirects)."""

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.shown

    @property
    def shown(self) -> str:
        return self.display_name or self.name


class MemberEntry(models.Model):
    """One registration in a tournament, and the member it counts for: a player's entry, or
    one member of a team's (``index`` from 1)."""

    tournament = models.ForeignKey(
        TournamentProjection, on_delete=models.CASCADE, related_name="member_entries"
    )
    player = models.CharField(max_length=40)
    index = models.PositiveSmallIntegerField(default=0)
    name = models.CharField(max_length=100)
    team = models.CharField(max_length=100, blank=True)
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="entries")
    game_type = models.CharField(max_length=40)
    date = models.DateField()
    finished = models.BooleanField(default=False)
    """The tournament is finished: ``place`` is final."""
    place = models.PositiveSmallIntegerField(null=True)
    """The entrant's place in the tournament's standings (None: a no-show, who took none)."""
    games = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player", "index"], name="member_entry_unique"
            )
        ]
        ordering = ["date", "tournament", "player", "index"]

    def __str__(self) -> str:
        return f"{self.name} in {self.tournament_id}"


class Rating(models.Model):
    game_type = models.CharField(max_length=40)
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game_type", "member"], name="rating_unique")
        ]
        ordering = ["game_type", "-ordinal", "member"]

    def __str__(self) -> str:
        return f"{self.member_id} {self.game_type} {self.ordinal:.2f}"


class RatingChange(models.Model):
    """One rated game's effect on one member (the member page's explanation)."""

    seq = models.PositiveIntegerField()
    """The game's place in the order results were recorded (the order of rating)."""
    game = models.ForeignKey(Stream, on_delete=models.PROTECT, related_name="+")
    game_type = models.CharField(max_length=40)
    tournament = models.ForeignKey(TournamentProjection, on_delete=models.CASCADE, related_name="+")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="rating_changes")
    place = models.PositiveSmallIntegerField()
    size = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "member"], name="rating_change_unique")
        ]
        indexes = [models.Index(fields=["member", "game_type", "seq"], name="rating_change_member")]
        ordering = ["seq", "member"]

    def __str__(self) -> str:
        return f"{self.member_id} #{self.seq}"


class GameStatistic(models.Model):
    """One statistic of one entry in one finished game entered play by play (engine
    statistics: a stable code, a value over a sample)."""

    game = models.ForeignKey(Stream, on_delete=models.PROTECT, related_name="+")
    game_type = models.CharField(max_length=40)
    entry = models.ForeignKey(MemberEntry, on_delete=models.CASCADE, related_name="statistics")
    code = models.CharField(max_length=60)
    value = models.IntegerField()
    sample = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "entry", "code"], name="game_statistic_unique")
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.value}/{self.sample}"


class GameFeat(models.Model):
    """A candidate for the club's records: an entry's best of a code in one game."""

    game = models.ForeignKey(Stream, on_delete=models.PROTECT, related_name="+")
    game_type = models.CharField(max_length=40)
    entry = models.ForeignKey(MemberEntry, on_delete=models.CASCADE, related_name="feats")
    code = models.CharField(max_length=60)
    value = models.IntegerField()
    round = models.PositiveSmallIntegerField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "entry", "code"], name="game_feat_unique")
        ]
        indexes = [models.Index(fields=["code", "-value"], name="game_feat_best")]

    def __str__(self) -> str:
        return f"{self.code} {self.value}"
