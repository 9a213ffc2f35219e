"""``manage.py grant_app_role ROLE``: give the application's database role exactly its rights."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections, transaction

from games.roles import RoleError, create_login_role, grant


class Command(BaseCommand):
    help = (
        "PostgreSQL: let ROLE (the role web and worker connect as) INSERT and SELECT the event "
        "log, read and write every other application table, and nothing else, now and for "
        "tables later migrations create. Run it as the tables' owner, after migrate "
        "(docker/migrate.py does, with DATABASE_OWNER_URL). Idempotent."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("role", help="the app role (it must not own the tables)")
        parser.add_argument(
            "--create",
            action="store_true",
            help="create ROLE (LOGIN, no password: set one with ALTER ROLE) if it does not exist",
        )
        parser.add_argument("--database", default="default", help="the database alias")

    def handle(self, *args: Any, role: str, create: bool, database: str, **options: Any) -> None:
        connection = connections[database]
        try:
            with transaction.atomic(using=database):
                if create and create_login_role(connection, role, None):
                    self.stdout.write(f"created role {role}")
                statements = grant(connection, role)
        except RoleError as error:
            raise CommandError(str(error)) from None
        for statement in statements:
            self.stdout.write(f"{statement};", style_func=lambda text: text)
        self.stdout.write(f"{role} may now append to the log and nothing more")
