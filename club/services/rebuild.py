"""The club's projections rebuilt from the log (``manage.py rebuild_projections``)."""

from __future__ import annotations

from django.db import transaction

from club.models import (
    GameFeat,
    GameStatistic,
    LogPosition,
    Member,
    MemberEntry,
    Rating,
    RatingChange,
)
from club.services.sync import NAME, _position, club_sync
from games.services import Difference


def _ratings() -> dict[tuple[str, str], tuple[float, float, int]]:
    return {
        (r.game_type, r.member_id): (round(r.mu, 9), round(r.sigma, 9), r.games)
        for r in Rating.objects.all()
    }


def wipe() -> None:
    """Forget every club projection and the consumer's position (the next sync starts over)."""
    GameStatistic.objects.all().delete()
    GameFeat.objects.all().delete()
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    MemberEntry.objects.all().delete()
    Member.objects.all().delete()
    LogPosition.objects.filter(name=NAME).update(tx=0, event=0)


def club_rebuild(*, fix: bool = True) -> tuple[int, list[Difference]]:
    """Replay the whole log into the club's projections; report each rating that differs from
    what was stored (and keep the rebuilt ones, unless ``fix`` is False)."""
    with transaction.atomic():
        _position(lock=True)  # consumers wait: nothing is written between the wipe and the replay
        stored = _ratings()
        wipe()
        club_sync()
        rebuilt = _ratings()
        differences = [
            Difference(
                game_id=f"{key[0]} {key[1]}",
                field="rating",
                stored=stored.get(key),
                rebuilt=rebuilt.get(key),
            )
            for key in sorted(set(stored) | set(rebuilt))
            if stored.get(key) != rebuilt.get(key)
        ]
        if not fix:
            transaction.set_rollback(True)
    return len(rebuilt), differences
