"""Reading one line of a JSON Lines record strictly, for every game's record format.

A line is one JSON object: duplicate keys and ``NaN``/``Infinity`` are refused, as are an empty
line and anything but an object (docs/record-format.md, "Reading strictly"). Each game then checks
the object's fields (engine.events for Trick-n-Chef, engine.chefs.fields for the club games).
"""

from __future__ import annotations

import json
from typing import Any, Final

from engine.errors import BadEvent


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
    return obj
