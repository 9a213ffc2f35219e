"""Crazy Kitchen as a game type: Crazy Kitchen record format v2 for new tables (v1 records still
read and replay; docs/crazykitchen-record-format.md), refereed by ``engine.crazykitchen``. Its
entrants are the two teams: a table's "players" are the teams' names, seat 1 cooks first; each
team's phone is its head chef's (CK1.5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_noop

from engine.crazykitchen import RULES, events
from engine.crazykitchen.replay import replay_lines, step
from engine.crazykitchen.results import results
from engine.crazykitchen.rules import MIN_TEAM, PLAYER_COUNTS
from engine.crazykitchen.state import KitchenState
from engine.crazykitchen.summary import summarize
from engine.errors import RuleViolation
from games.gametypes.base import DemoTournament, Placement, StandingsRule
from games.gametypes.engine_backed import EngineGameType, EngineState, renamed


class CrazyKitchen(EngineGameType):
    key = events.GAME
    name = "Crazy Kitchen"
    table_sizes: tuple[int, ...] = (2,)
    teams = True
    team_members: tuple[int, int] | None = (MIN_TEAM, PLAYER_COUNTS[-1] // 2)
    name_key = "team"
    record_types = frozenset(events.EVENT_TYPES)
    pages = "games.crazykitchen.pages"
    api = "games.crazykitchen.api"
    refusals = "games.crazykitchen.refusals"
    phone: str | None = "games.crazykitchen.phone"
    statistics: str | None = "games.crazykitchen.statistics"
    standings_rule: StandingsRule | None = StandingsRule(
        "match",
        ("point_difference", "points_scored"),
        game_points=(
            gettext_noop("Points scored"),
            gettext_noop("The team's points added up over all its matches (a bye adds none)."),
        ),
        entrant=gettext_noop("Team"),
        points=gettext_noop("Match points"),
        order=gettext_noop(
            "%(game)s ranks teams by match points (2 for a win, 1 for a draw), then point "
            "difference, then points scored"
        ),
    )
    demo: DemoTournament | None = DemoTournament(
        "Demo Crazy Kitchen cup",
        {
            "Pizza": ("Vera", "Wim"),
            "French Fries": ("Xia", "Yusuf", "Zoe"),
            "Sushi": ("Abel", "Bea"),
            "Tacos": ("Cem", "Dina", "Egon"),
            "Ramen": ("Fritz", "Gaia"),
            "Curry": ("Hugo", "Iris"),
        },
    )
    engine_new = staticmethod(KitchenState)
    engine_parse = staticmethod(events.from_json)
    engine_encode = staticmethod(events.to_json)
    engine_step = staticmethod(step)
    engine_over = staticmethod(lambda state: state.over)
    engine_loads = staticmethod(events.loads)
    engine_dumps = staticmethod(events.dumps)
    engine_replay_lines = staticmethod(replay_lines)

    @staticmethod
    def engine_summary(state: KitchenState) -> dict[str, Any]:
        return {**summarize(state), "players": list(state.names)}

    def start(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """A v2 record's start. ``players``: the two teams' names, the team that cooks first
        first; ``options``: ``members`` (each team's players by team name), an optional
        ``head_chefs`` (each team's head chef by team name; else its first player) and an
        optional ``compensation``."""
        members = options.get("members") or {}
        heads = options.get("head_chefs") or {}
        teams = []
        for team in players:
            names = list(members.get(team, ()))
            head = heads.get(team) or (names[0] if names else "")
            teams.append({"name": team, "players": names, "head_chef": head})
        event: dict[str, Any] = {
            "type": "game_started",
            "game": self.key,
            "version": 2,
            "teams": teams,
            "cooks_first": players[0] if players else "",
        }
        if options.get("compensation") is not None:
            event["compensation"] = options["compensation"]
        return event

    def results(self, state: EngineState, entry: Mapping[str, Any]) -> dict[str, Any]:
        """``entry``: ``{"scores": [six round scores]}`` with an optional ``compensation``;
        who cooked first comes from the game's start."""
        kitchen: KitchenState = state.state
        if not kitchen.started:
            raise RuleViolation(
                "bad_results",
                "the game must be started before its results",
                {"game": self.key, "rule": "not_started"},
            )
        teams = [{"name": name, "players": list(members)} for name, members in kitchen.teams]
        full = {"cooks_first": kitchen.cooks_first, **entry}
        started = state.events[0] if state.events else {}
        if "compensation" not in entry and started.get("compensation") is not None:
            full["compensation"] = started["compensation"]  # as the organizer set it
        return {**results(teams, full), "players": list(kitchen.names)}

    def placements(self, summary: Mapping[str, Any]) -> list[Placement]:
        """The teams' places; a summary straight from the engine (``python -m engine replay``)
        has no ``players``: the teams in the record's order are the seats."""
        if "players" not in summary:
            summary = {**summary, "players": [t["name"] for t in summary.get("teams", ())]}
        return super().placements(summary)

    def phone_seats(
        self, players: Sequence[str], summary: Mapping[str, Any]
    ) -> list[tuple[int, str]]:
        """One phone per team, its head chef's (CK1.5): the team is the seat's entrant, and
        the team's events name it. A v1 record (no head chefs: its rounds are entered whole by
        the scorekeeper) gets none."""
        if summary.get("version") != 2:
            return []
        teams = {t["name"] for t in summary.get("teams", ()) if t.get("head_chef")}
        return [(seat, team) for seat, team in enumerate(players, start=1) if team in teams]

    def demo_record(self, seed: int, players: Sequence[str]) -> list[dict[str, Any]]:
        """A simulated game of four players, its two teams renamed to the table's: the team that
        cooked first becomes seat 1's."""
        record = RULES.simulate(seed, 4)
        first = record[0]["cooks_first"]
        second = next(t["name"] for t in record[0]["teams"] if t["name"] != first)
        names = {first: players[0], second: players[1]}
        return [renamed(event, names) for event in record[1:]]
