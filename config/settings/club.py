"""The club server's settings (``bin/run``): production's, served over plain HTTP on a club's
network, where the phones open ``http://<this machine's address>:<port>/``.

Everything of ``config.settings.production`` (DEBUG off, the secret key and ALLOWED_HOSTS from
the environment, whitenoise serving collectstatic's hashed files, the security headers) except
what needs HTTPS, which a laptop on a club's Wi-Fi does not have: no redirect to HTTPS, no HSTS,
and cookies that are sent over HTTP (a "secure" session or CSRF cookie never comes back over
HTTP: nobody could log in). Django's CSRF check still holds: a form's Origin must be the
address the page came from (``http://<address>:<port>``, whose host bin/run puts in
ALLOWED_HOSTS). A server on the internet uses ``config.settings.production`` behind HTTPS
(docs/operations.md).

The deploy checks that these choices answer are silenced here, by name, and only here:
``manage.py check --deploy`` stays clean under these settings and complete under production's.
"""

from __future__ import annotations

from .production import *  # noqa: F403
from .production import LOGGING, env, log_format

SECURE_SSL_REDIRECT = False
SECURE_HSTS_SECONDS = 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = False
SECURE_HSTS_PRELOAD = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False

SILENCED_SYSTEM_CHECKS = [
    "security.W004",  # SECURE_HSTS_SECONDS: HSTS means HTTPS, which the club's network lacks
    "security.W008",  # SECURE_SSL_REDIRECT: there is no HTTPS to redirect to
    "security.W012",  # SESSION_COOKIE_SECURE: a secure cookie never returns over HTTP
    "security.W016",  # CSRF_COOKIE_SECURE: likewise
]

# A terminal, not a log collector: plain lines unless LOG_FORMAT says otherwise.
LOGGING["handlers"]["console"]["formatter"] = log_format(env.str("LOG_FORMAT", default="plain"))
