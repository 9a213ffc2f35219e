"""WSGI entry point (``gunicorn config.wsgi``).

Defaults to the production settings: a server must not start with development defaults by
accident. Set DJANGO_SETTINGS_MODULE to override.
"""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

application = get_wsgi_application()
