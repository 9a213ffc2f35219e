"""``manage.py export_events [--output FILE]``: back up the whole event log as JSON Lines."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.backup import export_events


class Command(BaseCommand):
    help = (
        "Write every event of every stream, in recorded order, as JSON Lines (streamed: memory "
        "stays flat however big the log). Restore with import_events."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", "-o", default="-", help="a file, or - for standard output")

    def handle(self, *args: Any, output: str = "-", **options: Any) -> None:
        if output == "-":
            count = export_events(sys.stdout)
        else:
            with open(output, "w", encoding="utf-8") as out:
                count = export_events(out)
        self.stderr.write(f"exported {count} event{'s' if count != 1 else ''}")
