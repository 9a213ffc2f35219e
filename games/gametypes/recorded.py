"""The parts of a game type that every engine built like Trick-n-Chef's shares: a record of
JSON lines, events parsed and encoded by the engine's ``events`` module, ``step`` that checks and
applies, ``replay_lines`` that checks a whole file.

A game whose engine has no snapshot of its own keeps, beside its state, the events that made it
(:class:`Recorded`): its snapshot is that list and restoring it replays them (its games are short:
Crazy Kitchen's record has seven events, Chefs' a few hundred).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.jsonline import split_lines
from games.gametypes.base import Placement, StandingsRule, neutral_placements


@dataclass
class Recorded:
    """An engine's state with the events (as JSON objects) that made it."""

    state: Any
    events: list[dict[str, Any]] = field(default_factory=list)


class RecordedGame:
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

    def new_state(self) -> Recorded:
        return Recorded(self.engine_new())

    def parse(self, obj: Mapping[str, Any]) -> Any:
        return self.engine_parse(obj)

    def step(self, state: Recorded, event: Any) -> None:
        self.engine_step(state.state, event)  # checks first: nothing changes when refused
        state.events.append(self.engine_encode(event))

    def encode(self, event: Any) -> dict[str, Any]:
        return self.engine_encode(event)

    def forced(self, state: Recorded) -> Any | None:
        return None

    def read_record(self, data: bytes | str) -> list[Any]:
        lines = split_lines(data)
        self.engine_replay_lines(lines)  # the engine's own check (raises InvalidRecord)
        return [self.engine_loads(line) for line in lines]

    def write_record(self, events: Sequence[Mapping[str, Any]]) -> str:
        return "".join(self.engine_dumps(self.engine_parse(e)) + "\n" for e in events)

    def snapshot(self, state: Recorded) -> dict[str, Any]:
        return {"events": list(state.events)}

    def restore(self, data: Mapping[str, Any]) -> Recorded:
        state = self.new_state()
        for obj in data.get("events", ()):
            self.step(state, self.engine_parse(obj))
        return state

    def summary(self, state: Recorded) -> dict[str, Any]:
        return self.engine_summary(state.state)

    def finished(self, state: Recorded) -> bool:
        return self.engine_over(state.state)

    def placements(self, summary: Mapping[str, Any]) -> list[Placement]:
        return neutral_placements(summary, self.name_key)
