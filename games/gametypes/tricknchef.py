"""Trick-n-Chef as a game type (games.gametypes.base.GameType): record format v1, refereed by
``engine``."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_noop

import engine
from engine.referee import forced_next
from engine.replay import split_lines
from engine.results import check_results, results_summary
from engine.snapshot import from_snapshot, to_snapshot
from games.gametypes.base import Placement, StandingsRule


class TrickNChef:
    key: str = "trick-n-chef"
    name: str = "Trick-n-Chef"
    table_sizes: tuple[int, ...] = (3, 4)
    teams: bool = False
    team_members: tuple[int, int] | None = None
    first_player_rule: bool = True
    record_types: frozenset[str] = frozenset(engine.events.EVENT_TYPES)
    pages: str = "games.pages.tricknchef"
    tiebreak_names: tuple[str, ...] = (gettext_noop("deal 3"),)
    """The rulebook's tie-break: the points of the third (last) deal."""
    standings_rule: StandingsRule | None = None
    tiebreak_as_last_round: bool = True
    """Its results have always given deal 3's points as ``last_round``."""
    """Ranked by the victory points' totals and the Swiss tie-breaks (tournaments.standings)."""

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

    def results(self, state: engine.GameState, entry: Mapping[str, Any]) -> dict[str, Any]:
        """``entry``: ``{"scores": {player: [r1, r2, r3]}, "totals": {...}}`` (totals
        optional, checked against the sums)."""
        players = list(state.players)
        scores = entry.get("scores")
        totals = entry.get("totals")
        if not isinstance(scores, Mapping) or not isinstance(totals, Mapping | None):
            raise engine.RuleViolation(
                "bad_results", "the results need each player's three round scores"
            )
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
                points=entry["total"],
                tiebreaks=(entry["last_round"],),
                round_scores=tuple(r["scores"][entry["player"]] for r in rounds),
            )
            for entry in summary["ranking"]
        ]
