"""Statistics mined from a game's play log (pure): what each game's rules package gives the
member pages and the club's records (docs/season.md, "Statistics").

A game package that can mine its records gives ``RULES.statistics(events)``: the record's JSON
objects (a finished game entered play by play, as ``python -m engine simulate`` writes them) to
each player's :class:`PlayerStatistics`, by the name the record gives the player (for a team
game, each team member's name as the record lists it; a team's figure goes to each of its
members). A record entered as results only has no plays: the function returns ``{}``.

Codes are stable (``tnc.tricks_won``, ``chefs.taken.hearts``): they are stored and shown
through a catalogue of words, never as prose. Each figure carries its sample size (the number
of observations it sums), so a page can say "31 tricks in 12 deals" and a rate is
``value / sample``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from engine.errors import InvalidRecord, RuleViolation


@dataclass(frozen=True, slots=True)
class Statistic:
    """A count over a game: ``value`` summed over ``sample`` observations (deals, tricks,
    coins, ...). Summed across games for a member."""

    code: str
    value: int
    sample: int


@dataclass(frozen=True, slots=True)
class Feat:
    """A candidate for the club's records: the best ``value`` of ``code`` in this game (the
    highest deal score, ...); ``round`` the game's round where it happened, if any."""

    code: str
    value: int
    round: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerStatistics:
    statistics: tuple[Statistic, ...] = ()
    feats: tuple[Feat, ...] = ()


# ---------------------------------------------------------------------------------------------
# What every game's statistics module shares: replaying the record's objects, and the tally.

RESULTS_ENTRY: Final = "results_entered"
"""The store's results-only entry (docs/event-store.md): not a line of any game's record. A
caller that passes a game's entries as they stand, results entry included, gets ``{}``."""

S = TypeVar("S")
E = TypeVar("E")


def has_results_entry(events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the entries hold a results-only entry (:data:`RESULTS_ENTRY`)."""
    return any(obj.get("type") == RESULTS_ENTRY for obj in events)


def replayed(
    events: Iterable[Mapping[str, Any]],
    state: S,
    from_json: Callable[[Mapping[str, Any]], E],
    step: Callable[[S, E], S],
) -> Iterator[E]:
    """Each event of a record given as its JSON objects, read by the game's ``from_json`` and
    checked and folded onto ``state`` by its ``step`` (its referee and fold): yields each event
    once ``state`` has taken it. Raises :class:`~engine.errors.InvalidRecord` at the first
    object that cannot be accepted (its 0-based index), as a replay does."""
    for index, obj in enumerate(events):
        try:
            event = from_json(obj)
            step(state, event)
        except RuleViolation as violation:
            raise InvalidRecord(index, violation) from None
        yield event


class Tally:
    """Statistics and feats counted for each player, then frozen (:meth:`result`). Codes keep
    the order they were first counted in; a feat keeps the highest value, and between equal
    values the first one counted (the earlier round)."""

    def __init__(self, players: Iterable[str]) -> None:
        self._counts: dict[str, dict[str, list[int]]] = {p: {} for p in players}
        self._feats: dict[str, dict[str, Feat]] = {p: {} for p in self._counts}

    def add(self, player: str, code: str, value: int = 0, sample: int = 0) -> None:
        """Add ``value`` over ``sample`` observations to ``player``'s ``code`` (which then
        exists, even at 0 over 0)."""
        count = self._counts[player].setdefault(code, [0, 0])
        count[0] += value
        count[1] += sample

    def feat(self, player: str, code: str, value: int, round: int | None = None) -> None:
        best = self._feats[player].get(code)
        if best is None or value > best.value:
            self._feats[player][code] = Feat(code, value, round)

    def result(self) -> dict[str, PlayerStatistics]:
        return {
            player: PlayerStatistics(
                statistics=tuple(Statistic(c, v, s) for c, (v, s) in counts.items()),
                feats=tuple(self._feats[player].values()),
            )
            for player, counts in self._counts.items()
        }
