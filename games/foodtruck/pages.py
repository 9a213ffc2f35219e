"""Food Truck's pages (docs/foodtruck-rules.md): the state in words, the results-only form
(victory points and the winner), play by play (a round's start, then each turn's legal moves from
engine.foodtruck.referee as buttons) and the score sheet.

Hidden information: a programmed pile's order is never known, so the pages show only its size;
a dish appears when the table saw it (turned over, taken from the market, or moved by a Company
card), as the record has it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from engine.foodtruck.events import to_json
from engine.foodtruck.referee import legal_events, turn_player
from engine.foodtruck.rules import EFFECTS, max_rounds, victory_threshold
from engine.foodtruck.state import GameState, Phase
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

EFFECT_NAMES = {
    "rearrange": gettext_lazy("Rearrange"),
    "remove": gettext_lazy("Remove"),
    "swap": gettext_lazy("Swap"),
    "under": gettext_lazy("Under"),
    "copy": gettext_lazy("Copy"),
}
DISH_NAMES = {
    "burger": gettext_lazy("burger"),
    "pizza": gettext_lazy("pizza"),
    "hotdog": gettext_lazy("hot dog"),
    "sandwich": gettext_lazy("sandwich"),
    "dessert": gettext_lazy("dessert"),
}
"""The starting hands' dishes (FT2.2) in words; any other dish is shown as the record writes
it."""


def dish(name: str) -> str:
    return str(DISH_NAMES.get(name, name))


def effect(name: str) -> str:
    return str(EFFECT_NAMES.get(name, name))


def dishes(names: Sequence[str]) -> str:
    return word_list(dish(n) for n in names) or "–"


def served_words(counts: Mapping[str, int]) -> list[str]:
    """A player's dishes served this round, one word each ("burger ×2")."""
    return [dish(d) if n == 1 else f"{dish(d)} ×{n}" for d, n in sorted(counts.items())]


def in_play(game: GameState) -> bool:
    """A round is being played (turns, a served dish, a market pick)."""
    return game.phase in (Phase.TURN, Phase.SERVED, Phase.MARKET_PICK)


def round_status(game: GameState, player: str) -> str:
    """Where the player stands in the round being played: in it, or eliminated (in order)."""
    if player in game.in_round:
        return _("in the round")
    return _("eliminated (%(order)s)") % {"order": game.eliminated.index(player) + 1}


class FoodTruckResults(ResultsForm):
    """Each player's victory points and the winner."""

    def __init__(self, data: QueryDict | None, *, players: Sequence[str]) -> None:
        super().__init__(data)
        self.players = tuple(players)
        for seat, player in enumerate(self.players):
            named = {"player": player}
            self.fields[f"vp-{seat}"] = score_field(
                _("%(player)s's victory points") % named,
                _("%(player)s's victory points are missing") % named,
                _("%(player)s's victory points must be a whole number") % named,
                _("%(player)s's victory points must be 0 or more") % named,
            )
        self.fields["winner"] = forms.ChoiceField(
            label=_("Winner"),
            choices=[(str(seat), p) for seat, p in enumerate(self.players)],
            widget=forms.RadioSelect,
            error_messages={"required": _("Choose the winner")},
        )

    def entry(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "victory_points": {p: data[f"vp-{seat}"] for seat, p in enumerate(self.players)},
            "winner": self.players[int(data["winner"])],
        }

    def values(self, entry: Mapping[str, Any]) -> dict[str, Any]:
        points = entry.get("victory_points") or {}
        values: dict[str, Any] = {
            f"vp-{seat}": points[p] for seat, p in enumerate(self.players) if p in points
        }
        if entry.get("winner") in self.players:
            values["winner"] = str(self.players.index(entry["winner"]))
        return values


class FoodTruckPresenter:
    key = "food-truck"
    template = "foodtruck/table.html"

    # ------------------------------------------------------------------ words

    def turn(self, state: EngineState, summary: Mapping[str, Any]) -> tuple[str, str]:
        game: GameState = state.state
        phase = game.phase
        if phase is Phase.OVER:
            return _("The game is over"), _("See the ranking below.")
        if phase is Phase.ROUND_START:
            return (
                _("Round %(round)s: lay out the market and turn over the Company cards")
                % {"round": game.round_no + 1},
                _("Enter the round's first player, its market and each player's Company card."),
            )
        player = turn_player(game)
        if phase is Phase.MARKET_PICK:
            return (
                _("%(player)s is eliminated: they take a market card") % {"player": player},
                _("Tap the dish they take, or the Company card they still play."),
            )
        return (
            _("%(player)s's turn: turn over a dish") % {"player": player},
            _(
                "Tap the dish turned over, or the Company card when it is played (before or "
                "after the dish)."
            ),
        )

    def describe(self, event: Mapping[str, Any]) -> str:
        kind = event.get("type")
        if kind == "game_started":
            return _("The game starts: %(players)s.") % {"players": word_list(event["players"])}
        if kind == "round_started":
            companies = word_list(f"{p} {effect(e)}" for p, e in dict(event["companies"]).items())
            return _(
                "Round %(round)s starts: %(player)s plays first; market: %(market)s; "
                "Company cards: %(companies)s."
            ) % {
                "round": event["round"],
                "player": event["first_player"],
                "market": dishes(event["market"]),
                "companies": companies,
            }
        if kind == "dish_revealed":
            return _("%(player)s turns over %(dish)s.") % {
                "player": event["player"],
                "dish": dish(event["dish"]),
            }
        if kind == "market_taken":
            return _("%(player)s takes %(dish)s from the market.") % {
                "player": event["player"],
                "dish": dish(event["dish"]),
            }
        return self._company(event)

    def _company(self, event: Mapping[str, Any]) -> str:
        values = {
            "player": event.get("player", ""),
            "target": event.get("target", ""),
            "dish": dish(str(event.get("dish", ""))),
            "market": dish(str(event.get("market", ""))),
        }
        match event.get("effect"):
            case "rearrange":
                return _("%(player)s plays Rearrange: the top five dishes of their pile.") % values
            case "remove":
                return (
                    _("%(player)s plays Remove: %(target)s's %(dish)s goes under their pile.")
                    % values
                )
            case "swap":
                return (
                    _("%(player)s plays Swap: %(dish)s to the market, %(market)s to play.") % values
                )
            case "under":
                return _("%(player)s plays Under: %(dish)s goes under their pile.") % values
            case _other:
                return _("%(player)s plays Copy.") % values

    def points_words(self, points: int) -> str:
        return ngettext("%(count)s victory point", "%(count)s victory points", points) % {
            "count": points
        }

    # ------------------------------------------------------------------ tables

    def state_tables(self, state: EngineState, summary: Mapping[str, Any]) -> list[StateTable]:
        game: GameState = state.state
        if not game.players:
            return []
        playing = in_play(game)
        rows = []
        for player in game.players:
            seat = game.seats[player]
            where = round_status(game, player) if playing else "–"
            served = word_list(served_words(seat.served))
            rows.append(
                (
                    player + (" ★" if player == game.marker else ""),
                    str(game.points.get(player, 0)),
                    served or "–",
                    str(seat.pile_size()) if playing else "–",
                    where,
                    effect(seat.company) if seat.company else "–",
                )
            )
        tables = [
            StateTable(
                caption=_("Players (★ holds the first-player marker)"),
                columns=(
                    _("Player"),
                    _("Victory points"),
                    _("Served this round"),
                    _("Dishes in the pile"),
                    _("This round"),
                    _("Company card"),
                ),
                rows=tuple(rows),
            )
        ]
        if game.round_no:
            tables.append(
                StateTable(
                    caption=_("Market"),
                    columns=(_("Round"), _("Dishes face up"), _("Draw pile")),
                    rows=(
                        (str(game.round_no), dishes(sorted(game.market)), str(game.market_pile)),
                    ),
                )
            )
        tables.extend(self._rounds(summary))
        return tables

    def _rounds(self, summary: Mapping[str, Any]) -> list[StateTable]:
        rounds = summary.get("rounds") or []
        if not rounds:
            return []
        return [
            StateTable(
                caption=_("Rounds played"),
                columns=(_("Round"), _("First player"), _("Eliminated, in order"), _("Winner")),
                rows=tuple(
                    (
                        str(r["round"]),
                        r["first_player"],
                        word_list(r["eliminated"]),
                        r["winner"],
                    )
                    for r in rounds
                ),
            )
        ]

    def result_tables(self, summary: Mapping[str, Any]) -> list[StateTable]:
        points = summary.get("victory_points") or {}
        return [
            StateTable(
                caption=_("Victory points"),
                columns=(_("Player"), _("Victory points")),
                rows=tuple((p, str(points.get(p, 0))) for p in summary.get("players", [])),
            ),
            *self._rounds(summary),
        ]

    # ------------------------------------------------------------------ entry

    def controls(
        self, state: EngineState, keep: Mapping[str, Any], first_player: str | None
    ) -> Controls | None:
        game: GameState = state.state
        if game.phase is Phase.ROUND_START:
            number = game.round_no + 1
            if game.marker:  # FT4.7: the first eliminated last round
                firsts = [game.marker]
            elif first_player in game.players:  # the seating's own rule (seat 1)
                firsts = [first_player]
            else:
                firsts = list(game.players)
            return Controls(
                title=_("Round %(round)s starts") % {"round": number},
                form="round",
                data={
                    "round": number,
                    "first_players": [(p, keep.get("first_player") == p) for p in firsts],
                    "market": [
                        (f"market-{i}", str(keep.get(f"market-{i}", "")))
                        for i in range(len(game.players))
                    ],
                    "companies": [
                        (
                            seat,
                            player,
                            [
                                (e, effect(e), keep.get(f"company-{seat}") == e)
                                for e in EFFECTS
                                if e in game.seats[player].company_pile
                            ],
                        )
                        for seat, player in enumerate(game.players)
                    ],
                },
            )
        buttons = []
        for event in legal_events(game):
            obj = to_json(event)
            group = {
                "company_played": _("Company card"),
                "dish_revealed": _("Dish turned over"),
                "market_taken": _("Market card taken"),
            }[obj["type"]]
            buttons.append(Control(self.describe(obj), event_json(obj), group))
        if not buttons:
            return None
        return Controls(title=self.turn(state, {})[0], buttons=buttons)

    def event_from_post(self, state: EngineState, post: QueryDict) -> dict[str, Any]:
        game: GameState = state.state
        if game.phase is not Phase.ROUND_START:
            raise EntryProblem(_("Tap one of the buttons."))
        market = [post.get(f"market-{i}", "").strip().lower() for i in range(len(game.players))]
        if not all(market):
            raise EntryProblem(
                _("Write the %(count)s dishes of the market, one in each box.")
                % {"count": len(game.players)}
            )
        companies = {}
        for seat, player in enumerate(game.players):
            chosen = post.get(f"company-{seat}", "")
            if not chosen:
                raise EntryProblem(
                    _("Choose the Company card %(player)s turned over.") % {"player": player}
                )
            companies[player] = chosen
        first = post.get("first_player", "")
        if not first:
            raise EntryProblem(_("Choose who plays first."))
        return {
            "type": "round_started",
            "round": game.round_no + 1,
            "first_player": first,
            "market": market,
            "companies": companies,
        }

    def results_form(
        self, state: EngineState, players: Sequence[str], data: QueryDict | None
    ) -> ResultsForm:
        return FoodTruckResults(data, players=players)

    def results_intro(self, state: EngineState, players: Sequence[str]) -> dict[str, Any]:
        need = victory_threshold(len(players))
        return {
            "text": _(
                "Each player's victory points from the score sheet, and the winner: the winner "
                "has %(need)s, every other player fewer."
            )
            % {"need": need}
        }

    def sheet(self, names: Sequence[str]) -> SheetLayout:
        return SheetLayout(
            boxes=(
                _("Rounds won"),
                _("Victory points"),
                pgettext("finishing place at a table", "Place"),
            ),
            note=_(
                "Mark a round won in its player's row (at most %(rounds)s rounds); the first "
                "to %(need)s victory points wins."
            )
            % {"rounds": max_rounds(len(names)), "need": victory_threshold(len(names))},
        )


PAGES = PresenterPages(FoodTruckPresenter())
