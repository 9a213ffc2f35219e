"""The round panel: the tables of the current round with their seats, places and status, the
pairing's quality and how it was chosen, the earlier rounds."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.gametypes import GAME_TYPES
from tournaments import domain, notes
from tournaments.desk.presenters.common import (
    PAIRING_METHODS,
    PROGRESS,
    TABLE_STATUS,
    and_list,
    delay_sentence,
    delay_words,
    figure,
    is_swap,
    list_separator,
    ordinal,
)
from tournaments.desk.presenters.dashboard import Links


@dataclass(frozen=True, slots=True)
class SeatView:
    player: str
    name: str
    seat: int
    first: bool
    picked: bool
    link: str = ""
    """The seat's own link for its phone (absolute; organizers' score sheets only), or ""."""
    qr: SafeString | str = ""
    """Its QR code drawn inline (the organizers' score sheets), or ""."""
    standing: str = ""
    """Their rank and points when the round was seated by standings ("rank 3, 6 points"), or
    "" (round 1: nobody has points; a published round's cards)."""
    members: tuple[str, ...] = ()
    """A team's players (a team game: the seat is a team's)."""
    cooks_first: bool = False
    """The team that cooks first (Crazy Kitchen: seat 1), shown instead of "first player"."""


@dataclass(frozen=True, slots=True)
class PlacedEntrant:
    """A line of a finished table on the round panel: who, and the place and points they had."""

    player: str
    name: str
    place: int
    victory_points: Any


@dataclass(frozen=True, slots=True)
class TableView:
    number: int
    seats: tuple[SeatView, ...]
    size: int
    small: bool
    small_before: tuple[str, ...]
    """Who sat at a short table before ("Ann (rounds 1 and 2)"), when this one is short."""
    spread: Any
    points_spread: Any
    repeats: tuple[str, ...]
    game: str | None
    link: str
    """The scorekeeper's page of the table's game (a path), or ""."""
    url: str
    """The same, absolute (what the QR code encodes)."""
    qr_src: str
    """The QR code as an image (desk:qr), or ""."""
    qr_label: str
    status: str
    status_label: str
    result: tuple[PlacedEntrant, ...]
    confirmed: bool
    qr: SafeString | str = ""
    """The QR code drawn inline (the printable score sheets)."""
    progress: str = ""
    """While its game is played, the deal and trick in play ("Deal 2, trick 5"), or ""."""
    wide: str = ""
    """Why a proposed table seats players far apart in the standings, when it does, or ""."""
    error: str = ""
    pad: range = field(default_factory=lambda: range(0))
    """Empty cells after the seats, so that every printed row is as wide (printing)."""


@dataclass(frozen=True, slots=True)
class ByeView:
    name: str
    before: str
    """The earlier rounds with a bye ("round 2"), or ""."""


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    status: str
    method: str
    tables: tuple[TableView, ...]
    byes: tuple[ByeView, ...]
    cost: Mapping[str, Any]
    lower_bound: Any
    best: bool
    notes: tuple[str, ...]
    """The pairing's notes in words ("why these tables"), without the search's cost."""
    swaps: tuple[str, ...]
    missing: tuple[int, ...]
    """The tables whose result does not count yet (unfinished or unconfirmed)."""
    playing: tuple[int, ...]
    to_confirm: tuple[int, ...]
    pick: str | None
    pick_name: str
    seated: tuple[tuple[str, str], ...]
    """(player, "Name (table t, seat s)") of every seated player: the swap form's choices."""
    cards_html: SafeString | str = ""
    """The published tables as HTML (tournaments.desk.rows.table_cards), set by the view."""
    not_started: tuple[int, ...] = ()
    recording: tuple[int, ...] = ()
    """Finished games whose result has not reached the tournament yet (a background task)."""
    voided: tuple[int, ...] = ()
    confirmed: tuple[int, ...] = ()
    by_standings: bool = False
    """Seated by the standings (round 2 on): ranks, points and spreads mean something."""
    quality: str = ""
    cost_note: str = ""
    """The search's cost and its formula (a pairing note), for "How the pairing was chosen"."""
    how_chosen: str = ""
    """The words before it: what the cost weighs, in order."""
    """The proposal's figures in a sentence, and whether a better grouping can exist."""

    @property
    def method_words(self) -> str:
        """How the round was paired, in a word or two ("random", "exhaustive")."""
        words = PAIRING_METHODS.get(self.method)
        return str(words) if words is not None else self.method

    @property
    def progress_line(self) -> tuple[str, ...]:
        """A published round's tables by status, one sentence each (the round panel's line)."""
        return tuple(
            sentence % {"tables": _(", ").join(map(str, numbers))}
            for sentence, numbers in (
                (ROUND_PROGRESS["not_started"], self.not_started),
                (ROUND_PROGRESS["playing"], self.playing),
                (ROUND_PROGRESS["recording"], self.recording),
                (ROUND_PROGRESS["finished"], self.to_confirm),
                (ROUND_PROGRESS["void"], self.voided),
            )
            if numbers
        )


ROUND_PROGRESS = {
    "not_started": gettext_lazy("Not started: %(tables)s."),
    "playing": gettext_lazy("In progress: %(tables)s."),
    "recording": gettext_lazy("Finished, result on its way: %(tables)s."),
    "finished": gettext_lazy("Finished, to confirm: %(tables)s."),
    "void": gettext_lazy("Voided: %(tables)s."),
}
"""The round panel's line, by status: which tables are where (every one of them until it is
confirmed)."""


def qr_label(table: int) -> str:
    return _("QR code of table %(table)s's link") % {"table": table}


def _earlier_seats(
    rounds: Sequence[Mapping[str, Any]], before: int, largest: int
) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """Who sat at a short table, and who had a bye, in the played rounds before ``before``."""
    small: dict[str, list[int]] = defaultdict(list)
    byes: dict[str, list[int]] = defaultdict(list)
    for rnd in rounds:
        if rnd["round"] >= before or rnd["status"] == "proposed":
            continue
        for table in rnd["tables"]:
            if len(table["seats"]) < largest:
                for entry in table["seats"]:
                    small[entry["player"]].append(rnd["round"])
        for entry in rnd["byes"]:
            byes[entry["player"]].append(rnd["round"])
    return small, byes


def _rounds_text(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return _("round %(number)s") % {"number": numbers[0]}
    return _("rounds %(numbers)s and %(last)s") % {
        "numbers": list_separator().join(map(str, numbers[:-1])),
        "last": numbers[-1],
    }


class ProgressLike(Protocol):
    """Where a table's game stands (tournaments.selectors.GameProgress)."""

    @property
    def status(self) -> str: ...
    @property
    def round(self) -> int | None: ...
    @property
    def trick(self) -> int | None: ...


def _table_status(
    round_status: str, table: Mapping[str, Any], game: ProgressLike | None
) -> tuple[str, str]:
    """(status, progress): the table's status key (TABLE_STATUS) and, while its game is played,
    the deal and trick in play ("Deal 2, trick 5"). Without the game's progress, a table with
    no result is "playing" (as before the desk read the games)."""
    if round_status == "proposed":
        return "proposed", ""
    if table["confirmed"]:
        return "confirmed", ""
    if table["result"] is not None:
        return "finished", ""
    if game is None:
        return "playing", ""
    if game.status == "finished":
        return "recording", ""
    if game.status == "void":
        return "void", ""
    if game.status == "in_progress" and game.round:
        return "playing", PROGRESS % {"deal": game.round, "trick": game.trick or 1}
    return "not_started", ""


ROUND_ONE_METHODS = ("random", "order")
"""How round 1 is seated (no standings yet); every later round is seated by the standings."""

QUALITY = {
    "figures": gettext_lazy(
        "%(repeats)s, %(small_tables)s, and the standing spread is %(spread)s (the tables' rank "
        "gaps added up)."
    ),
    "figures_full_tables": gettext_lazy(
        "%(repeats)s, and the standing spread is %(spread)s (the tables' rank gaps added up)."
    ),
    "head_to_head": gettext_lazy(
        "%(repeats)s, %(sides)s, and the score difference is %(difference)s (the squares of "
        "the matches' score gaps added up)."
    ),
    "line": pgettext_lazy(
        "two sentences one after the other (Japanese: no space after 。)", "%(figures)s %(verdict)s"
    ),
    "best": gettext_lazy("No grouping does better."),
    "best_swapped": gettext_lazy("No grouping does better, even after the changes by hand."),
    "searched": gettext_lazy(
        "The best grouping the search found in its time; it cannot prove that none is better."
    ),
    "swapped": gettext_lazy(
        "Changed by hand: a grouping with fewer repeats or a smaller spread may exist."
    ),
    "round_one_random": gettext_lazy(
        "Seated at random: nobody has points yet, so the standings play no part in round 1."
    ),
    "round_one_order": gettext_lazy(
        "Seated in the given order (by rating or registration): nobody has points yet, so the "
        "standings play no part in round 1."
    ),
}
"""The proposal's quality line: its figures in words, then whether a better grouping can exist
(the cost and its lower bound, docs/pairing.md, without their raw figures)."""

WIDE_TABLE = {
    "best": gettext_lazy(
        "Table %(table)s seats players ranked %(ranks)s: every seating with the standings "
        "closer together repeats more meetings, and the pairing avoids repeat meetings before "
        "it keeps the standings close."
    ),
    "best_small": gettext_lazy(
        "Table %(table)s seats players ranked %(ranks)s: every seating with the standings "
        "closer together repeats more meetings or seats someone at a short table again, and "
        "the pairing avoids those before it keeps the standings close."
    ),
    "searched": gettext_lazy(
        "Table %(table)s seats players ranked %(ranks)s: the search found no seating with the "
        "standings closer together that does not repeat more meetings or seat someone at a "
        "short table again."
    ),
    "swapped": gettext_lazy(
        "Table %(table)s seats players ranked %(ranks)s, after the changes by hand."
    ),
}
"""Why a proposed table seats players far apart in the standings (the leader with the 11th and
12th): the pairing's priorities, repeats first (docs/pairing.md)."""


def _standing_words(rank: Any, points: Any, shared: bool) -> str:
    shown = figure(points)
    # A fraction of a point takes the form of 2 ("6.5 points"; Russian "6,5 очка").
    count = shown if isinstance(shown, int) else 2
    if shared:
        text = ngettext(
            "rank %(rank)s (shared), %(points)s point",
            "rank %(rank)s (shared), %(points)s points",
            count,
        )
    else:
        text = ngettext(
            "rank %(rank)s, %(points)s point", "rank %(rank)s, %(points)s points", count
        )
    return text % {"rank": rank, "points": shown}


def _repeats_words(repeats: int) -> str:
    if repeats == 0:
        return _("No two players meet again")
    return ngettext(
        "%(count)s pair of players meets again", "%(count)s pairs of players meet again", repeats
    ) % {"count": repeats}


def _small_tables_words(earlier: int) -> str:
    if earlier == 0:
        return _("nobody at a short table had one before")
    return ngettext(
        "the players at short tables had %(count)s short table before",
        "the players at short tables had %(count)s short tables before",
        earlier,
    ) % {"count": earlier}


def _h2h_repeats_words(repeats: int) -> str:
    if repeats == 0:
        return _("No match repeats an earlier one")
    return ngettext(
        "%(count)s match repeats an earlier one", "%(count)s matches repeat an earlier one", repeats
    ) % {"count": repeats}


def _sides_words(broken: int) -> str:
    if broken == 0:
        return _("no side rule is broken")
    return ngettext("%(count)s side rule is broken", "%(count)s side rules are broken", broken) % {
        "count": broken
    }


def _quality(
    rnd: Mapping[str, Any], *, by_standings: bool, best: bool, swapped: bool, short_tables: bool
) -> str:
    """The proposal's figures in words, each count through ngettext, then whether a better
    grouping can exist."""
    if not by_standings:
        return str(QUALITY["round_one_random" if rnd["method"] == "random" else "round_one_order"])
    cost = rnd["cost"]
    repeats = int(cost.get("repeats", 0))
    if "side_violations" in cost:  # head to head (tournaments.pairing.headtohead)
        figures = QUALITY["head_to_head"] % {
            "repeats": _h2h_repeats_words(repeats),
            "sides": _sides_words(int(cost["side_violations"])),
            "difference": notes.score_words(str(cost.get("score_difference", "0"))),
        }
    elif short_tables or cost.get("small_tables", 0):
        figures = QUALITY["figures"] % {
            "repeats": _repeats_words(repeats),
            "small_tables": _small_tables_words(int(cost.get("small_tables", 0))),
            "spread": cost.get("spread", 0),
        }
    else:
        figures = QUALITY["figures_full_tables"] % {
            "repeats": _repeats_words(repeats),
            "spread": cost.get("spread", 0),
        }
    if best:
        verdict = QUALITY["best_swapped" if swapped else "best"]
    else:
        verdict = QUALITY["swapped" if swapped else "searched"]
    return str(QUALITY["line"] % {"figures": figures, "verdict": verdict})


HOW_CHOSEN = {
    "seating": gettext_lazy(
        "The pairing avoids repeat meetings first, then seating someone at a short table "
        "again, and only then keeps each table's players close in the standings. It gives each "
        "grouping a cost that adds these up, each weighing far more than the next, and keeps the "
        "grouping that costs least:"
    ),
    "head_to_head": gettext_lazy(
        "The pairing avoids repeat matches first, then the side rules, then big score "
        "differences, then unmet side preferences, and keeps the pairing that does best in that "
        "order:"
    ),
}
"""The words before the search's cost figures ("How the pairing was chosen"), for those who
open it."""


def _wide(
    table: int,
    players: Sequence[str],
    position: Mapping[str, int],
    rank: Mapping[str, int],
    *,
    largest: int,
    best: bool,
    swapped: bool,
    short_tables: bool,
) -> str:
    """Why the table seats players far apart in the standings, if it does: more than two
    tables' worth of ranks between its first and last (ranks 1, 2, 11 and 12). Ranks, not the
    pairing's positions: players of a shared rank stand equal, whatever order they were in."""
    known = [p for p in players if p in position]
    if len(known) < 2:
        return ""
    spread = max(rank[p] for p in known) - min(rank[p] for p in known)
    if spread < 2 * largest - 1:
        return ""
    ranks = and_list([ordinal(rank[p]) for p in sorted(known, key=lambda p: position[p])])
    if swapped:
        key = "swapped"
    elif not best:
        key = "searched"
    else:
        key = "best_small" if short_tables else "best"
    return WIDE_TABLE[key] % {"table": table, "ranks": ranks}


def full_table(summary: Mapping[str, Any]) -> int:
    """The size of a full table: the organizer's preferred size, or the game's largest (a
    smaller table is a short one)."""
    sizes = GAME_TYPES[summary["game_type"]].table_sizes
    return domain.pairing_sizes(sizes, summary["settings"].get("table_size"))[-1]


def round_view(
    summary: Mapping[str, Any],
    rnd: Mapping[str, Any],
    links: Links,
    *,
    pick: str | None = None,
    errors: Mapping[str, str] | None = None,
    progress: Mapping[str, ProgressLike] | None = None,
    standings: Mapping[str, Any] | None = None,
) -> RoundView:
    """A round as the desk shows it: tables with seats in order, their spread and repeats, the
    short tables and byes with who had one before, results and what is missing; ``errors`` by
    ``table-<number>``. ``progress``: where each table's game stands, by game id (a published
    round's statuses); ``standings``: the stored standings (a proposal's ranks and points)."""
    kind = GAME_TYPES[summary["game_type"]]
    largest = full_table(summary)
    small_before, byes_before = _earlier_seats(summary["rounds"], rnd["round"], largest)
    names = {p["id"]: p["name"] for p in summary["players"]}
    errors = errors or {}
    progress = progress or {}
    by_standings = rnd["method"] not in ROUND_ONE_METHODS
    best = rnd["cost"].get("total") == rnd["lower_bound"] or (
        "side_violations" in rnd["cost"] and rnd["method"] == "exhaustive"  # head to head
    )
    swapped = any(is_swap(n) for n in rnd["notes"])
    # The search's cost, the first note of a round seated by the standings: its formula goes to
    # "How the pairing was chosen", after words (the quality line says it in words).
    cost_note = str(rnd["notes"][0]) if by_standings and rnd["notes"] else ""
    seated_ids = {e["player"] for table in rnd["tables"] for e in table["seats"]}
    standing: dict[str, str] = {}
    position: dict[str, int] = {}
    rank: dict[str, int] = {}
    if by_standings and rnd["status"] == "proposed" and standings is not None:
        rows = standings.get("rows", [])
        shared = Counter(row["rank"] for row in rows)
        for row in rows:
            standing[row["player"]] = _standing_words(
                row["rank"], row.get("points", 0), shared[row["rank"]] > 1
            )
            rank[row["player"]] = row["rank"]
        in_order = [row["player"] for row in rows if row["player"] in seated_ids]
        position = {player: n for n, player in enumerate(in_order, start=1)}
    short_tables = any(len(table["seats"]) < largest for table in rnd["tables"])
    tables = []
    for table in rnd["tables"]:
        seats = tuple(
            SeatView(
                player=entry["player"],
                name=entry["name"],
                seat=seat,
                first=seat == 1 and kind.first_player_rule,
                picked=entry["player"] == pick,
                standing=standing.get(entry["player"], ""),
                members=tuple(entry.get("members", ())),
                cooks_first=seat == 1 and kind.teams,
            )
            for seat, entry in enumerate(table["seats"], start=1)
        )
        small = len(seats) < largest
        game = table["game"]
        status, game_progress = _table_status(
            rnd["status"], table, progress.get(game) if game else None
        )
        link = links.table_link(game)
        tables.append(
            TableView(
                number=table["table"],
                seats=seats,
                size=len(seats),
                small=small,
                small_before=tuple(
                    f"{s.name} ({_rounds_text(small_before[s.player])})"
                    for s in seats
                    if small and small_before.get(s.player)
                ),
                spread=table.get("spread"),
                points_spread=table.get("points_spread"),
                repeats=tuple(
                    _("%(a)s and %(b)s") % {"a": a, "b": b} for a, b in table.get("repeats", [])
                ),
                game=game,
                link=link,
                url=f"{links.site}{link}" if link else "",
                qr_src=links.qr_src(game),
                qr_label=qr_label(table["table"]),
                status=status,
                status_label=str(TABLE_STATUS[status]),
                result=tuple(
                    PlacedEntrant(r["player"], r["name"], r["place"], r["victory_points"])
                    for r in sorted(table["result"] or [], key=lambda r: (r["place"], r["name"]))
                ),
                confirmed=table["confirmed"],
                error=errors.get(f"table-{table['table']}", ""),
                progress=game_progress,
                wide=_wide(
                    table["table"],
                    [s.player for s in seats],
                    position,
                    rank,
                    largest=largest,
                    best=best,
                    swapped=swapped,
                    short_tables=short_tables,
                ),
            )
        )
    by_status: dict[str, list[int]] = defaultdict(list)
    for view in tables:
        by_status[view.status].append(view.number)
    return RoundView(
        number=rnd["round"],
        status=rnd["status"],
        method=rnd["method"],
        tables=tuple(tables),
        byes=tuple(
            ByeView(
                name=b["name"],
                before=_rounds_text(byes_before[b["player"]])
                if byes_before.get(b["player"])
                else "",
            )
            for b in rnd["byes"]
        ),
        cost=rnd["cost"],
        lower_bound=rnd["lower_bound"],
        best=best,
        notes=tuple(rnd["notes"][1:] if cost_note else rnd["notes"]),
        cost_note=cost_note,
        how_chosen=str(
            HOW_CHOSEN["head_to_head" if "side_violations" in rnd["cost"] else "seating"]
        )
        if cost_note
        else "",
        swaps=tuple(n for n in rnd["notes"] if is_swap(n)),
        missing=tuple(rnd["missing"]),
        playing=tuple(by_status["playing"]),
        to_confirm=tuple(by_status["finished"]),
        pick=pick,
        pick_name=names.get(pick or "", ""),
        seated=tuple(
            (
                s.player,
                _("%(name)s (table %(table)s, seat %(seat)s)")
                % {"name": s.name, "table": view.number, "seat": s.seat},
            )
            for view in tables
            for s in view.seats
        ),
        not_started=tuple(by_status["not_started"]),
        recording=tuple(by_status["recording"]),
        voided=tuple(by_status["void"]),
        confirmed=tuple(by_status["confirmed"]),
        by_standings=by_standings,
        quality=_quality(
            rnd, by_standings=by_standings, best=best, swapped=swapped, short_tables=short_tables
        ),
    )


@dataclass(frozen=True, slots=True)
class EarlierRound:
    number: int
    status: str
    tables: int


def earlier_rounds(summary: Mapping[str, Any]) -> list[EarlierRound]:
    """The rounds before the current one (their printouts)."""
    return [EarlierRound(r["round"], r["status"], len(r["tables"])) for r in summary["rounds"][:-1]]


@dataclass(frozen=True, slots=True)
class DelayView:
    """How late spectators see the current round (the relay's delay, docs/relay.md), while it
    is proposed or published: its officials and its tables' seats see it at once."""

    number: int
    seconds: int
    """The delay spectators wait, in seconds: the round's own, else the tournament's."""
    own: int | None
    """The round's own delay (None: it has the tournament's)."""
    tournament: int
    sentence: str
    """"Spectators see round 2 5 minutes late.\""""
    source: str
    """Whose delay it is: the tournament's, or the round's own (and then the tournament's)."""


def delay_view(summary: Mapping[str, Any], current: Mapping[str, Any] | None) -> DelayView | None:
    """The current round's delay, unless there is no round or it is closed (its tables are no
    longer played: its delay cannot change)."""
    if current is None or current["status"] == "closed" or summary["status"] == "finished":
        return None
    tournament = int(summary["settings"].get("relay_delay", 0))
    own = current.get("relay_delay")
    seconds = tournament if own is None else int(own)
    if own is None:
        source = _("It is the tournament's delay (set with what the public sees).")
    else:
        source = _("It is this round's own delay (the tournament's: %(delay)s).") % {
            "delay": delay_words(tournament)
        }
    return DelayView(
        number=current["round"],
        seconds=seconds,
        own=own,
        tournament=tournament,
        sentence=delay_sentence(current["round"], seconds),
        source=source,
    )
