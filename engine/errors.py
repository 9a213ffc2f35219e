"""The engine's two tiers of errors (house style: a user's mistake is never reported as a bug).

* :class:`RuleViolation` -- the event breaks a rule or the record format. It carries a stable
  ``code`` (listed in docs/record-format.md) and a message in the rulebook's words, meant to be
  shown to the scorekeeper as is. :class:`BadEvent` is the subclass for lines that are not
  well-formed v1 events at all.
* :class:`InvariantError` -- the engine found itself in a state the rules cannot produce. That is
  a bug in the engine, never the user's fault.
"""

from __future__ import annotations

from collections.abc import Mapping


class RuleViolation(Exception):
    """An event the rules (or the record format) do not allow.

    ``params`` holds the values the sentence is made of (player, card, suit, coins, ...) so that
    a page can say the same rule in its reader's language (games/refusals.py); where one code
    has several sentences, ``params["rule"]`` tells them apart. The ``message`` stays the
    engine's English (the CLI prints it; external tools compare it)."""

    def __init__(self, code: str, message: str, params: Mapping[str, object] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, object] = dict(params or {})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class BadEvent(RuleViolation):
    """A line that is not a well-formed v1 event (bad JSON, unknown type, bad field)."""


class InvalidRecord(Exception):
    """A record whose line ``index`` (0-based) is the first that cannot be accepted."""

    def __init__(self, index: int | None, violation: RuleViolation) -> None:
        where = "the file" if index is None else f"line {index + 1}"
        super().__init__(f"{where}: {violation.message}")
        self.index = index
        self.violation = violation

    @property
    def code(self) -> str:
        return self.violation.code

    def as_dict(self) -> dict[str, object]:
        return {"event": self.index, **self.violation.as_dict()}


class InvariantError(AssertionError):
    """The engine reached a state the rules cannot produce: a bug, not a user error."""
