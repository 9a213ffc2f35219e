"""The referee: decides whether an event may happen now (docs/rules.md), without changing anything.

``check(state, event)`` raises :class:`~engine.errors.RuleViolation` with a stable code and a
message a scorekeeper understands, or returns None. Every rule is checked in exactly one place,
here, next to the legal-move helpers the pages and the simulator use (:func:`legal_cards`,
:func:`legal_pick_suits`, :func:`legal_take_suits`, :func:`coin_limit`).

The order of the checks within one event is part of the contract (docs/record-format.md): first
whether an event of this kind is expected now, then whether the player is at the table, then
whether it is their turn, then the event's content.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from engine.errors import InvariantError, RuleViolation
from engine.tricknchef.cards import (
    CARD_SUIT,
    CARD_VALUE,
    CARDS_PER_HAND,
    PLAYER_COUNTS,
    Card,
    Suit,
    deck,
    describe,
)
from engine.tricknchef.events import (
    CardPlayed,
    ChefChosen,
    ChefTaken,
    Event,
    GameStarted,
    RoundStarted,
    type_name,
)
from engine.tricknchef.rules import is_revoke, most_points
from engine.tricknchef.state import GameState, Phase

# Enum attribute lookups cost ~70 ns each on the hot path; module constants cost ~5 ns.
_NOT_STARTED, _ROUND_START, _CHEF_PICK = Phase.NOT_STARTED, Phase.ROUND_START, Phase.CHEF_PICK
_PLAY, _CHEF_TAKE, _OVER = Phase.PLAY, Phase.CHEF_TAKE, Phase.OVER

# ---------------------------------------------------------------------------------------------
# Legal moves (what the pages offer and the simulator picks from)


def legal_cards(state: GameState) -> list[Card]:
    """R4.2-R4.3: the cards the player to play may play now."""
    if state.phase is not _PLAY or state.expected is None:
        return []
    hand = state.hands[state.expected]
    led = state.led_suit
    if led is None:  # the leader plays any card
        return list(hand)
    held = state.suit_counts[state.expected][led]
    return [c for c in hand if not is_revoke(led, c, held)]


def coin_limit(state: GameState) -> int:
    """R4.4: the most coins (of either side) the player to play may place."""
    if state.phase is not _PLAY or state.expected is None:
        return 0
    return state.coins[state.expected]


def legal_pick_suits(state: GameState) -> list[Suit]:
    """R3.3: the set-aside Chefs still to be picked."""
    if state.phase is not _CHEF_PICK:
        return []
    return [s for s in state.suits if s not in state.picked]


def legal_take_suits(state: GameState) -> list[Suit]:
    """R7.1: suits with a Chef left in the centre."""
    if state.phase is not _CHEF_TAKE:
        return []
    return [s for s in state.suits if state.centre[s] > 0]


def forced_next(state: GameState) -> Event | None:
    """The next event when the rules leave its player no choice, else None: the last Chef of
    the round-start picks (R3.3: one suit left), a Chef to take when one suit is left in the
    centre (R7.1), a card when only one may be played and the player holds no coin to place
    on it (R4.3, R4.4). Phones record these by themselves (docs/scorekeeping.md); the record
    holds them as any other event."""
    player = state.expected
    if player is None:
        return None
    phase = state.phase
    if phase is _CHEF_PICK:
        picks = legal_pick_suits(state)
        return ChefChosen(player, picks[0]) if len(picks) == 1 else None
    if phase is _CHEF_TAKE:
        takes = legal_take_suits(state)
        return ChefTaken(player, takes[0]) if len(takes) == 1 else None
    if phase is _PLAY and state.coins[player] == 0:
        cards = legal_cards(state)
        return CardPlayed(player, cards[0]) if len(cards) == 1 else None
    return None


def expected_next(state: GameState) -> tuple[str, str | None] | None:
    """The type of the event expected now and who must make it; None once the game is over."""
    if state.phase is _OVER:
        return None
    return state.phase.value, state.expected


# ---------------------------------------------------------------------------------------------
# Checks


def check(state: GameState, event: Event) -> None:
    """Raise :class:`RuleViolation` if ``event`` may not happen in ``state``."""
    _CHECKS[type(event)](state, event)


def _not_expected(state: GameState, event: Event) -> RuleViolation:
    """The refusal of an event of a kind not expected now (out_of_order / game_over)."""
    got = type_name(event)
    if state.phase is _OVER:
        return RuleViolation(
            "game_over",
            f"the game is over (three rounds played); nothing may follow, got {got}",
            {"got": got},
        )
    return RuleViolation(
        "out_of_order", f"{describe_next(state)}, not {got}", _next_params(state, got)
    )


def _next_params(state: GameState, got: str) -> dict[str, object]:
    """What :func:`describe_next` says, as values: ``rule`` is the event expected now."""
    return {
        "rule": state.phase.value,
        "player": state.expected,
        "round": state.round_no + 1 if state.phase is _ROUND_START else state.round_no,
        "trick": state.trick_no,
        "got": got,
    }


def describe_next(state: GameState) -> str:
    """In words: what the table waits for now."""
    p = state.expected
    if state.phase is _NOT_STARTED:
        return "a record starts with game_started"
    if state.phase is _ROUND_START:
        return f"round {state.round_no + 1} must start now (round_started)"
    if state.phase is _CHEF_PICK:
        return f"{p} must pick a Chef for round {state.round_no} now (chef_chosen)"
    if state.phase is _PLAY:
        return f"{p} must play a card in trick {state.trick_no} now (card_played)"
    if state.phase is _CHEF_TAKE:
        return (
            f"{p} played the lowest card of trick {state.trick_no} "
            "and must take a Chef now (chef_taken)"
        )
    return "the game is over"


def _at_table(state: GameState, player: str) -> None:
    if player not in state.seat:
        raise RuleViolation(
            "unknown_player",
            f"{player!r} is not playing in this game ({', '.join(state.players)})",
            {"player": player, "players": list(state.players)},
        )


def _in_play(state: GameState, suit: Suit) -> None:
    if suit not in state.suits:
        raise RuleViolation(
            "suit_not_in_play", f"{suit} went back to the box: it is not in play", {"suit": suit}
        )


def _check_game_started(state: GameState, event: GameStarted) -> None:
    if state.phase is not _NOT_STARTED:
        raise _not_expected(state, event)
    players = event.players
    if len(players) not in PLAYER_COUNTS:
        raise RuleViolation(
            "bad_players",
            f"Trick-n-Chef is played by 3 or 4 players, not {len(players)}",
            {"rule": "count", "count": len(players)},
        )
    if any(not name for name in players):
        raise RuleViolation(
            "bad_players",
            "every player needs a name (an empty name was given)",
            {"rule": "empty_name"},
        )
    if len(set(players)) != len(players):
        twice = sorted({p for p in players if players.count(p) > 1})
        raise RuleViolation(
            "bad_players",
            f"each player sits once: {', '.join(twice)} appears twice",
            {"rule": "seated_twice", "players": twice},
        )
    suits = event.suits
    if suits is None:
        if len(players) == 3:
            raise RuleViolation(
                "bad_suits",
                "a 3-player game must say which three suits are in play",
                {"rule": "suits_missing"},
            )
        return
    if len(set(suits)) != len(suits):
        raise RuleViolation("bad_suits", "each suit in play is listed once", {"rule": "suit_twice"})
    if len(suits) != len(players):
        if len(players) == 4:
            raise RuleViolation(
                "bad_suits", "with 4 players all four suits are in play", {"rule": "four_suits"}
            )
        raise RuleViolation(
            "bad_suits", "with 3 players exactly three suits are in play", {"rule": "three_suits"}
        )


def _check_round_started(state: GameState, event: RoundStarted) -> None:
    if state.phase is not _ROUND_START:
        raise _not_expected(state, event)
    expected_round = state.round_no + 1
    if event.round != expected_round:
        raise RuleViolation(
            "wrong_round",
            f"the next round is round {expected_round}, not round {event.round}",
            {"expected": expected_round, "got": event.round},
        )
    first = event.first_player
    _at_table(state, first)
    if expected_round > 1:
        leaders = most_points(state.totals)
        if first not in leaders:
            best = state.totals[leaders[0]]
            who = " or ".join(leaders)
            raise RuleViolation(
                "bad_first_player",
                f"round {expected_round} is started by the player with the most points so far: "
                f"{who} ({best}), not {first} ({state.totals[first]})",
                {
                    "round": expected_round,
                    "leaders": list(leaders),
                    "points": best,
                    "player": first,
                    "player_points": state.totals[first],
                },
            )
    _check_deal(state, event)


def _check_deal(state: GameState, event: RoundStarted) -> None:
    """R2.1: 10 distinct cards each, together exactly the cards in play."""
    names = [name for name, _ in event.hands]
    for name in names:
        if name not in state.seat:
            raise RuleViolation(
                "bad_deal",
                f"the deal has a hand for {name!r}, who is not playing",
                {"rule": "unknown_hand", "player": name},
            )
    missing = [p for p in state.players if p not in names]
    if missing:
        raise RuleViolation(
            "bad_deal",
            f"the deal has no hand for {', '.join(missing)}",
            {"rule": "missing_hand", "players": missing},
        )
    in_play = set(deck(state.suits))
    dealt: dict[Card, str] = {}
    for name, cards in event.hands:
        if len(cards) != CARDS_PER_HAND:
            raise RuleViolation(
                "bad_deal",
                f"{name} must be dealt {CARDS_PER_HAND} cards, not {len(cards)}",
                {
                    "rule": "hand_size",
                    "player": name,
                    "expected": CARDS_PER_HAND,
                    "got": len(cards),
                },
            )
        for card in cards:
            if card not in in_play:
                raise RuleViolation(
                    "bad_deal",
                    f"{card} was dealt to {name}, "
                    f"but {CARD_SUIT[card]} is not in play in this game",
                    {
                        "rule": "card_not_in_play",
                        "card": card,
                        "player": name,
                        "suit": CARD_SUIT[card],
                    },
                )
            holder = dealt.get(card)
            if holder is not None:
                where = "twice" if holder == name else f"to both {holder} and {name}"
                raise RuleViolation(
                    "bad_deal",
                    f"{card} was dealt {where}",
                    {"rule": "dealt_twice", "card": card, "player": name}
                    if holder == name
                    else {"rule": "dealt_to_both", "card": card, "holder": holder, "player": name},
                )
            dealt[card] = name
    # Every hand has 10 distinct cards in play, so together they are the whole deck in play.
    if len(dealt) != len(in_play):
        raise InvariantError("a valid deal must cover the deck")


def _check_chef_chosen(state: GameState, event: ChefChosen) -> None:
    if state.phase is not _CHEF_PICK:
        raise _not_expected(state, event)
    _at_table(state, event.player)
    if event.player != state.expected:
        raise RuleViolation(
            "wrong_turn",
            f"it is {state.expected}'s turn to pick a Chef, not {event.player}'s "
            f"(picks go clockwise from the first player, {state.first_player})",
            {
                "rule": "chef_chosen",
                "expected": state.expected,
                "player": event.player,
                "first_player": state.first_player,
            },
        )
    suit = event.suit
    _in_play(state, suit)
    if suit in state.picked:
        left = ", ".join(legal_pick_suits(state))
        raise RuleViolation(
            "chef_already_chosen",
            f"the {suit} Chef was already picked this round; still to pick: {left}",
            {"suit": suit, "left": legal_pick_suits(state)},
        )


def _check_card_played(state: GameState, event: CardPlayed) -> None:
    if state.phase is not _PLAY:
        raise _not_expected(state, event)
    player = event.player
    if player != state.expected:
        _at_table(state, player)
        raise RuleViolation(
            "wrong_turn",
            f"it is {state.expected}'s turn to play in trick {state.trick_no}, not {player}'s",
            {
                "rule": "card_played",
                "expected": state.expected,
                "player": player,
                "trick": state.trick_no,
            },
        )
    card = event.card
    if card not in state.hands[player]:
        where, where_params = _where_is(state, card)
        raise RuleViolation(
            "card_not_in_hand",
            f"{player} does not hold {card}: {where}",
            {"player": player, "card": card, **where_params},
        )
    led = state.led_suit
    if led is not None and is_revoke(led, card, state.suit_counts[player][led]):
        held = sorted(
            (c for c in state.hands[player] if CARD_SUIT[c] == led), key=CARD_VALUE.__getitem__
        )
        raise RuleViolation(
            "revoke",
            f"{player} must follow {led}: {led} was led and {player} holds {', '.join(held)}",
            {"player": player, "card": card, "suit": led, "held": held},
        )
    coins = event.coins
    if abs(coins) > state.coins[player]:
        held_coins = state.coins[player]
        raise RuleViolation(
            "not_enough_coins",
            f"{player} placed {abs(coins)} coin{'s' if abs(coins) != 1 else ''} "
            f"but holds {held_coins}",
            {"player": player, "placed": abs(coins), "coins": held_coins},
        )


def _where_is(state: GameState, card: Card) -> tuple[str, dict[str, object]]:
    """Where the card is, in words and as values (``where`` tells the sentences apart)."""
    suit = CARD_SUIT[card]
    if suit not in state.suits:
        return f"{suit} is not in play in this game", {"where": "not_in_play", "suit": suit}
    for name, hand in state.hands.items():
        if card in hand:
            return f"{describe(card)} is in {name}'s hand", {"where": "hand", "holder": name}
    if any(p.card == card for p in state.trick):
        return f"{describe(card)} was already played in this trick", {"where": "trick"}
    return f"{describe(card)} was already played this round", {"where": "round"}


def _check_chef_taken(state: GameState, event: ChefTaken) -> None:
    if state.phase is not _CHEF_TAKE:
        raise _not_expected(state, event)
    player = event.player
    if player != state.expected:
        _at_table(state, player)
        lowest = next(p for p in state.trick if p.player == state.expected)
        raise RuleViolation(
            "wrong_chef_taker",
            f"{state.expected} played the lowest card of the trick ({lowest.card} = {lowest.value})"
            f" and takes the Chef, not {player}",
            {
                "expected": state.expected,
                "card": lowest.card,
                "value": lowest.value,
                "player": player,
            },
        )
    suit = event.suit
    _in_play(state, suit)
    if state.centre[suit] <= 0:
        left = ", ".join(legal_take_suits(state))
        raise RuleViolation(
            "empty_chef_suit",
            f"no {suit} Chef is left in the centre; Chefs left: {left}",
            {"suit": suit, "left": legal_take_suits(state)},
        )


_CHECKS: Final[dict[type, Callable[[GameState, Any], None]]] = {
    GameStarted: _check_game_started,
    RoundStarted: _check_round_started,
    ChefChosen: _check_chef_chosen,
    CardPlayed: _check_card_played,
    ChefTaken: _check_chef_taken,
}
