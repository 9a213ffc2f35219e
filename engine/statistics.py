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

from dataclasses import dataclass


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
