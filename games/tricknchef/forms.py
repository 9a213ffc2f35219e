"""Forms of Trick-n-Chef's table page (games/tricknchef/table_views.py): they parse what a tap
posts (what every table form posts: games.table.forms).

They only read the request. Whether a deal, a pick or a card is allowed is the referee's
business (engine/tricknchef/referee.py, reached through games.services): a form never repeats a
rule, so a refusal always comes back in the rulebook's words. Every form carries the version of the
game the page was rendered at and a fresh idempotency key (one per rendered form).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from engine.tricknchef.cards import CARDS_PER_HAND, ROUNDS_PER_GAME, Card
from engine.tricknchef.results import MAX_ROUND_SCORE, score_problem, total_problem
from games.table.forms import ActionForm

DEAL_PREFIX = "deal-"
"""A deal posts one field per card in play: ``deal-R7`` = the seat (0-based) it was dealt to,
or empty while it is not dealt yet."""


class PickForm(ActionForm):
    """A Chef picked at the start of a round, or taken after a trick."""

    player = forms.CharField(max_length=100)
    suit = forms.CharField(max_length=20)


class PlayForm(ActionForm):
    player = forms.CharField(max_length=100)
    card = forms.CharField(max_length=3)
    coins = forms.IntegerField(required=False)
    """Signed count: +k is k coins +2 side up, -k is k coins -2 side up."""

    def clean_coins(self) -> int:
        return self.cleaned_data.get("coins") or 0


class DealForm(ActionForm):
    """The deal of a round: who holds each card, and who plays first."""

    round = forms.IntegerField(min_value=1, max_value=ROUNDS_PER_GAME)
    first_player = forms.CharField(max_length=100)

    def __init__(
        self, data: Mapping[str, Any], *, players: Sequence[str], cards: Sequence[Card]
    ) -> None:
        super().__init__(data)
        self.players = tuple(players)
        self.cards = tuple(cards)
        seats = [("", _("not dealt yet"))] + [(str(i), p) for i, p in enumerate(self.players)]
        for card in self.cards:
            self.fields[DEAL_PREFIX + card] = forms.TypedChoiceField(
                choices=seats, coerce=int, empty_value=None, required=False
            )

    def assignments(self) -> dict[Card, int]:
        """Card -> seat, as posted (valid fields only: usable to re-show a refused deal)."""
        posted: dict[Card, int] = {}
        for card in self.cards:
            value = self.data.get(DEAL_PREFIX + card, "")
            if isinstance(value, str) and value.isdigit() and int(value) < len(self.players):
                posted[card] = int(value)
        return posted

    def hands(self) -> dict[str, list[Card]]:
        """Each player's cards, with the last hand filled automatically when every other hand
        is full and the cards not dealt yet fill it exactly."""
        hands, _filled = fill_last_hand(self.players, self.cards, self.assignments())
        return hands


def fill_last_hand(
    players: Sequence[str], cards: Sequence[Card], seats: Mapping[Card, int]
) -> tuple[dict[str, list[Card]], bool]:
    """The hands of a deal in progress (cards in ``cards`` order). When all hands but one hold
    10 cards and the cards not dealt yet are exactly the missing ones, they go to that hand
    (the same rule as static/js/table.js applies as the scorekeeper taps)."""
    hands: dict[str, list[Card]] = {p: [] for p in players}
    for card in cards:
        seat = seats.get(card)
        if seat is not None:
            hands[players[seat]].append(card)
    short = [p for p in players if len(hands[p]) < CARDS_PER_HAND]
    rest = [c for c in cards if c not in seats]
    if (
        len(short) == 1
        and all(len(hands[p]) == CARDS_PER_HAND for p in players if p != short[0])
        and len(hands[short[0]]) + len(rest) == CARDS_PER_HAND
        and rest
    ):
        hands[short[0]].extend(rest)
        order = {c: i for i, c in enumerate(cards)}
        hands[short[0]].sort(key=order.__getitem__)
        return hands, True
    return hands, False


class ResultsForm(ActionForm):
    """Results only: each player's three round scores and, optionally, the totals written on the
    score sheet. Fields are named by seat: names may hold anything.

    Every mistake is found in one go, each on its own field (a blank or a word, a score no round
    can make, a total that is not the sum of its rounds), so the page shows them all at once
    beside their fields. The rules are the engine's (engine/tricknchef/results.py,
    ``score_problem`` and ``total_problem``); the form says which field they are about, in the
    page's words (a game's rounds are its deals there).
    A total is a check: each one given is compared with its rounds, and a blank one is simply
    not checked (the totals are recorded only when the sheet gave all of them)."""

    def __init__(self, data: Mapping[str, Any] | None, *, players: Sequence[str]) -> None:
        super().__init__(data)
        self.players = tuple(players)
        for seat, player in enumerate(self.players):
            for number in range(1, ROUNDS_PER_GAME + 1):
                named = {"player": player, "deal": number}
                self.fields[score_field(seat, number)] = forms.IntegerField(
                    label=_("%(player)s, deal %(deal)s") % named,
                    error_messages={
                        "required": _("%(player)s's deal %(deal)s score is missing") % named,
                        "invalid": _("%(player)s's deal %(deal)s score must be a whole number")
                        % named,
                    },
                )
            self.fields[total_field(seat)] = forms.IntegerField(
                label=_("%(player)s, total") % {"player": player},
                required=False,
                error_messages={
                    "invalid": _("%(player)s's total must be a whole number") % {"player": player}
                },
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for seat, player in enumerate(self.players):
            rounds: list[int] = []
            for number in range(1, ROUNDS_PER_GAME + 1):
                name = score_field(seat, number)
                if name not in cleaned:
                    continue  # already said: missing, or not a whole number
                if score_problem(player, number, cleaned[name]) is None:
                    rounds.append(cleaned[name])
                else:  # a whole number (the field says so first) that no deal can score
                    self.add_error(name, _impossible(player, number, cleaned[name]))
            total = cleaned.get(total_field(seat))
            if total is None or len(rounds) != ROUNDS_PER_GAME:
                continue  # nothing to check it against yet
            if total_problem(player, total, rounds) is not None:
                self.add_error(total_field(seat), _wrong_total(player, total, rounds))
        return cleaned

    def scores(self) -> dict[str, list[int]]:
        return {
            player: [self.cleaned_data[score_field(seat, n)] for n in range(1, ROUNDS_PER_GAME + 1)]
            for seat, player in enumerate(self.players)
        }

    def totals(self) -> dict[str, int] | None:
        """The sheet's totals when it gave one for every player, else None (those given were
        checked against their rounds by :meth:`clean`)."""
        given = {
            player: self.cleaned_data[total_field(seat)]
            for seat, player in enumerate(self.players)
            if self.cleaned_data.get(total_field(seat)) is not None
        }
        return given if len(given) == len(self.players) else None

    @property
    def cells(self) -> frozenset[str]:
        """The names of the sheet's fields (the scores and the totals)."""
        return frozenset(name for name in self.fields if name not in ActionForm.base_fields)

    def field_errors(self) -> dict[str, list[str]]:
        """Each field's errors, by field name."""
        return {name: [str(e) for e in self.errors.get(name, [])] for name in self.errors}

    def messages(self) -> list[str]:
        """Every field error, in plain words, in the order of the sheet."""
        found: list[str] = []
        for name in self.fields:
            for error in self.errors.get(name, []):
                found.append(str(error))
        found.extend(str(e) for e in self.non_field_errors())
        return found


# The engine decides (engine/tricknchef/results.py; the API says it in the rulebook's words,
# "round": games.refusals); the form says it in the table page's words, where a game's rounds are
# its three deals (the tournament has rounds of its own).


def _impossible(player: str, number: int, points: int) -> str:
    return _(
        "%(player)s's deal %(deal)s score of %(points)s is impossible (a deal scores 0 to %(max)s)"
    ) % {"player": player, "deal": number, "points": points, "max": MAX_ROUND_SCORE}


def _wrong_total(player: str, total: int, deals: Sequence[int]) -> str:
    return _("%(player)s's total is %(total)s, but the deals add up to %(added)s = %(sum)s") % {
        "player": player,
        "total": total,
        "added": " + ".join(str(s) for s in deals),
        "sum": sum(deals),
    }


def score_field(seat: int, round_number: int) -> str:
    return f"score-{seat}-{round_number}"


def total_field(seat: int) -> str:
    return f"total-{seat}"
