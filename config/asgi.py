"""ASGI entry point (``uvicorn config.asgi:application``).

Defaults to the production settings: a server must not start with development defaults by
accident. Set DJANGO_SETTINGS_MODULE to override.
"""

from __future__ import annotations

from django.core.asgi import get_asgi_application

from config import use_settings_unless_chosen

use_settings_unless_chosen("config.settings.production")

application = get_asgi_application()
