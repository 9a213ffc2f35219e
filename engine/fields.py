"""Typed, strict access to a record line's fields (shared by the club games' record formats:
Chefs and Crazy Kitchen; the line itself is read by engine.jsonline).

The same strictness as Trick-n-Chef's record v1 (docs/record-format.md, "Reading strictly"): a
line is one JSON object; duplicate keys, ``NaN``/``Infinity``, unknown or missing fields and
mistyped values (``true`` is not a number, ``1.0`` is not a whole number) are refused with
:class:`~engine.errors.BadEvent` (codes ``bad_json`` and ``bad_event``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from engine.errors import BadEvent


class Fields:
    """Typed access to an event's JSON fields that refuses anything the format does not
    define. Call :meth:`done` last: it refuses fields no getter asked for."""

    __slots__ = ("game", "kind", "obj", "used", "version")

    def __init__(self, kind: str, obj: Mapping[str, Any], version: str, game: str = "") -> None:
        self.kind = kind
        self.obj = obj
        self.used = {"type"}
        self.version = version
        self.game = game
        """The record's game, for the refusals' params (games/refusals.py)."""

    def bad(self, code: str, message: str, **params: object) -> BadEvent:
        """A refusal of the record format with the values its sentence is made of."""
        return BadEvent(code, message, {"game": self.game, **params})

    def get(self, key: str) -> Any:
        self.used.add(key)
        if key not in self.obj:
            raise self.bad(
                "bad_event",
                f'{self.kind} needs a "{key}" field',
                rule="missing_field",
                type=self.kind,
                field=key,
            )
        return self.obj[key]

    def has(self, key: str) -> bool:
        return key in self.obj

    def wrong(self, key: str, expected: str) -> BadEvent:
        got = json.dumps(self.obj[key], ensure_ascii=False)
        return self.bad(
            "bad_event",
            f'"{key}" must be {expected}, not {got}',
            rule="wrong_type",
            field=key,
            expected=expected,
            got=got,
        )

    def string(self, key: str) -> str:
        value = self.get(key)
        if type(value) is not str:
            raise self.wrong(key, "a string")
        return value

    def integer(self, key: str) -> int:
        value = self.get(key)
        if type(value) is not int:  # bool is an int in Python but not in the format
            raise self.wrong(key, "a whole number")
        return value

    def boolean(self, key: str) -> bool:
        value = self.get(key)
        if type(value) is not bool:
            raise self.wrong(key, "true or false")
        return value

    def strings(self, key: str) -> tuple[str, ...]:
        value = self.get(key)
        if type(value) is not list or not all(type(v) is str for v in value):
            raise self.wrong(key, "a list of strings")
        return tuple(value)

    def integers(self, key: str) -> tuple[int, ...]:
        value = self.get(key)
        if type(value) is not list or not all(type(v) is int for v in value):
            raise self.wrong(key, "a list of whole numbers")
        return tuple(value)

    def done(self) -> None:
        extra = [key for key in self.obj if key not in self.used]
        if extra:
            names = ", ".join(f'"{key}"' for key in extra)
            raise self.bad(
                "bad_event",
                f"{self.kind} has no field {names} in {self.version}",
                rule="extra_field",
                type=self.kind,
                fields=extra,
            )
