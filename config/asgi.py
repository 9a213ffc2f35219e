"""ASGI entry point (``uvicorn config.asgi:application``).

Defaults to the production settings: a server must not start with development defaults by
accident. Set DJANGO_SETTINGS_MODULE to override.
"""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

application = get_asgi_application()
