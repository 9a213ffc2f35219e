"""From a tournament's state to the pure standings and pairing modules, and back (pure).

The state (tournaments.domain) knows who sat where and what each confirmed table gave; the
standings module ranks the players; the pairing module groups them for the next round. Frozen
records go in, plain results come out; nothing here touches the database.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tournaments import events, pairing, standings
from tournaments.domain import Refusal, Round, TournamentState, seated_players
from tournaments.domain.words import ngettext_lazy


def confirmed_results(state: TournamentState) -> list[standings.GameResult]:
    results = []
    for rnd in state.rounds:
        for table in rnd.tables:
            if table.confirmed and table.result is not None:
                results.append(
                    standings.GameResult(
                        round=rnd.number,
                        table=table.number,
                        placements=tuple(
                            standings.Placement(p.player, p.place, p.victory_points)
                            for p in table.result
                        ),
                    )
                )
    return results


def byes(state: TournamentState) -> list[standings.Bye]:
    return [
        standings.Bye(round=rnd.number, player=player)
        for rnd in state.rounds
        if rnd.status != "proposed"
        for player in rnd.byes
    ]


def standings_settings(state: TournamentState) -> standings.Settings:
    config = state.config
    return standings.Settings(
        preset=config.scoring,
        tiebreaks=tuple(config.tiebreaks),
        bye_points=config.bye_points,
    )


def compute_standings(state: TournamentState) -> list[standings.Row]:
    players = [
        standings.Player(id=p.id, name=p.name, dropped=p.dropped) for p in state.players.values()
    ]
    return standings.compute(
        players, confirmed_results(state), byes(state), standings_settings(state)
    )


def standings_json(state: TournamentState) -> dict[str, Any]:
    """What the standings page and the API show."""
    rows = compute_standings(state)
    return {
        "columns": [
            {"key": k, "title": t} for k, t in standings.columns(standings_settings(state))
        ],
        "rows": [
            {
                "rank": r.rank,
                "player": r.player,
                "name": r.name,
                "dropped": r.dropped,
                "points": r.points,
                "tiebreaks": dict(r.tiebreaks),
                "games": r.games,
                "byes": r.byes,
                "first_places": r.first_places,
                "victory_points": r.victory_points,
            }
            for r in rows
        ],
    }


def pairing_request(
    state: TournamentState,
    number: int,
    sizes: tuple[int, ...],
    only: Round | None = None,
) -> pairing.PairingRequest:
    """Who is seated in round ``number``, with their history, in standings order. With
    ``only``, the players of that (proposed) round, to re-cost it after a manual change."""
    if only is None:
        seated = {p.id: p for p in seated_players(state)}
    else:
        ids = {p for t in only.tables for p in t.seats} | set(only.byes)
        seated = {pid: state.players[pid] for pid in state.players if pid in ids}
    if len(seated) < min(sizes):
        if state.config.check_in:
            ready = ngettext_lazy(
                "%(count)s player is ready to play (registered, checked in, not dropped); "
                "a table needs at least %(needed)s",
                "%(count)s players are ready to play (registered, checked in, not dropped); "
                "a table needs at least %(needed)s",
                len(seated),
                count=len(seated),
                needed=min(sizes),
            )
        else:
            ready = ngettext_lazy(
                "%(count)s player is ready to play (registered, not dropped); "
                "a table needs at least %(needed)s",
                "%(count)s players are ready to play (registered, not dropped); "
                "a table needs at least %(needed)s",
                len(seated),
                count=len(seated),
                needed=min(sizes),
            )
        raise Refusal("not_enough_players", ready)
    met: dict[str, set[str]] = defaultdict(set)
    small: dict[str, int] = defaultdict(int)
    had_bye: dict[str, int] = defaultdict(int)
    first_seats: dict[str, int] = defaultdict(int)
    largest = max(sizes)
    for rnd in state.rounds:
        if rnd.status == "proposed":
            continue
        for table in rnd.tables:
            for player in table.seats:
                met[player].update(p for p in table.seats if p != player)
                if len(table.seats) < largest:
                    small[player] += 1
            if table.seats:
                first_seats[table.seats[0]] += 1
        for player in rnd.byes:
            had_bye[player] += 1
    if number == 1:
        method = "random" if state.config.round1 == "random" else "order"
        ordered = list(seated.values())
        if state.config.round1 == "rating":
            ordered.sort(key=lambda p: (-(p.rating or 0), p.order))
    else:
        method = "standings"
        ranked = [row.player for row in compute_standings(state) if row.player in seated]
        ordered = [seated[pid] for pid in ranked]
    rows = {row.player: row for row in compute_standings(state)}
    entrants = tuple(
        pairing.Entrant(
            id=p.id,
            position=position,
            points=float(rows[p.id].points) if p.id in rows else 0.0,
            met=tuple(sorted(met[p.id])),
            small_tables=small[p.id],
            byes=had_bye[p.id],
            first_seats=first_seats[p.id],
            order=position if number == 1 else p.order,
            name=p.name,
        )
        for position, p in enumerate(ordered, start=1)
    )
    return pairing.PairingRequest(
        entrants=entrants,
        sizes=sizes,
        method=method,
        seed=state.config.seed * 1000 + number,
    )


def round_event(
    number: int, request: pairing.PairingRequest, result: pairing.Pairing
) -> dict[str, Any]:
    """The ``round_paired`` event's data (current schema) for a pairing result."""
    tables = [list(t.seats) for t in result.tables]
    return events.to_data(
        events.RoundPaired(
            round=number,
            method=result.method,
            seed=request.seed,
            tables=tuple(t.seats for t in result.tables),
            byes=tuple(result.byes),
            cost=cost_json(result.cost),
            lower_bound=result.lower_bound,
            notes=result.notes,
            details=tuple(table_details(request, tables)),
        )
    )


def table_details(request: pairing.PairingRequest, tables: list[list[str]]) -> list[dict[str, Any]]:
    """What the organizer sees of each proposed table: the standing spread (positions and
    points) and every pair at it who met before."""
    entrant = {e.id: e for e in request.entrants}
    details = []
    for number, seats in enumerate(tables, start=1):
        positions = [entrant[p].position for p in seats]
        points = [entrant[p].points for p in seats]
        repeats = [
            [a, b] for i, a in enumerate(seats) for b in seats[i + 1 :] if b in entrant[a].met
        ]
        details.append(
            {
                "table": number,
                "spread": max(positions) - min(positions),
                "points_spread": max(points) - min(points),
                "repeats": repeats,
            }
        )
    return details


def cost_json(cost: Any) -> dict[str, Any]:
    import dataclasses

    if dataclasses.is_dataclass(cost) and not isinstance(cost, type):
        return {k: v for k, v in dataclasses.asdict(cost).items()}
    return dict(cost)
