"""The Crazy Kitchen referee: ``check(state, event)`` raises RuleViolation or returns None.

Checks come in a fixed order (docs/crazykitchen-record-format.md): whether the event may come now
(``game_over``, ``out_of_order``), then its content in the order the record's fields are listed.
"""

from __future__ import annotations

from engine.crazykitchen.events import (
    GAME,
    CardTaken,
    Event,
    GameStarted,
    OrderFailed,
    OrderFulfilled,
    OrderStruck,
    RoundConfirmed,
    RoundReturned,
    RoundScored,
    TeamEvent,
    ToolSpedUp,
    UpgradesDone,
    type_name,
)
from engine.crazykitchen.rules import (
    MIN_TEAM,
    ORDER_CARDS,
    PLAYER_COUNTS,
    TOOLS,
    Upgrade,
    cooks_in,
    customers_in,
    round_score,
    upgrade,
)
from engine.crazykitchen.state import KitchenState
from engine.errors import InvariantError, RuleViolation


def _refusal(code: str, message: str, **params: object) -> RuleViolation:
    """A refusal with the values its sentence is made of (games/refusals.py; ``game`` keys the
    codes Crazy Kitchen shares with the other games)."""
    return RuleViolation(code, message, {"game": GAME, **params})


def expected_cooks(state: KitchenState) -> str:
    """The team that cooks in the next round."""
    first, second = state.names
    other = second if state.cooks_first == first else first
    return cooks_in(len(state.rounds) + 1, state.cooks_first, other)


def expected_customers(state: KitchenState) -> str:
    """The team that checks the orders in the round being played."""
    first, second = state.names
    other = second if state.cooks_first == first else first
    return customers_in(len(state.rounds) + 1, state.cooks_first, other)


def upgrade_at(state: KitchenState, after: int) -> Upgrade:
    """CK4.1-CK4.3: the break after round ``after`` (2 or 4): who upgrades first, the limits."""
    points = {name: 0 for name in state.names}
    for r in state.rounds[after - 2 : after]:
        points[r.cooks] += r.score
    return upgrade(after, points, state.cooks_first)


def upgrading(state: KitchenState) -> str | None:
    """v2: the team whose turn it is to upgrade at the current break (None: no break)."""
    after = state.at_break
    if after is None:
        return None
    done = state.done.get(after, [])
    return next(team for team in upgrade_at(state, after).order if team not in done)


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
    if isinstance(event, RoundScored):
        if state.version != 1:
            raise _refusal(
                "wrong_version",
                "a v2 record enters each order and the customers' confirmation, not round_scored",
                rule="round_scored",
            )
        _round_scored(state, event)
        return
    if state.version == 1:
        raise _refusal(
            "wrong_version",
            f"{type_name(event)} is a v2 event: this record is v1 (round_scored only)",
            rule="v2_event",
            type=type_name(event),
        )
    _team_event(state, event)


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
    for team in teams:
        if team.head_chef is not None and team.head_chef not in team.players:
            raise _refusal(
                "bad_teams",
                f'the head chef "{team.head_chef}" is not one of {team.name}\'s players',
                rule="head_chef",
                team=team.name,
                player=team.head_chef,
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


ROUND_EVENTS = (OrderFulfilled, OrderFailed, OrderStruck, RoundReturned, RoundConfirmed)
UPGRADE_EVENTS = (ToolSpedUp, CardTaken, UpgradesDone)


def _wrong_team(team: str, role: str, message: str) -> RuleViolation:
    return _refusal("wrong_team", message, rule=role, team=team)


def _team_event(state: KitchenState, event: TeamEvent) -> None:
    """A v2 event: when it may come, then whose it is, then its values (the table in
    docs/crazykitchen-record-format.md)."""
    number = len(state.rounds) + 1
    after = state.at_break
    if isinstance(event, ROUND_EVENTS) and after is not None:
        raise _refusal(
            "out_of_order",
            f"the teams upgrade after round {after}: the next round starts when both are done",
            rule="upgrades",
            round=after,
        )
    if isinstance(event, UPGRADE_EVENTS) and after is None:
        raise _refusal(
            "out_of_order",
            "the teams upgrade after rounds 2 and 4, between the rounds",
            rule="no_upgrades",
        )
    if event.team not in state.names:
        raise _refusal(
            "unknown_team", f'"{event.team}" is not a team in this game', team=event.team
        )
    if isinstance(event, OrderFulfilled | OrderFailed | OrderStruck):
        _order(state, event, number)
    elif isinstance(event, RoundReturned | RoundConfirmed):
        customers = expected_customers(state)
        if event.team != customers:
            raise _wrong_team(
                customers,
                "customers",
                f"{customers} are this round's customers: their head chef's phone confirms or "
                "returns the round",
            )
        if state.returned:
            raise _refusal(
                "returned",
                "the round was returned: the cooks correct its orders before the customers "
                "confirm or return it again",
            )
    else:
        _upgrade(state, event)


def _order(
    state: KitchenState, event: OrderFulfilled | OrderFailed | OrderStruck, number: int
) -> None:
    cooks = expected_cooks(state)
    if event.team != cooks:
        raise _wrong_team(
            cooks, "cooks", f"{cooks} cook this round: their head chef's phone enters the orders"
        )
    if isinstance(event, OrderStruck):
        if not 1 <= event.order <= len(state.orders):
            raise _refusal(
                "no_such_order",
                f"there is no order {event.order}: {len(state.orders)} entered this round",
                order=event.order,
                count=len(state.orders),
            )
        return
    if isinstance(event, OrderFulfilled) and event.points < 1:
        raise _refusal("bad_order_value", "a fulfilled order is worth 1 or more victory points")
    if isinstance(event, OrderFailed) and event.penalty < 1:
        raise _refusal(
            "bad_penalty",
            "a penalty is written as the positive number of penalty points on the order card "
            "(2 for a -2 order), 1 or more",
        )
    if len(state.orders) + 1 > ORDER_CARDS:
        raise _refusal(
            "too_many_orders",
            f"there are only {ORDER_CARDS} order cards in the game",
            count=ORDER_CARDS,
        )


def _upgrade(state: KitchenState, event: ToolSpedUp | CardTaken | UpgradesDone) -> None:
    after, team = state.at_break, upgrading(state)
    if after is None or team is None:
        raise InvariantError("an upgrade checked outside a break")
    if event.team != team:
        raise _wrong_team(
            team,
            "upgrades",
            f"{team} upgrade now: the team with fewer points over the two rounds upgrades first",
        )
    if isinstance(event, UpgradesDone):
        return
    if isinstance(event, ToolSpedUp) and event.tool not in TOOLS:
        raise _refusal(
            "unknown_tool",
            f'"{event.tool}" is not a tool on the scoreboard ({", ".join(TOOLS)})',
            tool=event.tool,
            known=list(TOOLS),
        )
    if event.cost < 1:
        raise _refusal(
            "bad_cost",
            f"an upgrade costs 1 or more, not {event.cost}",
            rule="positive",
            got=event.cost,
        )
    if isinstance(event, ToolSpedUp):
        crossed = [b.cost for b in state.bought if b.kind == "tool" and b.tool == event.tool]
        if crossed and event.cost < crossed[-1]:
            raise _refusal(
                "bad_cost",
                f"the {event.tool}'s lowest uncrossed number is {crossed[-1]} or more, "
                f"not {event.cost}",
                rule="crossed",
                tool=event.tool,
                least=crossed[-1],
                got=event.cost,
            )
    limit = upgrade_at(state, after).limits[team]
    spent = state.spent(after, team)
    if spent + event.cost > limit:
        raise _refusal(
            "over_budget",
            f"{team} upgrade for up to {limit} victory points after round {after}: "
            f"{spent} spent, {event.cost} more is over",
            team=team,
            limit=limit,
            spent=spent,
            cost=event.cost,
            round=after,
        )
