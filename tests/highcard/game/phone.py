"""High Card's seat-phone panel (games.phone.panel.Panel): the player whose turn it is taps
their card; the other phone waits; everyone sees the cards played and, at the end, who won."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.phone.panel import Append, Panel, SeatNow, Shown, Tap
from tests.highcard import engine


class HighCardPanel:
    template = "highcard/phone.html"
    seat_plays = frozenset({"card_played"})

    def view(self, now: SeatNow) -> Shown:
        game: engine.State = now.state.state  # the engine's, in the game type's EngineState
        played = {p: game.cards.get(p) for p in now.players}
        if now.closed:
            return Shown(headline=now.closed, panel={"played": played})
        if game.over:
            final = engine.ranking(game.cards, now.players)
            winners = [r["player"] for r in final if r["rank"] == 1]
            return Shown(
                headline=_("Won by %(players)s") % {"players": " & ".join(winners)},
                panel={"played": played, "final": final},  # the DOM contract's data-final
            )
        mine = game.to_play == now.focus.player
        return Shown(
            headline=_("Your turn: play a card") if mine else _("Wait for your turn"),
            waiting_for=None if mine else game.to_play,
            panel={"cards": list(engine.CARDS) if mine else [], "played": played},
        )

    def play(self, tap: Tap) -> Append | None:
        card = tap.int("card")
        if card is None:
            return None
        return Append([{"type": "card_played", "player": tap.player, "card": card}])

    actions = {"play": play}

    def tap_words(self, event: Mapping[str, Any]) -> str:
        return _("%(player)s's %(card)s") % {"player": event["player"], "card": event["card"]}

    def texts(self) -> dict[str, str]:
        return {}


PANEL: Panel = HighCardPanel()
