"""Trick-n-Chef as a game type (games.gametypes.base.GameType): record format v1, refereed by
``engine``."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_noop

import engine
from engine import tricknchef
from engine.jsonline import split_lines
from engine.tricknchef.referee import forced_next
from engine.tricknchef.results import check_results, results_summary
from engine.tricknchef.simulate import simulate
from engine.tricknchef.snapshot import from_snapshot, to_snapshot
from games.gametypes.base import DemoTournament, Placement, StandingsRule, every_seat


class TrickNChef:
    key: str = "trick-n-chef"
    name: str = "Trick-n-Chef"
    table_sizes: tuple[int, ...] = (3, 4)
    teams: bool = False
    team_members: tuple[int, int] | None = None
    first_player_rule: bool = True
    record_types: frozenset[str] = frozenset(engine.tricknchef.events.EVENT_TYPES)
    pages: str = "games.tricknchef.pages"
    api: str = "games.tricknchef.api"
    refusals: str = "games.tricknchef.refusals"
    phone: str | None = "games.tricknchef.phone"
    queued_taps: str | None = "games.tricknchef.queue"
    hands: str | None = "games.tricknchef.hands"
    statistics: str | None = "games.tricknchef.statistics"
    tiebreak_names: tuple[str, ...] = (gettext_noop("deal 3"),)
    """The rulebook's tie-break: the points of the third (last) deal."""
    standings_rule: StandingsRule | None = None
    tiebreak_as_last_round: bool = True
    """Its results have always given deal 3's points as ``last_round``."""
    """Ranked by the victory points' totals and the Swiss tie-breaks (tournaments.standings)."""
    demo: DemoTournament | None = None
    """The demo's club night is this game's (tournaments.demo): no tournament beside it."""

    def start(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        event: dict[str, Any] = {"type": "game_started", "players": list(players)}
        if options.get("suits") is not None:
            event["suits"] = options["suits"]
        return event

    def table_options(self, players: int) -> dict[str, Any]:
        """At a table of 3, one suit goes back to the box: the tournament uses blue (noodles)."""
        return {"suits": ["green", "red", "yellow"]} if players == 3 else {}

    def new_state(self) -> tricknchef.GameState:
        return tricknchef.GameState()

    def parse(self, obj: Mapping[str, Any]) -> tricknchef.Event:
        return engine.tricknchef.events.from_json(obj)

    def step(self, state: tricknchef.GameState, event: tricknchef.Event) -> None:
        tricknchef.step(state, event)

    def encode(self, event: tricknchef.Event) -> dict[str, Any]:
        return engine.tricknchef.events.to_json(event)

    def forced(self, state: tricknchef.GameState) -> tricknchef.Event | None:
        return forced_next(state)

    def read_record(self, data: bytes | str) -> list[tricknchef.Event]:
        events: list[tricknchef.Event] = []
        tricknchef.replay_lines(split_lines(data), accepted=events)
        return events

    def write_record(self, events: Sequence[Mapping[str, Any]]) -> str:
        """The canonical record: each event re-encoded by the engine (a database may have
        reordered keys), hands in seat order."""
        parsed = [engine.tricknchef.events.from_json(e) for e in events]
        seats: dict[str, int] = {}
        lines = []
        for event in parsed:
            if isinstance(event, tricknchef.GameStarted):
                seats = {p: i for i, p in enumerate(event.players)}
            elif isinstance(event, tricknchef.RoundStarted):
                hands = tuple(sorted(event.hands, key=lambda hand: seats.get(hand[0], 0)))
                event = dataclasses.replace(event, hands=hands)
            lines.append(tricknchef.dumps(event) + "\n")
        return "".join(lines)

    def snapshot(self, state: tricknchef.GameState) -> dict[str, Any]:
        return to_snapshot(state)

    def restore(self, data: Mapping[str, Any]) -> tricknchef.GameState:
        return from_snapshot(dict(data))

    def summary(self, state: tricknchef.GameState) -> dict[str, Any]:
        return tricknchef.summarize(state)

    def finished(self, state: tricknchef.GameState) -> bool:
        return state.finished

    def results(self, state: tricknchef.GameState, entry: Mapping[str, Any]) -> dict[str, Any]:
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

    def phone_seats(
        self, players: Sequence[str], summary: Mapping[str, Any]
    ) -> list[tuple[int, str]]:
        return every_seat(players)

    def demo_record(self, seed: int, players: Sequence[str]) -> list[dict[str, Any]]:
        """A simulated game at the table's names, seat 1 leading round 1 (at a table of 3, the
        tournament's suits: table_options)."""
        names = tuple(players)
        suits = self.table_options(len(names)).get("suits")
        events = simulate(
            seed,
            len(names),
            names=names,
            first_player=names[0],
            suits=tuple(suits) if suits is not None else None,
        )
        return [engine.tricknchef.events.to_json(e) for e in events[1:]]
