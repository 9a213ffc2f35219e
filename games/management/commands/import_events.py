"""``manage.py import_events FILE``: restore a backup into an empty database, then rebuild."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.backup import BackupError, import_events
from games.services import rebuild_all


class Command(BaseCommand):
    help = (
        "Restore a backup written by export_events into an empty database (all or nothing), "
        "then rebuild every projection from the restored log."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup, or - for standard input")

    def handle(self, *args: Any, file: str = "-", **options: Any) -> None:
        try:
            if file == "-":
                count = import_events(sys.stdin, rebuild=lambda: rebuild_all(fix=True))
            else:
                with open(file, encoding="utf-8") as lines:
                    count = import_events(lines, rebuild=lambda: rebuild_all(fix=True))
        except (BackupError, OSError) as error:
            raise CommandError(f"nothing was restored: {error}") from None
        self.stdout.write(f"restored {count} event{'s' if count != 1 else ''}; projections rebuilt")
