"""Settings for development, tests and the base of production.

Everything that differs between machines comes from the environment (django-environ):

- ``DEBUG`` (default ``True``)
- ``SECRET_KEY`` (required when ``DEBUG`` is off)
- ``ALLOWED_HOSTS`` (comma-separated; default ``localhost,127.0.0.1,testserver`` when ``DEBUG``)
- ``DATABASE_URL`` (default: SQLite in ``var/db.sqlite3``)
- ``CELERY_BROKER_URL`` (default: none, tasks run inline)
- ``CELERY_TASK_DEFAULT_QUEUE`` (default ``celery``)
- ``CACHE_URL`` (default: each process's own memory; a Redis that fails costs speed, not
  errors: config.cache)
- ``LOG_FORMAT`` (``plain``, the default here, or ``json``; anything else is refused)
- ``TNC_TIME_ZONE`` (default ``UTC``): the club's time zone, an IANA name such as
  ``Europe/Paris``: every time a page shows or a form takes is in it, unless a tournament sets
  its own (its ``time_zone`` setting; tournaments/timezones.py). A name zoneinfo does not know
  is refused at start.
- ``PUBLIC_URL`` (default: none; the address players' phones reach the site at, such as
  ``http://192.168.1.20:8000`` or ``https://tnc.example.org``: what QR codes and printed links
  say. Without it they say whatever address the organizer's browser used.)

The defaults need no running service.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import available_timezones

import environ
from django.core.exceptions import ImproperlyConfigured

from config.cache import cache_from_url

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()

DEBUG = env.bool("DEBUG", default=True)

# --- Security ----------------------------------------------------------------

_DEVELOPMENT_SECRET_KEY = "django-insecure-development-only-never-use-this-key-in-production"

SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set the SECRET_KEY environment variable when DEBUG is off.")
    SECRET_KEY = _DEVELOPMENT_SECRET_KEY

ALLOWED_HOSTS: list[str] = env.list(
    "ALLOWED_HOSTS",
    default=["localhost", "127.0.0.1", "testserver"] if DEBUG else [],
)


def public_url(value: str) -> str:
    """The site's public address as PUBLIC_URL gives it: scheme and host (and port), no path."""
    value = value.strip().rstrip("/")
    if not value:
        return ""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path:
        raise ImproperlyConfigured(
            f"PUBLIC_URL must be the site's address, such as http://192.168.1.20:8000 or "
            f"https://tnc.example.org (no path after the host); it is {value!r}."
        )
    return value


def with_public_host(hosts: list[str], address: str) -> list[str]:
    """ALLOWED_HOSTS with PUBLIC_URL's host added: the phones use that address."""
    host = urlsplit(address).hostname if address else None
    if host is None or "*" in hosts or host in hosts:
        return hosts
    return [*hosts, host]


PUBLIC_URL = public_url(env.str("PUBLIC_URL", default=""))
ALLOWED_HOSTS = with_public_host(ALLOWED_HOSTS, PUBLIC_URL)

# --- Applications ------------------------------------------------------------

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "games",
    "tournaments",
    "club",
]

MIDDLEWARE = [
    # Outermost: it sees each response last, after any middleware set a cookie on it.
    "config.middleware.PersonalNeverPublic",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After the session, before CommonMiddleware: the language of the language cookie (the
    # chooser's), else the browser's Accept-Language, else English. Django's own, plus
    # "Vary: Cookie" (config.middleware.LocaleMiddleware).
    "config.middleware.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A page about a tournament (or one of its tables) shows and takes times in its zone.
    "tournaments.timezones.TournamentTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]
# No GZipMiddleware: compressing a page that holds a secret (a CSRF token) next to text an
# attacker chooses is the BREACH attack. Only the public standings, the same bytes for every
# anonymous visitor, are sent gzipped (compressed once per version:
# tournaments/public/standings_page);
# a proxy in front may compress the rest of what is public (docs/operations.md).

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # What APP_DIRS and template_partials set up on their own (partials over a cached
            # loader, in development too), plus each registered game's templates in its package
            # (games.template_loader: games/<game>/templates/).
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                                "games.template_loader.Loader",
                            ],
                        )
                    ],
                )
            ],
            # Template tag libraries of the games' packages (not apps of their own).
            "libraries": {"cards": "games.tricknchef.card_tags"},
            "context_processors": [
                "django.template.context_processors.request",
                # LANGUAGE_CODE and LANGUAGE_BIDI for <html lang dir> in every page.
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ----------------------------------------------------------------

VAR_DIR.mkdir(exist_ok=True)

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent writers wait for the lock (up to `timeout` seconds) instead of failing
    # with "database is locked": IMMEDIATE takes the write lock when the transaction
    # begins, WAL lets readers run beside one writer.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # Tests use a file too (not :memory:), so WAL and concurrent connections behave as in use;
    # one per process, so two test runs on one machine do not share (and break) it.
    DATABASES["default"].setdefault(
        "TEST", {"NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")}
    )

# Keep database connections between requests (opening a PostgreSQL connection costs several
# milliseconds, more than a whole request); check them before reuse.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache -------------------------------------------------------------------

# What the cache holds can always be made again (the public standings, rendered once per
# tournament version): nothing another process needs. So by default each process keeps its own,
# in memory, and no service is needed. CACHE_URL shares one between processes (django-environ:
# redis://127.0.0.1:6379/1 uses Django's Redis backend), so a new version renders once, not
# once per worker; each hit then fetches the page from Redis. A Redis that fails costs a slower
# page, never an error: config.cache (short timeouts, this process's memory meanwhile).
CACHES = {"default": cache_from_url(env.str("CACHE_URL", default="locmemcache://"))}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "desk:home"
LOGOUT_REDIRECT_URL = "home"

# --- Passwords ---------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Internationalisation ----------------------------------------------------

LANGUAGE_CODE = "en"
# The players' languages (docs/translation.md). Each name is written in its own language, as a
# chooser shows it to someone who reads only that one.
LANGUAGES = [
    ("en", "English"),
    ("fr", "Français"),
    ("ru", "Русский"),
    ("ja", "日本語"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The chooser's choice (config.views.choose_language) is kept for a year, not just the session.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"


def time_zone(value: str) -> str:
    """TNC_TIME_ZONE as a zone name zoneinfo knows (refused at start otherwise)."""
    name = value.strip() or "UTC"
    if name not in available_timezones():
        raise ImproperlyConfigured(
            f"TNC_TIME_ZONE={value!r} is not a time zone name: use an IANA name such as "
            "Europe/Paris, America/New_York or UTC."
        )
    return name


TIME_ZONE = time_zone(env.str("TNC_TIME_ZONE", default="UTC"))
"""The site's default time zone (the club's); a tournament may set its own."""
USE_I18N = True
USE_TZ = True

# --- Static files ------------------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]  # our stylesheets, and htmx (no CDN: clubs may be offline)
# collectstatic's output, served by whitenoise
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(VAR_DIR / "static")))
STATIC_ROOT.mkdir(exist_ok=True)

# --- API ---------------------------------------------------------------------

# docs/api.md. Token first: a request without credentials gets 401 with WWW-Authenticate.
# Session second, for the browser: DRF enforces CSRF on a logged-in session's writes.
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "games.api.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.JSONParser"],
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {"auth_token": "30/minute"},  # password guessing at the token view
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Trick-n-Chef",
    "DESCRIPTION": "Tournament manager for the card game Trick-n-Chef. See docs/api.md.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # A request's string field that may not be blank says so (minLength 1), as DRF checks.
    "ENFORCE_NON_BLANK_FIELDS": True,
    "SCHEMA_PATH_PREFIX": "/api/",
    # Swagger UI from our own static files (drf-spectacular-sidecar): no CDN, works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.models.GameProjection.Status",
        "SuitEnum": "engine.tricknchef.cards.SUITS",
        "ConflictCodeEnum": ["conflict"],
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournaments.api.schema.tournament_bodies",
        "games.api.schema.request_bodies_are_closed",
    ],
}

# --- Celery ------------------------------------------------------------------

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_EAGER_PROPAGATES = False
if not CELERY_BROKER_URL:
    # No broker configured: run tasks inline, in the caller's process, and let their
    # exceptions propagate. The in-memory transport keeps anything from dialling a broker.
    # (with a host: without one kombu warns "No hostname was supplied" at the first task)
    CELERY_BROKER_URL = "memory://localhost/"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = TIME_ZONE
# The queue every process sends tasks to and workers read (without -Q): "celery". Two sites
# sharing one Redis database would each name their own.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery")
# A worker killed in the middle of a task leaves it on the queue for another (tasks are
# idempotent), and takes one task at a time so nothing waits behind a long one.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # workers log through LOGGING (JSON in production)
# A task taken by a worker that then dies (kill -9) goes back to the queue after this many
# seconds (Redis): longer than any task runs, short enough not to stall a tournament.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=300)
}
CELERY_BEAT_SCHEDULE = {
    # Pair (and publish) the rounds whose set time has come.
    "tournament-schedules": {"task": "tournaments.run_schedules", "schedule": 60.0},
    # Handle the games' status changes whose nudge was lost (broker down, a killed process).
    # The club's consumer of the log (members, ratings, statistics) catches every lost nudge.
    "club-sync-sweep": {
        "task": "club.sync",
        "schedule": env.float("TNC_SYNC_SWEEP_SECONDS", default=10.0),
    },
    "tournament-sync-sweep": {
        "task": "tournaments.sync_pending",
        "schedule": env.float("TNC_SYNC_SWEEP_SECONDS", default=10.0),
    },
}
# A message to a broker that is down fails fast (the work waits in the database, not here).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}

# --- Logging -----------------------------------------------------------------

LOG_FORMATS = ("plain", "json")
"""LOG_FORMAT's values (.env.example): plain, for reading in a terminal; json, one JSON object a
line, for a log collector."""


def log_format(value: str) -> str:
    """LOG_FORMAT's value, checked at start: one clear line for any other than LOG_FORMATS (not
    logging's traceback, "Unable to configure handler 'console'", at the first command)."""
    name = value.strip().lower()
    if name not in LOG_FORMATS:
        raise ImproperlyConfigured(
            f"LOG_FORMAT must be {' or '.join(LOG_FORMATS)} (plain for a terminal, json for a "
            f"log collector); it is {value!r}."
        )
    return name


LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        # One JSON object per line (production): what log collectors read.
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": log_format(env.str("LOG_FORMAT", default="plain")),
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        # Inline tasks (no broker) would log a line per task run in the caller's process: one per
        # game at the demo's start. A worker's task lines stay (they are its work log).
        **({"celery.app.trace": {"level": "WARNING"}} if CELERY_TASK_ALWAYS_EAGER else {}),
    },
}
