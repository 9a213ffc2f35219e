"""The Food Truck referee: may this event happen now? (docs/foodtruck-rules.md)

``check(state, event)`` raises :class:`~engine.errors.RuleViolation` with a stable code and a
message in the rulebook's words, or returns None; it changes nothing. Each rule is checked here
once, next to the legal-move helpers the simulator and the tests use (:func:`legal_events`,
:func:`legal_reveals`, :func:`legal_company_plays`).

The order of the checks within one event is part of the contract
(docs/foodtruck-record-format.md): whether an event of this kind is expected now, then whether
the player is at the table, then whether it is their turn, then the event's content.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from engine.errors import BadEvent, InvariantError, RuleViolation
from engine.foodtruck.events import GAME_KEY as _GAME
from engine.foodtruck.events import (
    CompanyPlayed,
    DishRevealed,
    Event,
    GameStarted,
    MarketTaken,
    RoundStarted,
    type_name,
)
from engine.foodtruck.rules import DESSERT, PLAYER_COUNTS, removable
from engine.foodtruck.state import GameState, Phase, PlayerState

_NOT_STARTED, _ROUND_START, _TURN = Phase.NOT_STARTED, Phase.ROUND_START, Phase.TURN
_SERVED, _MARKET_PICK, _OVER = Phase.SERVED, Phase.MARKET_PICK, Phase.OVER

ON_THE_DISH: Final = frozenset({"swap", "under", "copy"})
"""FT6.7: effects that act on the dish the player must play, so they come before it is turned
over: after the reveal (served or refused) they are ``effect_not_now``."""

# ---------------------------------------------------------------------------------------------
# Legal moves


def turn_player(state: GameState) -> str | None:
    """Whose turn it is to turn a dish over (or to take a market card)."""
    if state.phase is _TURN or state.phase is _MARKET_PICK:
        return state.current
    if state.phase is _SERVED:
        return state.next_player()
    return None


def top_choices(seat: PlayerState) -> list[str]:
    """FT8.2: the dishes that may be on top of a pile, as far as the table knows."""
    if seat.hidden:
        return sorted(d for d, n in seat.hidden.items() if n > 0)
    return seat.tail[:1]


def legal_reveals(state: GameState) -> list[str]:
    """The dishes the player whose turn it is may turn over now."""
    player = turn_player(state)
    if player is None or state.phase is _MARKET_PICK:
        return []
    if state.phase is _TURN and state.must_play is not None:
        return [state.must_play]
    return top_choices(state.seats[player])


def legal_market(state: GameState) -> list[str]:
    """The market dishes the player to pick may take (empty when no pick is due)."""
    player = turn_player(state)
    if player is None:
        return []
    if state.phase is not _MARKET_PICK and (
        state.seats[player].pile_size() or (state.phase is _TURN and state.must_play)
    ):
        return []
    return sorted(set(state.market))


def legal_company_plays(state: GameState, player: str) -> list[CompanyPlayed]:
    """Every Company play ``player`` may make now, one per distinct choice."""
    try:
        _company_turn(state, player)
    except RuleViolation:
        return []
    seat = state.seats[player]
    effect = seat.company
    if effect is None:
        return []
    if _after_reveal(state, player) and effect in ON_THE_DISH:
        return []
    if effect == "rearrange" or effect == "copy":
        if effect == "copy" and not seat.pile_size():
            return []
        return [CompanyPlayed(player, effect)]
    if effect == "remove":
        return [
            CompanyPlayed(
                player,
                effect,
                target=target,
                dish=dish,
                chosen_by=target if state.version >= 2 else None,
            )
            for target in state.players
            for dish in sorted(removable(state.seats[target].served))
        ]
    tops = top_choices(seat)
    if effect == "swap":
        return [
            CompanyPlayed(player, effect, dish=dish, market=card)
            for dish in tops
            for card in sorted(set(state.market))
        ]
    if seat.pile_size() < 2:
        return []
    return [CompanyPlayed(player, effect, dish=dish) for dish in tops]


def legal_events(state: GameState) -> list[Event]:
    """Every event that may come next during a service (not game or round starts, whose choices
    are open), one per distinct choice."""
    if state.phase not in (_TURN, _SERVED, _MARKET_PICK):
        return []
    player = turn_player(state)
    assert player is not None
    events: list[Event] = []
    if state.phase is _MARKET_PICK:  # FT6.6: the eliminated player's Company card too
        events.extend(legal_company_plays(state, player))
        events.extend(MarketTaken(player, dish) for dish in legal_market(state))
        return events
    if state.phase is _SERVED and state.current is not None:
        events.extend(legal_company_plays(state, state.current))
    events.extend(legal_company_plays(state, player))
    events.extend(DishRevealed(player, dish) for dish in legal_reveals(state))
    events.extend(MarketTaken(player, dish) for dish in legal_market(state))
    return events


def expected_next(state: GameState) -> tuple[str, str | None] | None:
    """The kind of event expected now and who makes it; None once the game is over."""
    phase = state.phase
    if phase is _OVER:
        return None
    if phase is _NOT_STARTED or phase is _ROUND_START:
        return phase.value, None
    player = turn_player(state)
    if phase is _MARKET_PICK or legal_market(state):
        return "market_taken", player
    return "dish_revealed", player


# ---------------------------------------------------------------------------------------------
# Checks


def _refusal(code: str, message: str, **params: object) -> RuleViolation:
    """A refusal with the values its sentence is made of (games/refusals.py says it in the
    reader's language; ``game`` keys the codes Food Truck shares with the other games)."""
    return RuleViolation(code, message, {"game": _GAME, **params})


def check(state: GameState, event: Event) -> None:
    """Raise :class:`RuleViolation` if ``event`` may not happen in ``state``."""
    if isinstance(event, CompanyPlayed):
        _check_version_fields(state, event)
    _CHECKS[type(event)](state, event)


def _check_version_fields(state: GameState, event: CompanyPlayed) -> None:
    """The record format's part that depends on the record's version (a line alone does not
    say it): ``chosen_by`` is a field of v2's ``remove`` only, and v2's ``remove`` needs it.
    A form error (``bad_event``), so it comes before every rule's check."""
    has = event.chosen_by is not None
    if has and (state.version < 2 or event.effect != "remove"):
        raise BadEvent(
            "bad_event",
            f'company_played has no field "chosen_by" in Food Truck record format '
            f"v{state.version}" + ("" if event.effect == "remove" else f" ({event.effect})"),
            {
                "game": _GAME,
                "rule": "extra_field",
                "type": "company_played",
                "fields": ["chosen_by"],
            },
        )
    if not has and event.effect == "remove" and state.version >= 2:
        raise BadEvent(
            "bad_event",
            'company_played needs a "chosen_by" field',
            {
                "game": _GAME,
                "rule": "missing_field",
                "type": "company_played",
                "field": "chosen_by",
            },
        )


def describe_next(state: GameState) -> str:
    """In words: what the table waits for now."""
    phase = state.phase
    if phase is _NOT_STARTED:
        return "a record starts with game_started"
    if phase is _ROUND_START:
        return f"round {state.round_no + 1} must start now (round_started)"
    if phase is _MARKET_PICK:
        return f"{state.current} was eliminated and must take a card from the market now"
    player = turn_player(state)
    return f"it is {player}'s turn to turn over a dish"


def _not_expected(state: GameState, event: Event) -> RuleViolation:
    got = type_name(event)
    if state.phase is _OVER:
        winner = state.rounds[-1].winner if state.rounds else "?"
        return _refusal(
            "game_over",
            f"the game is over ({winner} has won); nothing may follow, got {got}",
            winner=winner,
            got=got,
        )
    phase = state.phase
    rule = {_NOT_STARTED: "game_started", _ROUND_START: "round_started"}.get(phase, "turn")
    if phase is _MARKET_PICK:
        rule = "market_pick"
    player = state.current if phase is _MARKET_PICK else turn_player(state)
    return _refusal(
        "out_of_order",
        f"{describe_next(state)}, not {got}",
        rule=rule,
        round=state.round_no + 1,
        player=player,
        got=got,
    )


def _at_table(state: GameState, player: str) -> None:
    if player not in state.seats:
        raise _refusal(
            "unknown_player",
            f"{player!r} is not playing in this game ({', '.join(state.players)})",
            player=player,
            players=list(state.players),
        )


def _wrong_turn(state: GameState, player: str) -> RuleViolation:
    if state.phase in (_TURN, _SERVED, _MARKET_PICK) and player not in state.in_round:
        return _refusal(
            "wrong_turn",
            f"{player} is eliminated from this round and has no turn until the next",
            rule="eliminated",
            player=player,
        )
    expected = turn_player(state)
    return _refusal(
        "wrong_turn",
        f"it is {expected}'s turn, not {player}'s",
        rule="turn",
        expected=expected,
        player=player,
    )


def _company_turn(state: GameState, player: str) -> None:
    """FT6.6: a Company card is played during its owner's turn, at any moment of it: before the
    dish is turned over, after it was served (until the next player acts) or refused (until
    the market card is taken)."""
    if state.phase is _TURN and player == state.current:
        return
    if state.phase is _SERVED and player in (state.current, state.next_player()):
        return
    if state.phase is _MARKET_PICK and player == state.current:
        return
    raise _wrong_turn(state, player)


def _after_reveal(state: GameState, player: str) -> bool:
    """Whether ``player``'s dish of this turn was turned over (served, or refused)."""
    if player != state.current:
        return False
    return state.phase is _SERVED or state.phase is _MARKET_PICK


def _top_problem(state: GameState, player: str, dish: str, acting: str) -> RuleViolation | None:
    """FT8.2: ``dish`` may be the top card of ``player``'s pile (the dish they must play)."""
    if state.phase is _TURN and state.must_play is not None and player == state.current:
        if dish == state.must_play:
            return None
        return _refusal(
            "not_on_top",
            f"{player} swapped for the market's {state.must_play} and must play it now, not {dish}",
            rule="swapped",
            player=player,
            must_play=state.must_play,
            dish=dish,
        )
    seat = state.seats[player]
    if not seat.pile_size():
        return _refusal(
            "pile_empty",
            f"{player}'s pile is empty: there is no dish to {acting} "
            "(a player who cannot turn a dish over is eliminated: enter their market_taken)",
            rule=_ACTIONS[acting],
            player=player,
        )
    if seat.hidden:
        if seat.hidden[dish] > 0:
            return None
    elif seat.tail[0] == dish:
        return None
    if dish in seat.tail:
        return _refusal(
            "not_on_top",
            f"{player}'s {dish} was put under their pile and other dishes lie above it: "
            f"it is not the dish on top",
            rule="under",
            player=player,
            dish=dish,
        )
    return _refusal(
        "dish_not_in_pile", f"{player} has no {dish} in their pile", player=player, dish=dish
    )


_ACTIONS: Final = {"swap": "swap", "put under the pile": "under", "turn over": "turn_over"}
"""The words of :func:`_top_problem`'s ``acting`` and the ``rule`` of its pile_empty."""


def _check_game_started(state: GameState, event: GameStarted) -> None:
    if state.phase is not _NOT_STARTED:
        raise _not_expected(state, event)
    players = event.players
    if len(players) not in PLAYER_COUNTS:
        raise _refusal(
            "bad_players",
            f"Food Truck is played by 2 to 5 players, not {len(players)}",
            rule="count",
            count=len(players),
        )
    if any(not name for name in players):
        raise _refusal(
            "bad_players", "every player needs a name (an empty name was given)", rule="empty_name"
        )
    if len(set(players)) != len(players):
        twice = sorted({p for p in players if players.count(p) > 1})
        raise _refusal(
            "bad_players", f"{', '.join(twice)} is seated twice", rule="seated_twice", players=twice
        )


def _check_round_started(state: GameState, event: RoundStarted) -> None:
    if state.phase is not _ROUND_START:
        raise _not_expected(state, event)
    if event.round != state.round_no + 1:
        raise _refusal(
            "wrong_round",
            f"the next round is round {state.round_no + 1}, not {event.round}",
            expected=state.round_no + 1,
            got=event.round,
        )
    _at_table(state, event.first_player)
    if state.marker is not None and event.first_player != state.marker:
        raise _refusal(
            "bad_first_player",
            f"{state.marker} holds the first-player marker (the first eliminated last round) "
            f"and starts round {event.round}, not {event.first_player}",
            marker=state.marker,
            round=event.round,
            player=event.first_player,
        )
    n = len(state.players)
    if len(event.market) != n:
        raise _refusal(
            "bad_market",
            f"the market is as many dish cards as players: {n}, not {len(event.market)}",
            rule="size",
            expected=n,
            got=len(event.market),
        )
    if DESSERT in event.market:
        raise _refusal(
            "bad_market",
            "desserts are never in the market: the unused ones went back to the box",
            rule="dessert",
        )
    if state.market_pile < n:  # FT2.3: cannot happen (see max_rounds)
        raise InvariantError("the market's draw pile ran out")
    seen: set[str] = set()
    for player, effect in event.companies:
        _at_table(state, player)
        seen.add(player)
        if effect not in state.seats[player].company_pile:
            raise _refusal(
                "bad_company",
                f"{player} already turned over their {effect} card since their Company pile "
                "was last shuffled: each of the five cards comes once before the pile is "
                "shuffled again",
                rule="repeated",
                player=player,
                effect=effect,
            )
    missing = [p for p in state.players if p not in seen]
    if missing:
        raise _refusal(
            "bad_company",
            f"every player turns over a Company card: none given for {', '.join(missing)}",
            rule="missing",
            players=missing,
        )


def _check_company_played(state: GameState, event: CompanyPlayed) -> None:
    if state.phase not in (_TURN, _SERVED, _MARKET_PICK):
        raise _not_expected(state, event)
    player = event.player
    _at_table(state, player)
    _company_turn(state, player)
    seat = state.seats[player]
    if seat.company is None:
        raise _refusal(
            "company_used",
            f"{player} has already played their Company card this round",
            player=player,
        )
    if event.effect != seat.company:
        raise _refusal(
            "wrong_effect",
            f"{player}'s Company card this round is {seat.company}, not {event.effect}",
            player=player,
            effect=seat.company,
            got=event.effect,
        )
    if _after_reveal(state, player) and event.effect in ON_THE_DISH:
        refused = state.phase is _MARKET_PICK
        raise _refusal(
            "effect_not_now",
            f"{player} has already "
            + ("had their dish refused" if refused else "served their dish")
            + f" this turn: {event.effect} acts on the dish you must play, so it is played "
            "before the dish is turned over",
            rule="refused" if refused else "served",
            player=player,
            effect=event.effect,
        )
    effect = event.effect
    if effect == "remove":
        target = event.target
        assert target is not None and event.dish is not None
        _at_table(state, target)
        if event.chosen_by is not None:  # v2 (FT6.2): the chosen player chose the dish
            _at_table(state, event.chosen_by)
            if event.chosen_by != target:
                raise _refusal(
                    "wrong_chooser",
                    f"{target} chooses which of their own dishes goes under their pile "
                    f"(the player of your choice places one of their cards), not "
                    f"{event.chosen_by}",
                    target=target,
                    chooser=event.chosen_by,
                )
        count = state.seats[target].served[event.dish]
        if count == 0:
            raise _refusal(
                "not_removable",
                f"{target} has no {event.dish} served in front of them",
                rule="not_served",
                target=target,
                dish=event.dish,
            )
        if count > 1:
            raise _refusal(
                "not_removable",
                f"{target}'s {event.dish} is in a stack: only a visible dish that is not in a "
                "stack may be put under the pile",
                rule="stacked",
                target=target,
                dish=event.dish,
            )
    elif effect == "swap":
        assert event.dish is not None and event.market is not None
        problem = _top_problem(state, player, event.dish, "swap")
        if problem is not None:
            raise problem
        if event.market not in state.market:
            raise _refusal(
                "dish_not_in_market", f"there is no {event.market} in the market", dish=event.market
            )
    elif effect == "under":
        assert event.dish is not None
        problem = _top_problem(state, player, event.dish, "put under the pile")
        if problem is not None:
            raise problem
        if seat.pile_size() < 2:
            raise _refusal(
                "no_next_dish",
                f"{player}'s {event.dish} is the last dish of their pile: there is no next dish "
                "to play after putting it under",
                player=player,
                dish=event.dish,
            )
    elif effect == "copy" and not seat.pile_size():
        raise _refusal(
            "pile_empty",
            f"{player}'s pile is empty: there is no dish to copy",
            rule="copy",
            player=player,
        )


def _check_dish_revealed(state: GameState, event: DishRevealed) -> None:
    if state.phase not in (_TURN, _SERVED):
        raise _not_expected(state, event)
    _at_table(state, event.player)
    if event.player != turn_player(state):
        if state.phase is _SERVED and event.player == state.current:
            raise _refusal(
                "wrong_turn",
                f"{event.player} has served this turn; it is {turn_player(state)}'s turn",
                rule="served",
                player=event.player,
                expected=turn_player(state),
            )
        raise _wrong_turn(state, event.player)
    problem = _top_problem(state, event.player, event.dish, "turn over")
    if problem is not None:
        raise problem


def _check_market_taken(state: GameState, event: MarketTaken) -> None:
    if state.phase not in (_TURN, _SERVED, _MARKET_PICK):
        raise _not_expected(state, event)
    _at_table(state, event.player)
    player = turn_player(state)
    if event.player != player:
        raise _wrong_turn(state, event.player)
    if state.phase is not _MARKET_PICK and not legal_market(state):
        raise _refusal(
            "pile_not_empty",
            f"{player} has not been eliminated: a market card is taken by an eliminated player, "
            f"and {player} still has a dish to turn over",
            player=player,
        )
    if event.dish not in state.market:
        raise _refusal(
            "dish_not_in_market", f"there is no {event.dish} in the market", dish=event.dish
        )


_CHECKS: Final[dict[type[Any], Callable[[GameState, Any], None]]] = {
    GameStarted: _check_game_started,
    RoundStarted: _check_round_started,
    CompanyPlayed: _check_company_played,
    DishRevealed: _check_dish_revealed,
    MarketTaken: _check_market_taken,
}

__all__ = [
    "InvariantError",
    "check",
    "describe_next",
    "expected_next",
    "legal_company_plays",
    "legal_events",
    "legal_market",
    "legal_reveals",
    "top_choices",
    "turn_player",
]
