"""The club server ``bin/run`` starts (``python -m config.club``, once bin/run has set up .venv
and compiled the translations).

It serves the site as a club night needs it, on the machine's network: it finds the address
the other devices reach this machine at (config.lan: the default route's IPv4 address;
``PUBLIC_URL`` overrides it; ``--local`` or ``TNC_LOCAL=1`` keeps it on 127.0.0.1, for a laptop
alone), puts it in every QR code and link (``PUBLIC_URL`` for the settings), collects the static
files, migrates, builds the demo (its logins' passwords made once and kept in
``var/demo_passwords.json``; ``--new-passwords`` or ``TNC_NEW_PASSWORDS=1`` makes new ones),
prints the address with a QR code of the desk drawn in the terminal, and then becomes gunicorn
(threads, ``config.settings.club``: production's settings over plain HTTP, DEBUG off, static files
by whitenoise). The secret key is this machine's own, kept in ``var/secret_key``: with it and the
passwords kept, a restart (Ctrl+C, a crash, a reboot) logs nobody out.

``DEBUG=True`` (developers, for Django's debug pages) serves with Django's runserver instead, on
127.0.0.1 unless ``PUBLIC_URL`` is set: the debug pages list every URL and setting and are not
for the club's network.

``TNC_VAR_DIR`` moves the kept files (the secret key, the passwords) out of ``var/``: tests.
"""

from __future__ import annotations

import argparse
import io
import os
import secrets
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import segno

from config.kept import kept_secret
from config.lan import lan_address

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_PORT = 8000
SETTINGS = "config.settings.club"
WORKERS = 2
"""gunicorn processes (``WEB_CONCURRENCY`` overrides): one keeps serving if the other dies."""
THREADS = 4
"""Threads per process: a club's phones wait on the database, not the processor."""
QR_BORDER = 2
_QR_COLOURS = "\033[97;40m"
"""segno's compact drawing is for a light ink on a dark ground: light modules are blocks, dark
ones spaces. Saying both colours makes it the same on a dark or a light terminal."""
_RESET = "\033[0m"
TRUE = ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Plan:
    """Where the server listens, the address its QR codes and links carry, and what to say."""

    address: str
    """Scheme, host and port, no slash: what the phones open."""
    listen: str
    """host:port for the server's socket."""
    public: bool
    """Whether the address is for the other devices (False: this machine only)."""
    note: str = ""
    """Why it is this machine only, when the organizer did not ask for that."""


def truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in TRUE


def port_of(env: Mapping[str, str]) -> int:
    value = env.get("PORT") or str(DEFAULT_PORT)
    try:
        port = int(value)
    except ValueError:
        port = 0
    if not 0 < port < 65536:
        raise SystemExit(f"error: PORT must be a port number (1 to 65535); it is {value!r}")
    return port


def plan(
    env: Mapping[str, str],
    *,
    local: bool,
    developer: bool = False,
    find: Callable[[], str | None] = lan_address,
) -> Plan:
    """Where to serve. ``PUBLIC_URL`` set: that address, listening on every interface (the
    phones come to it there), or on 127.0.0.1 with ``local`` (a proxy on this machine in front).
    Else this machine's network address, on every interface; ``local`` (or a developer's debug
    pages), or no network address found: 127.0.0.1, this machine only."""
    port = port_of(env)
    public = (env.get("PUBLIC_URL") or "").strip().rstrip("/")
    if public:
        return Plan(public, f"{'127.0.0.1' if local else '0.0.0.0'}:{port}", public=True)
    here = f"http://127.0.0.1:{port}"
    if developer:
        note = "DEBUG=True: Django's debug pages are for this machine, not the club's network"
        return Plan(here, f"127.0.0.1:{port}", public=False, note=note)
    if local:
        return Plan(here, f"127.0.0.1:{port}", public=False)
    found = find()
    if found is None:
        note = (
            "no network address found (no default route with an IPv4 address): serving this "
            "machine only. Phones reach it once it is on their network (start bin/run again), "
            "or set PUBLIC_URL."
        )
        return Plan(here, f"127.0.0.1:{port}", public=False, note=note)
    return Plan(f"http://{found}:{port}", f"0.0.0.0:{port}", public=True)


def terminal_qr(url: str, *, colour: bool) -> str:
    """A QR code of ``url`` drawn with half blocks (two modules a line), for a terminal."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=QR_BORDER)
    lines = out.getvalue().splitlines()
    if colour:
        lines = [f"{_QR_COLOURS}{line}{_RESET}" for line in lines]
    return "\n".join(lines) + "\n"


def banner(where: Plan, *, colour: bool) -> str:
    """What the organizer reads once the site is ready: where it is served, and a QR code that
    opens the desk on their phone."""
    if not where.public:
        lines = [f"serving on {where.address}/ for this machine only (Ctrl+C to stop)"]
        if where.note:
            lines.append(where.note)
        else:
            lines.append("for the players' phones too: bin/run without --local (or TNC_LOCAL)")
        return "\n".join(lines) + "\n"
    desk = f"{where.address}/desk/"
    return (
        f"\nscan it to open the desk on your phone ({desk}):\n"
        f"{terminal_qr(desk, colour=colour)}"
        f"serving on {where.address}/ for the phones on this network (Ctrl+C to stop)\n"
    )


def server_env(
    env: Mapping[str, str], where: Plan, *, developer: bool, var: Path
) -> dict[str, str]:
    """The environment the server runs in."""
    served = dict(env)
    if where.public:
        served["PUBLIC_URL"] = where.address  # in every QR code, seat link and printed sheet
    if developer:
        return served
    served["DEBUG"] = "False"
    served["DJANGO_SETTINGS_MODULE"] = SETTINGS
    served.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")  # and PUBLIC_URL's host
    if not served.get("SECRET_KEY"):
        served["SECRET_KEY"] = kept_secret(var / "secret_key", lambda: secrets.token_urlsafe(50))
    return served


def server_command(where: Plan, env: Mapping[str, str], *, developer: bool) -> list[str]:
    """gunicorn (runserver for developers) on ``where.listen``."""
    python = sys.executable
    if developer:
        return [python, "manage.py", "runserver", where.listen, "--noreload"]
    return [
        python, "-m", "gunicorn", "config.wsgi:application",
        "--bind", where.listen,
        "--workers", env.get("WEB_CONCURRENCY") or str(WORKERS),
        "--worker-class", "gthread", "--threads", str(THREADS),
        # Its start lines would say "Listening at: http://0.0.0.0:8000", an address no phone
        # opens, below the one that works: warnings and errors only.
        "--log-level", "warning", "--error-logfile", "-",
        # No control socket: its default path is one per user, which two servers would share.
        "--no-control-socket",
    ]  # fmt: skip


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bin/run", description="Serve the site for a club night (see README.md)."
    )
    parser.add_argument(
        "--local",
        action="store_true",
        help="serve on 127.0.0.1 only, for a laptop alone (or TNC_LOCAL=1)",
    )
    parser.add_argument(
        "--new-passwords",
        action="store_true",
        help="new passwords for the demo logins, kept from now on (or TNC_NEW_PASSWORDS=1)",
    )
    return parser.parse_args(argv)


def prepare(where: Plan, *, developer: bool, renew: bool, var: Path) -> None:
    """Static files, the database's schema and the demo, in this process (Django once)."""
    import django
    from django.core.management import call_command
    from django.db import connections

    django.setup()
    from tournaments.management.commands.demo import PASSWORDS_FILE

    if not developer:  # whitenoise serves collectstatic's copy (hashed names, compressed)
        call_command("collectstatic", interactive=False, verbosity=0)
    call_command("migrate", interactive=False, verbosity=0)
    print("migrate: database schema is up to date", flush=True)
    call_command("demo", url=where.address, passwords=var / PASSWORDS_FILE, new_passwords=renew)
    connections.close_all()


def main(argv: Sequence[str] | None = None) -> NoReturn:
    options = arguments(argv)
    env = dict(os.environ)
    developer = truthy(env.get("DEBUG"))
    var = Path(env.get("TNC_VAR_DIR") or BASE_DIR / "var")
    local = options.local or truthy(env.get("TNC_LOCAL"))
    where = plan(env, local=local, developer=developer)
    served = server_env(env, where, developer=developer, var=var)
    os.environ.clear()
    os.environ.update(served)
    os.chdir(BASE_DIR)
    renew = options.new_passwords or truthy(env.get("TNC_NEW_PASSWORDS"))
    prepare(where, developer=developer, renew=renew, var=var)
    colour = sys.stdout.isatty() and not env.get("NO_COLOR")
    sys.stdout.write(banner(where, colour=colour))
    sys.stdout.flush()
    command = server_command(where, served, developer=developer)
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
