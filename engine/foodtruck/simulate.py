"""Random legal Food Truck games, for tests, benchmarks and demos
(``python -m engine simulate --game food-truck``).

The simulator plays with real, ordered piles (which the record never shows: FT8) and sends every
event through :func:`engine.foodtruck.replay.step`, so a simulated record is legal by
construction and agrees with a physical game. Company cards are played when they help (copy on a
dish one opponent served once, swap or under on a dish that would be refused) and otherwise now
and then, so that every effect turns up often.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.foodtruck.events import (
    CURRENT_VERSION,
    CompanyPlayed,
    DishRevealed,
    Event,
    GameStarted,
    MarketTaken,
    RoundStarted,
)
from engine.foodtruck.referee import legal_company_plays, turn_player
from engine.foodtruck.replay import step
from engine.foodtruck.rules import (
    DISH_CARDS,
    EFFECTS,
    STARTING_DISHES,
    can_serve,
    opponents_serving,
)
from engine.foodtruck.state import GameState, Phase

MARKET_DISHES = ("taco", "kebab", "fries", "noodles", "crepe", "salad", "sushi")
"""The simulator's dishes besides the starting ones (the rulebook does not list the market's
dishes, FT1.2): made-up names that fill the deck to 60 cards."""


def market_deck(players: int, rng: random.Random) -> list[str]:
    """FT2.3: the starting dishes not dealt plus other dishes, shuffled: 60 - 5 x players."""
    deck = list(STARTING_DISHES) * (5 - players)
    while len(deck) + len(STARTING_DISHES) * players < DISH_CARDS:
        deck.append(MARKET_DISHES[len(deck) % len(MARKET_DISHES)])
    rng.shuffle(deck)
    return deck


def round_start(state: GameState, rng: random.Random) -> RoundStarted:
    """A random legal start of the next round for ``state`` (ROUND_START), as a scorekeeper
    enters it: the marker's holder starts (round 1: the first seat, FT2.5), a market drawn from
    a shuffled deck (FT2.3), each player's Company card from what is left of their pile
    (FT5.4). For a table played by others than the simulator (the phone tests)."""
    players = state.players
    first = state.marker or players[0]
    market = tuple(market_deck(len(players), rng)[: len(players)])
    companies = tuple((p, rng.choice(sorted(state.seats[p].company_pile))) for p in players)
    return RoundStarted(state.round_no + 1, first, market, companies)


def simulate(
    seed: int,
    players: int = 4,
    names: Sequence[str] | None = None,
    company_rate: float = 0.3,
    version: int = CURRENT_VERSION,
) -> list[Event]:
    """A whole random legal game, the same for the same arguments. ``version``: the record
    format's (the same game in v1 and v2: v2's lines add only ``version`` and ``chosen_by``)."""
    rng = random.Random(seed)
    seats = tuple(names) if names is not None else tuple(f"p{i}" for i in range(1, players + 1))
    if len(seats) != players:
        raise ValueError("one name per player")
    events: list[Event] = []
    state = GameState()

    def play(event: Event) -> None:
        step(state, event)
        events.append(event)

    play(GameStarted(seats, version))
    deck = market_deck(players, rng)
    company_piles = {p: rng.sample(EFFECTS, len(EFFECTS)) for p in seats}
    first = rng.choice(seats)
    while state.phase is Phase.ROUND_START:
        market = tuple(deck.pop() for _ in seats)
        companies = tuple((p, company_piles[p].pop()) for p in seats)
        play(RoundStarted(state.round_no + 1, first, market, companies))
        for p in seats:
            if not company_piles[p]:
                company_piles[p] = rng.sample(EFFECTS, len(EFFECTS))
        piles = {p: list(state.seats[p].hidden.elements()) for p in seats}
        for pile in piles.values():
            rng.shuffle(pile)
        _service(state, piles, rng, company_rate, play)
        if state.marker is not None:
            first = state.marker
    return events


def _service(
    state: GameState,
    piles: dict[str, list[str]],
    rng: random.Random,
    rate: float,
    play: object,
) -> None:
    assert callable(play)
    while state.phase in (Phase.TURN, Phase.SERVED, Phase.MARKET_PICK):
        if state.phase is Phase.MARKET_PICK:
            player = state.current
            assert player is not None
            play(MarketTaken(player, rng.choice(state.market)))
            continue
        if state.phase is Phase.SERVED and state.current is not None and rng.random() < rate / 3:
            options = legal_company_plays(state, state.current)
            if options:
                _company(state, piles, rng.choice(options), play)
                continue
        player = turn_player(state)
        assert player is not None
        pile = piles[player]
        options = legal_company_plays(state, player)
        if options and pile:
            chosen = _choose_company(state, player, pile, options, rng, rate)
            if chosen is not None:
                _company(state, piles, chosen, play)
                if state.must_play is not None:
                    play(DishRevealed(player, state.must_play))
                    continue
        elif options and rng.random() < rate:  # an empty pile: perhaps a remove on oneself
            own = [o for o in options if o.target == player]
            if own:
                _company(state, piles, rng.choice(own), play)
        if pile:
            play(DishRevealed(player, pile.pop(0)))
        else:
            play(MarketTaken(player, rng.choice(state.market)))


def _choose_company(
    state: GameState,
    player: str,
    pile: list[str],
    options: list[CompanyPlayed],
    rng: random.Random,
    rate: float,
) -> CompanyPlayed | None:
    top = pile[0]
    served = {p: s.served for p, s in state.seats.items()}
    refused = not can_serve(served, player, top, False)
    effect = options[0].effect
    if effect == "copy":
        others = opponents_serving(served, player, top)
        if refused and len(others) == 1 and others[0][1] == 1:
            return options[0]
    elif effect in ("swap", "under"):
        mine = [o for o in options if o.dish == top]
        if mine and (refused or rng.random() < rate / 2):
            return rng.choice(mine)
        return None
    if rng.random() < rate / 2:
        return rng.choice(options)
    return None


def _company(
    state: GameState, piles: dict[str, list[str]], chosen: CompanyPlayed, play: object
) -> None:
    """Play ``chosen`` and make the same move on the real piles."""
    assert callable(play)
    play(chosen)
    pile = piles[chosen.player]
    if chosen.effect == "rearrange":
        top = pile[:5]
        random.Random(len(pile)).shuffle(top)
        pile[:5] = top
    elif chosen.effect == "remove":
        assert chosen.target is not None and chosen.dish is not None
        piles[chosen.target].append(chosen.dish)
    elif chosen.effect == "swap":
        pile.pop(0)
    elif chosen.effect == "under":
        pile.append(pile.pop(0))
