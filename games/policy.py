"""Who may change a game, beyond the defaults: a hook for the apps that own games.

Games recorded on their own follow the defaults (any logged-in user records plays; the game's
creator or staff void and publish it). An app that creates games for its own purposes (the
tournaments app) registers a policy: it answers for its games, and may also add rules of its own
(e.g. round 1's first player is seat 1 of the table). ``games`` never imports those apps.

Such an app may also say where one of its games is played (``register_seating``): the table page
shows it ("Club night · round 2 · table 3") and offers only the first player its policy accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# The actions services ask about.
APPEND, CORRECT, RESULTS, VOID, PUBLISH = "append", "correct", "results", "void", "publish"
EXPORT = "export"
"""Download the game's record file (tournaments hold them back until they release downloads)."""
SEATS = "seats"
"""Issue, reissue, revoke and share the game's seat links (games.services.seats)."""
SEAT_APPEND = "seat_append"
"""A seat's phone records plays; ``user`` is then its games.seats.SeatAccess, not a user."""
HANDS = "hands"
"""See the cards still held in a round being played (the game's officials: games/hands.py)."""

Policy = Callable[[Any, Any, str, Sequence[Mapping[str, Any]]], bool | None]
"""``policy(game, user, action, events)``: None if the game is not the policy's business;
True if the action is allowed; raises games.services.NotAllowed / Refused otherwise."""

_policies: list[Policy] = []


def register(policy: Policy) -> None:
    if policy not in _policies:
        _policies.append(policy)


def decide(game: Any, user: Any, action: str, events: Sequence[Mapping[str, Any]] = ()) -> bool:
    """True if a registered policy took charge of (and allowed) the action; False if none did,
    so the defaults apply."""
    return any(policy(game, user, action, events) for policy in _policies)


@dataclass(frozen=True, slots=True)
class Seating:
    """Where a game is played, as the app that created it says."""

    where: str
    """In words: "Club night · round 2 · table 3"."""
    first_player: str | None = None
    """The only first player round 1 accepts (seat 1 of a tournament table); None: anyone."""
    trail: tuple[tuple[str, str], ...] = ()
    """``(words, address)`` of the public pages the game belongs to, widest first (the
    tournament, its round, the table): the game page's breadcrumb."""
    clock: str = ""
    """The address of the round clock's JSON (static/js/clock.js shows it), if the game is
    played against a clock."""


Locator = Callable[[Any], Seating | None]
"""``locator(game)``: the game's seating, or None if the game is not the locator's business."""

_locators: list[Locator] = []


def register_seating(locator: Locator) -> None:
    if locator not in _locators:
        _locators.append(locator)


def seating(game: Any) -> Seating | None:
    """Where the game is played (None for a game recorded on its own)."""
    for locator in _locators:
        found = locator(game)
        if found is not None:
            return found
    return None


Delays = Callable[[Sequence[Any]], Mapping[Any, int]]
"""``delays(game_ids)`` -> seconds by game id: how long spectators wait to see each of those
games that is the hook's business (the relay's delay: docs/relay.md); games it leaves out are
not delayed by it."""

_delays: list[Delays] = []
_generation = [0]


def delays_changed() -> None:
    """An owning app changed a delay: what this process kept of its readers' cuts (at the
    current step: games.services.relay.behind) is not used again. Other processes work it out
    afresh at their next step (a quarter of a second)."""
    _generation[0] += 1


def delay_generation() -> int:
    return _generation[0]


def register_delay(delays: Delays) -> None:
    if delays not in _delays:
        _delays.append(delays)


def spectator_delays(game_ids: Sequence[Any]) -> dict[Any, int]:
    """How many seconds spectators wait to see each of these games (0: not delayed), as the
    apps that own them say (the longest, if several do)."""
    out = dict.fromkeys(game_ids, 0)
    if not game_ids:
        return out
    for delays in _delays:
        for game_id, seconds in delays(game_ids).items():
            if game_id in out:
                out[game_id] = max(out[game_id], int(seconds))
    return out
