"""What the phone tests and benchmarks/phones.py need of a game to play it from its seat phones,
read from the registry only (games.gametypes.GAME_TYPES, games.phone.panel.panel_for): which
games have phones, the tables they allow, entrants' names, a new table with its seat links, the
engine's replay of a record and what one seat may not see. Nothing here knows a game's rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

PLAYERS = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kim", "Lou")
TEAMS = ("Reds", "Blues", "Greens", "Golds")


def phone_games() -> list[str]:
    """The registered game types whose phones have a panel, in the registry's order."""
    from games.gametypes import GAME_TYPES
    from games.phone.panel import panel_for

    return [key for key in GAME_TYPES if panel_for(key) is not None]


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A table of a game: its entrants (a team game's: the teams) and the options of
    ``GameType.start``."""

    game_type: str
    players: tuple[str, ...]
    options: Mapping[str, Any]

    @property
    def label(self) -> str:
        return f"{self.game_type}-{len(self.players)}"


def table_specs(game_type: str, sizes: Iterable[int] | None = None) -> list[TableSpec]:
    """One table at each size the game allows (``sizes``: only these)."""
    from games.gametypes import GAME_TYPES

    kind = GAME_TYPES[game_type]
    out = []
    for size in sizes or kind.table_sizes:
        if size not in kind.table_sizes:
            continue
        options = dict(kind.table_options(size))
        if kind.teams:
            players = TEAMS[:size]
            low = (kind.team_members or (1, 1))[0]
            names = iter(PLAYERS)
            options["members"] = {team: [next(names) for _ in range(low)] for team in players}
        else:
            players = PLAYERS[:size]
        out.append(TableSpec(game_type, tuple(players), options))
    return out


def create_table(spec: TableSpec, user: Any = None, *, published: bool = False) -> Any:
    """The table (games.services.game_create, which asks ``GameType.start``) and its seat links
    (games.services.seat_links_issue): (the change, the links by seat)."""
    from games import services

    options = dict(spec.options)
    suits = options.pop("suits", None)
    change = services.game_create(
        players=list(spec.players),
        suits=suits,
        options=options or None,
        game_type=spec.game_type,
        user=user,
        published=published,
    )
    links = services.seat_links_issue(game_id=change.game_id, user=user)
    return change, links


def placements_of_record(
    game_type: str, record: str, rules: Any = None
) -> list[tuple[str, int, int]]:
    """(player, place, points) of the engine's replay of a record, in place order: the engine's
    own rules (engine.registry.RULES, or ``rules`` for a game outside engine/, the tests' toy),
    then the game type's placements of that summary."""
    from engine.registry import RULES

    summary = (rules or RULES[game_type]).replay(record.splitlines())
    return placements_of_summary(game_type, summary)


def placements_of_summary(game_type: str, summary: Mapping[str, Any]) -> list[tuple[str, int, int]]:
    from games.gametypes import GAME_TYPES

    return [(p.player, p.rank, p.points) for p in GAME_TYPES[game_type].placements(summary)]


# ------------------------------------------------------------------------------- privacy


def hidden_rule(game_type: str) -> Any:
    """The game's rule of hidden hands (``GameType.hands``), None when nothing is secret."""
    from games.gametypes import game_module

    return game_module(game_type, "hands")


def held_by(rule: Any, snapshot: Mapping[str, Any] | None) -> dict[str, frozenset[str]]:
    """What each seat holds that the others may not see, from a snapshot: the rule's own
    ``held_by(snapshot)`` when it gives one, else the ``hands`` of the snapshot by player, the
    shape its ``held_cards`` reads (games/tricknchef/hands.py)."""
    if not snapshot:
        return {}
    own: Callable[[Mapping[str, Any]], Mapping[str, Iterable[str]]] | None = getattr(
        rule, "held_by", None
    )
    hands: Mapping[str, Iterable[str]] = (
        own(snapshot) if own is not None else (snapshot.get("hands") or {})
    )
    return {str(p): frozenset(str(c) for c in cards) for p, cards in hands.items()}


def leaks(html: str, secrets: Iterable[str]) -> list[str]:
    """The secrets (card codes) that appear in an answer as a whole token (``R9``, not in
    ``R90`` or ``xR9``)."""
    return [
        s for s in sorted(secrets) if s and re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", html)
    ]


def others_secrets(held: Mapping[str, frozenset[str]], seen_by: Sequence[str]) -> frozenset[str]:
    """What the seats ``seen_by`` (a phone's own player and those shared with it) may not see:
    the other seats' holdings, but a code one of its own seats holds too."""
    mine = frozenset().union(*(held.get(p, frozenset()) for p in seen_by))
    others = frozenset().union(*(h for p, h in held.items() if p not in seen_by))
    return others - mine


__all__ = [
    "PLAYERS",
    "TEAMS",
    "TableSpec",
    "create_table",
    "held_by",
    "hidden_rule",
    "leaks",
    "others_secrets",
    "phone_games",
    "placements_of_record",
    "placements_of_summary",
    "table_specs",
]
