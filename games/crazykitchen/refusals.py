"""Crazy Kitchen's refusals in the reader's language (engine.crazykitchen's codes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from games.crazykitchen.words import tool_name
from games.refusals import (
    SHARED,
    Namer,
    Sentence,
    simple,
)


def _ck_out_of_order(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p["rule"] == "upgrades":
        return gettext(
            "the teams upgrade after round %(round)s: the next round starts when both are done"
        ) % {"round": p["round"]}
    return {
        "started": gettext("the game has already started"),
        "game_started": gettext("a record starts with game_started"),
        "no_upgrades": gettext("the teams upgrade after rounds 2 and 4, between the rounds"),
    }.get(p["rule"])


def _ck_wrong_version(p: Mapping[str, Any], namer: Namer) -> str | None:
    rule = p["rule"]
    if rule == "unknown":
        return gettext(
            "this site reads Crazy Kitchen records v1 (no version) and v2, not %(got)s"
        ) % {"got": p["got"]}
    if rule == "v2_event":
        return gettext("%(type)s is a v2 event: this record is v1 (round_scored only)") % {
            "type": p["type"]
        }
    if rule == "round_scored":
        return gettext(
            "a v2 record enters each order and the customers' confirmation, not round_scored"
        )
    return None


def _ck_wrong_team(p: Mapping[str, Any], namer: Namer) -> str | None:
    team = {"team": p["team"]}
    return {
        "cooks": gettext("%(team)s cook this round: their head chef's phone enters the orders")
        % team,
        "customers": gettext(
            "%(team)s are this round's customers: their head chef's phone confirms or returns "
            "the round"
        )
        % team,
        "upgrades": gettext(
            "%(team)s upgrade now: the team with fewer points over the two rounds upgrades first"
        )
        % team,
    }.get(p["rule"])


def _ck_bad_cost(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p["rule"] == "positive":
        return gettext("an upgrade costs 1 or more, not %(got)s") % {"got": p["got"]}
    if p["rule"] == "crossed":
        return gettext(
            "the %(tool)s's lowest uncrossed number is %(least)s or more, not %(got)s"
        ) % {"tool": tool_name(p["tool"]), "least": p["least"], "got": p["got"]}
    return None


def _ck_unknown_tool(p: Mapping[str, Any], namer: Namer) -> str:
    known = ", ".join(tool_name(t) for t in p["known"])
    return gettext('"%(tool)s" is not a tool on the scoreboard (%(known)s)') % {
        "tool": p["tool"],
        "known": known,
    }


def _ck_bad_teams(p: Mapping[str, Any], namer: Namer) -> str | None:
    rule = p["rule"]
    if rule == "count":
        return gettext("the players form two teams, not %(count)s") % {"count": p["count"]}
    if rule == "team_size":
        return gettext(
            "each team needs at least %(min)s players: an order is checked by a customer who "
            "does not hold the order token"
        ) % {"min": p["min"]}
    if rule == "uneven":
        first, second = p["sizes"]
        return gettext(
            "divide the players into two teams of equal size (one more on one side with an odd "
            "number of players), not %(first)s and %(second)s"
        ) % {"first": first, "second": second}
    if rule == "head_chef":
        return gettext('the head chef "%(player)s" is not one of %(team)s\'s players') % {
            "player": p["player"],
            "team": p["team"],
        }
    if rule == "players":
        return gettext(
            "Crazy Kitchen is refereed for %(min)s to %(max)s players, not %(count)s"
        ) % {"min": p["min"], "max": p["max"], "count": p["count"]}
    return {
        "team_names": gettext("each team needs a name of its own"),
        "empty_name": gettext("every player needs a name"),
        "player_twice": gettext("a player appears twice: each plays in one team"),
        "team_shape": gettext('a team is {"name": ..., "players": [names]}'),
    }.get(rule)


def _ck_bad_compensation(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p["rule"] == "negative":
        return gettext("compensation is 0 or more victory points, not %(got)s") % {"got": p["got"]}
    return {
        "even_teams": gettext(
            "compensation is only for the smaller team when the number of players is odd"
        ),
        "number": gettext("compensation is a whole number of points"),
    }.get(p["rule"])


def _ck_wrong_score(p: Mapping[str, Any], namer: Namer) -> str | None:
    values = {k: p[k] for k in ("gained", "lost", "net", "score", "got")}
    if p["rule"] == "sum":
        return (
            gettext(
                "the cooks receive %(gained)s - %(lost)s = %(net)s victory points: the score is "
                "%(score)s, not %(got)s"
            )
            % values
        )
    if p["rule"] == "penalties_more":
        return (
            gettext(
                "the cooks receive %(gained)s - %(lost)s = %(net)s victory points, and 0 is "
                "written when the penalties are more: the score is %(score)s, not %(got)s"
            )
            % values
        )
    return None


def _ck_bad_results(p: Mapping[str, Any], namer: Namer) -> str | None:
    rule = p["rule"]
    if rule == "rounds":
        return gettext("the game has %(rounds)s rounds: one score for each") % {
            "rounds": p["rounds"]
        }
    if rule == "score":
        return gettext(
            "round %(round)s's score must be a whole number of victory points, 0 or more (0 is "
            "written when the penalties are more)"
        ) % {"round": p["round"]}
    return {
        "shape": gettext(
            'a results entry is {"cooks_first": team, "scores": [six round scores]} with an '
            'optional "compensation"'
        ),
        "cooks_first": gettext("cooks_first names the team that cooked in round 1"),
        "not_started": gettext("the game must be started before its results"),
    }.get(rule)


SENTENCES: dict[str, Sentence] = {
    **SHARED,
    "game_over": simple(lambda: gettext("the game is over: it lasts six rounds")),
    "out_of_order": _ck_out_of_order,
    "bad_teams": _ck_bad_teams,
    "unknown_team": simple(lambda: gettext('"%(team)s" is not a team in this game'), "team"),
    "bad_compensation": _ck_bad_compensation,
    "wrong_cooks": simple(
        lambda: gettext(
            "%(team)s cook in round %(round)s: the teams swap cooks and customers every round"
        ),
        "team",
        "round",
    ),
    "bad_order_value": simple(
        lambda: gettext("a fulfilled order is worth 1 or more victory points")
    ),
    "bad_penalty": simple(
        lambda: gettext(
            "a penalty is written as the positive number of penalty points on the order "
            "card (2 for a -2 order), 1 or more"
        )
    ),
    "too_many_orders": simple(
        lambda: gettext("there are only %(count)s order cards in the game"), "count"
    ),
    "wrong_score": _ck_wrong_score,
    "bad_results": _ck_bad_results,
    "wrong_version": _ck_wrong_version,
    "wrong_team": _ck_wrong_team,
    "returned": simple(
        lambda: gettext(
            "the round was returned: the cooks correct its orders before the customers confirm "
            "or return it again"
        )
    ),
    "no_such_order": simple(
        lambda: gettext("there is no order %(order)s: %(count)s entered this round"),
        "order",
        "count",
    ),
    "unknown_tool": _ck_unknown_tool,
    "bad_cost": _ck_bad_cost,
    "over_budget": simple(
        lambda: gettext(
            "%(team)s upgrade for up to %(limit)s victory points after round %(round)s: "
            "%(spent)s spent, %(cost)s more is over"
        ),
        "team",
        "limit",
        "round",
        "spent",
        "cost",
    ),
}
"""Crazy Kitchen's codes and their sentences."""
