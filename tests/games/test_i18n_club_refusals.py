"""The club games' refusals in the reader's language (issue 15): every refusal the Food Truck,
Chefs and Crazy Kitchen engines raise carries the values its sentence is made of, and
games/refusals.py says each one in French, Russian and Japanese (never the English fallback).

The refusals are gathered as the engines' own adversarial tests make them: whole simulated games,
each point of them offered spoiled events (another player, another number, another value, a
field missing or of the wrong type, another game's event), and spoiled results entries."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from engine.chefs import events as chefs_events
from engine.chefs import referee as chefs_referee
from engine.chefs.replay import step as chefs_step
from engine.chefs.results import results as chefs_results
from engine.chefs.state import ChefsState
from engine.crazykitchen import events as kitchen_events
from engine.crazykitchen import referee as kitchen_referee
from engine.crazykitchen.replay import step as kitchen_step
from engine.crazykitchen.results import results as kitchen_results
from engine.crazykitchen.simulate import simulate_v1
from engine.crazykitchen.state import KitchenState
from engine.errors import RuleViolation
from engine.foodtruck import events as truck_events
from engine.foodtruck import referee as truck_referee
from engine.foodtruck.replay import step as truck_step
from engine.foodtruck.results import check_results as truck_results
from engine.foodtruck.state import GameState as TruckState
from engine.registry import RULES
from games.refusals import say

LANGUAGES = ("fr", "ru", "ja")
ENGINE = Path(__file__).resolve().parents[2] / "engine"

WEIRD: tuple[Any, ...] = ("zed", "", 0, -1, 1, 2, 3, 7, 21, 99, True, 1.5, None, [], {}, "x y")


class Game:
    def __init__(
        self,
        key: str,
        new: Callable[[], Any],
        parse: Callable[[Mapping[str, Any]], Any],
        check: Callable[[Any, Any], None],
        step: Callable[[Any, Any], object],
        sizes: tuple[int, ...],
    ) -> None:
        self.key, self.new, self.parse, self.check, self.step = key, new, parse, check, step
        self.sizes = sizes


GAMES = {
    "food-truck": Game(
        "food-truck",
        TruckState,
        truck_events.from_json,
        truck_referee.check,
        truck_step,
        (2, 3, 4, 5),
    ),
    "chefs": Game(
        "chefs", ChefsState, chefs_events.from_json, chefs_referee.check, chefs_step, (2, 4, 6)
    ),
    "crazy-kitchen": Game(
        "crazy-kitchen",
        KitchenState,
        kitchen_events.from_json,
        kitchen_referee.check,
        kitchen_step,
        (4, 5, 7),
    ),
}


def spoiled(obj: Mapping[str, Any], names: list[str], extra: tuple[Any, ...]) -> Iterator[Any]:
    """The event with one field changed, missing or added, and a few lines that are no event."""
    for key in obj:
        if key == "type":
            continue
        for value in (*WEIRD, *names, *extra):
            yield {**obj, key: value}
        yield {k: v for k, v in obj.items() if k != key}
        value = obj[key]
        if isinstance(value, list) and value:
            yield {**obj, key: value[:-1]}
            yield {**obj, key: [*value, value[0]]}
            yield {**obj, key: [*value[1:], "zed"]}
        if isinstance(value, list):
            yield {**obj, key: [*value, 0]}
            yield {**obj, key: [1] * 100}
        if isinstance(value, dict) and value:
            first = next(iter(value))
            yield {**obj, key: {k: v for k, v in value.items() if k != first}}
            yield {**obj, key: {**value, "zed": value[first]}}
            yield {**obj, key: {**value, first: "nope"}}
            yield {**obj, key: {**value, first: 3}}
    yield {**obj, "extra": 1}
    yield {**obj, "type": "nope"}
    yield {k: v for k, v in obj.items() if k != "type"}


def values_of(record: list[dict[str, Any]]) -> tuple[Any, ...]:
    """Every string and number the record uses (dishes, locations, chests, effects...)."""
    seen: list[Any] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif value not in seen:
            seen.append(value)

    for obj in record:
        walk({k: v for k, v in obj.items() if k != "type"})
    return tuple(seen[:60])


def gather(game: Game, seeds: range) -> list[RuleViolation]:
    out: list[RuleViolation] = []
    for seed in seeds:
        for size in game.sizes:
            for record in records_of(game.key, seed, size):
                first = record[0]
                names = list(first.get("players") or [t["name"] for t in first["teams"]])
                extra = values_of(record)
                state = game.new()
                for index, obj in enumerate([*record, record[-1]]):
                    offered = [obj, record[0]]
                    if index + 1 < len(record):
                        offered.append(record[index + 1])
                    for candidate in [
                        c for o in offered for c in spoiled(o, names, extra)
                    ] + offered:
                        try:
                            game.check(state, game.parse(candidate))
                        except RuleViolation as violation:
                            out.append(violation)
                    rare_refusals(game.key, state, out)
                    if index < len(record):
                        game.step(state, game.parse(obj))
    return out


def records_of(key: str, seed: int, size: int) -> list[list[dict[str, Any]]]:
    """The engine's simulated record, and Crazy Kitchen's v1 record too (its simulator writes
    v2; v1 records are still read, so their refusals are still said)."""
    records = [RULES[key].simulate(seed, size)]
    if key == "crazy-kitchen":
        records.append([kitchen_events.to_json(e) for e in simulate_v1(seed, size)])
    return records


def rare_refusals(key: str, state: Any, out: list[RuleViolation]) -> None:
    """Refusals a simulated game seldom leads to, on its state changed for a moment: Company
    cards on a pile of one dish or none (Food Truck), a chest the ingredient deck cannot pay
    (Chefs, the deck emptied)."""
    if key == "food-truck" and state.phase.name == "TURN" and state.must_play is None:
        player = state.current
        seat = state.seats[player]
        saved = (seat.company, seat.hidden, seat.tail)
        dish = next(iter(seat.hidden or seat.tail or ["burger"]))
        plays = (
            {"effect": "under", "dish": dish},
            {"effect": "swap", "dish": dish, "market": "burger"},
            {"effect": "copy"},
        )
        # The pile as a long round may leave it: one dish, or none.
        for hidden in (Counter({dish: 1}), Counter()):
            for play in plays:
                seat.company, seat.hidden, seat.tail = play["effect"], hidden, []
                obj = {"type": "company_played", "player": player, **play}
                try:
                    truck_referee.check(state, truck_events.from_json(obj))
                except RuleViolation as violation:
                    out.append(violation)
                finally:
                    seat.company, seat.hidden, seat.tail = saved
    at_door = key == "chefs" and getattr(state, "location", None) == chefs_referee.DOOR
    if at_door and state.phase.name == "ACTING":
        player = state.markers[chefs_referee.DOOR][state.circle]
        saved = state.ingredient_supply
        state.ingredient_supply = 0  # the deck as a long game may leave it
        try:
            for chest in chefs_events.CHESTS:
                try:
                    chefs_referee.check(state, chefs_events.CardsExchanged(player, chest))
                except RuleViolation as violation:
                    out.append(violation)
        finally:
            state.ingredient_supply = saved
    if key == "chefs" and state.phase.name == "ACTING":  # record v2 empties them seldom
        chefs_rare(state, out)


def chefs_rare(state: Any, out: list[RuleViolation]) -> None:
    """Chefs: a cooker left without meal cards, a counter left with one card."""
    player = state.expected
    saved = (list(state.cookers), state.counter)
    state.cookers, state.counter = [0, 0], 1
    try:
        for event in (
            chefs_events.MealCooked(player, 1, 1, False),
            chefs_events.IngredientsTaken(player, 2),
        ):
            try:
                chefs_referee.check(state, event)
            except RuleViolation as violation:
                out.append(violation)
    finally:
        state.cookers, state.counter = saved


def start_spoiled(game: Game) -> list[RuleViolation]:
    """Spoiled starts: tables of every size, names empty or twice, odd teams."""
    out: list[RuleViolation] = []
    if game.key == "crazy-kitchen":
        teams: list[Any] = [
            [{"name": "A", "players": ["a", "b"]}],
            [{"name": "A", "players": ["a", "b"]}, {"name": "A", "players": ["c", "d"]}],
            [{"name": "A", "players": ["a", ""]}, {"name": "B", "players": ["c", "d"]}],
            [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["a", "d"]}],
            [{"name": "A", "players": ["a"]}, {"name": "B", "players": ["c", "d"]}],
            [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": list("cdef")}],
            [
                {"name": "A", "players": list("abcdefgh")},
                {"name": "B", "players": list("ijklmnop")},
            ],
            [{"name": "A", "players": ["a", "b", "c"]}, {"name": "B", "players": ["d", "e"]}],
            [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["d", "e"]}],
        ]
        starts = [
            {"type": "game_started", "game": game.key, "teams": t, "cooks_first": "A", **more}
            for t in teams
            for more in ({}, {"compensation": -1}, {"compensation": 3}, {"cooks_first": "Z"})
        ]
        starts.append({"type": "game_started", "game": game.key, "teams": [3], "cooks_first": "A"})
        starts.append({"type": "game_started", "game": game.key, "teams": 3, "cooks_first": "A"})
    else:
        lists = [["a"], ["a", ""], ["a", "b", "a"], list("abcdefgh"), [" ", "b"]]
        starts = [{"type": "game_started", "game": game.key, "players": p} for p in lists]
        starts.append({"type": "game_started", "game": "other", "players": ["a", "b"]})
        starts.append({"type": "game_started", "game": game.key, "players": "ab"})
    for obj in starts:
        try:
            game.check(game.new(), game.parse(obj))
        except RuleViolation as violation:
            out.append(violation)
    return out


RESULTS: dict[str, tuple[Callable[[Any], Any], list[Any]]] = {
    "food-truck": (
        lambda entry: truck_results(["a", "b", "c"], entry),
        [
            [],
            {"victory_points": {}, "winner": "a", "x": 1},
            {"victory_points": [], "winner": "a"},
            {"victory_points": {"a": 3, "b": 0, "c": 0, "zed": 1}, "winner": "a"},
            {"victory_points": {"a": 3, "b": 0}, "winner": "a"},
            {"victory_points": {"a": 3, "b": -1, "c": 0}, "winner": "a"},
            {"victory_points": {"a": 3, "b": 4, "c": 0}, "winner": "a"},
            {"victory_points": {"a": 3, "b": 1, "c": 0}, "winner": "zed"},
            {"victory_points": {"a": 2, "b": 1, "c": 0}, "winner": "a"},
            {"victory_points": {"a": 3, "b": 3, "c": 0}, "winner": "a"},
        ],
    ),
    "chefs": (
        lambda entry: chefs_results(["a", "b"], entry),
        [
            {"x": 1},
            {"positions": []},
            {"positions": {"a": 21, "b": 0, "zed": 1}},
            {"positions": {"a": 21}},
            {"positions": {"a": 21, "b": -1}},
            {"positions": {"a": 2, "b": 3}},
        ],
    ),
    "crazy-kitchen": (
        lambda entry: kitchen_results(
            [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}], entry
        ),
        [
            {"scores": [1] * 6},
            {"cooks_first": "A", "scores": [1] * 6, "compensation": "2"},
            {"cooks_first": 3, "scores": [1] * 6},
            {"cooks_first": "A", "scores": [1] * 5},
            {"cooks_first": "A", "scores": [1, 2, 3, -1, 2, 2]},
        ],
    ),
}


def results_spoiled(key: str) -> list[RuleViolation]:
    check, entries = RESULTS[key]
    out = []
    for entry in entries:
        with pytest.raises(RuleViolation) as caught:
            check(entry)
        out.append(caught.value)
    if key == "chefs":
        with pytest.raises(RuleViolation) as caught:
            chefs_results(["a"], {"positions": {"a": 21}})
        out.append(caught.value)
    if key == "food-truck":
        with pytest.raises(RuleViolation) as caught:
            truck_results(["a"], {"victory_points": {"a": 3}, "winner": "a"})
        out.append(caught.value)
    if key == "crazy-kitchen":
        with pytest.raises(RuleViolation) as caught:
            kitchen_results([{"name": "A"}, {"name": "B"}], {"cooks_first": "A", "scores": []})
        out.append(caught.value)
    return out


def codes_in_source(package: str) -> set[str]:
    """Every code the engine package raises (a refusal's first argument)."""
    text = "".join(p.read_text() for p in (ENGINE / package).glob("*.py"))
    if "engine.fields" in text:  # the kernel's field reader, the game's refusals too
        text += (ENGINE / "fields.py").read_text()
    return set(re.findall(r'(?:_refusal|_bad|\.bad)\(\s*"([a-z_]+)"', text))


def distinct(violations: list[RuleViolation]) -> list[RuleViolation]:
    """Each refusal once (the same code, message and params are said the same way): the
    spoiled events of a game repeat the same few thousand refusals many times over."""
    seen: dict[str, RuleViolation] = {}
    for violation in violations:
        seen.setdefault(repr((violation.code, violation.message, violation.params)), violation)
    return list(seen.values())


@pytest.fixture(scope="module")
def refusals() -> dict[str, list[RuleViolation]]:
    out = {}
    for key, game in GAMES.items():
        out[key] = distinct(gather(game, range(1, 2)) + start_spoiled(game) + results_spoiled(key))
    return out


@pytest.mark.parametrize(
    ("key", "package"),
    [("food-truck", "foodtruck"), ("chefs", "chefs"), ("crazy-kitchen", "crazykitchen")],
)
def test_every_code_is_met_and_every_refusal_carries_its_game(
    refusals: dict[str, list[RuleViolation]], key: str, package: str
) -> None:
    met = {v.code for v in refusals[key]}
    missing = codes_in_source(package) - met
    assert not missing, f"{key}: no adversarial case raises {sorted(missing)}"
    for violation in refusals[key]:
        if violation.code != "bad_json":  # the shared line reader's (engine.jsonline)
            assert violation.params.get("game") == key, violation


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", list(GAMES))
def test_every_refusal_is_said_in_each_language(
    refusals: dict[str, list[RuleViolation]], key: str, language: str
) -> None:
    seen: dict[tuple[str, str], str] = {}
    with translation.override(language):
        for violation in refusals[key]:
            said = say(violation, codes=True)
            kind = (violation.code, str(violation.params.get("rule", "")))
            assert said != violation.message, (language, kind, violation.params)
            assert "%(" not in said, said
            seen.setdefault(kind, said)
    assert len(seen) > 10


def test_a_refusal_reads_in_each_language() -> None:
    violation = RuleViolation(
        "not_removable",
        "ben's burger is in a stack: only a visible dish that is not in a stack may be put "
        "under the pile",
        {"game": "food-truck", "rule": "stacked", "target": "ben", "dish": "burger"},
    )
    with translation.override("en"):
        assert say(violation) == violation.message
    for language in LANGUAGES:
        with translation.override(language):
            said = say(violation)
            assert "ben" in said and "burger" in said and said != violation.message


def test_codes_shared_with_trick_n_chef_are_said_in_their_games_words() -> None:
    truck = RuleViolation(
        "bad_players",
        "Food Truck is played by 2 to 5 players, not 7",
        {"game": "food-truck", "rule": "count", "count": 7},
    )
    tnc = RuleViolation(
        "bad_players",
        "Trick-n-Chef is played by 3 or 4 players, not 7",
        {"rule": "count", "count": 7},
    )
    with translation.override("fr"):
        assert "Food Truck" in say(truck) and "Trick-n-Chef" in say(tnc)
