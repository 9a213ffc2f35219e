"""The shared base of the game types over an engine package (:class:`EngineGameType`, the club
games' types subclass it and name the engine's functions): a record of JSON lines, events parsed
and encoded by the engine's ``events`` module, ``step`` that checks and applies, ``replay_lines``
that checks a whole file.

A game whose engine has no snapshot of its own keeps, beside its state, the events that made it
(:class:`EngineState`): its snapshot is that list and restoring it replays them (its games are
short: Crazy Kitchen's record has seven events, Chefs' a few hundred).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.jsonline import split_lines
from engine.registry import RULES
from games.gametypes.base import (
    DemoTournament,
    Placement,
    StandingsRule,
    every_seat,
    neutral_placements,
)


@dataclass
class EngineState:
    """An engine's state with the events (as JSON objects) that made it."""

    state: Any
    events: list[dict[str, Any]] = field(default_factory=list)


class EngineGameType:
    """A game type over an engine package; subclasses name its functions."""

    key: str
    name: str
    table_sizes: tuple[int, ...]
    teams: bool = False
    team_members: tuple[int, int] | None = None
    first_player_rule: bool = False
    tiebreak_names: tuple[str, ...] = ()
    standings_rule: StandingsRule | None = None
    tiebreak_as_last_round: bool = False
    record_types: frozenset[str]
    pages: str
    api: str
    refusals: str
    phone: str | None = None
    queued_taps: str | None = None
    hands: str | None = None
    statistics: str | None = None
    demo: DemoTournament | None = None
    name_key: str = "player"
    """The key that names an entrant in the summary's ``ranking``."""

    # The engine's functions (staticmethod-wrapped in subclasses).
    engine_new: Callable[[], Any]
    engine_parse: Callable[[Mapping[str, Any]], Any]
    engine_encode: Callable[[Any], dict[str, Any]]
    engine_step: Callable[[Any, Any], Any]
    engine_summary: Callable[[Any], dict[str, Any]]
    engine_over: Callable[[Any], bool]
    """Whether the game is over (what the summary's "finished" status says, without building
    the summary: the store asks after every append)."""
    engine_loads: Callable[[str], Any]
    engine_dumps: Callable[[Any], str]
    engine_replay_lines: Callable[[Sequence[str]], Any]

    def start(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        return {"type": "game_started", "game": self.key, "players": list(players)}

    def table_options(self, players: int) -> dict[str, Any]:
        return {}

    def new_state(self) -> EngineState:
        return EngineState(self.engine_new())

    def parse(self, obj: Mapping[str, Any]) -> Any:
        return self.engine_parse(obj)

    def step(self, state: EngineState, event: Any) -> None:
        self.engine_step(state.state, event)  # checks first: nothing changes when refused
        state.events.append(self.engine_encode(event))

    def encode(self, event: Any) -> dict[str, Any]:
        return self.engine_encode(event)

    def forced(self, state: EngineState) -> Any | None:
        return None

    def read_record(self, data: bytes | str) -> list[Any]:
        lines = split_lines(data)
        self.engine_replay_lines(lines)  # the engine's own check (raises InvalidRecord)
        return [self.engine_loads(line) for line in lines]

    def write_record(self, events: Sequence[Mapping[str, Any]]) -> str:
        return "".join(self.engine_dumps(self.engine_parse(e)) + "\n" for e in events)

    def snapshot(self, state: EngineState) -> dict[str, Any]:
        return {"events": list(state.events)}

    def restore(self, data: Mapping[str, Any]) -> EngineState:
        state = self.new_state()
        for obj in data.get("events", ()):
            self.step(state, self.engine_parse(obj))
        return state

    def summary(self, state: EngineState) -> dict[str, Any]:
        return self.engine_summary(state.state)

    def finished(self, state: EngineState) -> bool:
        return self.engine_over(state.state)

    def placements(self, summary: Mapping[str, Any]) -> list[Placement]:
        return neutral_placements(summary, self.name_key)

    def phone_seats(
        self, players: Sequence[str], summary: Mapping[str, Any]
    ) -> list[tuple[int, str]]:
        return every_seat(players)

    def demo_record(self, seed: int, players: Sequence[str]) -> list[dict[str, Any]]:
        """The engine's simulated game, its players renamed to the table's: the one who starts
        round 1 (where the record names a ``first_player``; else the first simulated) becomes
        seat 1, the others following in the same turn order."""
        record = RULES[self.key].simulate(seed, len(players))
        simulated = list(record[0]["players"])
        first = next(
            (e["first_player"] for e in record if e.get("round") == 1 and "first_player" in e),
            simulated[0],
        )
        start = simulated.index(first)
        names = {simulated[(start + i) % len(simulated)]: seat for i, seat in enumerate(players)}
        return [renamed(event, names) for event in record[1:]]


def renamed(value: Any, names: Mapping[str, str]) -> Any:
    """A record's JSON with its players' (or teams') names replaced, keys too."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): renamed(v, names) for k, v in value.items()}
    return value
