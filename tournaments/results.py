"""One entrant's result at a finished table, as the tournament keeps it: the one
:class:`Placement` of every game (the game's type gives it, games.gametypes; the tournament
records it in ``result_recorded``, its standings rank entrants with it). Pure, no imports."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Placement:
    """An entrant's result at a table, the same for every game."""

    player: str
    """The tournament's id of the entrant (a player, or a team in a team game)."""
    place: int
    """1 = first; shared places repeat (competition ranking: 1, 1, 3)."""
    victory_points: int
    """The game's points."""
    tiebreaks: tuple[int, ...] = ()
    """The game's own tie-break values, in the order the game applies them (higher is better;
    Trick-n-Chef's one is the points of deal 3)."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Placement:
        """A placement as a ``result_recorded`` event or a snapshot keeps it. Upcasts the shape
        Trick-n-Chef's results were kept in until issue 24: its tie-break in ``last_round``
        (``None`` for the other games, whose values were in ``tiebreaks``)."""
        tiebreaks = data.get("tiebreaks") or ()
        if not tiebreaks and data.get("last_round") is not None:
            tiebreaks = (data["last_round"],)
        return cls(
            player=data["player"],
            place=data["place"],
            victory_points=data["victory_points"],
            tiebreaks=tuple(tiebreaks),
        )

    def to_json(self) -> dict[str, Any]:
        """The shape a ``result_recorded`` event keeps (one for every game)."""
        return {
            "player": self.player,
            "place": self.place,
            "victory_points": self.victory_points,
            "tiebreaks": list(self.tiebreaks),
        }
