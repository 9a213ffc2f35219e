from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        post_migrate.connect(_catch_up_log_clock, sender=self)


def _catch_up_log_clock(sender: AppConfig, using: str = "default", **kwargs: Any) -> None:
    """After every migrate (the web container's start, and after a restore): the log's clock
    past every restored event (games.db.catch_up_log_clock)."""
    from django.db import connections

    from games.db import catch_up_log_clock

    moved = catch_up_log_clock(connections[using])
    if moved is not None and kwargs.get("verbosity", 1) >= 1:
        print(f"  The event log's clock moved past the restored log (offset {moved}).")
