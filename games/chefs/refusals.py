"""Chefs' refusals in the reader's language (engine.chefs' codes). Chests are record codes, named
as the record names them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, ngettext

from games.refusals import (
    SHARED,
    Namer,
    Sentence,
    names,
    simple,
)


def _place(location: str) -> str:
    """A Chefs location in words (the record's code when unknown)."""
    return {
        "counter": gettext("the counter of ingredients"),
        "window": gettext("the cooker at the window"),
        "door": gettext("the door"),
        "wall": gettext("the cooker at the wall"),
        "service": gettext("the service counter"),
    }.get(location, location)


def _circle(p: Mapping[str, Any]) -> str:
    return gettext("circle %(circle)s of %(place)s") % {
        "circle": p["circle"],
        "place": _place(p["location"]),
    }


def _ch_out_of_order(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p["rule"] == "acting":
        return gettext("the marker on %(where)s acts now: expected %(expected)s, not %(got)s") % {
            "where": _circle(p),
            "expected": gettext(" or ").join(p["expected"]),
            "got": p["got"],
        }
    if p["rule"] == "phase":
        return gettext("expected %(expected)s now, not %(got)s") % {
            "expected": p["expected"],
            "got": p["got"],
        }
    return None


def _ch_wrong_turn(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p["rule"] == "placing":
        return gettext(
            "it is %(expected)s's turn to put down an action marker, not %(player)s's: the "
            "chefs put down one marker each in turn, clockwise from the starting player"
        ) % {"expected": p["expected"], "player": p["player"]}
    if p["rule"] == "acting":
        return gettext(
            "the marker on %(where)s is %(expected)s's, so %(expected)s acts now, not %(player)s"
        ) % {"where": _circle(p), "expected": p["expected"], "player": p["player"]}
    return None


def _ch_bad_players(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p["rule"] == "count":
        return gettext("Chefs is played by 2 to 6 chefs, not %(count)s") % {"count": p["count"]}
    return {
        "empty_name": gettext("every chef needs a name"),
        "named_twice": gettext("a chef's name appears twice"),
        "table": gettext("Chefs is played by 2 to 6 chefs, each named once"),
    }.get(p["rule"])


def _ch_wrong_starting_player(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext(
        "the starting chef of round %(round)s is %(expected)s, to the left of the previous "
        "starting chef %(previous)s, not %(player)s"
    ) % {k: p[k] for k in ("round", "expected", "previous", "player")}


def _ch_wrong_circle(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext(
        "the marker goes on the next free circle of %(place)s, circle %(expected)s, not circle "
        "%(got)s: there can be one action marker in each circle"
    ) % {"place": _place(p["location"]), "expected": p["expected"], "got": p["got"]}


def _ch_not_enough_cards(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p["rule"] == "cook":
        return ngettext(
            "%(player)s holds %(held)s ingredient card, not %(got)s",
            "%(player)s holds %(held)s ingredient cards, not %(got)s",
            p["held"],
        ) % {"player": p["player"], "held": p["held"], "got": p["got"]}
    if p["rule"] == "chest":
        return ngettext(
            "the %(chest)s chest takes %(give)s ingredient card; %(player)s holds %(held)s",
            "the %(chest)s chest takes %(give)s ingredient cards; %(player)s holds %(held)s",
            p["give"],
        ) % {k: p[k] for k in ("chest", "give", "player", "held")}
    return None


def _ch_meal_not_held(p: Mapping[str, Any], namer: Namer) -> str:
    meals = p["meals"]
    held = ", ".join(str(s) for s in meals) if meals else gettext("none")
    return gettext(
        "%(player)s holds no meal card worth %(steps)s steps (meal cards held: %(held)s)"
    ) % {"player": p["player"], "steps": p["steps"], "held": held}


def _ch_bad_results(p: Mapping[str, Any], namer: Namer) -> str | None:
    rule = p["rule"]
    if rule == "not_at_table":
        return gettext("%(players)s did not play at this table") % {"players": names(p["players"])}
    if rule == "missing":
        return gettext("no final position for %(players)s") % {"players": names(p["players"])}
    if rule == "position_number":
        return gettext(
            "%(player)s's final position must be a whole number of steps from the door (0 or "
            "more; 21 is field 1 of the second lap)"
        ) % {"player": p["player"]}
    if rule == "nobody_finished":
        return gettext(
            "the game ends in the round when a chef passes field %(goal)s: at least one chef "
            "must stand at %(beyond)s or farther"
        ) % {"goal": p["goal"], "beyond": p["goal"] + 1}
    return {
        "shape": gettext('a results entry is {"positions": {chef: position}}'),
        "positions_map": gettext("positions must map each chef to a position"),
    }.get(rule)


def _ch_bad_event(p: Mapping[str, Any], namer: Namer) -> str | None:
    """Record v2's own readings of bad_event; the others are every game's (games/refusals.py)."""
    if p.get("rule") == "version":
        return gettext(
            'this engine reads Chefs record versions 1 (no "version") and 2, not %(got)s'
        ) % {"got": p["got"]}
    if p.get("rule") == "v2_only":
        return gettext(
            "%(type)s is an event of Chefs record format v2; this record is v1 (its first line "
            'has no "version": 2)'
        ) % {"type": p["type"]}
    return SHARED["bad_event"](p, namer)


def _ch_wrong_cooker(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p["rule"] == "cooked":
        return gettext("the meal card of %(steps)s steps lies at %(there)s, not at %(place)s") % {
            "steps": p["steps"],
            "there": _place(p["other"]),
            "place": _place(p["location"]),
        }
    if p["rule"] == "laid":
        return gettext(
            "the next meal card is put out at %(expected)s, not at %(got)s: the window is "
            "filled first"
        ) % {"expected": _place(p["expected"]), "got": _place(p["got"])}
    return None


def _ch_meal_not_at_cooker(p: Mapping[str, Any], namer: Namer) -> str:
    laid = ", ".join(str(s) for s in p["laid"]) if p["laid"] else gettext("none")
    return gettext(
        "no meal card of %(steps)s steps lies at %(place)s (steps of the cards there: %(laid)s)"
    ) % {"steps": p["steps"], "place": _place(p["location"]), "laid": laid}


def _ch_bad_ingredients(p: Mapping[str, Any], namer: Namer) -> str:
    if p.get("rule") == "laid":
        return gettext("a meal card needs one ingredient or more, not %(got)s") % {"got": p["got"]}
    return gettext(
        "a meal is made by putting in the right ingredients: at least one ingredient card or the "
        "chef card"
    )


SENTENCES: dict[str, Sentence] = {
    **SHARED,
    "game_over": simple(
        lambda: gettext("the game is over: it ended with the round in which a chef passed field 20")
    ),
    "out_of_order": _ch_out_of_order,
    "wrong_turn": _ch_wrong_turn,
    "bad_players": _ch_bad_players,
    "wrong_starting_player": _ch_wrong_starting_player,
    "door_full": simple(
        lambda: gettext(
            "the door has no free circle: there are five chests, one for each marker there"
        )
    ),
    "wrong_circle": _ch_wrong_circle,
    "bad_count": simple(
        lambda: gettext("an action at the counter takes two ingredients (or one), not %(got)s"),
        "got",
    ),
    "not_enough_on_counter": lambda p, namer: (
        ngettext(
            "the counter of ingredients has %(left)s card left, not %(got)s",
            "the counter of ingredients has %(left)s cards left, not %(got)s",
            p["left"],
        )
        % {"left": p["left"], "got": p["got"]}
    ),
    "no_meal_left": lambda p, namer: (
        gettext("there is no meal card left at %(place)s") % {"place": _place(p["location"])}
    ),
    "bad_steps": simple(
        lambda: gettext("a meal card's number of steps is 1 or more, not %(got)s"), "got"
    ),
    "bad_ingredients": _ch_bad_ingredients,
    "bad_event": _ch_bad_event,
    "must_take_two": simple(
        lambda: gettext(
            "the counter of ingredients has %(left)s cards: an action there takes two (one only "
            "when one is left)"
        ),
        "left",
    ),
    "wrong_cooker": _ch_wrong_cooker,
    "meal_not_at_cooker": _ch_meal_not_at_cooker,
    "wrong_ingredients": lambda p, namer: (
        gettext(
            "the meal card of %(steps)s steps needs %(needs)s ingredients, not %(got)s (the chef "
            "card counts as one)"
        )
        % {
            "steps": p["steps"],
            "needs": gettext(" or ").join(map(str, p["needs"])),
            "got": p["got"],
        }
    ),
    "not_enough_cards": _ch_not_enough_cards,
    "chef_card_used": lambda p, namer: (
        gettext(
            "%(player)s's chef card was already used at %(place)s this round: it is only valid "
            "once at one location"
        )
        % {"player": p["player"], "place": _place(p["location"])}
    ),
    "chest_taken": simple(
        lambda: gettext(
            "the %(chest)s chest was already chosen this round: other players can not "
            "choose this option"
        ),
        "chest",
    ),
    "deck_empty": lambda p, namer: (
        ngettext(
            "only %(left)s ingredient card is left to draw, not %(draw)s",
            "only %(left)s ingredient cards are left to draw, not %(draw)s",
            p["left"],
        )
        % {"left": p["left"], "draw": p["draw"]}
    ),
    "meal_not_held": _ch_meal_not_held,
    "wrong_position": simple(
        lambda: gettext(
            "%(player)s moves from %(start)s by %(steps)s steps to %(expected)s, not %(got)s"
        ),
        "player",
        "start",
        "steps",
        "expected",
        "got",
    ),
    "bad_location": lambda p, namer: (
        gettext('"%(got)s" is not a location (locations: %(locations)s)')
        % {"got": p["got"], "locations": ", ".join(p["locations"])}
    ),
    "bad_chest": lambda p, namer: (
        gettext('"%(got)s" is not a chest at the door (chests: %(chests)s)')
        % {"got": p["got"], "chests": ", ".join(p["chests"])}
    ),
    "bad_results": _ch_bad_results,
}
"""Chefs' codes and their sentences."""
