"""From a tournament's state to the pure standings and pairing modules, and back (pure).

The state (tournaments.domain) knows who sat where and what each confirmed table gave; the
standings modules rank the entrants (:mod:`tournaments.placement` for a game type it has a rule
for: Food Truck, Chefs, Crazy Kitchen; :mod:`tournaments.standings` for Trick-n-Chef); the
pairing module groups them for the next round. Frozen records go in, plain results come out;
nothing here touches the database.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from tournaments import events, pairing, placement, standings
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
                        placements=table.result,
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


def ranked_by_placement(state: TournamentState) -> bool:
    """Whether the tournament's game is ranked by :mod:`tournaments.placement` (every game but
    Trick-n-Chef, whose standings are :mod:`tournaments.standings`')."""
    return placement.ranked_here(state.config.game_type)


def compute_standings(state: TournamentState) -> list[standings.Row]:
    """One row per entrant, best first, whatever the game (what pairing reads: rank, id,
    points). For a placement game, ``first_places`` is its wins or first places and
    ``victory_points`` its game points."""
    if ranked_by_placement(state):
        return [row for row, _ in _placement_rows(state)]
    players = [
        standings.Player(id=p.id, name=p.name, dropped=p.dropped) for p in state.players.values()
    ]
    return standings.compute(
        players, confirmed_results(state), byes(state), standings_settings(state)
    )


def placement_settings(state: TournamentState) -> placement.PlacementSettings:
    """The organizer's choices placement.py takes: the scoring preset (the place games' scale)
    and the points for a bye (the place games' bye); a match game's match points and bye are
    the defaults (2/1/0, a bye counts as a win)."""
    return placement.PlacementSettings.of(state.config.scoring, state.config.bye_points)


def placement_tables(state: TournamentState) -> list[placement.TableResult]:
    """The confirmed results as placement.py reads them (ranks, game points, tie-breaks)."""
    return [
        placement.TableResult(
            round=rnd.number,
            table=table.number,
            results=tuple(
                placement.Result(p.player, p.place, p.victory_points, tuple(p.tiebreaks))
                for p in table.result
            ),
        )
        for rnd in state.rounds
        for table in rnd.tables
        if table.confirmed and table.result is not None
    ]


def _placement_rows(
    state: TournamentState,
) -> list[tuple[standings.Row, placement.Row]]:
    """The standings of a placement game, each row as pairing reads it (a standings.Row) and
    as placement.py gave it; entrants sharing a rank listed by name as Trick-n-Chef's are."""
    game = state.config.game_type
    tables = placement_tables(state)
    rows = placement.standings(
        game,
        list(state.players),
        tables,
        [placement.Bye(b.round, b.player) for b in byes(state)],
        placement_settings(state),
    )
    out = []
    for row in rows:
        player = state.players[row.entrant]
        out.append(
            (
                standings.Row(
                    rank=row.rank,
                    player=row.entrant,
                    name=player.name,
                    dropped=player.dropped,
                    points=standings.display(row.points),
                    tiebreaks=tuple(_shown_tiebreaks(row)),
                    games=row.games,
                    byes=row.byes,
                    first_places=row.wins,
                    victory_points=_game_points(row),
                ),
                row,
            )
        )
    out.sort(key=lambda pair: (pair[0].rank, pair[0].name.casefold(), pair[0].name, pair[0].player))
    return out


def _shown_tiebreaks(row: placement.Row) -> list[tuple[str, float]]:
    """A placement row's criteria as the standings' JSON keeps them: each a number, the game's
    own tie-breaks one column each (``game_tiebreak_1``, ...)."""
    shown: list[tuple[str, float]] = []
    for key, value in row.tiebreaks:
        if isinstance(value, tuple):
            shown += [(f"game_tiebreak_{n}", float(v)) for n, v in enumerate(value, start=1)]
        else:
            shown.append((key, standings.display(value)))
    return shown


def _game_points(row: placement.Row) -> int:
    values = dict(row.tiebreaks)
    value = values.get("game_points", values.get("points_scored", 0))
    return int(value) if not isinstance(value, tuple) else 0


def _placement_json(state: TournamentState) -> dict[str, Any]:
    """A placement game's standings as the pages and the API show them: the same columns and
    rows as Trick-n-Chef's (a row's figures by column key), a match game's wins, draws and
    losses besides, and ``rule``: how the game is ranked (the organizer's choices and the
    defaults, the criteria's titles and descriptions as English msgids)."""
    game = state.config.game_type
    rule = placement.game_rule(game)
    pairs = _placement_rows(state)
    tables = placement_tables(state)
    settings = placement_settings(state)
    width = max((len(r.tiebreaks) for t in tables for r in t.results), default=0)
    match = rule.kind == placement.MATCH
    rows = []
    for row, ranked in pairs:
        entry: dict[str, Any] = {
            "rank": row.rank,
            "player": row.player,
            "name": row.name,
            "dropped": row.dropped,
            "points": row.points,
            "tiebreaks": dict(row.tiebreaks),
            "games": row.games,
            "byes": row.byes,
            "first_places": row.first_places,
            "victory_points": row.victory_points,
        }
        if match:
            entry |= {"wins": ranked.wins, "draws": ranked.draws, "losses": ranked.losses}
        rows.append(entry)
    points = settings.match_points
    return {
        "columns": [{"key": k, "title": t} for k, t in placement.columns(game, width)],
        "rows": rows,
        "rule": {
            "game_type": game,
            "kind": rule.kind,
            "match_points": {"win": points.win, "draw": points.draw, "loss": points.loss}
            if match
            else None,
            "bye": settings.bye if match else None,
            "scale": None if match else settings.scale,
            "bye_points": standings.display(placement.bye_value(game, tables, settings)),
            "tiebreaks": [
                {"key": c.key, "title": c.title, "description": c.description}
                for c in placement.criteria(game)
                if c.key != "game_tiebreaks" or width  # a game without any: nothing to say
            ],
        },
    }


def standings_json(state: TournamentState) -> dict[str, Any]:
    """What the standings page and the API show."""
    if ranked_by_placement(state):
        return _placement_json(state)
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


def not_checked_in(state: TournamentState, rows: Sequence[Mapping[str, Any]]) -> set[str]:
    """The players the standings list apart: registered in a tournament that uses check-in,
    never checked in, with no game and no bye, unless the organizer ranks them
    (``rank_not_checked_in``). A no-show is not "last on 0 points"."""
    config = state.config
    if not config.check_in or config.rank_not_checked_in:
        return set()
    return {
        str(r["player"])
        for r in rows
        if r["player"] in state.players
        and not state.players[r["player"]].checked_in
        and not r["games"]
        and not r["byes"]
    }


def standings_apart(state: TournamentState, data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` (:func:`standings_json`) with the players who never checked in taken out of
    the ranking (:func:`not_checked_in`) and listed in ``not_checked_in`` ({player, name}, by
    name). The others keep their order; ranks are counted again among them (competition
    ranking: one more than the players ranked strictly above), so no one ranks below a no-show
    or shares a rank with one. Computed at each read, so that a check-in shows at once."""
    apart = not_checked_in(state, data["rows"])
    if not apart:
        return {**data, "not_checked_in": []}
    kept = [r for r in data["rows"] if r["player"] not in apart]
    better: dict[int, int] = {}
    rows = []
    for n, row in enumerate(kept):
        better.setdefault(row["rank"], n)
        rows.append({**row, "rank": better[row["rank"]] + 1})
    out = sorted(
        ({"player": r["player"], "name": r["name"]} for r in data["rows"] if r["player"] in apart),
        key=lambda e: (e["name"].casefold(), e["player"]),
    )
    return {**data, "rows": rows, "not_checked_in": out}


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
) -> events.RoundPaired:
    """The ``round_paired`` event for a pairing result."""
    tables = [list(t.seats) for t in result.tables]
    return events.RoundPaired(
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
