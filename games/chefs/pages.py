"""Chefs' pages (docs/chefs-rules.md): the track and the board in words, the results-only form
(each chef's final position), play by play (a round's starting chef, the marker placements from
engine.chefs.referee.legal_locations, then each marker's action) and the score sheet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from engine.chefs.events import LOCATIONS
from engine.chefs.referee import (
    laying_cooker,
    legal_chests,
    legal_locations,
    legal_moves,
    may_use_chef_card,
)
from engine.chefs.rules import GOAL, field, next_seat
from engine.chefs.state import ChefsState, Phase
from games.gametypes.engine_backed import EngineState
from games.pages import SheetLayout
from games.pages.frame import (
    Control,
    Controls,
    EntryProblem,
    PresenterPages,
    ResultsForm,
    StateTable,
    event_json,
    score_field,
)
from games.words import word_list

PLACES = {
    "counter": gettext_lazy("the counter of ingredients"),
    "window": gettext_lazy("the cooker at the window"),
    "door": gettext_lazy("the door"),
    "wall": gettext_lazy("the cooker at the wall"),
    "service": gettext_lazy("the service counter"),
}


def place(location: str) -> str:
    return str(PLACES.get(location, location))


def steps_words(steps: int) -> str:
    return ngettext("%(count)s step", "%(count)s steps", steps) % {"count": steps}


def ingredients_words(count: int) -> str:
    return ngettext("%(count)s ingredient", "%(count)s ingredients", count) % {"count": count}


def card_words(steps: int, ingredients: int) -> str:
    """A meal card laid (record v2): "3 steps (2 ingredients)"."""
    return _("%(steps)s (%(ingredients)s)") % {
        "steps": steps_words(steps),
        "ingredients": ingredients_words(ingredients),
    }


def cards_at(game: ChefsState, name: str, *, no_meal: str = "–", elsewhere: str = "–") -> str:
    """The cards at a location in words: the counter's ingredient cards, a cooker's meal cards
    (record v2: each card laid, ``no_meal`` when none lies there), the door's chests taken;
    ``elsewhere`` for a location without cards."""
    if name == "counter":
        return ngettext("%(count)s ingredient card", "%(count)s ingredient cards", game.counter) % {
            "count": game.counter
        }
    if name in ("window", "wall"):
        cooker = 0 if name == "window" else 1
        if game.version >= 2:
            return word_list(card_words(s, n) for s, n in game.laid[cooker]) or no_meal
        count = game.cookers[cooker]
        return ngettext("%(count)s meal card", "%(count)s meal cards", count) % {"count": count}
    if name == "door":
        return _("chests taken: %(chests)s") % {"chests": word_list(game.chests_taken) or "–"}
    return elsewhere


class ChefsResults(ResultsForm):
    """Each chef's final position (steps from the door)."""

    def __init__(self, data: QueryDict | None, *, players: Sequence[str]) -> None:
        super().__init__(data)
        self.players = tuple(players)
        for seat, player in enumerate(self.players):
            named = {"player": player}
            self.fields[f"pos-{seat}"] = score_field(
                _("%(player)s's final position") % named,
                _("%(player)s's final position is missing") % named,
                _("%(player)s's final position must be a whole number") % named,
                _("%(player)s's final position must be 0 or more") % named,
            )

    def entry(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"positions": {p: data[f"pos-{seat}"] for seat, p in enumerate(self.players)}}

    def values(self, entry: Mapping[str, Any]) -> dict[str, Any]:
        positions = entry.get("positions") or {}
        seats = enumerate(self.players)
        return {f"pos-{seat}": positions[p] for seat, p in seats if p in positions}


class ChefsPresenter:
    key = "chefs"
    template = "chefs/table.html"

    def turn(self, state: EngineState, summary: Mapping[str, Any]) -> tuple[str, str]:
        game: ChefsState = state.state
        phase = game.phase
        if phase is Phase.OVER:
            return _("The game is over"), _("See the ranking below.")
        if phase is Phase.ROUND_START:
            return _("Round %(round)s: who starts") % {"round": game.round_no + 1}, ""
        if phase is Phase.LAYING:
            return (
                _("Meal cards put out at %(place)s") % {"place": place(laying_cooker(game) or "")},
                _("Enter each meal card laid face up: its steps and the ingredients it needs."),
            )
        player = game.expected
        if phase is Phase.PLACING:
            return (
                _("%(player)s's turn: put down an action marker") % {"player": player},
                _("Round %(round)s: tap where the marker goes.") % {"round": game.round_no},
            )
        return (
            _("%(player)s's marker on %(place)s acts (circle %(circle)s)")
            % {
                "player": player,
                "place": place(LOCATIONS[game.location]),
                "circle": game.circle + 1,
            },
            _("Enter what %(player)s does, or that they pass.") % {"player": player},
        )

    def describe(self, event: Mapping[str, Any]) -> str:
        kind = event.get("type")
        values = {k: v for k, v in event.items() if k != "type"}
        if kind == "game_started":
            return _("The game starts: %(players)s.") % {"players": word_list(event["players"])}
        if kind == "round_started":
            return _("Round %(round)s: %(player)s starts.") % {
                "round": event["round"],
                "player": event["starting_player"],
            }
        if kind == "marker_placed":
            return _("%(player)s puts a marker on %(place)s (circle %(circle)s).") % {
                **values,
                "place": place(event["location"]),
            }
        if kind == "ingredients_taken":
            return (
                ngettext(
                    "%(player)s takes %(count)s ingredient card.",
                    "%(player)s takes %(count)s ingredient cards.",
                    event["count"],
                )
                % values
            )
        if kind == "meal_cooked":
            if event["chef_card"]:
                return (
                    _(
                        "%(player)s cooks a meal of %(steps)s steps with %(ingredients)s "
                        "ingredient cards and the chef card."
                    )
                    % values
                )
            return (
                _(
                    "%(player)s cooks a meal of %(steps)s steps with %(ingredients)s "
                    "ingredient cards."
                )
                % values
            )
        if kind == "cards_exchanged":
            return _("%(player)s exchanges cards at the door (chest %(chest)s).") % values
        if kind == "meal_served":
            return (
                _("%(player)s serves a meal of %(steps)s steps and moves to %(position)s.") % values
            )
        if kind == "meal_laid":
            return _(
                "A meal card of %(steps)s steps needing %(ingredients)s ingredients is put out at "
                "%(place)s."
            ) % {**values, "place": place(event["cooker"])}
        if kind == "game_called":
            return _("The organizer calls the game for time: the positions as they stand.")
        return _("%(player)s passes.") % {"player": event.get("player", "")}

    def points_words(self, points: int) -> str:
        return _("position %(position)s") % {"position": points}

    def state_tables(self, state: EngineState, summary: Mapping[str, Any]) -> list[StateTable]:
        game: ChefsState = state.state
        if not game.players:
            return []
        rows = tuple(
            (
                p + (" ★" if p == game.starting else ""),
                str(game.positions.get(p, 0)),
                str(field(game.positions.get(p, 0))),
                str(game.hands.get(p, 0)),
                word_list(str(m) for m in game.meals.get(p, [])) or "–",
            )
            for p in game.players
        )
        tables = [
            StateTable(
                caption=_("Chefs on the track (★ starts this round)"),
                columns=(
                    _("Chef"),
                    _("Position"),
                    _("Field"),
                    _("Ingredient cards"),
                    _("Meals held (steps)"),
                ),
                rows=rows,
            )
        ]
        if game.round_no:
            tables.append(
                StateTable(
                    caption=_("Round %(round)s: the board") % {"round": game.round_no},
                    columns=(_("Location"), _("Markers, circle by circle"), _("Cards there")),
                    rows=tuple(
                        (
                            place(name).capitalize(),
                            word_list(game.markers[i]) or "–",
                            cards_at(game, name),
                        )
                        for i, name in enumerate(LOCATIONS)
                    ),
                )
            )
        return tables

    def result_tables(self, summary: Mapping[str, Any]) -> list[StateTable]:
        positions = summary.get("positions") or {}
        players = summary.get("players", [])
        rounds = summary.get("rounds") or []
        return [
            StateTable(
                caption=_("Positions at the end of each round"),
                columns=(
                    _("Chef"),
                    *(_("Round %(round)s") % {"round": r["round"]} for r in rounds),
                    _("Final position"),
                ),
                rows=tuple(
                    (
                        p,
                        *(str(r["positions"].get(p, 0)) for r in rounds),
                        str(positions.get(p, 0)),
                    )
                    for p in players
                ),
            )
        ]

    def controls(
        self, state: EngineState, keep: Mapping[str, Any], first_player: str | None
    ) -> Controls | None:
        game: ChefsState = state.state
        controls = self._controls(game, state, keep)
        if controls is not None and game.version >= 2 and game.phase is not Phase.NOT_STARTED:
            called = {"type": "game_called"}  # CH9.3: the organizer's end, at any moment
            controls.buttons.append(
                Control(self.describe(called), event_json(called), _("Called for time"))
            )
        return controls

    def _controls(
        self, game: ChefsState, state: EngineState, keep: Mapping[str, Any]
    ) -> Controls | None:
        buttons: list[Control] = []
        title = self.turn(state, {})[0]
        if game.phase is Phase.LAYING:
            return Controls(
                title=title,
                buttons=buttons,
                form="lay",
                data={
                    "cooker": laying_cooker(game),
                    "steps": keep.get("steps", ""),
                    "ingredients": keep.get("ingredients", ""),
                },
            )
        if game.phase is Phase.ROUND_START:
            firsts = (
                [next_seat(game.players, game.starting)] if game.starting else list(game.players)
            )
            for p in firsts:
                obj = {"type": "round_started", "round": game.round_no + 1, "starting_player": p}
                buttons.append(Control(self.describe(obj), event_json(obj), _("Starting chef")))
            return Controls(title=title, buttons=buttons)
        player = game.expected
        if player is None:
            return None
        if game.phase is Phase.PLACING:
            for location in legal_locations(game):
                index = LOCATIONS.index(location)
                obj = {
                    "type": "marker_placed",
                    "player": player,
                    "location": location,
                    "circle": len(game.markers[index]) + 1,
                }
                buttons.append(Control(self.describe(obj), event_json(obj), _("Action marker")))
            return Controls(title=title, buttons=buttons)
        location = LOCATIONS[game.location]
        form = ""
        group = _("Action")
        if location == "counter":
            for count in (1, 2):
                if game.counter >= count:
                    obj = {"type": "ingredients_taken", "player": player, "count": count}
                    buttons.append(Control(self.describe(obj), event_json(obj), group))
        elif location == "door":
            for chest in legal_chests(game):
                obj = {"type": "cards_exchanged", "player": player, "chest": chest}
                buttons.append(Control(self.describe(obj), event_json(obj), group))
        elif location == "service":
            position = game.positions.get(player, 0)
            for steps in sorted(set(game.meals.get(player, []))):
                obj = {
                    "type": "meal_served",
                    "player": player,
                    "steps": steps,
                    "position": position + steps,
                }
                buttons.append(Control(self.describe(obj), event_json(obj), group))
        elif game.version >= 2:  # CH5.5: the meals lying there, each way to pay for it
            for obj in legal_moves(game, player):
                if obj["type"] == "meal_cooked":
                    buttons.append(Control(self.describe(obj), event_json(obj), group))
        elif game.cookers[0 if location == "window" else 1]:
            form = "cook"
        passed = {"type": "action_passed", "player": player}
        buttons.append(Control(self.describe(passed), event_json(passed), _("Or")))
        return Controls(
            title=title,
            buttons=buttons,
            form=form,
            data={
                "player": player,
                "chef_card": may_use_chef_card(game, player),
                "steps": keep.get("steps", ""),
                "ingredients": keep.get("ingredients", ""),
            },
        )

    def event_from_post(self, state: EngineState, post: QueryDict) -> dict[str, Any]:
        game: ChefsState = state.state
        laying = game.phase is Phase.LAYING
        if not laying and (game.phase is not Phase.ACTING or game.expected is None):
            raise EntryProblem(_("Tap one of the buttons."))
        values = {}
        for name, words in (
            ("steps", _("The meal card's steps")),
            (
                "ingredients",
                _("The ingredients the meal needs") if laying else _("The ingredient cards put in"),
            ),
        ):
            raw = post.get(name, "").strip()
            if not raw.isdigit():
                raise EntryProblem(_("%(what)s: write a whole number.") % {"what": words})
            values[name] = int(raw)
        if laying:
            return {
                "type": "meal_laid",
                "cooker": laying_cooker(game),
                "steps": values["steps"],
                "ingredients": values["ingredients"],
            }
        return {
            "type": "meal_cooked",
            "player": game.expected,
            "steps": values["steps"],
            "ingredients": values["ingredients"],
            "chef_card": post.get("chef_card") == "on",
        }

    def results_form(
        self, state: EngineState, players: Sequence[str], data: QueryDict | None
    ) -> ResultsForm:
        return ChefsResults(data, players=players)

    def results_intro(self, state: EngineState, players: Sequence[str]) -> dict[str, Any]:
        return {
            "text": _(
                "Each chef's final position: steps from the door (field 3 of the second lap is "
                "23). At least one chef has passed field %(goal)s."
            )
            % {"goal": GOAL}
        }

    def sheet(self, names: Sequence[str]) -> SheetLayout:
        return SheetLayout(
            boxes=(_("Final position"), pgettext("finishing place at a table", "Place")),
            note=_(
                "Write each chef's final position as steps from the door: field 3 of the second "
                "lap is 23."
            ),
        )


PAGES = PresenterPages(ChefsPresenter())
