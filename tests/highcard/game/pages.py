"""High Card's pages on the shared score-sheet frame: its presenter (the state in words, the
ten card buttons, the results form with each player's card, the score sheet)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from games.gametypes.engine_backed import EngineState
from games.pages import SheetLayout
from games.pages.frame import (
    Control,
    Controls,
    EntryProblem,
    PresenterPages,
    ResultsForm,
    StateTable,
    score_field,
)
from tests.highcard import engine


class CardsForm(ResultsForm):
    """Each player's card, from the sheet."""

    def __init__(self, data: QueryDict | None, *, players: Sequence[str]) -> None:
        super().__init__(data)
        self.players = list(players)
        for seat, player in enumerate(self.players, start=1):
            self.fields[f"card-{seat}"] = score_field(
                _("%(player)s's card") % {"player": player},
                _("a card is missing"),
                _("a card is a whole number"),
                _("a card is 1 to 10"),
            )

    def entry(self) -> dict[str, Any]:
        cards = {p: self.cleaned_data[f"card-{s}"] for s, p in enumerate(self.players, start=1)}
        return {"cards": cards}

    def values(self, entry: Mapping[str, Any]) -> dict[str, Any]:
        cards = entry.get("cards") or {}
        return {f"card-{s}": cards.get(p) for s, p in enumerate(self.players, start=1)}


class HighCardPresenter:
    key = engine.GAME_KEY
    template = "highcard/table.html"

    def turn(self, state: EngineState, summary: Mapping[str, Any]) -> tuple[str, str]:
        game: engine.State = state.state
        if game.over:
            return _("The game is over"), _("See the ranking below.")
        return _("%(player)s plays") % {"player": game.to_play}, _("Tap the card played.")

    def describe(self, event: Mapping[str, Any]) -> str:
        if event.get("type") == "game_started":
            return _("The game starts.")
        return _("%(player)s played %(card)s.") % {"player": event["player"], "card": event["card"]}

    def points_words(self, points: int) -> str:
        return str(points)

    def state_tables(self, state: EngineState, summary: Mapping[str, Any]) -> list[StateTable]:
        return self.result_tables(summary) if summary.get("players") else []

    def result_tables(self, summary: Mapping[str, Any]) -> list[StateTable]:
        cards = summary.get("cards") or {}
        rows = tuple((p, "–" if cards.get(p) is None else str(cards[p])) for p in cards)
        return [StateTable(caption=_("Cards"), columns=(_("Player"), _("Card")), rows=rows)]

    def controls(
        self, state: EngineState, keep: Mapping[str, Any], first_player: str | None
    ) -> Controls | None:
        player = state.state.to_play
        if player is None:
            return None
        buttons = [
            Control(str(card), json.dumps({"type": "card_played", "player": player, "card": card}))
            for card in engine.CARDS
        ]
        return Controls(_("%(player)s's card") % {"player": player}, buttons=buttons)

    def event_from_post(self, state: EngineState, post: QueryDict) -> dict[str, Any]:
        raise EntryProblem(_("Tap the card played."))

    def results_form(
        self, state: EngineState, players: Sequence[str], data: QueryDict | None
    ) -> ResultsForm:
        return CardsForm(data, players=players)

    def results_intro(self, state: EngineState, players: Sequence[str]) -> dict[str, Any]:
        return {}

    def sheet(self, names: Sequence[str]) -> SheetLayout:
        return SheetLayout(boxes=(_("Card"),))


PAGES = PresenterPages(HighCardPresenter())
