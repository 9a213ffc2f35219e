"""Ratings per game, with openskill's Plackett-Luce model at its defaults (mu 25, sigma 25/3):
pure, no Django (docs/season.md, "Ratings").

Each rated game is a finishing order of teams (a player is a team of one; Crazy Kitchen's teams
are teams of their members), shared places as ties. Games are rated one after the other in the
order their results were recorded; a member's rating is shown as its ordinal, mu - 3 sigma,
and is provisional while the member has played fewer than :data:`PROVISIONAL_GAMES` rated
games of that game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

PROVISIONAL_GAMES: Final = 6
"""Fewer rated games than this and a rating is provisional (one six-round evening's worth)."""

MODEL: Final = PlackettLuce()


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game's finishing order: ``teams[i]`` (member ids) took ``places[i]``."""

    seq: int
    """The game's position in the order results were recorded (the ratings' order)."""
    game: str
    game_type: str
    teams: tuple[tuple[str, ...], ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


INITIAL: Final = Rating(mu=MODEL.mu, sigma=MODEL.sigma, games=0)


@dataclass(frozen=True, slots=True)
class Change:
    """One game's effect on one member's rating (the member page's explanation)."""

    seq: int
    game: str
    game_type: str
    member: str
    place: int
    size: int
    """How many teams the game had."""
    before: Rating
    after: Rating


def rateable(game: RatedGame) -> bool:
    """A game can be rated when it has two teams or more and no member twice in it (two
    entries of one member at one table: the organizer has a merge to undo)."""
    members = [m for team in game.teams for m in team]
    return len(game.teams) >= 2 and all(game.teams) and len(set(members)) == len(members)


class Ratings:
    """Ratings of one game, updated one game at a time."""

    def __init__(self, current: Mapping[str, Rating] | None = None) -> None:
        self.current: dict[str, Rating] = dict(current or {})

    def get(self, member: str) -> Rating:
        return self.current.get(member, INITIAL)

    def rate(self, game: RatedGame) -> list[Change]:
        """Rate one game (skipped, with no change, unless :func:`rateable`)."""
        if not rateable(game):
            return []
        before = [[self.get(m) for m in team] for team in game.teams]
        teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in before]
        rated = MODEL.rate(teams, ranks=list(game.places))
        changes: list[Change] = []
        for team, old_team, new_team, place in zip(
            game.teams, before, rated, game.places, strict=True
        ):
            for member, old, new in zip(team, old_team, new_team, strict=True):
                after = Rating(mu=new.mu, sigma=new.sigma, games=old.games + 1)
                self.current[member] = after
                changes.append(
                    Change(
                        seq=game.seq,
                        game=game.game,
                        game_type=game.game_type,
                        member=member,
                        place=place,
                        size=len(game.teams),
                        before=old,
                        after=after,
                    )
                )
        return changes


def rate_all(games: Iterable[RatedGame]) -> tuple[dict[str, dict[str, Rating]], list[Change]]:
    """Every game rated from scratch, in ``seq`` order: each game type's ratings by member,
    and every change."""
    by_type: dict[str, Ratings] = {}
    changes: list[Change] = []
    for game in sorted(games, key=lambda g: g.seq):
        changes.extend(by_type.setdefault(game.game_type, Ratings()).rate(game))
    return {k: r.current for k, r in by_type.items()}, changes
