"""Helpers of the translation tests: the catalogues compiled (the .mo files are build output,
made by bin/test, bin/run and the Dockerfile; a plain pytest run makes them here if they are
missing or older than their .po), and what a page says in a language."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from django.conf import settings
from django.utils import translation
from django.utils.translation import trans_real

LANGUAGES = ("en", "fr", "ru", "ja")
TRANSLATED = ("fr", "ru", "ja")


def ensure_compiled() -> None:
    """Compile locale/*/LC_MESSAGES/django.po whose .mo is missing or older (atomically: two
    test processes may do it at once), and forget the catalogues this process loaded."""
    changed = False
    for po in sorted(Path(settings.BASE_DIR, "locale").glob("*/LC_MESSAGES/django.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        if shutil.which("msgfmt") is None:
            raise RuntimeError("GNU gettext's msgfmt is missing: apt-get install gettext")
        handle, temporary = tempfile.mkstemp(dir=po.parent, suffix=".mo.tmp")
        os.close(handle)
        subprocess.run(["msgfmt", "--check", "-o", temporary, str(po)], check=True)
        os.replace(temporary, mo)
        changed = True
    if changed:
        trans_real._translations = {}  # type: ignore[attr-defined]
        trans_real._default = None  # type: ignore[attr-defined]
        translation.deactivate()


def said(language: str, message: str, context: str | None = None) -> str:
    """``message`` as the catalogue of ``language`` says it (checked to be translated)."""
    with translation.override(language):
        if context is None:
            result = translation.gettext(message)
        else:
            result = translation.pgettext(context, message)
    if language != "en":
        assert result != message, f"{message!r} is not translated in {language}"
    return result
