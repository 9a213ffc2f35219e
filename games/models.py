"""The event log and the projections built from it.

:class:`Event` is the one append-only table for every stream (games now, tournaments later):
the database refuses UPDATE, DELETE and TRUNCATE on it (migration 0002). :class:`Stream` names a
stream and is written once. :class:`GameProjection` and :class:`GameResult` are projections:
derived from the log, updated in the same transaction as each append, and rebuilt by
``manage.py rebuild_projections``.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.db import LogTransactionId
from games.fields import JSONTextField
from games.gametypes.base import Placement


class Stream(models.Model):
    class Kind(models.TextChoices):
        GAME = "game"
        TOURNAMENT = "tournament"
        CLUB = "club"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.kind} {self.id}"


class Event(models.Model):
    """One immutable event. ``id`` is its position in the global log."""

    id = models.BigAutoField(primary_key=True)
    stream = models.ForeignKey(Stream, on_delete=models.PROTECT, related_name="events")
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=64)
    data = models.JSONField()
    metadata = models.JSONField(default=dict)
    idempotency_key = models.CharField(max_length=200, null=True, blank=True)
    recorded_at = models.DateTimeField()
    tx_id = models.BigIntegerField(db_default=LogTransactionId(), editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stream", "version"], name="event_stream_version"),
            models.UniqueConstraint(
                fields=["idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="event_idempotency_key",
            ),
        ]
        indexes = [models.Index(fields=["tx_id", "id"], name="event_commit_order")]

    def __str__(self) -> str:
        return f"{self.stream_id} v{self.version} {self.type}"


class GameProjection(models.Model):
    """The current state of one game (table), as of ``version`` of its stream."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        FINISHED = "finished"
        VOID = "void"

    stream = models.OneToOneField(
        Stream, primary_key=True, on_delete=models.PROTECT, related_name="game"
    )
    game_type = models.CharField(max_length=40)
    version = models.PositiveIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices)
    published = models.BooleanField(default=False)
    results_only = models.BooleanField(default=False)
    players = models.JSONField()
    snapshot = JSONTextField(null=True)
    """The engine state (engine.tricknchef.snapshot), None when the game has no play-by-play
    state."""
    summary = JSONTextField()
    """What ``python -m engine replay`` prints for the game's effective record."""
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"game {self.stream_id} ({self.status}, v{self.version})"


class GameResult(models.Model):
    """A finished game's result for one player (placement at the table, points)."""

    game = models.ForeignKey(GameProjection, on_delete=models.CASCADE, related_name="results")
    player = models.CharField(max_length=100)
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    total = models.IntegerField()
    """The game's points (Trick-n-Chef: the three rounds' total; Food Truck: victory points;
    Chefs: the final position; Crazy Kitchen: the team's total)."""
    last_round = models.IntegerField(null=True)
    """Trick-n-Chef's tie-break (None for the other games)."""
    tiebreaks = models.JSONField(default=list)
    """The game's own tie-break values, in the game's order."""
    round_scores = models.JSONField()

    def placement(self) -> Placement:
        """The result as the game's type gave it (games.gametypes.base.Placement)."""
        return Placement(
            player=self.player,
            seat=self.seat,
            rank=self.rank,
            points=self.total,
            tiebreaks=tuple(self.tiebreaks),
            round_scores=tuple(self.round_scores),
        )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="game_result_player"),
        ]
        ordering = ["game", "rank", "seat"]

    def __str__(self) -> str:
        return f"{self.player}: {self.rank} ({self.total})"


class StatusChange(models.Model):
    """The outbox: a game became finished, stopped being finished (a correction) or was voided.

    Written in the same transaction as the events that changed the status, so a committed
    change is never lost, whatever happens to the process or the broker afterwards. A consumer
    (the tournaments app) handles each change once, in order per game, and marks it handled in
    the same transaction as what it wrote (see :mod:`games.outbox`).
    """

    id = models.BigAutoField(primary_key=True)
    game = models.ForeignKey(Stream, on_delete=models.PROTECT, related_name="+")
    version = models.PositiveIntegerField()
    """The game's version right after the change."""
    status = models.CharField(max_length=20)
    recorded_at = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=40, blank=True)
    """What the consumer did (``recorded``, ``withdrawn``, ``unchanged``, ...)."""

    class Meta:
        indexes = [
            models.Index(
                fields=["game", "id"],
                condition=Q(handled_at__isnull=True),
                name="status_change_pending",
            )
        ]

    def __str__(self) -> str:
        return f"{self.game_id} v{self.version} {self.status}"


class SeatLink(models.Model):
    """One seat's private link to its game (docs/scorekeeping.md, "Phones at the table").

    The link carries a signed token (games.seats) naming this row and its ``nonce``: reissuing
    draws a new nonce and revoking stamps ``revoked_at``, so an old link stops working at once.
    A credential, not a fact of the game: it is not in the log, and no public page, API read or
    download shows it.
    """

    game = models.ForeignKey(Stream, on_delete=models.PROTECT, related_name="seat_links")
    seat = models.PositiveSmallIntegerField()
    """1-based, clockwise, as the game's players are listed."""
    player = models.CharField(max_length=100)
    """The seat's player (a game's players never change)."""
    nonce = models.CharField(max_length=32)
    shared = models.BooleanField(default=False)
    """The organizer lets the table's other phones enter for this seat (a seat without a phone)."""
    issued_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    opened_at = models.DateTimeField(null=True, blank=True)
    """When a phone last opened the link (None: no phone has yet)."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_link_game_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} seat {self.seat}"


class DealDraft(models.Model):
    """The cards one seat has tapped in so far for a round's deal, on its own phone.

    Not an event: the deal becomes one ``round_started`` (record v1) when every hand is in and
    the hands agree. Until then a hand is private to its seat (and the table's officials).
    """

    game = models.ForeignKey(Stream, on_delete=models.PROTECT, related_name="deal_drafts")
    round = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    cards = models.JSONField(default=list)
    full = models.BooleanField(default=False)
    """The hand holds its 10 cards (what the table's other phones see of it)."""
    first_player = models.CharField(max_length=100, blank=True)
    """Who this seat said leads the round, when the rules leave a choice ("" : not said)."""
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "round", "seat"], name="deal_draft_game_round_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} round {self.round} seat {self.seat}"
