"""A toy fifth game, High Card, registered by a test only (the ``high_card`` fixture in
tests/web/conftest.py): two players each play one card (1 to 10), the higher wins. It is its
game type, its refusal sentences (none: the engine's English) and its API module
(``API``), to show that the API serves a game it was not written for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rest_framework import serializers

from engine.errors import InvalidRecord, RuleViolation
from engine.jsonline import decode_object, split_lines
from games.api.schema import players_counted
from games.api.serializers.fields import (
    AnyField,
    RequestSerializer,
    const,
    expected_version_field,
    names_field,
    published_field,
    value_map,
)
from games.api.serializers.gameapi import GameAPI
from games.gametypes import Placement

KEY = "high-card"
SENTENCES: dict[str, str] = {}
"""Its refusal sentences (games.refusals): none, the engine's English is said."""

# ----------------------------------------------------------------------------- the rules


def _refuse(message: str) -> RuleViolation:
    return RuleViolation("bad_event", message, {"game": KEY})


def _check_cards(players: Sequence[str], cards: Any) -> dict[str, int]:
    if not isinstance(cards, Mapping) or set(cards) != set(players):
        raise _refuse("give each player's card")
    if any(type(c) is not int or not 1 <= c <= 10 for c in cards.values()):
        raise _refuse("a card is 1 to 10")
    return dict(cards)


class HighCard:
    key = KEY
    name = "High Card"
    table_sizes: tuple[int, ...] = (2,)
    teams = False
    team_members: tuple[int, int] | None = None
    first_player_rule = False
    record_types = frozenset({"game_started", "card_played"})
    tiebreak_names: tuple[str, ...] = ()
    standings_rule = None
    tiebreak_as_last_round = False
    refusals = "tests.web.toy_game"
    pages = "tests.web.toy_game"
    api = "tests.web.toy_game"

    def start(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        return {"type": "game_started", "game": KEY, "players": list(players)}

    def table_options(self, players: int) -> dict[str, Any]:
        return {}

    def new_state(self) -> dict[str, Any]:
        return {"players": [], "cards": {}}

    def parse(self, obj: Mapping[str, Any]) -> dict[str, Any]:
        if obj.get("type") not in self.record_types:
            raise _refuse("not a High Card event")
        return dict(obj)

    def step(self, state: dict[str, Any], event: Mapping[str, Any]) -> None:
        if event["type"] == "game_started":
            players = event.get("players")
            if state["players"] or not isinstance(players, list) or len(set(players)) != 2:
                raise _refuse("two players start a game")
            state["players"] = list(players)
            return
        player, card = event.get("player"), event.get("card")
        if (
            not isinstance(player, str)
            or player not in state["players"]
            or player in state["cards"]
        ):
            raise _refuse("each player plays one card")
        state["cards"][player] = _check_cards([player], {player: card})[player]

    def encode(self, event: Mapping[str, Any]) -> dict[str, Any]:
        return dict(event)

    def forced(self, state: dict[str, Any]) -> None:
        return None

    def read_record(self, data: bytes | str) -> list[Any]:
        state, events = self.new_state(), []
        for index, line in enumerate(split_lines(data)):
            try:
                event = self.parse(decode_object(line))
                self.step(state, event)
            except RuleViolation as violation:
                raise InvalidRecord(index, violation) from None
            events.append(event)
        return events

    def write_record(self, events: Sequence[Mapping[str, Any]]) -> str:
        import json

        return "".join(json.dumps(dict(e)) + "\n" for e in events)

    def snapshot(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"players": list(state["players"]), "cards": dict(state["cards"])}

    def restore(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return self.snapshot({**self.new_state(), **data})

    def summary(self, state: dict[str, Any]) -> dict[str, Any]:
        return self._summary(state["players"], state["cards"])

    def finished(self, state: dict[str, Any]) -> bool:
        return len(state["cards"]) == 2

    def results(self, state: dict[str, Any], entry: Mapping[str, Any]) -> dict[str, Any]:
        if set(entry) != {"cards"}:
            raise _refuse("High Card's results are each player's card")
        return self._summary(state["players"], _check_cards(state["players"], entry["cards"]))

    def placements(self, summary: Mapping[str, Any]) -> list[Placement]:
        players = list(summary["players"])
        return [
            Placement(p["player"], players.index(p["player"]) + 1, p["rank"], p["points"])
            for p in summary["ranking"]
        ]

    def _summary(self, players: list[str], cards: Mapping[str, int]) -> dict[str, Any]:
        done = len(cards) == 2
        if not done:
            return {"game": KEY, "status": "in_progress", "players": list(players), "cards": {}}
        ranking = [
            {"player": p, "rank": 1 + sum(c > cards[p] for c in cards.values()), "points": cards[p]}
            for p in sorted(players, key=lambda p: -cards[p])
        ]
        return {
            "game": KEY,
            "status": "finished",
            "players": list(players),
            "cards": dict(cards),
            "ranking": ranking,
        }


# ----------------------------------------------------------------------------- its API


class HighCardEventSerializer(serializers.Serializer[Any]):
    type = const("game_started", "card_played")
    players = serializers.ListField(child=serializers.CharField(), required=False)
    player = serializers.CharField(required=False)
    card = serializers.IntegerField(min_value=1, max_value=10, required=False)


class HighCardSummarySerializer(serializers.Serializer[Any]):
    game = const(KEY)
    players = serializers.ListField(child=serializers.CharField())
    cards = serializers.DictField(child=serializers.IntegerField())


class HighCardCreateSerializer(RequestSerializer):
    game_type = const(KEY)
    players = names_field("The two players.")
    published = published_field()


class HighCardResultsSerializer(RequestSerializer):
    expected_version = expected_version_field()
    cards = serializers.DictField(child=serializers.IntegerField(min_value=1, max_value=10))


def entry() -> dict[str, AnyField]:
    return {"cards": value_map(required=False)}


API = GameAPI(
    create=HighCardCreateSerializer,
    event=HighCardEventSerializer,
    summary=HighCardSummarySerializer,
    results=HighCardResultsSerializer,
    entry=entry,
    schema_rules={"HighCardCreate": players_counted(KEY)},
)
