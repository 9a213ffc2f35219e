"""WSGI entry point (``gunicorn config.wsgi``).

Defaults to the production settings: a server must not start with development defaults by
accident. Set DJANGO_SETTINGS_MODULE to override.
"""

from __future__ import annotations

from django.core.wsgi import get_wsgi_application

from config import use_settings_unless_chosen

use_settings_unless_chosen("config.settings.production")

application = get_wsgi_application()
