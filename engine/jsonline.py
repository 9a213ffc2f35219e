"""Reading one line of a JSON Lines record strictly, for every game's record format.

A line is one JSON object: duplicate keys and ``NaN``/``Infinity`` are refused, as are an empty
line, anything but an object and a string holding a lone surrogate (docs/record-format.md,
"Reading strictly"). Each game then checks the object's fields (engine.tricknchef.events for
Trick-n-Chef, engine.fields for the club games).
"""

from __future__ import annotations

import json
import re
from typing import Any, Final, NamedTuple

from engine.errors import BadEvent, InvalidRecord


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a record")


_decoder: Final = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_constant=_reject_constant)

SURROGATE: Final = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate: in a Python string, always a lone one (a pair is decoded as the one
character it encodes)."""
_MAY_HOLD_SURROGATE: Final = re.compile(r"\\u[dD][89abcdefABCDEF]|[\ud800-\udfff]")
"""JSON text that may decode to a lone surrogate: an escape of one (``\\ud800``), or one
itself (text read from UTF-8 holds none)."""


class Found(NamedTuple):
    """Where a decoded JSON value holds a character looked for: the path to the string (or key)
    holding it, and the character's code point (``U+D800``)."""

    path: str
    code_point: str


def find_character(value: Any, character: re.Pattern[str]) -> Found | None:
    """The first string (or key) of ``value`` that holds ``character``, in document order, or
    None. Iterative: a value nested as deep as the decoder allows is walked without recursion."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, str):
            found = character.search(node)
            if found is not None:
                return Found(path, f"U+{ord(found.group()):04X}")
        elif isinstance(node, dict):
            steps = []
            for key, item in node.items():
                step = f"{path}.{_key(key)}" if path else _key(key)
                found = character.search(key) if isinstance(key, str) else None
                if found is not None:
                    return Found(step, f"U+{ord(found.group()):04X}")
                steps.append((step, item))
            stack.extend(reversed(steps))
        elif isinstance(node, list):
            stack.extend(reversed([(f"{path}[{i}]", item) for i, item in enumerate(node)]))
    return None


def lone_surrogate(value: Any, text: str | None = None) -> Found | None:
    """The first string (or key) of ``value`` that holds a lone surrogate, or None. JSON allows
    ``"\\ud800"``, but it is half of a character, not text: no database stores it and no UTF-8
    encoder writes it (RFC 7493, I-JSON, forbids it). ``text``, the JSON that ``value`` was
    decoded from, lets the common case skip the walk."""
    if text is not None and _MAY_HOLD_SURROGATE.search(text) is None:
        return None
    return find_character(value, SURROGATE)


def _key(key: Any) -> str:
    """A key as a path shows it: as it is, or as JSON (ASCII) when it is not plain."""
    text = str(key)
    return text if text.isidentifier() else json.dumps(text)


def decode_object(line: str) -> dict[str, Any]:
    """The JSON object on ``line``, or BadEvent (``bad_json``; ``bad_event`` for a duplicate
    key)."""
    try:
        obj = _decoder.decode(line)
    except _DuplicateKey as exc:
        raise BadEvent(
            "bad_event",
            f'the key "{exc.key}" appears twice',
            {"rule": "duplicate_key", "key": exc.key},
        ) from None
    except RecursionError:
        raise BadEvent(
            "bad_json", "the line is not valid JSON (nested too deeply)", {"rule": "too_deep"}
        ) from None
    except ValueError as exc:
        if not line.strip():
            raise BadEvent(
                "bad_json",
                "the line is empty: every line must hold one event",
                {"rule": "empty_line"},
            ) from None
        raise BadEvent(
            "bad_json",
            f"the line is not valid JSON ({exc})",
            {"rule": "invalid", "detail": str(exc)},
        ) from None
    if not isinstance(obj, dict):
        raise BadEvent(
            "bad_json", "the line is not a JSON object: an event is {...}", {"rule": "not_object"}
        )
    found = lone_surrogate(obj, line)
    if found is not None:
        raise BadEvent(
            "bad_json",
            f"the line is not valid JSON text: {found.path} holds a lone surrogate "
            f"({found.code_point}), half of a character",
            {"rule": "lone_surrogate", "at": found.path, "code_point": found.code_point},
        )
    return obj


def split_lines(data: bytes | str) -> list[str]:
    """A record's lines: UTF-8 (a leading BOM allowed), ``\\n`` or ``\\r\\n`` line ends, an
    optional final line end. Raises InvalidRecord for a line that is not UTF-8."""
    if isinstance(data, str):
        text_lines = data.split("\n")
    else:
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        text_lines = []
        for index, raw in enumerate(data.split(b"\n")):
            try:
                text_lines.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                raise InvalidRecord(
                    index, BadEvent("bad_json", "the line is not UTF-8 text", {"rule": "not_utf8"})
                ) from None
    if text_lines and text_lines[-1] == "":
        text_lines.pop()  # the final line end
    if text_lines and text_lines[0].startswith("\ufeff"):
        text_lines[0] = text_lines[0][1:]
    return [line[:-1] if line.endswith("\r") else line for line in text_lines]
