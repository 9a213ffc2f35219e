"""Food Truck's refusals in the reader's language (engine.foodtruck's codes). Dishes and Company
effects are record codes, named as the record names them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from games.refusals import (
    SHARED,
    Namer,
    Sentence,
    field_event,
    names,
)


def _ft_game_over(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext("the game is over (%(winner)s has won); nothing may follow, got %(got)s") % {
        "winner": p["winner"],
        "got": p["got"],
    }


def _ft_out_of_order(p: Mapping[str, Any], namer: Namer) -> str | None:
    text = {
        "game_started": gettext("a record starts with game_started, not %(got)s"),
        "round_started": gettext("round %(round)s must start now (round_started), not %(got)s"),
        "market_pick": gettext(
            "%(player)s was eliminated and must take a card from the market now, not %(got)s"
        ),
        "turn": gettext("it is %(player)s's turn to turn over a dish, not %(got)s"),
    }.get(p["rule"])
    return None if text is None else text % {k: p[k] for k in ("round", "player", "got")}


def _ft_wrong_turn(p: Mapping[str, Any], namer: Namer) -> str | None:
    text = {
        "eliminated": gettext(
            "%(player)s is eliminated from this round and has no turn until the next"
        ),
        "turn": gettext("it is %(expected)s's turn, not %(player)s's"),
        "served": gettext("%(player)s has served this turn; it is %(expected)s's turn"),
    }.get(p["rule"])
    return None if text is None else text % {"player": p["player"], "expected": p.get("expected")}


def _ft_not_on_top(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p["rule"] == "swapped":
        return gettext(
            "%(player)s swapped for the market's %(must_play)s and must play it now, not %(dish)s"
        ) % {"player": p["player"], "must_play": p["must_play"], "dish": p["dish"]}
    if p["rule"] == "under":
        return gettext(
            "%(player)s's %(dish)s was put under their pile and other dishes lie above it: it "
            "is not the dish on top"
        ) % {"player": p["player"], "dish": p["dish"]}
    return None


def _ft_pile_empty(p: Mapping[str, Any], namer: Namer) -> str | None:
    text = {
        "swap": gettext(
            "%(player)s's pile is empty: there is no dish to swap (a player who cannot turn a "
            "dish over is eliminated: enter their market_taken)"
        ),
        "under": gettext(
            "%(player)s's pile is empty: there is no dish to put under the pile (a player who "
            "cannot turn a dish over is eliminated: enter their market_taken)"
        ),
        "turn_over": gettext(
            "%(player)s's pile is empty: there is no dish to turn over (a player who cannot "
            "turn a dish over is eliminated: enter their market_taken)"
        ),
        "copy": gettext("%(player)s's pile is empty: there is no dish to copy"),
    }.get(p["rule"])
    return None if text is None else text % {"player": p["player"]}


def _ft_bad_players(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p["rule"] == "count":
        return gettext("Food Truck is played by 2 to 5 players, not %(count)s") % {
            "count": p["count"]
        }
    if p["rule"] == "empty_name":
        return gettext("every player needs a name (an empty name was given)")
    if p["rule"] == "seated_twice":
        return gettext("%(players)s is seated twice") % {"players": names(p["players"])}
    return None


def _ft_bad_first_player(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext(
        "%(marker)s holds the first-player marker (the first eliminated last round) and starts "
        "round %(round)s, not %(player)s"
    ) % {"marker": p["marker"], "round": p["round"], "player": p["player"]}


def _ft_bad_market(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p["rule"] == "size":
        return gettext("the market is as many dish cards as players: %(expected)s, not %(got)s") % {
            "expected": p["expected"],
            "got": p["got"],
        }
    if p["rule"] == "dessert":
        return gettext("desserts are never in the market: the unused ones went back to the box")
    return None


def _ft_bad_company(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p["rule"] == "repeated":
        return gettext(
            "%(player)s already turned over their %(effect)s card since their Company pile was "
            "last shuffled: each of the five cards comes once before the pile is shuffled again"
        ) % {"player": p["player"], "effect": p["effect"]}
    if p["rule"] == "missing":
        return gettext("every player turns over a Company card: none given for %(players)s") % {
            "players": names(p["players"])
        }
    return None


def _ft_company_used(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext("%(player)s has already played their Company card this round") % {
        "player": p["player"]
    }


def _ft_wrong_effect(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext("%(player)s's Company card this round is %(effect)s, not %(got)s") % {
        "player": p["player"],
        "effect": p["effect"],
        "got": p["got"],
    }


def _ft_effect_not_now(p: Mapping[str, Any], namer: Namer) -> str:
    if p.get("rule") == "refused":  # FT6.7: after a refused dish
        text = gettext(
            "%(player)s has already had their dish refused this turn: %(effect)s acts on the "
            "dish you must play, so it is played before the dish is turned over"
        )
    else:
        text = gettext(
            "%(player)s has already served their dish this turn: %(effect)s acts on the dish "
            "you must play, so it is played before the dish is turned over"
        )
    return text % {"player": p["player"], "effect": p["effect"]}


def _ft_wrong_chooser(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext(
        "%(target)s chooses which of their own dishes goes under their pile (the player of "
        "your choice places one of their cards), not %(chooser)s"
    ) % {"target": p["target"], "chooser": p["chooser"]}


def _ft_bad_event(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p.get("rule") == "version":  # record format v2's game_started
        return gettext(
            '"version" must be 2 (a version 1 record has no "version" field), not %(got)s'
        ) % {"got": p["got"]}
    return field_event(p, namer)


def _ft_not_removable(p: Mapping[str, Any], namer: Namer) -> str | None:
    values = {"target": p["target"], "dish": p["dish"]}
    if p["rule"] == "not_served":
        return gettext("%(target)s has no %(dish)s served in front of them") % values
    if p["rule"] == "stacked":
        return (
            gettext(
                "%(target)s's %(dish)s is in a stack: only a visible dish that is not in a stack "
                "may be put under the pile"
            )
            % values
        )
    return None


def _ft_dish_not_in_market(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext("there is no %(dish)s in the market") % {"dish": p["dish"]}


def _ft_dish_not_in_pile(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext("%(player)s has no %(dish)s in their pile") % {
        "player": p["player"],
        "dish": p["dish"],
    }


def _ft_no_next_dish(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext(
        "%(player)s's %(dish)s is the last dish of their pile: there is no next dish to play "
        "after putting it under"
    ) % {"player": p["player"], "dish": p["dish"]}


def _ft_pile_not_empty(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext(
        "%(player)s has not been eliminated: a market card is taken by an eliminated player, "
        "and %(player)s still has a dish to turn over"
    ) % {"player": p["player"]}


def _ft_bad_dish(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext(
        "%(got)s is not a dish: a dish is written in lower case letters, digits and dashes, "
        'starting with a letter, e.g. "burger", "hotdog", "dessert"'
    ) % {"got": p["got"]}


def _ft_bad_effect(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext("%(got)s is not a Company effect (effects: %(effects)s)") % {
        "got": p["got"],
        "effects": ", ".join(p["effects"]),
    }


def _ft_bad_results(p: Mapping[str, Any], namer: Namer) -> str | None:
    rule = p["rule"]
    if rule == "extra_keys":
        return gettext("the results have no %(keys)s: only victory_points and winner") % {
            "keys": ", ".join(p["keys"])
        }
    if rule == "not_at_table":
        return gettext("%(players)s did not play at this table") % {"players": names(p["players"])}
    if rule == "missing":
        return gettext("no victory points for %(players)s") % {"players": names(p["players"])}
    if rule == "points_number":
        return gettext("%(player)s's victory points must be a whole number, 0 or more") % {
            "player": p["player"]
        }
    if rule == "points_over":
        return gettext(
            "%(player)s cannot have %(points)s victory points: the game ends as soon as a "
            "player has %(goal)s"
        ) % {"player": p["player"], "points": p["points"], "goal": p["goal"]}
    if rule == "winner_points":
        if p["goal"] == 2:
            text = gettext(
                "%(player)s won, so %(player)s has %(goal)s victory points (2 at 5 players), "
                "not %(points)s"
            )
        else:
            text = gettext(
                "%(player)s won, so %(player)s has %(goal)s victory points (3, or 2 at 5 "
                "players), not %(points)s"
            )
        return text % {"player": p["player"], "goal": p["goal"], "points": p["points"]}
    if rule == "others_at_goal":
        return gettext(
            "%(players)s also has %(goal)s victory points: the game ends as soon as one player "
            "has them, so only the winner can"
        ) % {"players": names(p["players"]), "goal": p["goal"]}
    return {
        "shape": gettext('the results are {"victory_points": {...}, "winner": name}'),
        "players": gettext("Food Truck is played by 2 to 5 players, each seated once"),
        "no_points": gettext("the results need each player's victory points"),
        "winner": gettext("the results need the winner, one of the players"),
    }.get(rule)


SENTENCES: dict[str, Sentence] = {
    **SHARED,
    "bad_event": _ft_bad_event,
    "game_over": _ft_game_over,
    "out_of_order": _ft_out_of_order,
    "wrong_turn": _ft_wrong_turn,
    "not_on_top": _ft_not_on_top,
    "pile_empty": _ft_pile_empty,
    "dish_not_in_pile": _ft_dish_not_in_pile,
    "bad_players": _ft_bad_players,
    "bad_first_player": _ft_bad_first_player,
    "bad_market": _ft_bad_market,
    "bad_company": _ft_bad_company,
    "company_used": _ft_company_used,
    "wrong_effect": _ft_wrong_effect,
    "effect_not_now": _ft_effect_not_now,
    "wrong_chooser": _ft_wrong_chooser,
    "not_removable": _ft_not_removable,
    "dish_not_in_market": _ft_dish_not_in_market,
    "no_next_dish": _ft_no_next_dish,
    "pile_not_empty": _ft_pile_not_empty,
    "bad_dish": _ft_bad_dish,
    "bad_effect": _ft_bad_effect,
    "bad_results": _ft_bad_results,
}
"""Food Truck's codes and their sentences."""
