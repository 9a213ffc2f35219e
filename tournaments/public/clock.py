"""The round clock as the pages show it (pure): which round's clock, when it ends, and the
words around it. The browser counts down from the server's time (static/js/clock.js asks
``/t/<id>/clock/`` for it every minute); the end time is printed for readers without
JavaScript."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from tournaments.domain import TournamentState


@dataclass(frozen=True, slots=True)
class Clock:
    round: int
    ends_at: datetime
    """Aware (templates show it in the site's time zone)."""

    @property
    def iso(self) -> str:
        return self.ends_at.isoformat()

    def text(self, tz: tzinfo) -> str:
        return f"Round {self.round} ends at {self.ends_at.astimezone(tz):%H:%M}."

    @property
    def over_text(self) -> str:
        return f"Round {self.round}: time is up."

    def left_seconds(self, now: datetime) -> int:
        return max(0, int((self.ends_at - now).total_seconds()))


def round_clock(summary: Mapping[str, Any]) -> Clock | None:
    """The clock of the tournament's current round as this user sees it (the services'
    summary), if it has one: a published round's, never a closed one's."""
    rounds = summary.get("rounds") or []
    if not rounds or summary.get("status") == "finished":
        return None
    current = rounds[-1]
    ends_at = current.get("ends_at")
    if current["status"] != "published" or not ends_at:
        return None
    return Clock(int(current["round"]), datetime.fromisoformat(ends_at))


def state_clock(state: TournamentState) -> Clock | None:
    """The same clock read from the tournament's state (the clock's JSON, asked often)."""
    last = state.last_round
    if last is None or state.status == "finished" or last.status != "published":
        return None
    if last.ends_at is None:
        return None
    return Clock(last.number, datetime.fromisoformat(last.ends_at))


def clock_json(clock: Clock | None, now: datetime, tz: tzinfo) -> dict[str, Any]:
    """What the browser's clock is told: the server's time, and the clock now."""
    if clock is None:
        return {"now": now.isoformat(), "clock": None}
    return {
        "now": now.isoformat(),
        "clock": {
            "round": clock.round,
            "ends_at": clock.iso,
            "text": clock.text(tz),
            "over": clock.over_text,
        },
    }


def left_text(seconds: int) -> str:
    """The time left as a clock shows it: 1:05:09, 12:04, 0:09."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
