"""What a game service refuses, each with a stable code and a message for the user."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

import engine


class GameError(Exception):
    """A refusal with a stable ``code`` and a message meant for the user."""

    code = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message}


class GameNotFound(GameError):
    code = "not_found"


class NotAllowed(GameError):
    code = "forbidden"


class KeyReused(GameError):
    code = "idempotency_key_reused"


class Refused(GameError):
    """The rules (or the game's status) refuse the change; ``index`` is the refused event's
    position in the request, or the record line for an import."""

    def __init__(
        self,
        message: str,
        code: str,
        index: int | None = None,
        violation: engine.RuleViolation | None = None,
    ) -> None:
        super().__init__(message, code)
        self.index = index
        self.violation = violation
        """The engine's refusal, when it is one: pages and the API say it in the reader's
        language (games/refusals.py); ``message`` stays the engine's English."""

    @classmethod
    def from_violation(cls, violation: engine.RuleViolation, index: int | None) -> Refused:
        return cls(violation.message, violation.code, index, violation)

    def as_dict(self) -> dict[str, Any]:
        out = super().as_dict()
        if self.index is not None:
            out["event"] = self.index
        return out


class Overtaken(GameError):
    """A write for a moment of the table that has passed (a game's own, such as a hand for a
    deal whose round has started): answered as a conflict, with the table as it stands."""

    code = "overtaken"


class Conflict(GameError):
    """Someone else appended first: the client should reload and retry."""

    code = "conflict"

    def __init__(self, current_version: int, state: Any, expected: int, what: str = "game") -> None:
        if what == "game":
            text = _(
                "the game is at version %(current)s, not %(expected)s: someone else changed it "
                "meanwhile; reload and try again"
            )
        else:
            text = _(
                "the %(what)s is at version %(current)s, not %(expected)s: someone else changed "
                "it meanwhile; reload and try again"
            )
        super().__init__(text % {"what": what, "current": current_version, "expected": expected})
        self.current_version = current_version
        self.summary = state

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "current_version": self.current_version, "state": self.summary}
