"""``manage.py rebuild_projections``: recompute every projection from the event log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.services import rebuild_all


class Command(BaseCommand):
    help = (
        "Recompute every projection (games: state and results; tournaments: state and "
        "standings) from the event log, report each difference from what is stored, and fix "
        "it (unless --check)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check",
            action="store_true",
            help="only report differences; change nothing (exit status 1 if any)",
        )

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        verb = "found" if check else "fixed"
        total = 0
        for name, (checked, differences) in rebuild_all(fix=not check).items():
            total += len(differences)
            for diff in differences:
                self.stdout.write(
                    f"{name} {diff.game_id}: {diff.field} differs "
                    f"(stored {_short(diff.stored)}, rebuilt {_short(diff.rebuilt)})"
                )
            self.stdout.write(
                f"checked {checked} {name}: "
                f"{len(differences)} difference{'s' if len(differences) != 1 else ''} {verb}"
            )
        if check and total:
            raise SystemExit(1)


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
