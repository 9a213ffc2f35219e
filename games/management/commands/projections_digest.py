"""``manage.py projections_digest``: a fingerprint of every projection (compare after a restore)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.services import projections_digest


class Command(BaseCommand):
    help = (
        "Print a SHA-256 of every game's and tournament's projection (standings, results, states)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(projections_digest())
