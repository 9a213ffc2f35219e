"""Secrets this machine makes once and keeps (``bin/run``: the secret key, the demo logins'
passwords), in files only their owner may read (mode 0600), in ``var/`` (ignored by git)."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable
from pathlib import Path

PRIVATE = 0o600


def read_private(path: Path) -> str | None:
    """The file's text, stripped (None if it is missing, unreadable or empty); a file others may
    read is made the owner's only."""
    try:
        text = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if path.stat().st_mode & 0o777 != PRIVATE:
        path.chmod(PRIVATE)
    return text or None


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, the file the owner's only from its first byte."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def kept_secret(path: Path, make: Callable[[], str]) -> str:
    """The secret kept in ``path``; made by ``make`` and kept there the first time."""
    kept = read_private(path)
    if kept is None:
        kept = make()
        write_private(path, kept + "\n")
    return kept
