"""Game types: what the event store and tournaments need to know about a game, and no more.

The store and the tournament code never import a rules engine directly; they ask the game's type
(looked up by key in :data:`GAME_TYPES`). Trick-n-Chef is the first; other cooking games (2 to 6
players, one played by two teams) will add their own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import engine
from engine.referee import forced_next
from engine.replay import split_lines
from engine.results import check_results, results_summary
from engine.snapshot import from_snapshot, to_snapshot


@dataclass(frozen=True, slots=True)
class Placement:
    """One player's result in a finished game."""

    player: str
    seat: int
    rank: int
    total: int
    last_round: int
    round_scores: tuple[int, ...]


class GameType(Protocol):
    key: str
    name: str
    table_sizes: tuple[int, ...]
    record_types: frozenset[str]
    """The event types of this game's record format (what scorekeepers append)."""

    def start(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """The record's first event (as its JSON object) for a new table."""
        ...

    def table_options(self, players: int) -> dict[str, Any]:
        """Options for ``start`` at a tournament table of this many players."""
        ...

    def new_state(self) -> Any: ...

    def parse(self, obj: Mapping[str, Any]) -> Any:
        """A record event from its JSON object; raises engine.RuleViolation."""
        ...

    def step(self, state: Any, event: Any) -> None:
        """Check and apply; raises engine.RuleViolation and leaves ``state`` as it was."""
        ...

    def encode(self, event: Any) -> dict[str, Any]:
        """The event's JSON object in canonical form (with its ``type``)."""
        ...

    def forced(self, state: Any) -> Any | None:
        """The next event when the rules leave its player no choice (None: a choice, or the
        game waits for no player)."""
        ...

    def read_record(self, data: bytes | str) -> list[Any]:
        """Parse and check a whole record file; raises engine.InvalidRecord at the first bad
        line."""
        ...

    def write_record(self, events: Sequence[Mapping[str, Any]]) -> str:
        """A record file from the events' JSON objects."""
        ...

    def snapshot(self, state: Any) -> dict[str, Any]: ...

    def restore(self, data: Mapping[str, Any]) -> Any: ...

    def summary(self, state: Any) -> dict[str, Any]: ...

    def finished(self, state: Any) -> bool: ...

    def results(
        self,
        players: Sequence[str],
        scores: Mapping[str, Any],
        totals: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        """Check a results-only entry; return the summary it gives (raises RuleViolation)."""
        ...

    def placements(self, summary: Mapping[str, Any]) -> list[Placement]: ...


class TrickNChef:
    key: str = "trick-n-chef"
    name: str = "Trick-n-Chef"
    table_sizes: tuple[int, ...] = (3, 4)
    record_types: frozenset[str] = frozenset(engine.events.EVENT_TYPES)

    def start(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        event: dict[str, Any] = {"type": "game_started", "players": list(players)}
        if options.get("suits") is not None:
            event["suits"] = options["suits"]
        return event

    def table_options(self, players: int) -> dict[str, Any]:
        """At a table of 3, one suit goes back to the box: the tournament uses blue (noodles)."""
        return {"suits": ["green", "red", "yellow"]} if players == 3 else {}

    def new_state(self) -> engine.GameState:
        return engine.GameState()

    def parse(self, obj: Mapping[str, Any]) -> engine.Event:
        return engine.events.from_json(obj)

    def step(self, state: engine.GameState, event: engine.Event) -> None:
        engine.step(state, event)

    def encode(self, event: engine.Event) -> dict[str, Any]:
        return engine.events.to_json(event)

    def forced(self, state: engine.GameState) -> engine.Event | None:
        return forced_next(state)

    def read_record(self, data: bytes | str) -> list[engine.Event]:
        events: list[engine.Event] = []
        engine.replay_lines(split_lines(data), accepted=events)
        return events

    def write_record(self, events: Sequence[Mapping[str, Any]]) -> str:
        """The canonical record: each event re-encoded by the engine (a database may have
        reordered keys), hands in seat order."""
        parsed = [engine.events.from_json(e) for e in events]
        seats: dict[str, int] = {}
        lines = []
        for event in parsed:
            if isinstance(event, engine.GameStarted):
                seats = {p: i for i, p in enumerate(event.players)}
            elif isinstance(event, engine.RoundStarted):
                hands = tuple(sorted(event.hands, key=lambda hand: seats.get(hand[0], 0)))
                event = dataclasses.replace(event, hands=hands)
            lines.append(engine.dumps(event) + "\n")
        return "".join(lines)

    def snapshot(self, state: engine.GameState) -> dict[str, Any]:
        return to_snapshot(state)

    def restore(self, data: Mapping[str, Any]) -> engine.GameState:
        return from_snapshot(dict(data))

    def summary(self, state: engine.GameState) -> dict[str, Any]:
        return engine.summarize(state)

    def finished(self, state: engine.GameState) -> bool:
        return state.finished

    def results(
        self,
        players: Sequence[str],
        scores: Mapping[str, Any],
        totals: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        check_results(players, scores, totals)
        return results_summary(players, scores)

    def placements(self, summary: Mapping[str, Any]) -> list[Placement]:
        players = summary["players"]
        rounds = summary["rounds"]
        return [
            Placement(
                player=entry["player"],
                seat=players.index(entry["player"]) + 1,
                rank=entry["rank"],
                total=entry["total"],
                last_round=entry["last_round"],
                round_scores=tuple(r["scores"][entry["player"]] for r in rounds),
            )
            for entry in summary["ranking"]
        ]


GAME_TYPES: dict[str, GameType] = {TrickNChef.key: TrickNChef()}
DEFAULT_GAME_TYPE = TrickNChef.key
