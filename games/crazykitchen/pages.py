"""Crazy Kitchen's pages (docs/crazykitchen-rules.md): the two teams, the six rounds (which team
cooks each), the smaller team's compensation and the upgrades after rounds 2 and 4 (the engine
summary's ``upgrades``); the results-only form (the six round scores from the scoreboard), play
by play (each round's fulfilled orders and penalties: the engine computes the score) and the
score sheet."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from engine.crazykitchen.referee import expected_cooks, expected_customers, upgrade_at, upgrading
from engine.crazykitchen.rules import ROUNDS, TOOLS, cooks_in, round_score
from engine.crazykitchen.state import KitchenState
from games.crazykitchen.words import event_words, tool_name
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
    whole_numbers,
)
from games.words import clause_list, word_list


def _cooks(kitchen: KitchenState, number: int) -> str:
    first, second = kitchen.names
    other = second if kitchen.cooks_first == first else first
    return cooks_in(number, kitchen.cooks_first, other)


def _numbers(values: Sequence[int] | None) -> str:
    if values is None:
        return "–"
    return " ".join(str(v) for v in values) or "–"


class KitchenResults(ResultsForm):
    """The six round scores from the scoreboard, and the compensation if it differs."""

    def __init__(self, data: QueryDict | None, *, kitchen: KitchenState) -> None:
        super().__init__(data)
        for number in range(1, ROUNDS + 1):
            team = _cooks(kitchen, number)
            self.fields[f"round-{number}"] = score_field(
                _("Round %(round)s (%(team)s cooks)") % {"round": number, "team": team},
                _("Round %(round)s's score is missing") % {"round": number},
                _("Round %(round)s's score must be a whole number") % {"round": number},
                _("Round %(round)s's score must be 0 or more (0 when the penalties are more)")
                % {"round": number},
            )
        if kitchen.compensated is not None:
            self.fields["compensation"] = forms.IntegerField(
                label=_("Compensation of %(team)s") % {"team": kitchen.compensated},
                required=False,
                min_value=0,
                initial=kitchen.compensation,
                help_text=_("Leave it as it is unless the organizer set another."),
                error_messages={
                    "invalid": _("The compensation must be a whole number"),
                    "min_value": _("The compensation must be 0 or more"),
                },
                widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 3}),
            )

    def entry(self) -> dict[str, Any]:
        data = self.cleaned_data
        entry: dict[str, Any] = {"scores": [data[f"round-{n}"] for n in range(1, ROUNDS + 1)]}
        if data.get("compensation") is not None:
            entry["compensation"] = data["compensation"]
        return entry

    def values(self, entry: Mapping[str, Any]) -> dict[str, Any]:
        values: dict[str, Any] = {
            f"round-{n}": points for n, points in enumerate(entry.get("scores") or (), start=1)
        }
        if "compensation" in self.fields and entry.get("compensation") is not None:
            values["compensation"] = entry["compensation"]
        return values


class KitchenPresenter:
    key = "crazy-kitchen"
    template = "crazykitchen/table.html"

    def turn(self, state: EngineState, summary: Mapping[str, Any]) -> tuple[str, str]:
        kitchen: KitchenState = state.state
        if kitchen.over:
            return _("The game is over"), _("See the ranking below.")
        number = len(kitchen.rounds) + 1
        if kitchen.version == 2:
            return _v2_turn(kitchen)
        return (
            _("Round %(round)s: %(team)s cooks")
            % {"round": number, "team": expected_cooks(kitchen)},
            _(
                "Enter the values of the orders fulfilled and the penalties: the score is worked "
                "out for you."
            ),
        )

    def describe(self, event: Mapping[str, Any]) -> str:
        if event.get("type") == "game_started":
            teams = clause_list(f"{t['name']} ({word_list(t['players'])})" for t in event["teams"])
            return _("The game starts: %(teams)s.") % {"teams": teams}
        if event.get("type") != "round_scored":
            return event_words(event)
        return _(
            "Round %(round)s: %(team)s cooked: orders %(fulfilled)s, penalties %(penalties)s, "
            "score %(score)s."
        ) % {
            "round": event.get("round"),
            "team": event.get("cooks"),
            "fulfilled": _numbers(event.get("fulfilled")),
            "penalties": _numbers(event.get("penalties")),
            "score": event.get("score"),
        }

    def points_words(self, points: int) -> str:
        return ngettext("%(count)s point", "%(count)s points", points) % {"count": points}

    def state_tables(self, state: EngineState, summary: Mapping[str, Any]) -> list[StateTable]:
        if not summary.get("teams"):
            return []
        return self._tables(summary)

    def result_tables(self, summary: Mapping[str, Any]) -> list[StateTable]:
        return self._tables(summary)

    def _tables(self, summary: Mapping[str, Any]) -> list[StateTable]:
        compensation = summary.get("compensation") or {}
        points = summary.get("points") or {}
        totals = summary.get("totals") or {}
        teams = [
            (
                t["name"],
                word_list(t["players"]),
                str(points.get(t["name"], 0)),
                str(compensation.get("points", 0))
                if compensation.get("team") == t["name"]
                else "–",
                str(totals.get(t["name"], 0)),
            )
            for t in summary.get("teams", [])
        ]
        tables = [
            StateTable(
                caption=_("Teams"),
                columns=(_("Team"), _("Players"), _("Points"), _("Compensation"), _("Total")),
                rows=tuple(teams),
            )
        ]
        rounds = summary.get("rounds") or []
        if rounds:
            tables.append(
                StateTable(
                    caption=_("Rounds"),
                    columns=(
                        _("Round"),
                        _("Cooks"),
                        _("Orders fulfilled"),
                        _("Penalties"),
                        _("Score"),
                    ),
                    rows=tuple(
                        (
                            str(r["round"]),
                            r["cooks"],
                            _numbers(r["fulfilled"]),
                            _numbers(r["penalties"]),
                            str(r["score"]),
                        )
                        for r in rounds
                    ),
                )
            )
        current = summary.get("current")
        if current and current["orders"]:
            tables.append(
                StateTable(
                    caption=_("Round %(round)s's orders so far") % {"round": current["round"]},
                    columns=(_("Order"), _("Fulfilled"), _("Penalty")),
                    rows=tuple(
                        (
                            str(n),
                            str(o["value"]) if o["kind"] == "fulfilled" else "–",
                            str(o["value"]) if o["kind"] == "failed" else "–",
                        )
                        for n, o in enumerate(current["orders"], start=1)
                    ),
                )
            )
        upgrades = summary.get("upgrades") or []
        bought = [(u["after_round"], b) for u in upgrades for b in u.get("bought", ())]
        if bought:
            tables.append(
                StateTable(
                    caption=_("Upgrades bought"),
                    columns=(_("After round"), _("Team"), _("Upgrade"), _("Cost")),
                    rows=tuple(
                        (
                            str(after),
                            b["team"],
                            tool_name(b["tool"]) if b["kind"] == "tool" else _("one-time card"),
                            str(b["cost"]),
                        )
                        for after, b in bought
                    ),
                )
            )
        if upgrades:
            tables.append(
                StateTable(
                    caption=_("Upgrades"),
                    columns=(_("After round"), _("Points over the two rounds"), _("Upgrades")),
                    rows=tuple(
                        (
                            str(u["after_round"]),
                            word_list(f"{team} {n}" for team, n in u["points"].items()),
                            clause_list(
                                _("%(team)s up to %(limit)s")
                                % {"team": team, "limit": u["limits"][team]}
                                for team in u["order"]
                            ),
                        )
                        for u in upgrades
                    ),
                )
            )
        return tables

    def controls(
        self, state: EngineState, keep: Mapping[str, Any], first_player: str | None
    ) -> Controls | None:
        kitchen: KitchenState = state.state
        if kitchen.over or not kitchen.started:
            return None
        if kitchen.version == 2:
            return _v2_controls(kitchen, keep)
        number = len(kitchen.rounds) + 1
        return Controls(
            title=_("Round %(round)s: %(team)s cooks")
            % {"round": number, "team": expected_cooks(kitchen)},
            form="round",
            data={
                "round": number,
                "fulfilled": keep.get("fulfilled", ""),
                "penalties": keep.get("penalties", ""),
            },
        )

    def event_from_post(self, state: EngineState, post: QueryDict) -> dict[str, Any]:
        kitchen: KitchenState = state.state
        if kitchen.over or not kitchen.started:
            raise EntryProblem(_("The game is over: nothing more can be recorded."))
        if kitchen.version == 2:
            return _v2_event(kitchen, post)
        fulfilled = whole_numbers(post.get("fulfilled", ""), _("Orders fulfilled"))
        penalties = whole_numbers(post.get("penalties", ""), _("Penalties"))
        return {
            "type": "round_scored",
            "round": len(kitchen.rounds) + 1,
            "cooks": expected_cooks(kitchen),
            "fulfilled": list(fulfilled),
            "penalties": list(penalties),
            "score": round_score(fulfilled, penalties),
        }

    def results_form(
        self, state: EngineState, players: Sequence[str], data: QueryDict | None
    ) -> ResultsForm:
        return KitchenResults(data, kitchen=state.state)

    def results_intro(self, state: EngineState, players: Sequence[str]) -> dict[str, Any]:
        kitchen: KitchenState = state.state
        lines = [
            _("%(team)s: %(players)s") % {"team": name, "players": word_list(members)}
            for name, members in kitchen.teams
        ]
        if kitchen.compensated is not None:
            lines.append(
                _("%(team)s, the smaller team, gets %(points)s points of compensation.")
                % {"team": kitchen.compensated, "points": kitchen.compensation}
            )
        return {
            "text": _("Each round's score from the scoreboard (the teams take turns to cook)."),
            "lines": lines,
        }

    def sheet(self, names: Sequence[str]) -> SheetLayout:
        first, second = (list(names) + ["", ""])[:2]
        return SheetLayout(
            boxes=(
                _("Compensation"),
                _("Total"),
                pgettext("finishing place at a table", "Place"),
            ),
            rounds=tuple(
                _("Round %(round)s · %(team)s cooks")
                % {"round": n, "team": cooks_in(n, first, second)}
                for n in range(1, ROUNDS + 1)
            ),
            round_boxes=(_("Orders fulfilled"), _("Penalties"), _("Score")),
            note=_(
                "Score = orders fulfilled minus penalties, never below 0. The smaller team's "
                "compensation goes into its total."
            ),
        )


PAGES = PresenterPages(KitchenPresenter())


# ----------------------------------------------------------------------------- record v2


def _v2_turn(kitchen: KitchenState) -> tuple[str, str]:
    after, team = kitchen.at_break, upgrading(kitchen)
    if after is not None and team is not None:
        limit = upgrade_at(kitchen, after).limits[team]
        return (
            _("After round %(round)s: %(team)s upgrade") % {"round": after, "team": team},
            _("Up to %(limit)s victory points (%(spent)s spent), then “done”.")
            % {"limit": limit, "spent": kitchen.spent(after, team)},
        )
    number = len(kitchen.rounds) + 1
    values = {
        "round": number,
        "cooks": expected_cooks(kitchen),
        "customers": expected_customers(kitchen),
    }
    if kitchen.returned:
        return (
            _("Round %(round)s: %(customers)s returned the orders to %(cooks)s") % values,
            _("The cooks correct the orders (enter or strike one), then the customers confirm."),
        )
    return (
        _("Round %(round)s: %(cooks)s cook, %(customers)s check the orders") % values,
        _(
            "Enter each order as the customers check it; when time runs out, the customers "
            "confirm the round."
        ),
    )


def _button(label: str, event: Mapping[str, Any], group: str) -> Control:
    return Control(label, json.dumps(dict(event), separators=(",", ":")), group)


def _v2_controls(kitchen: KitchenState, keep: Mapping[str, Any]) -> Controls:
    after, team = kitchen.at_break, upgrading(kitchen)
    if after is not None and team is not None:
        limit = upgrade_at(kitchen, after).limits[team]
        return Controls(
            title=_("After round %(round)s: %(team)s upgrade") % {"round": after, "team": team},
            form="upgrade",
            data={
                "team": team,
                "left": limit - kitchen.spent(after, team),
                "tools": [(code, tool_name(code)) for code in TOOLS],
                "cost": keep.get("cost", ""),
            },
            buttons=[
                _button(
                    _("%(team)s: done upgrading") % {"team": team},
                    {"type": "upgrades_done", "team": team},
                    _("When the team has bought all it wants"),
                )
            ],
        )
    number = len(kitchen.rounds) + 1
    cooks, customers = expected_cooks(kitchen), expected_customers(kitchen)
    buttons = [
        _button(
            _("Strike order %(order)s") % {"order": n},
            {"type": "order_struck", "team": cooks, "order": n},
            _("An order entered by mistake"),
        )
        for n in range(1, len(kitchen.orders) + 1)
    ]
    if not kitchen.returned:
        group = _("The customers (%(team)s)") % {"team": customers}
        buttons += [
            _button(
                _("Confirm round %(round)s") % {"round": number},
                {"type": "round_confirmed", "team": customers},
                group,
            ),
            _button(
                _("Return the round to the cooks"),
                {"type": "round_returned", "team": customers},
                group,
            ),
        ]
    return Controls(
        title=_("Round %(round)s: %(team)s cooks") % {"round": number, "team": cooks},
        form="order",
        data={"round": number, "team": cooks, "value": keep.get("value", "")},
        buttons=buttons,
    )


def _whole(text: str, what: str) -> int:
    if not text.strip().isdigit():
        raise EntryProblem(_("%(what)s: write a whole number, such as 3.") % {"what": what})
    return int(text)


def _v2_event(kitchen: KitchenState, post: QueryDict) -> dict[str, Any]:
    """The order form's (a value, fulfilled or failed) or the upgrade form's (a tool or a
    one-time card, its cost) event; the buttons post their events as they are."""
    after, team = kitchen.at_break, upgrading(kitchen)
    if after is not None and team is not None:
        cost = _whole(str(post.get("cost", "")), _("Cost"))
        what = str(post.get("upgrade", ""))
        if what == "card":
            return {"type": "card_taken", "team": team, "cost": cost}
        return {"type": "tool_sped_up", "team": team, "tool": what, "cost": cost}
    cooks = expected_cooks(kitchen)
    value = _whole(str(post.get("value", "")), _("Order's value"))
    if post.get("kind") == "failed":
        return {"type": "order_failed", "team": cooks, "penalty": value}
    return {"type": "order_fulfilled", "team": cooks, "points": value}
