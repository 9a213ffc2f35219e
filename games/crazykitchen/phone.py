"""Crazy Kitchen's seat-phone panel (games.phone.panel.Panel; docs/scorekeeping.md, "Crazy Kitchen
on the phones"): one phone per team, its head chef's (CK1.5; the game type's ``phone_seats``).
The cooks' phone enters each order of the round as the customers check it (fulfilled, with its
victory points, or failed, with its penalty) and may strike one entered by mistake; the
customers' phone confirms the round or returns it to the cooks; after rounds 2 and 4 each team's
phone buys its upgrades within its budget, the team behind first, then says it is done.

Pure presentation: the moves it offers are the ones the referee (engine.crazykitchen.referee)
accepts now, computed from the same state (the budget left, a tool's last number crossed).
Nothing in a Crazy Kitchen game is secret: both phones see the whole scoreboard.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from engine.crazykitchen.events import V2_TYPES
from engine.crazykitchen.referee import expected_cooks, expected_customers, upgrade_at, upgrading
from engine.crazykitchen.rules import ORDER_CARDS, TOOLS
from engine.crazykitchen.state import KitchenState
from games.crazykitchen.words import event_words, tool_name
from games.phone.panel import Append, Panel, SeatNow, Shown, Tap

POINTS: tuple[int, ...] = tuple(range(1, 9))
"""The victory points the order buttons offer (the order cards' values)."""
PENALTIES: tuple[int, ...] = tuple(range(1, 6))
"""The penalties they offer (an order card's -1 to -5)."""
COSTS_SHOWN = 6
"""At most this many cost buttons per tool or card (from the lowest the referee accepts)."""


@dataclass(frozen=True, slots=True)
class OrderLine:
    number: int
    fulfilled: bool
    value: int
    words: str


@dataclass(frozen=True, slots=True)
class Buy:
    """One upgrade the phone offers: its button's value (``tool:oven:3``, ``card:2``)."""

    value: str
    cost: int


@dataclass(frozen=True, slots=True)
class BuyRow:
    label: str
    buys: list[Buy]


@dataclass(frozen=True, slots=True)
class TeamLine:
    team: str
    head_chef: str
    players: str
    points: int
    total: int
    role: str
    """What the team does now, in words ("cooks", "customers", "upgrades", "")."""


def _kitchen(now: SeatNow) -> KitchenState:
    kitchen: KitchenState = now.state.state  # the engine's, in the game type's EngineState
    return kitchen


def _costs(least: int, left: int) -> list[int]:
    return list(range(max(1, least), left + 1))[:COSTS_SHOWN]


def _orders(kitchen: KitchenState) -> list[OrderLine]:
    out = []
    for number, (kind, value) in enumerate(kitchen.orders, start=1):
        fulfilled = kind == "fulfilled"
        words = (
            _("order %(number)s: fulfilled, %(points)s points")
            % {"number": number, "points": value}
            if fulfilled
            else _("order %(number)s: failed, penalty %(penalty)s")
            % {"number": number, "penalty": value}
        )
        out.append(OrderLine(number, fulfilled, value, words))
    return out


def _teams(kitchen: KitchenState, now: SeatNow) -> list[TeamLine]:
    summary = now.game.summary or {}
    totals = kitchen.totals()
    cooks = customers = upgrader = ""
    if not kitchen.over:
        upgrader = upgrading(kitchen) or ""
        if not upgrader:
            cooks, customers = expected_cooks(kitchen), expected_customers(kitchen)
    roles = {cooks: _("cooks"), customers: _("customers"), upgrader: _("upgrades")}
    return [
        TeamLine(
            team=team["name"],
            head_chef=team.get("head_chef") or "",
            players=", ".join(team["players"]),
            points=kitchen.points.get(team["name"], 0),
            total=totals.get(team["name"], 0),
            role=roles.get(team["name"], ""),
        )
        for team in summary.get("teams", ())
    ]


class KitchenPanel:
    template = "crazykitchen/phone.html"
    seat_plays = V2_TYPES

    def view(self, now: SeatNow) -> Shown:
        kitchen = _kitchen(now)
        summary = now.game.summary or {}
        me = now.focus.player
        table: dict[str, Any] = {
            "teams": _teams(kitchen, now),
            "rounds": summary.get("rounds") or [],
            "orders": _orders(kitchen),
            "bought": [
                (u["after_round"], b["team"], _bought_words(b), b["cost"])
                for u in summary.get("upgrades") or []
                for b in u.get("bought", ())
            ],
            "round": len(kitchen.rounds) + (0 if kitchen.over else 1),
        }
        if now.closed:
            return Shown(headline=now.closed, panel=table)
        if kitchen.version != 2:
            return Shown(
                headline=_(
                    "This game's record is version 1: its scorekeeper enters each round's result"
                ),
                panel=table,
            )
        if kitchen.over:
            ranking = summary.get("ranking") or []
            winners = [r["team"] for r in ranking if r["rank"] == 1]
            headline = (
                _("A draw: %(teams)s") % {"teams": " & ".join(winners)}
                if len(winners) > 1
                else _("Won by %(team)s") % {"team": winners[0] if winners else ""}
            )
            return Shown(headline=headline, panel={**table, "final": ranking}, phase="over")
        after, upgrader = kitchen.at_break, upgrading(kitchen)
        if after is not None and upgrader is not None:
            return self._break(kitchen, table, me, after, upgrader)
        return self._round(kitchen, table, me)

    def _round(self, kitchen: KitchenState, table: dict[str, Any], me: str) -> Shown:
        number = len(kitchen.rounds) + 1
        cooks = expected_cooks(kitchen)
        if me == cooks:
            headline = (
                _("Round %(round)s: the customers returned the orders: correct them")
                if kitchen.returned
                else _("Round %(round)s: you cook: enter each order as the customers check it")
            ) % {"round": number}
            room = len(kitchen.orders) < ORDER_CARDS
            return Shown(
                headline=headline,
                panel={
                    **table,
                    "cooks": True,
                    "points": POINTS if room else (),
                    "penalties": PENALTIES if room else (),
                },
                phase="orders",
                round=number,
                waiting_for=None,
            )
        if kitchen.returned:
            return Shown(
                headline=_("Round %(round)s: the cooks correct their orders") % {"round": number},
                waiting_for=cooks,
                panel=table,
                phase="orders",
                round=number,
            )
        return Shown(
            headline=_(
                "Round %(round)s: check %(team)s's orders; when time runs out, confirm the round"
            )
            % {"round": number, "team": cooks},
            panel={**table, "customers": True},
            phase="orders",
            round=number,
        )

    def _break(
        self, kitchen: KitchenState, table: dict[str, Any], me: str, after: int, team: str
    ) -> Shown:
        limit = upgrade_at(kitchen, after).limits[team]
        spent = kitchen.spent(after, team)
        if me != team:
            return Shown(
                headline=_("After round %(round)s: %(team)s upgrade first")
                % {"round": after, "team": team},
                waiting_for=team,
                panel=table,
                phase="upgrades",
                round=after,
            )
        left = limit - spent
        rows = []
        for tool in TOOLS:
            crossed = [b.cost for b in kitchen.bought if b.kind == "tool" and b.tool == tool]
            buys = [Buy(f"tool:{tool}:{c}", c) for c in _costs(crossed[-1] if crossed else 1, left)]
            if buys:
                rows.append(BuyRow(_("Speed up the %(tool)s") % {"tool": tool_name(tool)}, buys))
        cards = [Buy(f"card:{c}", c) for c in _costs(1, left)]
        if cards:
            rows.append(BuyRow(_("A one-time improvement card"), cards))
        return Shown(
            headline=_(
                "After round %(round)s: upgrade for up to %(limit)s victory points "
                "(%(spent)s spent)"
            )
            % {"round": after, "limit": limit, "spent": spent},
            panel={**table, "upgrading": True, "upgrade": rows, "left": left},
            phase="upgrades",
            round=after,
        )

    # --------------------------------------------------------------------- the taps

    def order(self, tap: Tap) -> Append | None:
        value, kind = tap.int("value"), tap.text("kind")
        if value is None or kind not in ("fulfilled", "failed"):
            return None
        if kind == "fulfilled":
            return Append([{"type": "order_fulfilled", "team": tap.player, "points": value}])
        return Append([{"type": "order_failed", "team": tap.player, "penalty": value}])

    def strike(self, tap: Tap) -> Append | None:
        number = tap.int("order")
        if number is None:
            return None
        return Append([{"type": "order_struck", "team": tap.player, "order": number}])

    def confirm(self, tap: Tap) -> Append | None:
        return Append([{"type": "round_confirmed", "team": tap.player}])

    def give_back(self, tap: Tap) -> Append | None:
        return Append([{"type": "round_returned", "team": tap.player}])

    def buy(self, tap: Tap) -> Append | None:
        parts = tap.text("buy").split(":")
        try:
            cost = int(parts[-1])
        except ValueError:
            return None
        if parts[0] == "tool" and len(parts) == 3:
            return Append(
                [{"type": "tool_sped_up", "team": tap.player, "tool": parts[1], "cost": cost}]
            )
        if parts[0] == "card" and len(parts) == 2:
            return Append([{"type": "card_taken", "team": tap.player, "cost": cost}])
        return None

    def done(self, tap: Tap) -> Append | None:
        return Append([{"type": "upgrades_done", "team": tap.player}])

    actions = {
        "order": order,
        "strike": strike,
        "confirm": confirm,
        "return": give_back,
        "buy": buy,
        "done": done,
    }

    def tap_words(self, event: Mapping[str, Any]) -> str:
        return event_words(event)

    def texts(self) -> dict[str, str]:
        return {}


def _bought_words(bought: Mapping[str, Any]) -> str:
    if bought["kind"] == "tool":
        return _("the %(tool)s sped up") % {"tool": tool_name(bought["tool"])}
    return _("a one-time card")


PANEL: Panel = KitchenPanel()
