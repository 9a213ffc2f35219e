"""The translation catalogues are complete (docs/translation.md): every string the code marks
is in locale/{fr,ru,ja}, translated, not fuzzy, and each translation keeps its msgid's
placeholders. CI runs this (bin/test); a string marked without its translations fails here.

makemessages runs against a copy, so the check never edits the repository's catalogues: it
walks a temporary folder whose entries are links to the repository's (all but locale/, so
that makemessages does not find the real catalogues beside the sources), and LOCALE_PATHS
points at a copy of locale/. The catalogues are read with the small parser below
(the .po format of GNU gettext, as makemessages writes it): no dependency for a few lines.
"""

from __future__ import annotations

import ast
import fcntl
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

LANGUAGES = ("fr", "ru", "ja")
PLURAL_FORMS = {"fr": 2, "ru": 3, "ja": 1}
LOCALE = Path(settings.BASE_DIR) / "locale"

# Not a database test; marked all the same so that no backend pass ever runs it twice.
pytestmark = pytest.mark.one_backend


@dataclass
class Entry:
    context: str | None
    msgid: str
    plural: str | None = None
    strings: list[str] = field(default_factory=list)
    """msgstr, or msgstr[0], msgstr[1]... of a plural entry."""
    flags: set[str] = field(default_factory=set)

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.msgid

    def label(self) -> str:
        return f"{self.context}|{self.msgid}" if self.context else self.msgid


_KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")\s*$')


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file, header included (msgid ""), obsolete ones (#~) left out."""
    entries: list[Entry] = []
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        flags: set[str] = set()
        fields: dict[str, str] = {}
        forms: dict[int, str] = {}
        current: tuple[str, int | None] | None = None
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("#,"):
                flags |= {flag.strip() for flag in line[2:].split(",") if flag.strip()}
            if not line or line.startswith("#"):
                continue
            if line.startswith('"'):
                if current is None:
                    raise ValueError(f"{path}: a string continues nothing: {line}")
                value = ast.literal_eval(line)
                if current[1] is None:
                    fields[current[0]] += value
                else:
                    forms[current[1]] += value
                continue
            match = _KEYWORD.match(line)
            if match is None:
                raise ValueError(f"{path}: cannot read {line!r}")
            keyword, value = match.group(1), ast.literal_eval(match.group(3))
            if match.group(2) is not None:
                forms[int(match.group(2))] = value
                current = ("msgstr", int(match.group(2)))
            else:
                fields[keyword] = value
                current = (keyword, None)
        if "msgid" not in fields:
            continue  # comments only (or obsolete entries)
        strings = [fields["msgstr"]] if "msgstr" in fields else [forms[i] for i in sorted(forms)]
        entries.append(
            Entry(
                fields.get("msgctxt"), fields["msgid"], fields.get("msgid_plural"), strings, flags
            )
        )
    return entries


def catalogue(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"


SKIPPED_ENTRIES = {"locale", "var", "test-output", "node_modules", "tests"}
"""Top-level entries of the repository makemessages is not shown (dot-entries never are); the
tests' own marked strings (the toy game under tests/highcard/) are no user's."""


@pytest.fixture(scope="module")
def marked(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str | None, str], Entry]:
    """What the code marks now: makemessages run over the repository into a copy of locale/."""
    root = tmp_path_factory.mktemp("makemessages")
    copy = root / "locale"
    shutil.copytree(LOCALE, copy)
    tree = root / "tree"
    tree.mkdir()
    for entry in Path(settings.BASE_DIR).iterdir():
        if entry.name not in SKIPPED_ENTRIES and not entry.name.startswith("."):
            (tree / entry.name).symlink_to(entry)
    cwd = Path.cwd()
    os.chdir(tree)  # makemessages walks the working directory
    # makemessages writes a template's Python copy beside the template (in the repository,
    # through the links) and removes it: two test workers at once would remove each other's.
    lock = (Path(settings.BASE_DIR) / "var" / "makemessages.lock").open("w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        with override_settings(LOCALE_PATHS=[copy]):
            call_command(
                "makemessages",
                locale=["fr"],
                extensions=["html", "txt", "py"],
                no_location=True,
                no_obsolete=True,
                symlinks=True,
                verbosity=0,
            )
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()
        os.chdir(cwd)
    entries = read_po(copy / "fr" / "LC_MESSAGES" / "django.po")
    return {e.key: e for e in entries if e.msgid}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_string_is_in_the_catalogue(
    language: str, marked: dict[tuple[str | None, str], Entry]
) -> None:
    assert marked, "makemessages found no marked string at all: the check itself is broken"
    committed = {e.key for e in read_po(catalogue(language))}
    missing = sorted(e.label() for key, e in marked.items() if key not in committed)
    assert not missing, (
        f"{len(missing)} marked strings are not in locale/{language}: run "
        "`python manage.py makemessages -l fr -l ru -l ja --no-location --no-obsolete "
        f"--ignore=tests -e html,txt,py` and translate them:\n" + "\n".join(missing[:40])
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(language: str) -> None:
    entries = read_po(catalogue(language))
    header = next(e for e in entries if e.msgid == "" and e.context is None)
    assert "fuzzy" not in header.flags, "the header is fuzzy: Django would ignore the catalogue"
    assert f"Language: {language}\n" in header.strings[0]
    assert "charset=UTF-8" in header.strings[0]
    assert f"nplurals={PLURAL_FORMS[language]};" in header.strings[0]
    fuzzy = [e.label() for e in entries if "fuzzy" in e.flags and e.msgid]
    assert not fuzzy, f"fuzzy in locale/{language}:\n" + "\n".join(fuzzy)
    untranslated = [e.label() for e in entries if e.msgid and not all(e.strings)]
    assert not untranslated, f"untranslated in locale/{language}:\n" + "\n".join(untranslated)
    wrong = [
        e.label()
        for e in entries
        if e.plural is not None and len(e.strings) != PLURAL_FORMS[language]
    ]
    assert not wrong, f"plural entries without {PLURAL_FORMS[language]} forms:\n" + "\n".join(wrong)


_PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?([sdifrx%])")


def placeholders(text: str) -> list[str]:
    """The python-format placeholders of ``text``: names (sorted), or positional conversions."""
    found = [name or f"#{kind}" for name, kind in _PLACEHOLDER.findall(text) if kind != "%"]
    return sorted(found)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_keeps_the_placeholders(language: str) -> None:
    bad = []
    for e in read_po(catalogue(language)):
        if not e.msgid or "python-format" not in e.flags:
            continue
        wanted = placeholders(e.plural if e.plural is not None else e.msgid)
        for i, text in enumerate(e.strings):
            if placeholders(text) != wanted:
                bad.append(f"{e.label()} [{i}]: {text!r}")
    assert not bad, f"placeholders changed in locale/{language}:\n" + "\n".join(bad)


@pytest.mark.parametrize("language", LANGUAGES)
def test_msgfmt_checks_and_counts_the_catalogue(language: str, tmp_path: Path) -> None:
    """GNU msgfmt's own checks (format strings, headers), as compilemessages runs it."""
    if shutil.which("msgfmt") is None:
        pytest.fail(
            "GNU gettext's msgfmt is missing: install gettext (Debian: apt-get install gettext)"
        )
    done = subprocess.run(
        [
            "msgfmt",
            "--check",
            "--statistics",
            "-o",
            str(tmp_path / "django.mo"),
            catalogue(language),
        ],
        capture_output=True,
        text=True,
        env={"LC_ALL": "C", "PATH": "/usr/bin:/bin:/usr/local/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"^\d+ translated messages\.$", done.stderr, re.M), done.stderr
