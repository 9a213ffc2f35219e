"""A round's notes as codes with parameters, and the English sentences they stand for (pure).

Events and snapshots store codes, never prose (docs/tournament-events.md): a note is a JSON
object such as ``{"code": "bye", "player": "P5", "byes": 0}``, players named by id. Pages and the
API turn codes into words with :func:`describe`, naming players as they are named *now*.
Every sentence is one whole template with named placeholders, translated at display through a
:class:`~tournaments.domain.words.Translator` (``describe(..., t=django.utils.translation)``);
counts go through ``ngettext``, in English too ("1 table", "3 tables"; the old prose below,
read back, said "table(s)").

Events written before notes were codes (``round_paired`` version 1, snapshots version 1) hold
the English sentences; :func:`from_text` reads them back into codes, or keeps a sentence it
cannot read as a ``legacy_text`` note.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, Final

from tournaments.domain.words import ENGLISH, Translator

Note = Mapping[str, Any]
"""``{"code": ..., **parameters}``: JSON data."""

SEARCH_COST: Final = "search_cost"
ROUND_ONE: Final = "round_one"
SMALL_TABLE_SWAP: Final = "small_table_swap"
MET_BEFORE: Final = "met_before"
SMALL_TABLE: Final = "small_table"
BYE: Final = "bye"
SWAPPED: Final = "swapped"
LEGACY_TEXT: Final = "legacy_text"

# Head-to-head pairing (tournaments.pairing.headtohead: two entrants a table, with sides).
H2H_COST: Final = "h2h_cost"
H2H_MET_BEFORE: Final = "h2h_met_before"
H2H_FLOAT: Final = "h2h_float"
H2H_SIDE_RULE: Final = "h2h_side_rule"
H2H_SIDE_PREFERENCE: Final = "h2h_side_preference"

# Why players who met before share a table (``met_before``'s "reason").
FEWEST_REPEATS: Final = "fewest_repeats"
LOWEST_COST: Final = "lowest_cost"
NO_BETTER_SWAP: Final = "no_better_swap"
NO_HISTORY: Final = "no_history"
# Why a player sits at a small table again (``small_table``'s "why").
NEVER_HAD_ONE_SEATED: Final = "never_had_one_seated"
ALL_HAD_ONE: Final = "all_had_one"

SENTENCES: Final[dict[str, str]] = {"swapped": "Changed by hand: {a} and {b} swapped."}
"""The English words of a swap made by hand (how the desk recognises one in English text);
:func:`describe` words every note, in the reader's language."""

Names = Callable[[str], str]
"""A player's name from their id (the id itself if unknown)."""


# ----------------------------------------------------------------------------- codes


def search_cost(
    *,
    method: str,
    total: int,
    repeats: int,
    repeat_weight: int,
    small_tables: int,
    small_table_weight: int,
    spread: int,
    bound: int,
) -> dict[str, Any]:
    return {
        "code": SEARCH_COST,
        "method": method,
        "total": total,
        "repeats": repeats,
        "repeat_weight": repeat_weight,
        "small_tables": small_tables,
        "small_table_weight": small_table_weight,
        "spread": spread,
        "bound": bound,
    }


def round_one(*, order: str, seed: int, tables: int) -> dict[str, Any]:
    """``order``: "random" or "given"."""
    return {"code": ROUND_ONE, "order": order, "seed": seed, "tables": tables}


def small_table_swap(a: str, b: str) -> dict[str, Any]:
    return {"code": SMALL_TABLE_SWAP, "a": a, "b": b}


def met_before(table: int, a: str, b: str, reason: str, repeats: int = 0) -> dict[str, Any]:
    note: dict[str, Any] = {"code": MET_BEFORE, "table": table, "a": a, "b": b, "reason": reason}
    if reason == FEWEST_REPEATS:
        note["repeats"] = repeats
    return note


def small_table(
    table: int, seats: int, full: int, before: Iterable[tuple[str, int]], why: str
) -> dict[str, Any]:
    had = [[player, count] for player, count in before]
    return {
        "code": SMALL_TABLE,
        "table": table,
        "seats": seats,
        "full": full,
        "before": had,
        "why": why if had else None,
    }


def bye(player: str, byes: int) -> dict[str, Any]:
    return {"code": BYE, "player": player, "byes": byes, "rule": "fewest_byes"}


def swapped(a: str, b: str) -> dict[str, Any]:
    return {"code": SWAPPED, "a": a, "b": b}


def legacy_text(text: str) -> dict[str, Any]:
    return {"code": LEGACY_TEXT, "text": text}


# ----------------------------------------------------------------------------- words


def _number(value: int | float) -> str:
    return f"{value:,}"


def _method(t: Translator, method: str) -> str:
    if method == "exhaustive":
        return t.pgettext("pairing search", "exhaustive")
    if method == "local search":
        return t.pgettext("pairing search", "local search")
    return method


def _reason(t: Translator, note: Note) -> str:
    reason = note["reason"]
    if reason == FEWEST_REPEATS:
        repeats = note.get("repeats", 0)
        return t.ngettext(
            "every allowed grouping repeats at least %(repeats)s meeting",
            "every allowed grouping repeats at least %(repeats)s meetings",
            repeats,
        ) % {"repeats": repeats}
    if reason == LOWEST_COST:
        return t.gettext("no allowed grouping has a lower total cost")
    if reason == NO_BETTER_SWAP:
        return t.gettext("no swap of two players between any two tables would lower the total cost")
    if reason == NO_HISTORY:
        return t.gettext("this round's seating does not look at earlier meetings")
    raise ValueError(f"unknown reason {reason!r}")


def _why(t: Translator, why: str) -> str:
    if why == NEVER_HAD_ONE_SEATED:
        return t.gettext("every player present who never had one sits at a small table this round")
    if why == ALL_HAD_ONE:
        return t.gettext("every player present has had one")
    raise ValueError(f"unknown reason {why!r}")


def score_words(value: str) -> str:
    """A head-to-head score as written in a note (a fraction such as "3/2") for reading."""
    exact = Fraction(value)
    if exact.denominator == 1:
        return str(exact.numerator)
    return f"{float(exact):.2f}".rstrip("0")


def _swapped_verdict(t: Translator) -> str:
    return t.gettext(
        "That was the search's grouping; the changes by hand below came after it, so it "
        "may no longer be the lowest possible cost."
    )


def _head_to_head(note: Note, name: Names, swapped: bool, t: Translator) -> str:
    """The words of the head-to-head pairing's notes (docs/pairing.md, "Head to head")."""
    code = note["code"]
    if code == H2H_COST:
        if swapped:
            verdict = _swapped_verdict(t)
        elif note["method"] == "exhaustive":
            verdict = t.gettext("No pairing does better: every pairing was checked.")
        else:
            verdict = t.gettext("No exchange of opponents between two tables does better.")
        sides = t.ngettext(
            "%(sides)s side rule broken", "%(sides)s side rules broken", note["side_violations"]
        ) % {"sides": note["side_violations"]}
        preferences = t.ngettext(
            "%(preferences)s side preference not met",
            "%(preferences)s side preferences not met",
            note["side_preferences"],
        ) % {"preferences": note["side_preferences"]}
        return t.ngettext(
            "Paired head to head (%(method)s): %(repeats)s repeated meeting, then "
            "%(side_rules)s, score difference %(difference)s (sum of squares), "
            "%(side_preferences)s, in that order of importance. %(verdict)s",
            "Paired head to head (%(method)s): %(repeats)s repeated meetings, then "
            "%(side_rules)s, score difference %(difference)s (sum of squares), "
            "%(side_preferences)s, in that order of importance. %(verdict)s",
            note["repeats"],
        ) % {
            "method": _method(t, note["method"]),
            "repeats": note["repeats"],
            "side_rules": sides,
            "difference": score_words(note["score_difference"]),
            "side_preferences": preferences,
            "verdict": verdict,
        }
    where = {"table": note["table"]}
    if code == H2H_MET_BEFORE:
        if note.get("reason") == "proven_fewest":
            repeats = note.get("repeats", 0)
            reason = t.ngettext(
                "every pairing repeats at least %(repeats)s meeting",
                "every pairing repeats at least %(repeats)s meetings",
                repeats,
            ) % {"repeats": repeats}
        else:
            reason = t.gettext("no exchange of opponents between two tables avoids it")
        return t.gettext("Table %(table)s: %(a)s and %(b)s have met before: %(reason)s.") % {
            **where,
            "a": name(note["a"]),
            "b": name(note["b"]),
            "reason": reason,
        }
    if code == H2H_FLOAT:
        return t.gettext(
            "Table %(table)s: %(a)s (score %(score_a)s) meets %(b)s (score %(score_b)s) "
            "from another score group."
        ) % {
            **where,
            "a": name(note["a"]),
            "b": name(note["b"]),
            "score_a": score_words(note["score_a"]),
            "score_b": score_words(note["score_b"]),
        }
    who = {**where, "player": name(note["player"])}
    if code == H2H_SIDE_RULE:
        cooks = note["side"] == "cooks"
        if note["rule"] == "three_running":
            text = (
                t.gettext("Table %(table)s: %(player)s cooks first for the third match running.")
                if cooks
                else t.gettext(
                    "Table %(table)s: %(player)s starts as the customers for the third match "
                    "running."
                )
            )
        elif cooks:
            text = t.gettext(
                "Table %(table)s: %(player)s cooks first, which puts their matches as cooks "
                "first more than one ahead of those as customers first."
            )
        else:
            text = t.gettext(
                "Table %(table)s: %(player)s starts as the customers, which puts their matches "
                "as customers first more than one ahead of those as cooks first."
            )
        return text % who
    if code == H2H_SIDE_PREFERENCE:
        if note["due"] == "cooks":
            text = t.gettext(
                "Table %(table)s: %(player)s was due to cook first but starts as the customers."
            )
        else:
            text = t.gettext(
                "Table %(table)s: %(player)s was due to start as the customers but cooks first."
            )
        return text % who
    raise ValueError(f"unknown note code {code!r}")


def describe(note: Note, name: Names, *, swapped: bool = False, t: Translator = ENGLISH) -> str:
    """The note in words (English unless ``t`` translates), players named by ``name``.
    ``swapped``: the round was changed by hand after the search (its search cost no longer
    describes the tables)."""
    code = note["code"]
    if code in (H2H_COST, H2H_MET_BEFORE, H2H_FLOAT, H2H_SIDE_RULE, H2H_SIDE_PREFERENCE):
        return _head_to_head(note, name, swapped, t)
    if code == SEARCH_COST:
        if swapped:
            verdict = _swapped_verdict(t)
        elif note["method"] == "exhaustive":
            verdict = t.gettext(
                "This is the lowest possible cost: every allowed grouping was checked."
            )
        else:
            verdict = t.gettext("No grouping can cost less than %(bound)s.") % {
                "bound": _number(note["bound"])
            }
        return t.ngettext(
            "Seated by standings (%(method)s). Cost %(total)s = %(repeats)s repeated meeting "
            "x %(repeat_weight)s + %(small_tables)s (earlier small tables of the players at "
            "small tables) x %(small_table_weight)s + %(spread)s (standing spread). %(verdict)s",
            "Seated by standings (%(method)s). Cost %(total)s = %(repeats)s repeated meetings "
            "x %(repeat_weight)s + %(small_tables)s (earlier small tables of the players at "
            "small tables) x %(small_table_weight)s + %(spread)s (standing spread). %(verdict)s",
            note["repeats"],
        ) % {
            "method": _method(t, note["method"]),
            "total": _number(note["total"]),
            "repeats": note["repeats"],
            "repeat_weight": _number(note["repeat_weight"]),
            "small_tables": note["small_tables"],
            "small_table_weight": _number(note["small_table_weight"]),
            "spread": note["spread"],
            "verdict": verdict,
        }
    if code == ROUND_ONE:
        tables = note["tables"]
        if note["order"] == "random":
            return t.ngettext(
                "Random seating (seed %(seed)s), no search: %(tables)s table.",
                "Random seating (seed %(seed)s), no search: %(tables)s tables.",
                tables,
            ) % {"seed": note["seed"], "tables": tables}
        return t.ngettext(
            "Seating by the given order (registration or rating), no search: %(tables)s table.",
            "Seating by the given order (registration or rating), no search: %(tables)s tables.",
            tables,
        ) % {"tables": tables}
    if code == SMALL_TABLE_SWAP:
        return t.gettext(
            "%(a)s and %(b)s swapped tables so that nobody gets a second small table before "
            "everyone has had one."
        ) % {"a": name(note["a"]), "b": name(note["b"])}
    if code == MET_BEFORE:
        return t.gettext("Table %(table)s: %(a)s and %(b)s have met before: %(reason)s.") % {
            "table": note["table"],
            "a": name(note["a"]),
            "b": name(note["b"]),
            "reason": _reason(t, note),
        }
    if code == SMALL_TABLE:
        where = {"table": note["table"], "seats": note["seats"], "full": note["full"]}
        if not note["before"]:
            return (
                t.gettext(
                    "Table %(table)s seats %(seats)s (a full table seats %(full)s): nobody at it "
                    "had a small table before."
                )
                % where
            )
        before = t.gettext(", ").join(
            t.ngettext("%(player)s (%(count)s before)", "%(player)s (%(count)s before)", c)
            % {"player": name(p), "count": c}
            for p, c in note["before"]
        )
        return t.gettext(
            "Table %(table)s seats %(seats)s (a full table seats %(full)s): %(before)s had a "
            "small table before; %(why)s."
        ) % {**where, "before": before, "why": _why(t, note["why"])}
    if code == BYE:
        rule = t.gettext("byes go to the lowest-placed players among those with the fewest byes")
        player = name(note["player"])
        byes = note["byes"]
        if byes == 0:
            return t.gettext("Bye: %(player)s, who had no bye before (%(rule)s).") % {
                "player": player,
                "rule": rule,
            }
        return t.ngettext(
            "Bye: %(player)s, who had %(byes)s bye before: every player present has had at "
            "least as many (%(rule)s).",
            "Bye: %(player)s, who had %(byes)s byes before: every player present has had at "
            "least as many (%(rule)s).",
            byes,
        ) % {"player": player, "byes": byes, "rule": rule}
    if code == SWAPPED:
        return t.gettext("Changed by hand: %(a)s and %(b)s swapped.") % {
            "a": name(note["a"]),
            "b": name(note["b"]),
        }
    if code == LEGACY_TEXT:
        return str(note["text"])
    raise ValueError(f"unknown note code {code!r}")


def describe_all(
    notes: Iterable[Note], names: Mapping[str, str], t: Translator = ENGLISH
) -> list[str]:
    """Each note in words (English unless ``t`` translates), players named from ``names``
    (id -> name). Once the round has a swap made by hand, the search's verdict says that it
    described the tables before it."""
    listed = list(notes)
    swapped = any(note["code"] == SWAPPED for note in listed)
    return [describe(note, lambda p: names.get(p, p), swapped=swapped, t=t) for note in listed]


# ----------------------------------------------------------------------------- old prose


_INT = r"(\d[\d,]*)"


def _int(text: str) -> int:
    return int(text.replace(",", ""))


_PATTERNS: Final = {
    key: re.compile(pattern)
    for key, pattern in {
        "search_cost": (
            r"Seated by standings \((exhaustive|local search)\)\. Cost " + _INT + r" = "
            r"(\d+) repeated meeting(?:\(s\)|s)? x "
            + _INT
            + r" \+ (\d+) \(earlier small tables of "
            r"the players at small tables\) x " + _INT + r" \+ (\d+) \(standing spread\)\. "
            r"(?:This is the lowest possible cost: every allowed grouping was checked\.|"
            r"No grouping can cost less than " + _INT + r"\.)"
        ),
        "round_one_random": (
            r"Random seating \(seed (-?\d+)\), no search: (\d+) table(?:\(s\)|s)?\."
        ),
        "round_one_order": (
            r"Seating by the given order \(registration or rating\), no search: "
            r"(\d+) table(?:\(s\)|s)?\."
        ),
        "small_table_swap": (
            r"(.+) and (.+) swapped tables so that nobody gets a second small table before "
            r"everyone has had one\."
        ),
        "met_before": r"Table (\d+): (.+) and (.+) have met before: (.+)\.",
        "small_table_nobody": (
            r"Table (\d+) seats (\d+) \(a full table seats (\d+)\): nobody at it had a small "
            r"table before\."
        ),
        "small_table_had": (
            r"Table (\d+) seats (\d+) \(a full table seats (\d+)\): (.+) had a small table "
            r"before; (every player present who never had one sits at a small table this round"
            r"|every player present has had one)\."
        ),
        "bye_first": (
            r"Bye: (.+), who had no bye before \(byes go to the lowest-placed players among "
            r"those with the fewest byes\)\."
        ),
        "bye_again": (
            r"Bye: (.+), who had (\d+) byes? before: every player present has had at least as "
            r"many \(byes go to the lowest-placed players among those with the fewest byes\)\."
        ),
        "swapped": r"Changed by hand: (.+) and (.+) swapped\.",
    }.items()
}
_REASONS: Final = {
    "no allowed grouping has a lower total cost": (LOWEST_COST, 0),
    "no swap of two players between any two tables would lower the total cost": (
        NO_BETTER_SWAP,
        0,
    ),
    "this round's seating does not look at earlier meetings": (NO_HISTORY, 0),
}
_FEWEST = re.compile(r"every allowed grouping repeats at least (\d+) meeting(?:\(s\)|s)?")


class _Unreadable(Exception):
    pass


def _pair(text: str, sep: str, ids: Mapping[str, str]) -> tuple[str, str]:
    """Two players named in ``text`` around ``sep`` (a name may itself contain ``sep``)."""
    found = [
        (ids[text[:i]], ids[text[i + len(sep) :]])
        for i in range(len(text))
        if text.startswith(sep, i) and text[:i] in ids and text[i + len(sep) :] in ids
    ]
    if len(found) != 1:
        raise _Unreadable
    return found[0]


def _one(text: str, ids: Mapping[str, str]) -> str:
    if text not in ids:
        raise _Unreadable
    return ids[text]


def _before(text: str, ids: Mapping[str, str]) -> list[tuple[str, int]]:
    """ "A (1 before), B (2 before)" (names may contain ", " or parentheses)."""
    items: list[tuple[str, int]] = []
    rest = text
    while rest:
        found = next(
            (
                m
                for m in re.finditer(r" \((\d+) before\)(?:, |$)", rest)
                if rest[: m.start()] in ids
            ),
            None,
        )
        if found is None:
            raise _Unreadable
        items.append((ids[rest[: found.start()]], int(found[1])))
        rest = rest[found.end() :]
    return items


def from_text(text: str, ids: Mapping[str, str]) -> dict[str, Any]:
    """The code of a note written as an English sentence (before notes were codes).
    ``ids``: a player's id from how a note named them (their name, or their id). A sentence
    that cannot be read back with certainty stays text (``legacy_text``)."""
    try:
        return _from_text(text, ids)
    except _Unreadable:
        return legacy_text(text)


def _from_text(text: str, ids: Mapping[str, str]) -> dict[str, Any]:
    p = _PATTERNS
    if m := p["search_cost"].fullmatch(text):
        method, total, repeats, rw, small, sw, spread, bound = m.groups()
        return search_cost(
            method=method,
            total=_int(total),
            repeats=int(repeats),
            repeat_weight=_int(rw),
            small_tables=int(small),
            small_table_weight=_int(sw),
            spread=int(spread),
            bound=_int(total) if bound is None else _int(bound),
        )
    if m := p["round_one_random"].fullmatch(text):
        return round_one(order="random", seed=int(m[1]), tables=int(m[2]))
    if m := p["round_one_order"].fullmatch(text):
        return round_one(order="given", seed=0, tables=int(m[1]))
    if m := p["small_table_nobody"].fullmatch(text):
        return small_table(int(m[1]), int(m[2]), int(m[3]), [], NEVER_HAD_ONE_SEATED)
    if m := p["small_table_had"].fullmatch(text):
        why = ALL_HAD_ONE if m[5] == "every player present has had one" else NEVER_HAD_ONE_SEATED
        return small_table(int(m[1]), int(m[2]), int(m[3]), _before(m[4], ids), why)
    if m := p["bye_first"].fullmatch(text):
        return bye(_one(m[1], ids), 0)
    if m := p["bye_again"].fullmatch(text):
        return bye(_one(m[1], ids), int(m[2]))
    if m := p["swapped"].fullmatch(text):
        return swapped(*_pair(text[len("Changed by hand: ") : -len(" swapped.")], " and ", ids))
    if m := p["small_table_swap"].fullmatch(text):
        head = text[: -len(_SWAP_TAIL)]
        return small_table_swap(*_pair(head, " and ", ids))
    if m := re.fullmatch(r"Table (\d+): (.+) have met before: (.+)\.", text):
        reason_text = m[3]
        if f := _FEWEST.fullmatch(reason_text):
            reason, repeats = FEWEST_REPEATS, int(f[1])
        elif reason_text in _REASONS:
            reason, repeats = _REASONS[reason_text]
        else:
            raise _Unreadable
        a, b = _pair(m[2], " and ", ids)
        return met_before(int(m[1]), a, b, reason, repeats)
    raise _Unreadable


_SWAP_TAIL: Final = (
    " swapped tables so that nobody gets a second small table before everyone has had one."
)


def upcast_all(texts: Iterable[Any], ids: Mapping[str, str]) -> tuple[dict[str, Any], ...]:
    """Notes of a version-1 event or snapshot (sentences) as codes; notes that are codes
    already are kept."""
    return tuple(from_text(t, ids) if isinstance(t, str) else dict(t) for t in texts)
