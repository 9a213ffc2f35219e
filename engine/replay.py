"""Replaying a record: parse each line, let the referee check it, fold it into the state.

The first line that cannot be accepted stops the replay with :class:`~engine.errors.InvalidRecord`
carrying its 0-based index; nothing after it is applied.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.apply import apply
from engine.errors import BadEvent, InvalidRecord, RuleViolation
from engine.events import Event, loads
from engine.referee import check
from engine.state import GameState


def step(state: GameState, event: Event) -> GameState:
    """Check ``event`` against ``state`` and apply it (in place). Raises RuleViolation and leaves
    ``state`` untouched if the event is not allowed."""
    check(state, event)
    return apply(state, event)


def replay(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """Fold events into a new state (or onto ``state``), checking each; raises InvalidRecord."""
    return _fold(enumerate(events), GameState() if state is None else state)


def _fold(indexed_events: Iterable[tuple[int, Event]], state: GameState) -> GameState:
    for index, event in indexed_events:
        try:
            check(state, event)
        except RuleViolation as violation:
            raise InvalidRecord(index, violation) from None
        apply(state, event)
    return state


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


def replay_lines(
    lines: Iterable[str],
    state: GameState | None = None,
    accepted: list[Event] | None = None,
) -> GameState:
    """Replay a record given as lines; raises InvalidRecord at the first line not accepted,
    whether it is malformed or breaks a rule. Accepted events are added to ``accepted`` if
    given."""
    state = GameState() if state is None else state
    for index, line in enumerate(lines):
        try:
            event = loads(line)
            check(state, event)
        except RuleViolation as violation:  # BadEvent included
            raise InvalidRecord(index, violation) from None
        apply(state, event)
        if accepted is not None:
            accepted.append(event)
    return state


def replay_record(data: bytes | str) -> GameState:
    """Replay a whole record file's content."""
    return replay_lines(split_lines(data))
