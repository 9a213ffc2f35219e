"""An independent reference implementation of the Trick-n-Chef rules, for differential tests.

Written only from ``docs/rules.md`` (the rules, R1..R10 and "Points the rulebook leaves open")
and ``docs/record-format.md`` (the JSON Lines record, strict reading, the ``replay`` output and
the error codes), without looking at the engine. It is deliberately simple: plain dicts and
lists, everything recomputed straight from the rule text, clarity over speed.

Public API:

- ``replay_lines(lines)`` -> the JSON object ``python -m engine replay`` prints for a record
  (as a dict): the summary of a valid record, or ``{"error": {"event", "code", "message"}}``.
- ``generate(seed, players)`` -> the lines of a random legal whole game (deterministic per seed).

Order in which one line is checked (the first failing check decides the code):

1. format: ``bad_json``; then ``bad_event`` (type, missing / unknown / duplicate / mistyped
   fields); then ``bad_card`` / ``bad_suit`` (values that name no card / no suit);
2. the kind of event: ``game_over`` after the game finished, else ``out_of_order``;
3. ``unknown_player``;
4. whose turn it is: ``wrong_turn`` / ``wrong_chef_taker``;
5. the content (the rest of the codes, in the order each handler lists them).
"""

from __future__ import annotations

import json
import random
from typing import Any

# --------------------------------------------------------------------------------------------
# Material (R1)
# --------------------------------------------------------------------------------------------

# R1.1: four suits; every dict keyed by suit follows this order (record-format: "in the order
# green, red, yellow, blue").
SUITS: list[str] = ["green", "red", "yellow", "blue"]
LETTER_OF_SUIT: dict[str, str] = {"green": "G", "red": "R", "yellow": "Y", "blue": "B"}
SUIT_OF_LETTER: dict[str, str] = {letter: suit for suit, letter in LETTER_OF_SUIT.items()}
# R1.1: the 40 card codes, G1..G10, R1..R10, Y1..Y10, B1..B10 (upper case, no leading zero).
ALL_CARDS: list[str] = [f"{LETTER_OF_SUIT[s]}{v}" for s in SUITS for v in range(1, 11)]

CHEFS_PER_SUIT = 5  # R1.3
CENTRE_CHEFS_PER_SUIT = 4  # R3.2: one of the 5 is set aside, the other 4 go to the centre
COINS_TOTAL = 20  # R1.4
ROUNDS = 3  # R2.1
TRICKS_PER_ROUND = 10  # R2.1
HAND_SIZE = 10  # R2.1

# The v1 events: (required fields, optional fields), "type" aside.
EVENT_FIELDS: dict[str, tuple[set[str], set[str]]] = {
    "game_started": ({"players"}, {"suits"}),
    "round_started": ({"round", "first_player", "hands"}, set()),
    "chef_chosen": ({"player", "suit"}, set()),
    "card_played": ({"player", "card"}, {"coins"}),
    "chef_taken": ({"player", "suit"}, set()),
}


def card_suit(card: str) -> str:
    return SUIT_OF_LETTER[card[0]]


def card_value(card: str) -> int:
    """The printed value of a card."""
    return int(card[1:])


def stars(printed_value: int) -> int:
    """R1.2: 1-3 -> 1 star, 4-6 -> 2, 7-9 -> 3, 10 -> 4."""
    if printed_value <= 3:
        return 1
    if printed_value <= 6:
        return 2
    if printed_value <= 9:
        return 3
    return 4


class RecordError(Exception):
    """The current line cannot be accepted."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


# --------------------------------------------------------------------------------------------
# Reading one line (record-format "Reading strictly")
# --------------------------------------------------------------------------------------------


def _is_int(x: Any) -> bool:
    # "Whole numbers must be JSON integers: 1, not 1.0 or "1"; true is not a number."
    return isinstance(x, int) and not isinstance(x, bool)


def _is_list_of_str(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(item, str) for item in x)


def parse_event(line: str) -> dict[str, Any]:
    """Parse and format-check one line; raise RecordError(bad_json / bad_event / bad_card /
    bad_suit). No rule is checked here."""
    if line.strip() == "":
        raise RecordError("bad_json", "empty line: a line is an event")

    duplicates: list[str] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in pairs:
            if key in obj:
                duplicates.append(key)
            obj[key] = value
        return obj

    def reject_constant(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    try:
        obj = json.loads(line, object_pairs_hook=pairs_hook, parse_constant=reject_constant)
    except (ValueError, RecursionError) as exc:
        raise RecordError("bad_json", f"not JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise RecordError("bad_json", "not a JSON object")

    # bad_event: duplicate keys (in any object of the line), type, missing/unknown/mistyped.
    if duplicates:
        raise RecordError("bad_event", f"duplicate key {duplicates[0]!r}")
    if "type" not in obj:
        raise RecordError("bad_event", "missing type")
    etype = obj["type"]
    if not isinstance(etype, str) or etype not in EVENT_FIELDS:
        raise RecordError("bad_event", f"unknown event type {etype!r}")
    required, optional = EVENT_FIELDS[etype]
    fields = set(obj) - {"type"}
    unknown = sorted(fields - required - optional)
    if unknown:
        raise RecordError("bad_event", f"{etype} has no field {unknown[0]!r}")
    missing = sorted(required - fields)
    if missing:
        raise RecordError("bad_event", f"{etype} needs the field {missing[0]!r}")

    for name, value in obj.items():
        if name in ("players", "suits"):
            ok = _is_list_of_str(value)
        elif name in ("round", "coins"):
            ok = _is_int(value)
        elif name in ("type", "first_player", "player", "card", "suit"):
            ok = isinstance(value, str)
        elif name == "hands":
            ok = isinstance(value, dict) and all(_is_list_of_str(v) for v in value.values())
        else:  # pragma: no cover - every defined field is listed above
            ok = False
        if not ok:
            raise RecordError("bad_event", f"field {name!r} has the wrong type")

    # bad_card: a card code that names no card (R1.1).
    cards: list[str] = []
    if etype == "card_played":
        cards = [obj["card"]]
    elif etype == "round_started":
        cards = [card for hand in obj["hands"].values() for card in hand]
    for card in cards:
        if card not in ALL_CARDS:
            raise RecordError("bad_card", f"no such card {card!r}")

    # bad_suit: a suit name that names no suit.
    suit_names: list[str] = []
    if etype in ("chef_chosen", "chef_taken"):
        suit_names = [obj["suit"]]
    elif etype == "game_started" and "suits" in obj:
        suit_names = list(obj["suits"])
    for suit in suit_names:
        if suit not in SUITS:
            raise RecordError("bad_suit", f"no such suit {suit!r}")
    return obj


# --------------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------------

# Phases: what the record must say next.
PRE = "pre"  # before game_started
BETWEEN = "between"  # a round_started is expected (after game_started, or between rounds)
PICKS = "picks"  # the Chef picks of R3.3
PLAY = "play"  # a card_played
CHEF = "chef"  # the chef_taken of the trick just completed
FINISHED = "finished"

EXPECTED_TYPE = {
    PRE: "game_started",
    BETWEEN: "round_started",
    PICKS: "chef_chosen",
    PLAY: "card_played",
    CHEF: "chef_taken",
}


class Game:
    def __init__(self) -> None:
        self.phase: str = PRE
        self.players: list[str] = []
        self.suits: list[str] = []  # the suits in play, in the order green, red, yellow, blue
        self.rounds: list[dict[str, Any]] = []  # scored rounds: {"round": n, "scores": {...}}
        self.round_no: int = 0
        self.trick_no: int = 0
        # Table of the current round (or of the round just scored, between rounds).
        self.hands: dict[str, list[str]] = {}
        self.centre: dict[str, int] = {}
        self.coins: dict[str, int] = {}
        self.chefs: dict[str, dict[str, int]] = {}
        self.tricks_won: dict[str, int] = {}
        self.won_cards: dict[str, list[str]] = {}
        self.first_player: str = ""
        self.picks: list[tuple[str, str]] = []  # (player, suit) round-start picks
        self.leader: str = ""
        self.trump: list[str] = []  # trump of the current trick, fixed at its start (R5.4)
        self.plays: list[dict[str, Any]] = []  # current trick: player, card, coins, value
        self.winner: str = ""
        self.chef_taker: str = ""

    # -- helpers ---------------------------------------------------------------------------

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def player_after(self, player: str, steps: int) -> str:
        """The player `steps` seats clockwise from `player`."""
        n = len(self.players)
        return self.players[(self.seat(player) + steps) % n]

    def totals(self) -> dict[str, int]:
        # R10.1 / R3.1: the sum of the scores of the rounds already played.
        return {p: sum(r["scores"][p] for r in self.rounds) for p in self.players}

    def compute_trump(self) -> list[str]:
        # R5.1: among the suits with at least one token in the centre, those with the fewest
        # tokens are trump; several tied for the fewest are all trump. R5.3: a suit with no
        # token left is not trump.
        with_tokens = [s for s in self.suits if self.centre[s] >= 1]
        if not with_tokens:
            return []  # cannot happen: "the centre never runs dry"
        fewest = min(self.centre[s] for s in with_tokens)
        return [s for s in with_tokens if self.centre[s] == fewest]

    def next_picker(self) -> str:
        # R3.3: starting with the first player and going clockwise.
        return self.player_after(self.first_player, len(self.picks))

    def next_card_player(self) -> str:
        # R4.2: the leader, then clockwise.
        return self.player_after(self.leader, len(self.plays))

    def legal_cards(self, player: str) -> list[str]:
        """R4.3: the cards `player` may play now (their whole hand, or their led-suit cards)."""
        hand = self.hands[player]
        if not self.plays:
            return list(hand)
        led = card_suit(self.plays[0]["card"])
        following = [c for c in hand if card_suit(c) == led]
        return following if following else list(hand)

    # -- applying an event -----------------------------------------------------------------

    def apply(self, event: dict[str, Any]) -> None:
        """Apply one format-checked event, or raise RecordError (state then undefined)."""
        etype = event["type"]
        # The kind of event comes first.
        if self.phase == FINISHED:
            # record-format: "Nothing may follow the last event of round 3."
            raise RecordError("game_over", "the game is finished")
        expected = EXPECTED_TYPE[self.phase]
        if etype != expected:
            raise RecordError("out_of_order", f"expected {expected}, got {etype}")
        if etype == "game_started":
            self._game_started(event)
        elif etype == "round_started":
            self._round_started(event)
        elif etype == "chef_chosen":
            self._chef_chosen(event)
        elif etype == "card_played":
            self._card_played(event)
        else:
            self._chef_taken(event)

    def _check_known(self, name: str) -> None:
        if name not in self.players:
            raise RecordError("unknown_player", f"{name!r} is not in the game")

    def _game_started(self, event: dict[str, Any]) -> None:
        players: list[str] = event["players"]
        # R1.5: 3 or 4 players; record-format: distinct non-empty strings.
        if len(players) not in (3, 4):
            raise RecordError("bad_players", f"{len(players)} players: 3 or 4 needed")
        if any(p == "" for p in players):
            raise RecordError("bad_players", "an empty player name")
        if len(set(players)) != len(players):
            raise RecordError("bad_players", "a player named twice")
        # R1.5: with 4 players all four suits are in play; with 3 exactly three distinct suits.
        if len(players) == 4:
            given = event.get("suits", list(SUITS))
            if len(given) != 4 or set(given) != set(SUITS):
                raise RecordError("bad_suits", "with 4 players all four suits are in play")
        else:
            if "suits" not in event:
                raise RecordError("bad_suits", "with 3 players the suits in play must be named")
            given = event["suits"]
            if len(given) != 3 or len(set(given)) != 3:
                raise RecordError("bad_suits", "with 3 players exactly three distinct suits")
        self.players = list(players)
        self.suits = [s for s in SUITS if s in given]
        # Before round 1 the table is all zero (record-format).
        self.centre = {s: 0 for s in self.suits}
        self.coins = {p: 0 for p in self.players}
        self.chefs = {p: {s: 0 for s in self.suits} for p in self.players}
        self.tricks_won = {p: 0 for p in self.players}
        self.phase = BETWEEN

    def _round_started(self, event: dict[str, Any]) -> None:
        first: str = event["first_player"]
        hands: dict[str, list[str]] = event["hands"]
        self._check_known(first)
        for name in hands:
            self._check_known(name)
        number = event["round"]
        if number != self.round_no + 1:
            raise RecordError("wrong_round", f"round {number}: round {self.round_no + 1} is next")
        # R3.1: rounds 2 and 3 start with a player with the most points so far.
        if number >= 2:
            totals = self.totals()
            if totals[first] != max(totals.values()):
                raise RecordError("bad_first_player", f"{first} does not have the most points")
        # R2.1 / record-format: 10 distinct cards each, together exactly the cards in play.
        for p in self.players:
            if p not in hands:
                raise RecordError("bad_deal", f"no hand for {p}")
        for p in self.players:
            if len(hands[p]) != HAND_SIZE or len(set(hands[p])) != HAND_SIZE:
                raise RecordError("bad_deal", f"{p} is not dealt 10 distinct cards")
        in_play = sorted(c for c in ALL_CARDS if card_suit(c) in self.suits)
        dealt = sorted(c for p in self.players for c in hands[p])
        if dealt != in_play:
            raise RecordError("bad_deal", "the hands are not exactly the cards in play")
        # A new round starts afresh (R9.3).
        self.round_no = number
        self.trick_no = 1
        self.hands = {p: list(hands[p]) for p in self.players}
        self.centre = {s: CENTRE_CHEFS_PER_SUIT for s in self.suits}  # R3.2
        self.coins = {p: 0 for p in self.players}  # R3.4
        self.chefs = {p: {s: 0 for s in self.suits} for p in self.players}
        self.tricks_won = {p: 0 for p in self.players}
        self.won_cards = {p: [] for p in self.players}
        self.first_player = first
        self.picks = []
        self.leader = first  # R4.1
        self.plays = []
        self.winner = ""
        self.chef_taker = ""
        # state.trick is 1 during the picks, so trick 1's trump shows: every suit (R5.2).
        self.trump = self.compute_trump()
        self.phase = PICKS

    def _chef_chosen(self, event: dict[str, Any]) -> None:
        player: str = event["player"]
        suit: str = event["suit"]
        self._check_known(player)
        expected = self.next_picker()
        if player != expected:
            raise RecordError("wrong_turn", f"it is {expected}'s pick, not {player}'s")
        if suit not in self.suits:
            raise RecordError("suit_not_in_play", f"{suit} is not in play")
        # R3.3: each suit taken exactly once.
        if any(s == suit for _, s in self.picks):
            raise RecordError("chef_already_chosen", f"the {suit} Chef was already picked")
        self.picks.append((player, suit))
        self.chefs[player][suit] += 1
        if len(self.picks) == len(self.players):
            # The picks happen before the first trick; trick 1 starts now (R5.1, R5.2).
            self.trump = self.compute_trump()
            self.phase = PLAY

    def _card_played(self, event: dict[str, Any]) -> None:
        player: str = event["player"]
        card: str = event["card"]
        coins: int = event.get("coins", 0)
        self._check_known(player)
        expected = self.next_card_player()
        if player != expected:
            raise RecordError("wrong_turn", f"it is {expected}'s turn, not {player}'s")
        hand = self.hands[player]
        if card not in hand:
            raise RecordError("card_not_in_hand", f"{player} does not hold {card}")
        # R4.3: follow the led suit when holding one.
        if self.plays:
            led = card_suit(self.plays[0]["card"])
            if card_suit(card) != led:
                held = [c for c in hand if card_suit(c) == led]
                if held:
                    raise RecordError(
                        "revoke",
                        f"{player} must follow {led}: {led} was led and {player} holds {held[0]}",
                    )
        # R4.4: at most the coins the player holds (k coins of one side).
        if abs(coins) > self.coins[player]:
            raise RecordError(
                "not_enough_coins",
                f"{player} places {abs(coins)} coins, holds {self.coins[player]}",
            )
        hand.remove(card)
        # R4.4: placed coins are no longer the player's, immediately.
        self.coins[player] -= abs(coins)
        value = card_value(card) + 2 * coins  # R4.4: +2 or -2 per coin, unbounded
        self.plays.append({"player": player, "card": card, "coins": coins, "value": value})
        if len(self.plays) == len(self.players):
            self._complete_trick()

    def _complete_trick(self) -> None:
        plays = self.plays
        led = card_suit(plays[0]["card"])
        # R6.1: any trump card played -> the highest trump wins (led suit or not).
        # R6.2: otherwise the highest card of the led suit; other suits never win.
        trump_plays = [pl for pl in plays if card_suit(pl["card"]) in self.trump]
        if trump_plays:  # noqa: SIM108 - the two rules read best as two branches
            candidates = trump_plays  # R6.1
        else:
            candidates = [pl for pl in plays if card_suit(pl["card"]) == led]  # R6.2
        best = max(pl["value"] for pl in candidates)
        # R6.3: between equal values the card played last wins.
        winner = [pl for pl in candidates if pl["value"] == best][-1]["player"]
        # R6.4 + "Order of events": the winner takes the cards at once.
        self.winner = winner
        self.tricks_won[winner] += 1
        self.won_cards[winner].extend(pl["card"] for pl in plays)
        # R7.1: lowest value in the trick, any suit; R7.2: ties -> played first.
        lowest = min(pl["value"] for pl in plays)
        self.chef_taker = [pl for pl in plays if pl["value"] == lowest][0]["player"]
        self.phase = CHEF

    def _chef_taken(self, event: dict[str, Any]) -> None:
        player: str = event["player"]
        suit: str = event["suit"]
        self._check_known(player)
        if player != self.chef_taker:
            raise RecordError(
                "wrong_chef_taker", f"{self.chef_taker} played the lowest card, not {player}"
            )
        if suit not in self.suits:
            raise RecordError("suit_not_in_play", f"{suit} is not in play")
        # R7.1: of a suit that still has a token in the centre.
        if self.centre[suit] < 1:
            raise RecordError("empty_chef_suit", f"no {suit} Chef left in the centre")
        self.centre[suit] -= 1
        self.chefs[player][suit] += 1
        # R8.1: the placed coins go back to the reserve (they already left the hands).
        # R8.2/R8.3: everyone who neither won nor took the Chef gets a coin, in play order from
        # the leader, while the reserve (20 minus the coins held) lasts.
        for pl in self.plays:
            p = pl["player"]
            if p == self.winner or p == self.chef_taker:
                continue
            reserve = COINS_TOTAL - sum(self.coins.values())
            if reserve > 0:
                self.coins[p] += 1
        next_leader = self.winner  # R4.1
        self.plays = []
        if self.trick_no < TRICKS_PER_ROUND:
            self.trick_no += 1
            self.leader = next_leader
            self.trump = self.compute_trump()  # R5.1/R5.4: fixed at the start of the trick
            self.phase = PLAY
        else:
            self._score_round()

    def round_scores(self) -> dict[str, int]:
        scores: dict[str, int] = {}
        for p in self.players:
            points = 0
            for suit in self.suits:
                # R9.1: won cards of the suit by printed value, lowest first; the player's Chefs
                # of that suit lie on them one each from the lowest; a card with a Chef scores
                # its stars.
                values = sorted(card_value(c) for c in self.won_cards[p] if card_suit(c) == suit)
                chefs = self.chefs[p][suit]
                points += sum(stars(v) for v in values[:chefs])
            points += self.coins[p]  # R9.2: 1 point per coin held
            scores[p] = points
        return scores

    def _score_round(self) -> None:
        self.rounds.append({"round": self.round_no, "scores": self.round_scores()})
        # The table stays as the round ended (record-format); R9.3 happens at the next start.
        self.phase = FINISHED if self.round_no == ROUNDS else BETWEEN

    # -- the replay summary ----------------------------------------------------------------

    def ranking(self) -> list[dict[str, Any]]:
        # R10.2: by total, then round-3 score; still tied share the place (1, 1, 3).
        totals = self.totals()
        round_3 = [r for r in self.rounds if r["round"] == ROUNDS][0]  # only asked when finished
        last = {p: round_3["scores"][p] for p in self.players}
        entries = []
        for p in self.players:
            better = sum(
                1
                for q in self.players
                if totals[q] > totals[p] or (totals[q] == totals[p] and last[q] > last[p])
            )
            entries.append(
                {"player": p, "rank": better + 1, "total": totals[p], "last_round": last[p]}
            )
        # Ordered by rank then seat (sorted() is stable, entries are in seat order).
        return sorted(entries, key=lambda e: e["rank"])

    def next_event(self) -> dict[str, Any] | None:
        if self.phase == PRE:
            return {"type": "game_started", "player": None}
        if self.phase == BETWEEN:
            return {"type": "round_started", "player": None}
        if self.phase == PICKS:
            return {"type": "chef_chosen", "player": self.next_picker()}
        if self.phase == PLAY:
            return {"type": "card_played", "player": self.next_card_player()}
        if self.phase == CHEF:
            return {"type": "chef_taken", "player": self.chef_taker}
        return None

    def summary(self) -> dict[str, Any]:
        finished = self.phase == FINISHED
        in_a_trick = self.phase in (PICKS, PLAY, CHEF)
        return {
            "status": "finished" if finished else "in_progress",
            "players": list(self.players),
            "rounds": [
                {"round": r["round"], "scores": {p: r["scores"][p] for p in self.players}}
                for r in self.rounds
            ],
            "totals": self.totals(),
            "ranking": self.ranking() if finished else [],
            "state": {
                "round": self.round_no,
                "trick": self.trick_no,
                "next": self.next_event(),
                "trump": list(self.trump) if in_a_trick else [],
                "centre_chefs": {s: self.centre[s] for s in self.suits},
                "coins": {p: self.coins[p] for p in self.players},
                "chefs": {p: {s: self.chefs[p][s] for s in self.suits} for p in self.players},
                "tricks_won": {p: self.tricks_won[p] for p in self.players},
            },
        }


def replay_lines(lines: list[str]) -> dict[str, Any]:
    """What ``python -m engine replay`` prints for a record made of these lines."""
    game = Game()
    for index, line in enumerate(lines):
        if index == 0 and line.startswith("\ufeff"):
            line = line[1:]  # "a byte-order mark at the start of the file ... accepted"
        try:
            game.apply(parse_event(line))
        except RecordError as err:
            return {"error": {"event": index, "code": err.code, "message": err.message}}
    return game.summary()


# --------------------------------------------------------------------------------------------
# Random legal records
# --------------------------------------------------------------------------------------------

NAME_POOL: list[str] = [
    "ana", "ben", "cleo", "dev", "Zoë", "Émile", "li wei", "O'Hara", "p5", "ünal", "Ω", "x",
    "ana ", "Ben", "\"q\"", "日本",
]  # fmt: skip


def _dump(rng: random.Random, event: dict[str, Any]) -> str:
    items = list(event.items())
    if rng.random() < 0.25:
        rng.shuffle(items)  # key order is not meaningful in JSON
    separators = rng.choice([(", ", ": "), (",", ":")])
    return json.dumps(dict(items), ensure_ascii=rng.random() < 0.5, separators=separators)


def _choose_card(rng: random.Random, game: Game, player: str, appetite: float) -> tuple[str, int]:
    legal = game.legal_cards(player)
    held = game.coins[player]
    values = [pl["value"] for pl in game.plays]
    roll = rng.random()
    if values and roll < 0.35:
        # Aim for a value already in the trick: ties for the win and for the Chef.
        spend = held if appetite > 0 else 0
        ties = [
            (c, k)
            for c in legal
            for k in range(-spend, spend + 1)
            if card_value(c) + 2 * k in values
        ]
        if ties:
            return rng.choice(ties)
    if held > 0 and rng.random() < appetite:
        card = rng.choice(legal)
        k = rng.choice([held, -held, rng.randint(1, held), -rng.randint(1, held)])
        return card, k
    return rng.choice(legal), 0


def generate(seed: int, players: int) -> list[str]:
    """A random legal record of a whole game for 3 or 4 players, deterministic per seed."""
    if players not in (3, 4):
        raise ValueError("3 or 4 players")
    rng = random.Random(seed)
    names = rng.sample(NAME_POOL, players)
    # How keen this table is on placing coins; a hoarding table (appetite 0) never places any,
    # so with 4 players the reserve runs dry late in a round (R8.3).
    appetite = 0.0 if rng.random() < 0.3 else rng.uniform(0.1, 0.7)
    drain = rng.uniform(0.4, 0.9)  # how often a Chef comes from the suit with fewest tokens
    game = Game()
    lines: list[str] = []

    def emit(event: dict[str, Any]) -> None:
        line = _dump(rng, event)
        game.apply(parse_event(line))  # raises if this generator ever makes an illegal move
        lines.append(line)

    start: dict[str, Any] = {"type": "game_started", "players": names}
    if players == 3:
        left_out = rng.choice(SUITS)  # R1.5: one whole suit goes back to the box
        suits = [s for s in SUITS if s != left_out]
        rng.shuffle(suits)
        start["suits"] = suits
    elif rng.random() < 0.5:
        suits = list(SUITS)
        rng.shuffle(suits)
        start["suits"] = suits
    emit(start)

    for number in range(1, ROUNDS + 1):
        if number == 1:
            first = rng.choice(names)
        else:
            totals = game.totals()
            best = max(totals.values())
            first = rng.choice([p for p in names if totals[p] == best])
        deck = [c for c in ALL_CARDS if card_suit(c) in game.suits]
        rng.shuffle(deck)
        order = list(names)
        rng.shuffle(order)
        hands = {}
        for p in order:
            seat = names.index(p)
            hands[p] = deck[HAND_SIZE * seat : HAND_SIZE * (seat + 1)]
        emit({"type": "round_started", "round": number, "first_player": first, "hands": hands})
        while game.phase == PICKS:
            picked = {s for _, s in game.picks}
            suit = rng.choice([s for s in game.suits if s not in picked])
            emit({"type": "chef_chosen", "player": game.next_picker(), "suit": suit})
        while game.phase in (PLAY, CHEF):
            if game.phase == PLAY:
                player = game.next_card_player()
                card, k = _choose_card(rng, game, player, appetite)
                event: dict[str, Any] = {"type": "card_played", "player": player, "card": card}
                if k != 0 or rng.random() < 0.2:
                    event["coins"] = k
                emit(event)
            else:
                available = [s for s in game.suits if game.centre[s] >= 1]
                if rng.random() < drain:
                    fewest = min(game.centre[s] for s in available)
                    available = [s for s in available if game.centre[s] == fewest]
                suit = rng.choice(available)
                emit({"type": "chef_taken", "player": game.chef_taker, "suit": suit})
    assert game.phase == FINISHED
    return lines
