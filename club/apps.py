from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class ClubConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club"

    def ready(self) -> None:
        from club import services
        from games import services as games
        from tournaments.signals import tournament_appended

        games.register_rebuilder("club", services.club_rebuild)
        tournament_appended.connect(_tournament_appended, dispatch_uid="club.sync")


def _tournament_appended(sender: Any, tournament_id: Any, types: Any, **kwargs: Any) -> None:
    """A tournament's events committed: if they can change a season, a rating or a member's
    history, ask the queue to run the club's consumer (the beat's sweep runs it anyway)."""
    from club.services.sync import NUDGED_BY
    from club.tasks import sync
    from games.queue import send

    if NUDGED_BY.intersection(types):
        send(sync)
