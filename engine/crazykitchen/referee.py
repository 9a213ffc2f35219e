"""The Crazy Kitchen referee: ``check(state, event)`` raises RuleViolation or returns None.

Checks come in a fixed order (docs/crazykitchen-record-format.md): whether the event may come now
(``game_over``, ``out_of_order``), then its content in the order the record's fields are listed.
"""

from __future__ import annotations

from engine.crazykitchen.events import GAME, Event, GameStarted, RoundScored
from engine.crazykitchen.rules import (
    MIN_TEAM,
    ORDER_CARDS,
    PLAYER_COUNTS,
    cooks_in,
    round_score,
)
from engine.crazykitchen.state import KitchenState
from engine.errors import RuleViolation


def _refusal(code: str, message: str, **params: object) -> RuleViolation:
    """A refusal with the values its sentence is made of (games/refusals.py; ``game`` keys the
    codes Crazy Kitchen shares with the other games)."""
    return RuleViolation(code, message, {"game": GAME, **params})


def expected_cooks(state: KitchenState) -> str:
    """The team that cooks in the next round."""
    first, second = state.names
    other = second if state.cooks_first == first else first
    return cooks_in(len(state.rounds) + 1, state.cooks_first, other)


def check(state: KitchenState, event: Event) -> None:
    if state.over:
        raise _refusal("game_over", "the game is over: it lasts six rounds")
    if isinstance(event, GameStarted):
        if state.started:
            raise _refusal("out_of_order", "the game has already started", rule="started")
        _game_started(event)
        return
    if not state.started:
        raise _refusal("out_of_order", "a record starts with game_started", rule="game_started")
    _round_scored(state, event)


def _game_started(event: GameStarted) -> None:
    teams = event.teams
    if len(teams) != 2:
        raise _refusal(
            "bad_teams",
            f"the players form two teams, not {len(teams)}",
            rule="count",
            count=len(teams),
        )
    names = [t.name for t in teams]
    if any(not n.strip() for n in names) or names[0] == names[1]:
        raise _refusal("bad_teams", "each team needs a name of its own", rule="team_names")
    players = [p for t in teams for p in t.players]
    if any(not p.strip() for p in players):
        raise _refusal("bad_teams", "every player needs a name", rule="empty_name")
    if len(set(players)) != len(players):
        raise _refusal(
            "bad_teams", "a player appears twice: each plays in one team", rule="player_twice"
        )
    sizes = [len(t.players) for t in teams]
    if min(sizes) < MIN_TEAM:
        raise _refusal(
            "bad_teams",
            f"each team needs at least {MIN_TEAM} players: an order is checked by a customer "
            "who does not hold the order token",
            rule="team_size",
            min=MIN_TEAM,
        )
    if abs(sizes[0] - sizes[1]) > 1:
        raise _refusal(
            "bad_teams",
            f"divide the players into two teams of equal size (one more on one side with an odd "
            f"number of players), not {sizes[0]} and {sizes[1]}",
            rule="uneven",
            sizes=sizes,
        )
    if len(players) not in PLAYER_COUNTS:
        raise _refusal(
            "bad_teams",
            f"Crazy Kitchen is refereed for {PLAYER_COUNTS[0]} to {PLAYER_COUNTS[-1]} players, "
            f"not {len(players)}",
            rule="players",
            min=PLAYER_COUNTS[0],
            max=PLAYER_COUNTS[-1],
            count=len(players),
        )
    if event.cooks_first not in names:
        raise _refusal(
            "unknown_team",
            f'"{event.cooks_first}" is not a team in this game',
            team=event.cooks_first,
        )
    if event.compensation is not None:
        if event.compensation < 0:
            raise _refusal(
                "bad_compensation",
                f"compensation is 0 or more victory points, not {event.compensation}",
                rule="negative",
                got=event.compensation,
            )
        if event.compensation and sizes[0] == sizes[1]:
            raise _refusal(
                "bad_compensation",
                "compensation is only for the smaller team when the number of players is odd",
                rule="even_teams",
            )


def _round_scored(state: KitchenState, event: RoundScored) -> None:
    expected = len(state.rounds) + 1
    if event.round != expected:
        raise _refusal(
            "wrong_round",
            f"the next round is round {expected}, not {event.round}",
            expected=expected,
            got=event.round,
        )
    if event.cooks not in state.names:
        raise _refusal(
            "unknown_team", f'"{event.cooks}" is not a team in this game', team=event.cooks
        )
    cooks = expected_cooks(state)
    if event.cooks != cooks:
        raise _refusal(
            "wrong_cooks",
            f"{cooks} cook in round {expected}: the teams swap cooks and customers every round",
            team=cooks,
            round=expected,
        )
    if any(value < 1 for value in event.fulfilled):
        raise _refusal("bad_order_value", "a fulfilled order is worth 1 or more victory points")
    if any(value < 1 for value in event.penalties):
        raise _refusal(
            "bad_penalty",
            "a penalty is written as the positive number of penalty points on the order card "
            "(2 for a -2 order), 1 or more",
        )
    if len(event.fulfilled) + len(event.penalties) > ORDER_CARDS:
        raise _refusal(
            "too_many_orders",
            f"there are only {ORDER_CARDS} order cards in the game",
            count=ORDER_CARDS,
        )
    score = round_score(event.fulfilled, event.penalties)
    if event.score != score:
        gained, lost = sum(event.fulfilled), sum(event.penalties)
        raise _refusal(
            "wrong_score",
            f"the cooks receive {gained} - {lost} = {gained - lost} victory points"
            + (", and 0 is written when the penalties are more" if gained < lost else "")
            + f": the score is {score}, not {event.score}",
            rule="penalties_more" if gained < lost else "sum",
            gained=gained,
            lost=lost,
            net=gained - lost,
            score=score,
            got=event.score,
        )
