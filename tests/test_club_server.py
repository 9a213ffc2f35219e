"""The club's server (bin/run: config/club.py): gunicorn at the address the phones reach, the
address and a QR code of the desk printed, the secret key and the demo logins' passwords kept so
that a restart logs nobody out.

The unit tests call config.club's parts. The servers run for real (``python -m config.club``,
what bin/run ends with once .venv is set up) on 127.0.0.1, or in a network namespace the test
makes (tests/netns.py); the tests connect to nothing else.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import secrets
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import segno

from config import club
from config.kept import kept_secret, read_private, write_private
from tests.netns import network_namespace
from tests.project import BASE_DIR, PROJECT_ENV_VARS

# ----------------------------------------------------------------------------- unit


def test_the_address_is_the_networks_unless_public_url_or_local_says_otherwise() -> None:
    lan = lambda: "192.168.1.20"  # noqa: E731
    found = club.plan({"PORT": "8361"}, local=False, find=lan)
    assert found == club.Plan("http://192.168.1.20:8361", "0.0.0.0:8361", public=True)
    assert club.plan({}, local=False, find=lan).address == "http://192.168.1.20:8000"
    public = {"PUBLIC_URL": "https://tnc.example.org/", "PORT": "8361"}
    assert club.plan(public, local=False, find=lan) == club.Plan(
        "https://tnc.example.org", "0.0.0.0:8361", public=True
    )
    # Behind a proxy on this machine: the links say PUBLIC_URL, the socket is loopback's only.
    assert club.plan(public, local=True, find=lan).listen == "127.0.0.1:8361"
    alone = club.plan({"PORT": "8361"}, local=True, find=lan)
    assert alone == club.Plan("http://127.0.0.1:8361", "127.0.0.1:8361", public=False)
    debug = club.plan({"PORT": "8361"}, local=False, developer=True, find=lan)
    assert debug.listen == "127.0.0.1:8361" and "debug pages" in debug.note


def test_without_a_network_address_it_serves_this_machine_and_says_so() -> None:
    where = club.plan({"PORT": "8361"}, local=False, find=lambda: None)
    assert where.listen == "127.0.0.1:8361" and not where.public
    assert "no network address found" in where.note
    printed = club.banner(where, colour=False)
    assert "serving on http://127.0.0.1:8361/ for this machine only" in printed
    assert "no network address found" in printed


def test_a_wrong_port_is_refused_in_words() -> None:
    for wrong in ("http", "0", "70000"):
        with pytest.raises(SystemExit, match="PORT must be a port number"):
            club.plan({"PORT": wrong}, local=True)


def drawn_matrix(printed: str) -> list[tuple[int, ...]]:
    """The modules of a QR code drawn by club.terminal_qr (1: dark), its colours stripped."""
    blocks = {" ": (1, 1), "\u2580": (0, 1), "\u2584": (1, 0), "\u2588": (0, 0)}
    rows: list[tuple[int, ...]] = []
    for line in re.sub(r"\x1b\[[0-9;]*m", "", printed).splitlines():
        pairs = [blocks[char] for char in line]
        rows += [tuple(top for top, _ in pairs), tuple(bottom for _, bottom in pairs)]
    return rows


def expected_matrix(url: str) -> list[tuple[int, ...]]:
    return [tuple(row) for row in segno.make(url, error="m").matrix_iter(border=club.QR_BORDER)]


def assert_qr_of(printed: str, url: str) -> None:
    expected = expected_matrix(url)
    drawn = drawn_matrix(printed)
    assert drawn[: len(expected)] == expected, f"the terminal's QR code is not {url}"


def test_the_terminal_qr_code_is_the_desks_address_in_either_colouring() -> None:
    desk = "http://192.168.1.20:8361/desk/"
    assert_qr_of(club.terminal_qr(desk, colour=False), desk)
    coloured = club.terminal_qr(desk, colour=True)
    assert coloured.count("\x1b[97;40m") == len(coloured.splitlines())  # ink and ground said
    assert_qr_of(coloured, desk)
    printed = club.banner(club.Plan("http://192.168.1.20:8361", "0.0.0.0:8361", True), colour=False)
    assert f"open the desk on your phone ({desk})" in printed
    assert "serving on http://192.168.1.20:8361/ for the phones on this network" in printed
    assert_qr_of(printed.split("):\n", 1)[1].split("serving on")[0], desk)


def test_the_server_is_gunicorn_with_threads_and_debug_pages_stay_with_runserver() -> None:
    where = club.Plan("http://192.168.1.20:8361", "0.0.0.0:8361", public=True)
    command = club.server_command(where, {}, developer=False)
    assert command[1:4] == ["-m", "gunicorn", "config.wsgi:application"]
    assert command[4:6] == ["--bind", "0.0.0.0:8361"]
    assert "gthread" in command and "runserver" not in command
    assert club.server_command(where, {"WEB_CONCURRENCY": "3"}, developer=False)[7] == "3"
    assert "runserver" in club.server_command(where, {}, developer=True)


def test_the_servers_environment_carries_the_address_and_the_kept_secret_key(
    tmp_path: Path,
) -> None:
    where = club.Plan("http://192.168.1.20:8361", "0.0.0.0:8361", public=True)
    served = club.server_env({"PORT": "8361"}, where, developer=False, var=tmp_path)
    assert served["PUBLIC_URL"] == "http://192.168.1.20:8361"  # in every QR code and link
    assert served["DJANGO_SETTINGS_MODULE"] == "config.settings.club"
    assert served["DEBUG"] == "False" and served["ALLOWED_HOSTS"] == "127.0.0.1,localhost"
    key = tmp_path / "secret_key"
    assert served["SECRET_KEY"] == key.read_text().strip() and len(served["SECRET_KEY"]) > 50
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    again = club.server_env({}, where, developer=False, var=tmp_path)
    assert again["SECRET_KEY"] == served["SECRET_KEY"]
    chosen = club.server_env({"SECRET_KEY": "chosen"}, where, developer=False, var=tmp_path)
    assert chosen["SECRET_KEY"] == "chosen"
    alone = club.Plan("http://127.0.0.1:8361", "127.0.0.1:8361", public=False)
    # For this machine only, the links say the address the browser used, and the desk says
    # that phones cannot open them.
    assert "PUBLIC_URL" not in club.server_env({}, alone, developer=False, var=tmp_path)
    assert club.server_env({"DEBUG": "True"}, alone, developer=True, var=tmp_path) == {
        "DEBUG": "True"
    }


def test_kept_secrets_are_the_owners_only(tmp_path: Path) -> None:
    path = tmp_path / "deeper" / "kept"
    assert read_private(path) is None
    assert kept_secret(path, lambda: "made once") == "made once"
    assert kept_secret(path, lambda: "made twice") == "made once"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)  # e.g. made by an older bin/run, or by hand
    assert read_private(path) == "made once"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    write_private(path, "")
    assert read_private(path) is None
    assert [p.name for p in path.parent.iterdir()] == ["kept"]  # no temporary file left


def test_the_options_and_bin_run_hands_them_over() -> None:
    assert not club.arguments([]).local and not club.arguments([]).new_passwords
    both = club.arguments(["--local", "--new-passwords"])
    assert both.local and both.new_passwords
    script = (BASE_DIR / "bin" / "run").read_text()
    assert script.rstrip().endswith('exec .venv/bin/python -m config.club "$@"')
    for documented in ("--local", "TNC_LOCAL=1", "--new-passwords", "TNC_NEW_PASSWORDS=1"):
        assert documented in script


CLUB_SETTINGS = """
from django.conf import settings
print(settings.DEBUG, settings.SECURE_SSL_REDIRECT, settings.SESSION_COOKIE_SECURE,
      settings.CSRF_COOKIE_SECURE, settings.SECURE_HSTS_SECONDS, settings.ALLOWED_HOSTS,
      settings.STORAGES["staticfiles"]["BACKEND"].rsplit(".", 1)[1])
"""


def test_the_club_settings_are_productions_over_plain_http() -> None:
    env = {k: v for k, v in os.environ.items() if k not in PROJECT_ENV_VARS}
    env.update(
        DJANGO_SETTINGS_MODULE=club.SETTINGS,
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        PUBLIC_URL="http://192.168.1.20:8361",
    )
    check = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    assert "no issues (4 silenced)" in check.stdout  # the four that need HTTPS, by name
    shown = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", CLUB_SETTINGS],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip().splitlines()[-1] == (
        "False False False False 0 ['127.0.0.1', 'localhost', '192.168.1.20'] "
        "CompressedManifestStaticFilesStorage"
    )


# ----------------------------------------------------------------------------- for real

READY_TIMEOUT = 120.0
"""Seconds a first start may take: collectstatic, migrate and the demo's games on a busy CI."""
STOP_TIMEOUT = 20.0
PASSWORD = re.compile(r"log in as '(\w+)' with the password (\S+)")
RUNSERVER_WARNING = "development server"


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
    return port


@dataclass
class Server:
    """One run of ``python -m config.club``, its output in a file."""

    process: subprocess.Popen[bytes]
    log_path: Path
    base: str
    """Where the test reaches it."""

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def passwords(self) -> dict[str, str]:
        return dict(PASSWORD.findall(self.log()))

    def wait_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT
        while True:
            if self.process.poll() is not None:
                pytest.fail(f"the server exited ({self.process.returncode}):\n{self.log()}")
            if "serving on" in self.log() and answers(self.base + "/health/"):
                return
            if time.monotonic() > deadline:
                pytest.fail(f"the server did not answer in {READY_TIMEOUT:.0f} s:\n{self.log()}")
            time.sleep(0.1)

    def stop(self) -> None:
        """Ctrl+C: SIGINT to the server's process group, as a terminal sends it."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=STOP_TIMEOUT)


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 (the test's)
            return bool(response.status == 200)
    except (OSError, urllib.error.URLError):
        return False


def server_env(directory: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in PROJECT_ENV_VARS}
    for name in ("PUBLIC_URL", "TNC_LOCAL", "TNC_NEW_PASSWORDS", "WEB_CONCURRENCY", "PORT"):
        env.pop(name, None)
    env.update(
        DATABASE_URL=f"sqlite:///{directory / 'db.sqlite3'}",
        STATIC_ROOT=str(directory / "static"),
        TNC_VAR_DIR=str(directory / "var"),
        WEB_CONCURRENCY="1",  # one process is enough to test; two cores are shared
        PYTHONUNBUFFERED="1",
        **extra,
    )
    return env


@contextmanager
def club_server(
    directory: Path,
    base: str,
    *,
    args: Sequence[str] = (),
    env: dict[str, str],
    inside: list[str] | None = None,
    run: int = 0,
) -> Iterator[Server]:
    log_path = directory / f"server-{run}.log"
    command = [sys.executable, "-m", "config.club", *args]
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            [*(inside or []), *command],
            cwd=BASE_DIR,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Server(process, log_path, base)
    try:
        server.wait_ready()
        yield server
    except BaseException:
        print(server.log())
        raise
    finally:
        server.stop()


class Browser:
    """A phone's browser: cookies kept; every request to the server's address."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> tuple[int, str, str]:
        """Status, final URL (after redirects) and body."""
        try:
            with self.opener.open(self.base + path, timeout=30) as response:
                return response.status, response.url, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.url, error.read().decode()

    def log_in(self, username: str, password: str) -> str:
        """The page the login form leads to (its URL)."""
        _, _, form = self.get("/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
        assert token, form
        data = urllib.parse.urlencode(
            {"username": username, "password": password, "csrfmiddlewaretoken": token[1]}
        ).encode()
        # As a phone's browser sends it: the Origin of the page the form came from.
        request = urllib.request.Request(
            self.base + "/accounts/login/", data=data, headers={"Origin": self.base}
        )
        with self.opener.open(request, timeout=30) as response:
            assert response.status == 200
            return str(response.url)

    def logged_in(self) -> bool:
        _, url, _ = self.get("/desk/")
        return urllib.parse.urlsplit(url).path == "/desk/"


def served_as_a_club_sees_it(server: Server, browser: Browser) -> None:
    """gunicorn, DEBUG off, static files by whitenoise, no runserver."""
    status, _, home = browser.get("/")
    assert status == 200
    stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]+\.css)"', home)
    assert stylesheet, "the static files' hashed names (collectstatic's manifest)"
    with urllib.request.urlopen(server.base + stylesheet[1], timeout=30) as response:  # noqa: S310
        assert response.status == 200 and response.headers["Content-Type"].startswith("text/css")
        assert "immutable" in response.headers["Cache-Control"]
        assert response.headers["Server"] == "gunicorn"
    status, _, missing = browser.get("/no-such-page/")
    assert status == 404 and "Django tried these URL patterns" not in missing
    assert "DEBUG = True" not in missing
    assert RUNSERVER_WARNING not in server.log()


@pytest.mark.slow
def test_a_restart_logs_nobody_out(tmp_path: Path) -> None:
    """Log in as the organizer and the scorekeeper, Ctrl+C, start again: both still in, and the
    passwords printed are the same. (--new-passwords: tests/tournaments/test_demo.py.)"""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = server_env(tmp_path, PORT=str(port))
    organizer, scorekeeper = Browser(base), Browser(base)
    with club_server(tmp_path, base, args=["--local"], env=env) as first:
        assert f"serving on {base}/ for this machine only" in first.log()
        served_as_a_club_sees_it(first, organizer)
        passwords = first.passwords()
        assert set(passwords) == {"organizer", "scorekeeper"}
        assert organizer.log_in("organizer", passwords["organizer"]).endswith("/desk/")
        assert scorekeeper.log_in("scorekeeper", passwords["scorekeeper"]).endswith("/desk/")
    for kept in ("secret_key", "demo_passwords.json"):
        assert stat.S_IMODE((tmp_path / "var" / kept).stat().st_mode) == 0o600

    with club_server(tmp_path, base, env={**env, "TNC_LOCAL": "1"}, run=1) as second:
        assert "demo tournament already there" in second.log()
        assert second.passwords() == passwords
        assert organizer.logged_in() and scorekeeper.logged_in()


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="network namespaces: Linux")
def test_it_serves_the_phones_at_the_address_it_finds(tmp_path: Path) -> None:
    """In a network namespace (a machine on a network of its own): the server finds its
    address, prints it with a QR code of the desk, and a phone on that network (the test,
    outside the namespace) opens the site and logs in there (ALLOWED_HOSTS, CSRF)."""
    port = 8361
    with network_namespace() as namespace:
        base = f"http://{namespace.address}:{port}"
        env = server_env(tmp_path, PORT=str(port))
        inside = namespace.command([])
        with club_server(tmp_path, base, env=env, inside=inside) as server:
            printed = server.log()
            assert f"serving on {base}/ for the phones on this network" in printed
            assert f"demo tournament created: {base}/t/" in printed
            assert_qr_of(printed.split(f"({base}/desk/):\n", 1)[1].split("serving on")[0],
                         f"{base}/desk/")  # fmt: skip
            phone = Browser(base)
            served_as_a_club_sees_it(server, phone)
            password = server.passwords()["organizer"]
            assert phone.log_in("organizer", password).endswith("/desk/")
            tournament = re.search(r"organizer desk: \S+/desk/([0-9a-f-]{36})/", printed)
            assert tournament, printed
            _, _, desk = phone.get(f"/desk/{tournament[1]}/")
            assert f"{base}/t/" in desk and "http://127.0.0.1" not in desk
