"""``manage.py demo``: a demo tournament in progress, and how to log in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from tournaments import services
from tournaments.demo import build, kept_passwords

PASSWORDS_FILE = "demo_passwords.json"
"""Where the demo logins' passwords are kept, in var/ (mode 0600, ignored by git)."""


class Command(BaseCommand):
    help = (
        "Create a demo tournament (16 players, round 1 played, round 2 under way), and one "
        "tournament of each other game (round 1 played, round 2 paired). Its logins' passwords "
        "are made once and kept (--passwords), so that running it again logs nobody out."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="the site's address")
        parser.add_argument(
            "--passwords",
            type=Path,
            default=None,
            help=f"the file the logins' passwords are kept in (default: var/{PASSWORDS_FILE})",
        )
        parser.add_argument(
            "--new-passwords",
            action="store_true",
            help="make new passwords (and keep them): whoever logged in with the old ones is "
            "logged out",
        )

    def handle(
        self,
        *args: Any,
        url: str = "",
        passwords: Path | None = None,
        new_passwords: bool = False,
        **options: Any,
    ) -> None:
        url = url.rstrip("/")
        kept = passwords or Path(settings.VAR_DIR) / PASSWORDS_FILE
        demo = build(passwords=kept_passwords(kept, renew=new_passwords))
        what = "created" if demo.created else "already there"
        tid = demo.tournament_id
        short = services.tournament_short_code(tournament_id=tid)
        typed = f" (to type: {url}/t/{short}/)" if short else ""
        self.stdout.write(f"demo tournament {what}: {url}/t/{tid}/{typed}")
        self.stdout.write(f"organizer desk: {url}/desk/{tid}/")
        self.stdout.write(f"big screen (for a projector): {url}/t/{tid}/screen/")
        for name, other in demo.others:
            self.stdout.write(f"{name}: {url}/t/{other}/ (desk: {url}/desk/{other}/)")
        self.stdout.write(f"log in as '{demo.organizer}' with the password {demo.password}")
        self.stdout.write(
            f"log in as '{demo.scorekeeper}' with the password {demo.scorekeeper_password}"
        )
        renewed = "new passwords, " if new_passwords else ""
        self.stdout.write(
            f"({renewed}kept in {kept}: the same at every start; "
            "bin/run --new-passwords makes new ones)"
        )
