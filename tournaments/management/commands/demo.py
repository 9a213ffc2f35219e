"""``manage.py demo``: a demo tournament in progress, and how to log in."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.demo import build


class Command(BaseCommand):
    help = (
        "Create a demo tournament (16 players, round 1 played, round 2 under way), and one "
        "tournament of each other game (round 1 played, round 2 paired)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="the site's address")

    def handle(self, *args: Any, url: str = "", **options: Any) -> None:
        demo = build()
        what = "created" if demo.created else "already there"
        self.stdout.write(f"demo tournament {what}: {url}/t/{demo.tournament_id}/")
        self.stdout.write(f"organizer desk: {url}/desk/{demo.tournament_id}/")
        self.stdout.write(f"big screen (for a projector): {url}/t/{demo.tournament_id}/screen/")
        for name, tid in demo.others:
            self.stdout.write(f"{name}: {url}/t/{tid}/ (desk: {url}/desk/{tid}/)")
        self.stdout.write(
            f"log in as '{demo.organizer}' (or '{demo.scorekeeper}') "
            f"with the password {demo.password}"
        )
