"""The public pages' page models: small frozen records the templates only print, and the pure
functions that shape the services' summary and standings (plain dicts) into them.

Nothing here reads the database or knows about requests: the views (tournaments.public.views)
and the standings page's rendering (tournaments.public.standings_page) fetch, these shape.

Nor does anything here translate (no Django): the words a record holds (statuses, places,
"Round 2 of 3", a game's progress, the decimal separator) come from a :class:`Words` the caller
gives, English by default (ENGLISH); the pages give tournaments.public.words.WORDS, which says
them in the reader's language (docs/translation.md).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date as Date
from datetime import datetime
from fractions import Fraction
from typing import Any, Protocol

from tournaments import placement
from tournaments.domain.words import gettext_noop
from tournaments.figures import STANDINGS_PLACES as STANDINGS_PLACES
from tournaments.figures import figure as figure
from tournaments.public.clock import Clock, round_clock
from tournaments.standings import PRESETS, TIEBREAKS, StandingsError, table_points

TOURNAMENT_STATUS = {
    "registration": "Registration open",
    "running": "In progress",
    "finished": "Finished",
}
ROUND_STATUS = {
    "proposed": "Proposed: not public yet",
    "published": "In play",
    "closed": "Complete",
}
GAME_STATUS = {
    "not_started": "Not started",
    "in_progress": "In progress",
    "finished": "Finished",
    "void": "Voided",
    "unknown": "Not public",
}


# ----------------------------------------------------------------------------- formatting


class Words(Protocol):
    """The words of the page records, in one language."""

    @property
    def decimal(self) -> str:
        """The decimal separator of figures ("." or ",")."""
        ...

    def status(self, kind: str, key: str) -> str:
        """A status's label: ``kind`` is tournament, round or game; ``key`` the status."""
        ...

    def place(self, place: int, shared: bool) -> str:
        """A place at a table: "1st", "2nd (shared)"."""
        ...

    def round_text(self, status: str, now: int, planned: int) -> str:
        """Where a tournament is: "4 rounds planned", "Round 2 of 3"."""
        ...

    def progress(self, deal: int, trick: int) -> str:
        """A game being played: "Deal 2, trick 5"."""
        ...

    def text(self, message: str) -> str:
        """A title or description the standings marked for the catalogues (a column, a
        tie-break), in this language."""
        ...

    def join(self, items: Sequence[str]) -> str:
        """Names or clauses one after the other, with the language's list separator ("A, B";
        Japanese "A、B")."""
        ...

    def tie_split(self, tiebreak: str, mine: int, other: str, theirs: int, ahead: bool) -> str:
        """Why a tie on points was split: "deal 3: 12, ahead of Ben's 8" (``ahead``) or
        "deal 3: 8, behind Léa's 12"; ``tiebreak`` is the game's name for the value, in this
        language already."""
        ...

    def tie_shared(self, others: str) -> str:
        """A tie nothing split: "level with Ben: nothing split them"."""
        ...


class EnglishWords:
    """The records' words in English, without Django (tests, and any caller that gives none)."""

    decimal = "."

    def status(self, kind: str, key: str) -> str:
        labels = {"tournament": TOURNAMENT_STATUS, "round": ROUND_STATUS, "game": GAME_STATUS}
        if kind == "round" and key == "scheduled":
            return "Scheduled"
        return labels[kind].get(key, key)

    def place(self, place: int, shared: bool) -> str:
        return f"{ordinal(place)} (shared)" if shared else ordinal(place)

    def round_text(self, status: str, now: int, planned: int) -> str:
        if status == "registration" or now == 0:
            return f"{planned} round planned" if planned == 1 else f"{planned} rounds planned"
        return f"Round {now} of {planned}"

    def progress(self, deal: int, trick: int) -> str:
        return f"Deal {deal}, trick {trick}"

    def text(self, message: str) -> str:
        return message

    def join(self, items: Sequence[str]) -> str:
        return ", ".join(items)

    def tie_split(self, tiebreak: str, mine: int, other: str, theirs: int, ahead: bool) -> str:
        if ahead:
            return f"{tiebreak}: {mine}, ahead of {other}'s {theirs}"
        return f"{tiebreak}: {mine}, behind {other}'s {theirs}"

    def tie_shared(self, others: str) -> str:
        return f"level with {others}: nothing split them"


ENGLISH: Words = EnglishWords()


def ordinal(number: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def plural_count(value: float | int | Fraction) -> int:
    """The number that picks a plural form for ``value`` points (ngettext counts in whole
    numbers): the number itself when whole, else 2 ("2.5 points", "2,5 очка": the form of a
    fraction in English and Russian)."""
    return int(value) if float(value).is_integer() else 2


def place_label(place: int, shared: bool, words: Words = ENGLISH) -> str:
    return words.place(place, shared)


# ----------------------------------------------------------------------------- page records


@dataclass(frozen=True, slots=True)
class Header:
    """What every tournament page shows at the top, and its navigation."""

    id: str
    name: str
    date: Date
    status: str
    status_label: str
    round_now: int
    """Rounds published so far (the current round while the tournament runs)."""
    rounds_planned: int
    rounds: tuple[int, ...]
    """Numbers of the rounds this user may see (published ones; proposed ones for organizers)."""
    clock: Clock | None = None
    """The current round's clock, if the organizers set one."""
    round_text: str = ""
    """Where the tournament is: "4 rounds planned", "Round 2 of 3"."""
    relay_delay: int = 0
    """How many seconds spectators wait to see the current round's tables (the relay's delay,
    docs/relay.md): its own delay, else the tournament's; 0: none."""

    @property
    def running(self) -> bool:
        return self.status == "running"

    @property
    def relay_minutes(self) -> int | None:
        """The relay's delay in whole minutes, if it is some (else it is said in seconds)."""
        return self.relay_delay // 60 if self.relay_delay and self.relay_delay % 60 == 0 else None


@dataclass(frozen=True, slots=True)
class Seat:
    number: int
    player: str
    name: str
    dropped: bool
    place: str = ""
    """The place at the table ("1st", "2nd (shared)"), once the table has a result."""
    victory_points: int | None = None
    members: tuple[str, ...] = ()
    """A team's players (a team game: the seat is a team's)."""
    tie: str = ""
    """Why the place, when others at the table have the same points (:func:`tie_notes`):
    "deal 3: 12, ahead of Ben's 8", "level with Ben: nothing split them"; "" when no tie."""


@dataclass(frozen=True, slots=True)
class TableCard:
    """One table of a round, in seat order, with its game's progress and result."""

    number: int
    seats: tuple[Seat, ...]
    game: str | None
    game_status: str
    progress: str
    """"Deal 2, trick 5" (a game's rounds are its deals) while the game is played; "" otherwise."""
    has_result: bool
    confirmed: bool
    status_label: str = ""
    """The game's status in words ("Finished")."""
    ties: tuple[Seat, ...] = ()
    """The seats tied on points with another, by place: their :attr:`Seat.tie` says why."""


@dataclass(frozen=True, slots=True)
class RoundLink:
    number: int
    status: str
    status_label: str
    tables: int
    results: int
    """Tables with a result so far."""
    scheduled: datetime | None = None


@dataclass(frozen=True, slots=True)
class Cell:
    key: str
    title: str
    text: str
    short: str = ""
    """The title in a row's compact line on a phone ("Opp. avg"): the title if no shorter one."""


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    shared: bool
    player: str
    name: str
    dropped: bool
    points: str
    cells: tuple[Cell, ...]
    """Every column after rank and player, in the standings' order."""
    points_count: int = 0
    """The number that picks the plural form of "points" (plural_count)."""
    deciding: tuple[Cell, ...] = ()
    """The cells of the tie-breaks, in the order they apply: what decided the row's place
    among players level on points (a phone shows them under the name)."""


@dataclass(frozen=True, slots=True)
class Standings:
    columns: tuple[tuple[str, str], ...]
    """(key, title) of the columns after rank and player."""
    rows: tuple[StandingRow, ...]
    tiebreaks: tuple[tuple[str, str], ...]
    """(title, description) of the tie-breaks, in the order they apply."""
    entrant_title: str = "Player"
    """The title of the entrants' column ("Team" in a team game), in the reader's language."""
    points_title: str = "Points"
    """The title of the points' column ("Match points" in a match game)."""
    deciding: tuple[str, ...] = ()
    """The keys of the tie-break columns, in the order they apply."""
    not_checked_in: tuple[tuple[str, str], ...] = ()
    """(player id, name) of the players listed apart: registered, never checked in, no game
    (tournaments.rounds.standings_apart)."""


@dataclass(frozen=True, slots=True)
class Terms:
    """What a game's pages call its figures, in the reader's language."""

    game_points: str
    """A game's own points at a table ("Victory points"; Chefs: "Final positions")."""
    points: str
    """What a table or a bye earns in the standings ("Tournament points"; "Match points")."""


@dataclass(frozen=True, slots=True)
class PlayerRound:
    """One round of a player's tournament: a table, a bye, or not seated."""

    round: int
    kind: str  # table | bye | absent
    table: int | None = None
    seat: int | None = None
    opponents: tuple[tuple[str, str], ...] = ()
    """(player id, name) of the others at the table, in seat order."""
    place: str = ""
    victory_points: int | None = None
    tie: str = ""
    """Why the place, when others at the table have the same points (:func:`tie_notes`)."""
    points: str = ""
    """Tournament points for this round ("" until the table has a result)."""
    points_count: int = 0
    """The number that picks the plural form of "points" (plural_count)."""
    confirmed: bool = False
    game: str | None = None
    game_status: str = ""


@dataclass(frozen=True, slots=True)
class PlayerPage:
    id: str
    name: str
    dropped: bool
    late: bool
    rounds: tuple[PlayerRound, ...]
    standing: StandingRow | None
    now: PlayerRound | None = None
    """The round being played, when it is published and not closed: shown first."""
    terms: Terms | None = None
    """The game's words for its figures (:func:`terms`); None: Trick-n-Chef's."""


# ----------------------------------------------------------------------------- shaping (pure)


def header(summary: Mapping[str, Any], words: Words = ENGLISH) -> Header:
    published = [r for r in summary["rounds"] if r["status"] != "proposed"]
    status, planned = summary["status"], summary["settings"]["rounds"]
    return Header(
        id=summary["id"],
        name=summary["name"],
        date=Date.fromisoformat(summary["date"]),
        status=status,
        status_label=words.status("tournament", status),
        round_now=len(published),
        rounds_planned=planned,
        rounds=tuple(r["round"] for r in summary["rounds"]),
        clock=round_clock(summary),
        round_text=words.round_text(status, len(published), planned),
        relay_delay=relay_delay(summary),
    )


def relay_delay(summary: Mapping[str, Any]) -> int:
    """The relay's delay of the tournament's current round (the last one published), else of
    the tournament, in seconds (0: spectators see the tables as they are)."""
    published = [r for r in summary["rounds"] if r["status"] != "proposed"]
    own = published[-1].get("relay_delay") if published else None
    return int(own if own is not None else summary["settings"].get("relay_delay", 0) or 0)


def round_links(summary: Mapping[str, Any], words: Words = ENGLISH) -> list[RoundLink]:
    links = [
        RoundLink(
            number=r["round"],
            status=r["status"],
            status_label=words.status("round", r["status"]),
            tables=len(r["tables"]),
            results=sum(1 for t in r["tables"] if t["result"] is not None),
        )
        for r in summary["rounds"]
    ]
    for number, at in sorted(summary.get("scheduled", {}).items(), key=lambda kv: int(kv[0])):
        if int(number) > len(summary["rounds"]):
            links.append(
                RoundLink(
                    int(number),
                    "scheduled",
                    words.status("round", "scheduled"),
                    0,
                    0,
                    datetime.fromisoformat(at),
                )
            )
    return links


def players_by_id(summary: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {p["id"]: p for p in summary["players"]}


def _places(result: Sequence[Mapping[str, Any]], words: Words) -> dict[str, str]:
    shared = Counter(r["place"] for r in result)
    return {r["player"]: words.place(r["place"], shared[r["place"]] > 1) for r in result}


def tie_notes(
    result: Sequence[Mapping[str, Any]],
    names: Mapping[str, str],
    tiebreak_names: Sequence[str],
    words: Words = ENGLISH,
) -> dict[str, str]:
    """Why each entrant tied on points with others at a table has their place, from the game's
    own tie-break values (each result's ``tiebreaks``, named by the game type's
    ``tiebreak_names``, English msgids): "deal 3: 12, ahead of Ben's 8" for the one placed
    higher, "deal 3: 8, behind Léa's 12" for the other; "level with Ben: nothing split them" when
    they share the place. Entrants alone on their points get no note."""
    notes: dict[str, str] = {}
    for mine in result:
        level = [
            r
            for r in result
            if r["player"] != mine["player"] and r["victory_points"] == mine["victory_points"]
        ]
        if not level:
            continue
        shared = [names.get(r["player"], r["player"]) for r in level if r["place"] == mine["place"]]
        clauses = []
        for other in (r for r in level if r["place"] != mine["place"]):
            values, theirs = _tiebreak_values(mine), _tiebreak_values(other)
            split = _first_difference(values, theirs)
            if split is None or split >= len(tiebreak_names):
                continue  # the game placed them apart for a reason it does not name
            clauses.append(
                words.tie_split(
                    words.text(tiebreak_names[split]),
                    values[split],
                    names.get(other["player"], other["player"]),
                    theirs[split],
                    ahead=mine["place"] < other["place"],
                )
            )
        if shared:
            clauses.append(words.tie_shared(words.join(shared)))
        if clauses:
            notes[mine["player"]] = words.join(clauses)
    return notes


def _tiebreak_values(result: Mapping[str, Any]) -> tuple[int, ...]:
    """A result's tie-break values: the game's ``tiebreaks``, or Trick-n-Chef's one, its last
    round (``last_round``), as its results have always been kept."""
    if result.get("tiebreaks"):
        return tuple(result["tiebreaks"])
    return () if result.get("last_round") is None else (result["last_round"],)


def _first_difference(mine: Sequence[int], theirs: Sequence[int]) -> int | None:
    return next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b), None)


def find_round(summary: Mapping[str, Any], number: int) -> Mapping[str, Any] | None:
    return next((r for r in summary["rounds"] if r["round"] == number), None)


def table_cards(
    rnd: Mapping[str, Any],
    players: Mapping[str, Mapping[str, Any]],
    game_states: Mapping[str, tuple[str, str]],
    words: Words = ENGLISH,
    tiebreak_names: Sequence[str] = (),
) -> list[TableCard]:
    """The round's tables; ``game_states`` gives (status, progress) of each public game;
    ``tiebreak_names`` the game type's names of its tie-break values (:func:`tie_notes`)."""
    cards = []
    for table in rnd["tables"]:
        result = table["result"] or []
        places = _places(result, words)
        ties = tie_notes(result, _names(table, players), tiebreak_names, words)
        points = {r["player"]: r["victory_points"] for r in result}
        seats = tuple(
            Seat(
                number=number,
                player=s["player"],
                name=s["name"],
                dropped=bool(players.get(s["player"], {}).get("dropped")),
                place=places.get(s["player"], ""),
                victory_points=points.get(s["player"]),
                members=tuple(s.get("members", ())),
                tie=ties.get(s["player"], ""),
            )
            for number, s in enumerate(table["seats"], start=1)
        )
        game = table["game"]
        status, progress = (
            ("unknown", "") if game is None else game_states.get(game, ("unknown", ""))
        )
        if rnd["status"] == "proposed":
            status = "unknown"
        cards.append(
            TableCard(
                number=table["table"],
                seats=seats,
                game=game,
                game_status=status,
                progress=progress,
                has_result=table["result"] is not None,
                confirmed=bool(table["confirmed"]),
                status_label=words.status("game", status),
                ties=tuple(
                    seat
                    for r in sorted(result, key=lambda r: r["place"])
                    for seat in seats
                    if seat.player == r["player"] and seat.tie
                ),
            )
        )
    return cards


def _names(table: Mapping[str, Any], players: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """The names of a table's entrants by id (a seat's own name first: a team's)."""
    names = {p: str(players[p]["name"]) for p in players}
    names.update(
        {s["player"]: s.get("name", names.get(s["player"], s["player"])) for s in table["seats"]}
    )
    return names


def game_state(
    status: str, round: int | None, trick: int | None, words: Words = ENGLISH
) -> tuple[str, str]:
    """A game's status for a tables list: (status key, progress text), from its status and
    the round and trick in play (tournaments.selectors.GameProgress)."""
    if status != "in_progress":
        return status, ""
    if not round:
        return "not_started", ""
    return "in_progress", words.progress(round, trick or 1)


SHORT_TITLES = {
    "victory_points": gettext_noop("Victory pts"),
    "opponents_average": gettext_noop("Opp. avg"),
    "first_places": gettext_noop("1st places"),
    "point_difference": gettext_noop("Diff."),
    "points_scored": gettext_noop("Scored"),
}
"""Shorter titles of the tie-breaks for a row's compact line on a phone (the "Tie-breaks"
section under the standings gives their full titles and what they mean)."""


def _deciding(data: Mapping[str, Any], settings: Mapping[str, Any] | None) -> list[str]:
    """The keys of the tie-break columns, in the order they apply: a placement game's criteria
    (its game tie-breaks one column each), else the tournament's tie-breaks."""
    keys = [c["key"] for c in data["columns"]]
    rule = data.get("rule")
    if rule is not None:
        order = []
        for criterion in rule["tiebreaks"]:
            if criterion["key"] == "game_tiebreaks":
                order += [k for k in keys if k.startswith("game_tiebreak_")]
            else:
                order.append(criterion["key"])
        return [k for k in order if k in keys]
    order = [k for k in keys if k in TIEBREAKS]
    if settings is not None:
        order = [k for k in settings.get("tiebreaks", order) if k in TIEBREAKS]
    return [k for k in order if k in keys]


def standings_table(
    data: Mapping[str, Any], settings: Mapping[str, Any] | None = None, words: Words = ENGLISH
) -> Standings:
    """The standings' columns (their keys and titles, in order) and rows, ready to print (the
    figures to STANDINGS_PLACES decimals); ranks shared by several rows are marked."""
    columns = [(c["key"], words.text(c["title"])) for c in data["columns"]]
    rest = tuple((k, t) for k, t in columns if k not in ("rank", "name"))
    deciding = _deciding(data, settings)
    short = {k: words.text(SHORT_TITLES[k]) if k in SHORT_TITLES else t for k, t in rest}
    ranks = Counter(r["rank"] for r in data["rows"])
    # Asked once, not for every figure: the active language's separator (Django's number
    # formats look it up anew each time, a third of a thousand rows' render).
    decimal = words.decimal
    rows = []
    for row in data["rows"]:
        cells = []
        for key, title in rest:
            value = row["tiebreaks"][key] if key in row["tiebreaks"] else row[key]
            text = value if isinstance(value, str) else figure(value, decimal, STANDINGS_PLACES)
            cells.append(Cell(key, title, text, short[key]))
        by_key = {c.key: c for c in cells}
        rows.append(
            StandingRow(
                rank=row["rank"],
                shared=ranks[row["rank"]] > 1,
                player=row["player"],
                name=row["name"],
                dropped=bool(row["dropped"]),
                points=figure(row["points"], decimal, STANDINGS_PLACES),
                cells=tuple(cells),
                points_count=plural_count(row["points"]),
                deciding=tuple(by_key[k] for k in deciding),
            )
        )
    titles = dict(columns)
    entrant, points = titles.get("name", words.text("Player")), titles.get("points", "")
    apart = tuple((e["player"], e["name"]) for e in data.get("not_checked_in", ()))
    rule = data.get("rule")
    if rule is not None:  # a game ranked by tournaments.placement: its criteria, in order
        explained = tuple(
            (words.text(c["title"]), words.text(c["description"])) for c in rule["tiebreaks"]
        )
        return Standings(rest, tuple(rows), explained, entrant, points, tuple(deciding), apart)
    order = [k for k, _ in rest if k in TIEBREAKS]
    if settings is not None:
        order = [k for k in settings.get("tiebreaks", order) if k in TIEBREAKS]
    return Standings(
        columns=rest,
        rows=tuple(rows),
        tiebreaks=tuple(
            (words.text(TIEBREAKS[k].title), words.text(TIEBREAKS[k].description)) for k in order
        ),
        entrant_title=entrant,
        points_title=points,
        deciding=tuple(deciding),
        not_checked_in=apart,
    )


TOURNAMENT_POINTS = gettext_noop("Tournament points")
VICTORY_POINTS = gettext_noop("Victory points")


def terms(game_type: str | None, words: Words = ENGLISH) -> Terms:
    """What the pages of a tournament of ``game_type`` call a game's points and what a table
    earns: the game's rule (tournaments.placement), or Trick-n-Chef's words."""
    rule = placement.rule_of(game_type or "")
    if rule is None:
        return Terms(words.text(VICTORY_POINTS), words.text(TOURNAMENT_POINTS))
    earned = rule.points if rule.kind == placement.MATCH else TOURNAMENT_POINTS
    return Terms(words.text(rule.game_points.title), words.text(earned))


def _placement_settings(summary: Mapping[str, Any]) -> placement.PlacementSettings:
    settings = summary["settings"]
    try:
        return placement.PlacementSettings.of(settings["scoring"], settings.get("bye_points"))
    except StandingsError:  # negative points for a bye: refused by the standings, shown as none
        return placement.PlacementSettings(scale=settings["scoring"])


def _confirmed_tables(summary: Mapping[str, Any]) -> list[placement.TableResult]:
    """The confirmed results of the summary, as tournaments.placement reads them."""
    return [
        placement.TableResult(
            r["round"],
            t["table"],
            tuple(
                placement.Result(p["player"], p["place"], p["victory_points"]) for p in t["result"]
            ),
        )
        for r in summary["rounds"]
        for t in r["tables"]
        if t["confirmed"] and t["result"] is not None
    ]


def _table_points(
    summary: Mapping[str, Any], result: Sequence[Mapping[str, Any]]
) -> list[Fraction]:
    """What each entrant of one table's result earns in the standings, in the result's order."""
    game = summary.get("game_type") or ""
    if not placement.ranked_here(game):
        return table_points(summary["settings"]["scoring"], [r["place"] for r in result])
    table = placement.TableResult(
        0, 0, tuple(placement.Result(r["player"], r["place"], r["victory_points"]) for r in result)
    )
    earned = placement.placement_points(game, table, _placement_settings(summary))
    return [earned[r["player"]] for r in result]


def bye_points(summary: Mapping[str, Any]) -> Fraction:
    """What a bye is worth, as the standings count it: the tournament's setting, or the
    scoring preset's average at the largest table with a confirmed result (2 players if
    none) (tournaments.standings.compute)."""
    settings = summary["settings"]
    game = summary.get("game_type") or ""
    if placement.ranked_here(game):
        tables = _confirmed_tables(summary)
        return placement.bye_value(game, tables, _placement_settings(summary))
    if settings.get("bye_points") is not None:
        return Fraction(str(float(settings["bye_points"])))
    sizes = [
        len(t["result"])
        for r in summary["rounds"]
        for t in r["tables"]
        if t["confirmed"] and t["result"] is not None
    ]
    return PRESETS[settings["scoring"]].average(max([2, *sizes]))


def _folded(text: str) -> str:
    """For matching names as people type them: no case, no accents ("chloe" finds "Chloé")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def find_players(summary: Mapping[str, Any], query: str) -> list[Mapping[str, Any]]:
    """The players whose name contains every word of ``query`` (case and accents aside), by
    name; none for an empty query."""
    words = _folded(query).split()
    if not words:
        return []
    found = [p for p in summary["players"] if all(w in _folded(p["name"]) for w in words)]
    return sorted(found, key=lambda p: (p["name"].casefold(), p["id"]))


def round_now(summary: Mapping[str, Any], rounds: Sequence[PlayerRound]) -> PlayerRound | None:
    """The player's round being played: the latest round, if it is published and not yet
    closed (a round still only proposed is nobody's table yet)."""
    published = [r for r in summary["rounds"] if r["status"] != "proposed"]
    if not published or published[-1]["status"] != "published":
        return None
    return next((r for r in rounds if r.round == published[-1]["round"]), None)


def player_rounds(
    summary: Mapping[str, Any],
    player_id: str,
    game_states: Mapping[str, tuple[str, str]],
    words: Words = ENGLISH,
    tiebreak_names: Sequence[str] = (),
) -> list[PlayerRound]:
    """Each published round of one player: table, seat, opponents, place, victory points and
    tournament points (the preset's points for the places at the table, shared places split)."""
    players = players_by_id(summary)
    rounds = []
    for rnd in summary["rounds"]:
        if rnd["status"] == "proposed":
            continue
        if any(b["player"] == player_id for b in rnd["byes"]):
            rounds.append(
                PlayerRound(
                    round=rnd["round"], kind="bye",
                    points=figure(bye_points(summary), words.decimal),
                    points_count=plural_count(bye_points(summary)), confirmed=True,
                )
            )  # fmt: skip
            continue
        table = next(
            (t for t in rnd["tables"] if any(s["player"] == player_id for s in t["seats"])), None
        )
        if table is None:
            rounds.append(PlayerRound(round=rnd["round"], kind="absent"))
            continue
        seats = [s["player"] for s in table["seats"]]
        result = table["result"] or []
        mine = next((r for r in result if r["player"] == player_id), None)
        points, count = "", 0
        if mine is not None:
            shares = _table_points(summary, result)
            points = figure(shares[result.index(mine)], words.decimal)
            count = plural_count(shares[result.index(mine)])
        game = table["game"]
        status = game_states.get(game, ("unknown", ""))[0] if game else "unknown"
        rounds.append(
            PlayerRound(
                round=rnd["round"],
                kind="table",
                table=table["table"],
                seat=seats.index(player_id) + 1,
                opponents=tuple(
                    (p, players[p]["name"] if p in players else p) for p in seats if p != player_id
                ),
                place=_places(result, words).get(player_id, ""),
                victory_points=None if mine is None else mine["victory_points"],
                tie=tie_notes(result, _names(table, players), tiebreak_names, words).get(
                    player_id, ""
                ),
                points=points,
                points_count=count,
                confirmed=bool(table["confirmed"]),
                game=game,
                game_status=status,
            )
        )
    return rounds


def standings_hidden_from_public(summary: Mapping[str, Any]) -> bool:
    """True when the public does not see the standings now (whoever is asking)."""
    settings = summary["settings"]
    hidden_from = settings.get("standings_hidden_from")
    rounds_out = len([r for r in summary["rounds"] if r["status"] != "proposed"])
    return (
        hidden_from is not None
        and rounds_out >= hidden_from
        and not settings.get("standings_revealed")
    )
