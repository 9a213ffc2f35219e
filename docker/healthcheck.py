"""``python docker/healthcheck.py``: the web container's healthcheck (exit 0 healthy, 1 not).

It asks this container's gunicorn for ``/health/``, which answers 200 when the database and the
broker answer and 503 naming what failed (config/health.py). Python's urllib, since the slim
image has no curl. The request:

- goes to 127.0.0.1:8000 directly, never through an HTTP proxy from the environment;
- carries a Host header the site accepts, the first entry of ``ALLOWED_HOSTS`` (Django answers
  400 to any other); ``/health/`` is exempt from the HTTPS redirect, so plain HTTP is fine;
- does not follow redirects: a redirect means the site is misconfigured, and says so.

What it prints (the answer, or why there was none) shows in ``docker inspect`` and in
``docker compose ps``'s health column's details.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request
from typing import Any

URL = "http://127.0.0.1:8000/health/"
TIMEOUT = 10  # seconds; the broker check alone may take 2


def host_header(allowed_hosts: str) -> str:
    """The Host to send, from ``ALLOWED_HOSTS`` (comma-separated, as the settings read it).

    ``.example.org`` allows example.org and its subdomains: send ``example.org``. ``*`` (or
    nothing) allows anything (or nothing): send ``localhost``.
    """
    first = allowed_hosts.split(",")[0].strip().lstrip(".")
    return first if first and first != "*" else "localhost"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # urllib then raises HTTPError with the 3xx status


def check(url: str = URL, allowed_hosts: str | None = None) -> tuple[bool, str]:
    """(healthy, what to print)."""
    if allowed_hosts is None:
        allowed_hosts = os.environ.get("ALLOWED_HOSTS", "")
    host = host_header(allowed_hosts)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())
    request = urllib.request.Request(url, headers={"Host": host})
    try:
        with opener.open(request, timeout=TIMEOUT) as response:
            body = response.read(2000).decode("utf-8", "replace")
            return response.status == 200, f"{response.status} {body}"
    except urllib.error.HTTPError as error:
        body = error.read(2000).decode("utf-8", "replace")
        hint = ""
        if error.code == 400:
            hint = f" (is {host!r}, the first entry of ALLOWED_HOSTS, a host the site accepts?)"
        elif 300 <= error.code < 400:
            hint = f" (redirected to {error.headers.get('Location')!r})"
        return False, f"{error.code}{hint} {body}".rstrip()
    except OSError as error:  # refused, timed out: gunicorn is not (yet) answering
        return False, f"no answer from {url}: {error}"


def main() -> int:
    healthy, report = check()
    print(report)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
