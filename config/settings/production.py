"""Production settings: the base settings, hardened.

Required environment: ``SECRET_KEY`` and ``ALLOWED_HOSTS``. Optional: ``CSRF_TRUSTED_ORIGINS``
(comma-separated origins such as ``https://example.org``), ``SECURE_SSL_REDIRECT`` (default
on; turn off only when the proxy in front already redirects), ``SECURE_HSTS_SECONDS``,
``USE_X_FORWARDED_PROTO`` (trust the proxy's ``X-Forwarded-Proto`` header; only behind a
proxy that sets it).
"""

from __future__ import annotations

from .base import *  # noqa: F403
from .base import PUBLIC_URL, env, log_format, with_public_host

DEBUG = False

# Required: no development fallback here (django-environ raises ImproperlyConfigured).
SECRET_KEY = env.str("SECRET_KEY")
ALLOWED_HOSTS = with_public_host(env.list("ALLOWED_HOSTS"), PUBLIC_URL)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# --- HTTPS -------------------------------------------------------------------

SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = [r"^health/$"]  # checked over plain HTTP from inside the container
if env.bool("USE_X_FORWARDED_PROTO", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# --- Cookies -----------------------------------------------------------------

SESSION_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SECURE = True

# --- Static files ------------------------------------------------------------

# whitenoise (in the middleware) serves collectstatic's output with far-future caching; the
# machines a club runs on may have no internet, so nothing comes from a CDN.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- Logging -----------------------------------------------------------------

LOGGING["handlers"]["console"]["formatter"] = log_format(  # noqa: F405
    env.str("LOG_FORMAT", default="json")
)
