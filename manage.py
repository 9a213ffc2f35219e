#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

from __future__ import annotations

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        # The settings first: one that is missing or wrong (SECRET_KEY, LOG_FORMAT, PUBLIC_URL)
        # is refused in one line that says what to set, not in a traceback through Django.
        settings.INSTALLED_APPS  # noqa: B018
    except ImproperlyConfigured as error:
        sys.exit(f"ImproperlyConfigured: {error}")
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
