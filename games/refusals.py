"""A refusal of the rules in the reader's language.

The engine says why it refuses an event with a stable ``code``, its English ``message`` and the
``params`` the sentence is made of (engine/errors.py; ``params["rule"]`` tells apart the
sentences of one code). :func:`say` turns them into the same sentence in the active language
(gettext), naming cards as the language does (games/cardnames.py) or, for the API, by their
codes. In English the engine's own message is said: it is that sentence already, and the API,
the CLI and external tools compare it. A code or rule this module does not know falls back to
the engine's message, so a new refusal is never lost, only untranslated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.utils.translation import get_language, gettext, ngettext

from engine.errors import RuleViolation
from engine.tricknchef.cards import CARD_SUIT
from games.cardnames import card_name, chef_name, suit_list, suit_name, word_list

Namer = Callable[[str], str]

_CARD_CODE = re.compile(r"(?<![\w.])([A-Z]\d{1,2})(?!\w|\.\d)")
"""A card's code as the engine writes it ("Y8"), not a rule number ("R4.3") nor part of a word."""


def is_english() -> bool:
    return (get_language() or "en").split("-")[0] == "en"


def say_cards(message: str) -> str:
    """The card codes in a message ("holds Y8, Y9") named as the language names them ("holds
    yellow 8, yellow 9")."""

    def word(match: re.Match[str]) -> str:
        code = match.group(1)
        return card_name(code) if code in CARD_SUIT else code

    return _CARD_CODE.sub(word, message)


def say(violation: RuleViolation, *, codes: bool = False) -> str:
    """The refusal in the active language. ``codes``: name cards by their record codes (the
    API), else in words (the pages)."""
    if not is_english():
        params = violation.params
        game = params.get("game")
        table = _GAME_SENTENCES.get(game, {}) if isinstance(game, str) else _SENTENCES
        sentence = table.get(violation.code)
        if sentence is not None and params:
            namer: Namer = (lambda c: c) if codes else card_name
            try:
                text = sentence(params, namer)
            except (KeyError, TypeError, ValueError):
                text = None
            if text is not None:
                return text
    return violation.message if codes else say_cards(violation.message)


def refusal_message(error: Exception, *, codes: bool = False) -> str:
    """What a page or the API says for a service's refusal: an engine refusal in the reader's
    language, any other refusal as the service worded it (already translated there)."""
    violation = getattr(error, "violation", None)
    if isinstance(violation, RuleViolation):
        return say(violation, codes=codes)
    message = getattr(error, "message", None)
    text = str(message if message is not None else error)
    return text if codes else say_cards(text)


# --------------------------------------------------------------------------------- sentences


def _names(values: object) -> str:
    return word_list(values if isinstance(values, Iterable) else ())


def _cards(values: object, namer: Namer) -> str:
    return word_list(namer(str(c)) for c in values)  # type: ignore[attr-defined]


def _suits(values: object) -> str:
    return suit_list(values)  # type: ignore[arg-type]


def _game_over(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext("the game is over (three rounds played); nothing may follow, got %(got)s") % {
        "got": p["got"]
    }


def _out_of_order(p: Mapping[str, Any], namer: Namer) -> str | None:
    values = {"player": p["player"], "round": p["round"], "trick": p["trick"], "got": p["got"]}
    rule = p["rule"]
    if rule == "game_started":
        text = gettext("a record starts with game_started, not %(got)s")
    elif rule == "round_started":
        text = gettext("round %(round)s must start now (round_started), not %(got)s")
    elif rule == "chef_chosen":
        text = gettext(
            "%(player)s must pick a Chef for round %(round)s now (chef_chosen), not %(got)s"
        )
    elif rule == "card_played":
        text = gettext(
            "%(player)s must play a card in trick %(trick)s now (card_played), not %(got)s"
        )
    elif rule == "chef_taken":
        text = gettext(
            "%(player)s played the lowest card of trick %(trick)s and must take a Chef now "
            "(chef_taken), not %(got)s"
        )
    else:
        return None
    return text % values


def _unknown_player(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext("%(player)s is not playing in this game (%(players)s)") % {
        "player": repr(p["player"]),
        "players": _names(p["players"]),
    }


def _suit_not_in_play(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext("%(suit)s went back to the box: it is not in play") % {
        "suit": suit_name(p["suit"])
    }


def _bad_players(p: Mapping[str, Any], namer: Namer) -> str | None:
    rule = p["rule"]
    if rule == "count":
        return gettext("Trick-n-Chef is played by 3 or 4 players, not %(count)s") % {
            "count": p["count"]
        }
    if rule == "empty_name":
        return gettext("every player needs a name (an empty name was given)")
    if rule == "seated_twice":
        return gettext("each player sits once: %(players)s appears twice") % {
            "players": _names(p["players"])
        }
    return None


def _bad_suits(p: Mapping[str, Any], namer: Namer) -> str | None:
    return {
        "suits_missing": gettext("a 3-player game must say which three suits are in play"),
        "suit_twice": gettext("each suit in play is listed once"),
        "four_suits": gettext("with 4 players all four suits are in play"),
        "three_suits": gettext("with 3 players exactly three suits are in play"),
    }.get(p["rule"])


def _wrong_round(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext("the next round is round %(expected)s, not round %(got)s") % {
        "expected": p["expected"],
        "got": p["got"],
    }


def _bad_first_player(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext(
        "round %(round)s is started by the player with the most points so far: "
        "%(leaders)s (%(points)s), not %(player)s (%(player_points)s)"
    ) % {
        "round": p["round"],
        "leaders": gettext(" or ").join(p["leaders"]),
        "points": p["points"],
        "player": p["player"],
        "player_points": p["player_points"],
    }


def _bad_deal(p: Mapping[str, Any], namer: Namer) -> str | None:
    rule = p["rule"]
    if rule == "unknown_hand":
        return gettext("the deal has a hand for %(player)s, who is not playing") % {
            "player": repr(p["player"])
        }
    if rule == "missing_hand":
        return gettext("the deal has no hand for %(players)s") % {"players": _names(p["players"])}
    if rule == "hand_size":
        return ngettext(
            "%(player)s must be dealt %(expected)s card, not %(got)s",
            "%(player)s must be dealt %(expected)s cards, not %(got)s",
            p["expected"],
        ) % {"player": p["player"], "expected": p["expected"], "got": p["got"]}
    if rule == "card_not_in_play":
        return gettext(
            "%(card)s was dealt to %(player)s, but %(suit)s is not in play in this game"
        ) % {"card": namer(p["card"]), "player": p["player"], "suit": suit_name(p["suit"])}
    if rule == "dealt_twice":
        return gettext("%(card)s was dealt twice") % {"card": namer(p["card"])}
    if rule == "dealt_to_both":
        return gettext("%(card)s was dealt to both %(holder)s and %(player)s") % {
            "card": namer(p["card"]),
            "holder": p["holder"],
            "player": p["player"],
        }
    return None


def _wrong_turn(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p["rule"] == "chef_chosen":
        return gettext(
            "it is %(expected)s's turn to pick a Chef, not %(player)s's (picks go clockwise "
            "from the first player, %(first_player)s)"
        ) % {"expected": p["expected"], "player": p["player"], "first_player": p["first_player"]}
    if p["rule"] == "card_played":
        return gettext("it is %(expected)s's turn to play in trick %(trick)s, not %(player)s's") % {
            "expected": p["expected"],
            "player": p["player"],
            "trick": p["trick"],
        }
    return None


def _chef_already_chosen(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext("the %(chef)s was already picked this round; still to pick: %(left)s") % {
        "chef": chef_name(p["suit"]),
        "left": _suits(p["left"]),
    }


def _card_not_in_hand(p: Mapping[str, Any], namer: Namer) -> str | None:
    values = {
        "player": p["player"],
        "card": namer(p["card"]),
        "named": card_name(p["card"]),
        "suit": suit_name(str(p.get("suit", ""))),
        "holder": p.get("holder", ""),
    }
    where = p["where"]
    if where == "not_in_play":
        text = gettext("%(player)s does not hold %(card)s: %(suit)s is not in play in this game")
    elif where == "hand":
        text = gettext("%(player)s does not hold %(card)s: %(named)s is in %(holder)s's hand")
    elif where == "trick":
        text = gettext(
            "%(player)s does not hold %(card)s: %(named)s was already played in this trick"
        )
    elif where == "round":
        text = gettext("%(player)s does not hold %(card)s: %(named)s was already played this round")
    else:
        return None
    return text % values


def _revoke(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext(
        "%(player)s must follow %(suit)s: %(suit)s was led and %(player)s holds %(cards)s"
    ) % {"player": p["player"], "suit": suit_name(p["suit"]), "cards": _cards(p["held"], namer)}


def _not_enough_coins(p: Mapping[str, Any], namer: Namer) -> str:
    return ngettext(
        "%(player)s placed %(placed)s coin but holds %(coins)s",
        "%(player)s placed %(placed)s coins but holds %(coins)s",
        p["placed"],
    ) % {"player": p["player"], "placed": p["placed"], "coins": p["coins"]}


def _wrong_chef_taker(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext(
        "%(expected)s played the lowest card of the trick (%(card)s = %(value)s) and takes the "
        "Chef, not %(player)s"
    ) % {
        "expected": p["expected"],
        "card": namer(p["card"]),
        "value": p["value"],
        "player": p["player"],
    }


def _empty_chef_suit(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext("no %(chef)s is left in the centre; Chefs left: %(left)s") % {
        "chef": chef_name(p["suit"]),
        "left": _suits(p["left"]),
    }


def _bad_event(p: Mapping[str, Any], namer: Namer) -> str | None:
    rule = p["rule"]
    if rule == "no_type":
        return gettext('the event has no "type"')
    if rule == "unknown_type":
        return gettext("unknown event type %(got)s (known: %(known)s)") % {
            "got": p["got"],
            "known": ", ".join(p["known"]),
        }
    if rule == "missing_field":
        return gettext('%(type)s needs a "%(field)s" field') % {
            "type": p["type"],
            "field": p["field"],
        }
    if rule == "wrong_type":
        if p["expected"] == "a string":
            text = gettext('"%(field)s" must be a string, not %(got)s')
        elif p["expected"] == "a whole number":
            text = gettext('"%(field)s" must be a whole number, not %(got)s')
        else:
            return None
        return text % {"field": p["field"], "got": p["got"]}
    if rule == "extra_field":
        return gettext("%(type)s has no field %(fields)s in record format v1") % {
            "type": p["type"],
            "fields": ", ".join(f'"{key}"' for key in p["fields"]),
        }
    if rule == "duplicate_key":
        return gettext('the key "%(key)s" appears twice') % {"key": p["key"]}
    if rule == "hand_list":
        return gettext('the hand of "%(player)s" must be a list of cards') % {"player": p["player"]}
    return {
        "players_list": gettext('"players" must be a list of names'),
        "suits_list": gettext('"suits" must be a list of suit names'),
        "hands_map": gettext('"hands" must map each player to a list of cards'),
    }.get(rule)


def _bad_json(p: Mapping[str, Any], namer: Namer) -> str | None:
    rule = p["rule"]
    if rule == "invalid":
        return gettext("the line is not valid JSON (%(detail)s)") % {"detail": p["detail"]}
    if rule == "lone_surrogate":
        return gettext(
            "the line is not valid JSON text: %(at)s holds a lone surrogate (%(code_point)s), "
            "half of a character"
        ) % {"at": p["at"], "code_point": p["code_point"]}
    return {
        "too_deep": gettext("the line is not valid JSON (nested too deeply)"),
        "empty_line": gettext("the line is empty: every line must hold one event"),
        "not_object": gettext("the line is not a JSON object: an event is {...}"),
        "not_utf8": gettext("the line is not UTF-8 text"),
    }.get(rule)


def _bad_suit(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext('"%(got)s" is not a suit (suits: %(suits)s)') % {
        "got": p["got"],
        "suits": ", ".join(p["suits"]),
    }


def _bad_card(p: Mapping[str, Any], namer: Namer) -> str | None:
    if p["rule"] == "not_a_string":
        return gettext('a card is written as a code like "G3", not %(got)s') % {"got": p["got"]}
    if p["rule"] == "unknown_card":
        return gettext(
            '"%(got)s" is not a card: a card is G, R, Y or B followed by 1 to 10, e.g. "G3", "R10"'
        ) % {"got": p["got"]}
    return None


def score_problem(player: str, number: int, points: object) -> str | None:
    """engine.tricknchef.results.score_problem in the active language."""
    from engine.tricknchef.results import MAX_ROUND_SCORE

    if type(points) is not int:
        return gettext("%(player)s's round %(round)s score must be a whole number") % {
            "player": player,
            "round": number,
        }
    if not 0 <= points <= MAX_ROUND_SCORE:
        return gettext(
            "%(player)s's round %(round)s score of %(points)s is impossible "
            "(a round scores 0 to %(max)s)"
        ) % {"player": player, "round": number, "points": points, "max": MAX_ROUND_SCORE}
    return None


def total_problem(player: str, total: object, rounds: Iterable[int]) -> str | None:
    """engine.tricknchef.results.total_problem in the active language."""
    rounds = list(rounds)
    if total == sum(rounds) and type(total) is int:
        return None
    if type(total) is not int:
        return gettext("%(player)s's total must be a whole number") % {"player": player}
    return gettext(
        "%(player)s's total is %(total)s, but the rounds add up to %(added)s = %(sum)s"
    ) % {
        "player": player,
        "total": total,
        "added": " + ".join(str(s) for s in rounds),
        "sum": sum(rounds),
    }


def _bad_results(p: Mapping[str, Any], namer: Namer) -> str | None:
    rule = p["rule"]
    if rule == "not_at_table":
        return gettext("%(players)s did not play at this table") % {"players": _names(p["players"])}
    if rule == "no_scores":
        return gettext("no scores for %(players)s") % {"players": _names(p["players"])}
    if rule == "three_scores":
        return gettext("%(player)s needs one score for each of the %(rounds)s rounds") % {
            "player": p["player"],
            "rounds": p["rounds"],
        }
    if rule == "no_total":
        return gettext("no total for %(player)s") % {"player": p["player"]}
    if rule == "score":
        return score_problem(p["player"], p["round"], p["points"])
    if rule == "total":
        return total_problem(p["player"], p["total"], p["rounds"])
    return None


_SENTENCES: dict[str, Callable[[Mapping[str, Any], Namer], str | None]] = {
    "game_over": _game_over,
    "out_of_order": _out_of_order,
    "unknown_player": _unknown_player,
    "suit_not_in_play": _suit_not_in_play,
    "bad_players": _bad_players,
    "bad_suits": _bad_suits,
    "wrong_round": _wrong_round,
    "bad_first_player": _bad_first_player,
    "bad_deal": _bad_deal,
    "wrong_turn": _wrong_turn,
    "chef_already_chosen": _chef_already_chosen,
    "card_not_in_hand": _card_not_in_hand,
    "revoke": _revoke,
    "not_enough_coins": _not_enough_coins,
    "wrong_chef_taker": _wrong_chef_taker,
    "empty_chef_suit": _empty_chef_suit,
    "bad_event": _bad_event,
    "bad_json": _bad_json,
    "bad_suit": _bad_suit,
    "bad_card": _bad_card,
    "bad_results": _bad_results,
}
"""Each Trick-n-Chef code's sentences (and the game-neutral record reader's, engine.jsonline);
the club games' are :data:`_GAME_SENTENCES`, by the refusal's ``params["game"]``."""


# ------------------------------------------------------------------ the club games' sentences
# Food Truck, Chefs and Crazy Kitchen share some codes with Trick-n-Chef (bad_players,
# out_of_order, ...) but not their sentences: their refusals say their game (params["game"]),
# and each game has its own table. Dishes, Company effects and chests are record codes, named
# as the record names them.

Sentence = Callable[[Mapping[str, Any], Namer], str | None]


def _list(values: object) -> str:
    return ", ".join(str(v) for v in values)  # type: ignore[attr-defined]


def _club_event(p: Mapping[str, Any], namer: Namer) -> str | None:
    """bad_event of a club game's record (engine.foodtruck.events, engine.fields)."""
    rule = p["rule"]
    team = p.get("type") == "a team"
    if rule == "no_type":
        return gettext('the event has no "type"')
    if rule == "unknown_type":
        return gettext("unknown event type %(got)s (known: %(known)s)") % {
            "got": p["got"],
            "known": ", ".join(p["known"]),
        }
    if rule == "missing_field":
        if team:
            return gettext('a team needs a "%(field)s" field') % {"field": p["field"]}
        return gettext('%(type)s needs a "%(field)s" field') % {
            "type": p["type"],
            "field": p["field"],
        }
    if rule == "wrong_type":
        text = {
            "a string": gettext('"%(field)s" must be a string, not %(got)s'),
            "a whole number": gettext('"%(field)s" must be a whole number, not %(got)s'),
            "true or false": gettext('"%(field)s" must be true or false, not %(got)s'),
            "a list of strings": gettext('"%(field)s" must be a list of strings, not %(got)s'),
            "a list of whole numbers": gettext(
                '"%(field)s" must be a list of whole numbers, not %(got)s'
            ),
            "a list of two teams": gettext('"%(field)s" must be a list of two teams, not %(got)s'),
        }.get(p["expected"])
        return None if text is None else text % {"field": p["field"], "got": p["got"]}
    if rule == "extra_field":
        fields = ", ".join(f'"{key}"' for key in p["fields"])
        if team:
            return gettext("a team has no field %(fields)s in %(game)s record format v1") % {
                "fields": fields,
                "game": _GAME_NAMES[p["game"]],
            }
        return gettext("%(type)s has no field %(fields)s in %(game)s record format v1") % {
            "type": p["type"],
            "fields": fields,
            "game": _GAME_NAMES[p["game"]],
        }
    if rule == "game":
        return gettext('a %(game)s record has "game": "%(key)s"') % {
            "game": _GAME_NAMES[p["game"]],
            "key": p["game"],
        }
    return {
        "players_list": gettext('"players" must be a list of names'),
        "market_list": gettext('"market" must be a list of dishes'),
        "companies_map": gettext('"companies" must map each player to a Company effect'),
        "team_object": gettext('a team is {"name": ..., "players": [...]}'),
    }.get(rule)


_GAME_NAMES = {"food-truck": "Food Truck", "chefs": "Chefs", "crazy-kitchen": "Crazy Kitchen"}
"""The games' names: names, not translated."""


def _unknown_player_named(p: Mapping[str, Any], namer: Namer) -> str:
    if "players" in p:
        return _unknown_player(p, namer)
    return gettext('"%(player)s" is not a chef in this game') % {"player": p["player"]}


def _club_wrong_round(p: Mapping[str, Any], namer: Namer) -> str:
    return _wrong_round(p, namer)


def _club_bad_json(p: Mapping[str, Any], namer: Namer) -> str | None:
    return _bad_json(p, namer)


# Food Truck


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
        return gettext("%(players)s is seated twice") % {"players": _names(p["players"])}
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
            "players": _names(p["players"])
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
    return gettext(
        "%(player)s has already served their dish this turn: %(effect)s acts on the dish you "
        "must play, so it is played before the dish is turned over"
    ) % {"player": p["player"], "effect": p["effect"]}


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
        return gettext("%(players)s did not play at this table") % {"players": _names(p["players"])}
    if rule == "missing":
        return gettext("no victory points for %(players)s") % {"players": _names(p["players"])}
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
        ) % {"players": _names(p["players"]), "goal": p["goal"]}
    return {
        "shape": gettext('the results are {"victory_points": {...}, "winner": name}'),
        "players": gettext("Food Truck is played by 2 to 5 players, each seated once"),
        "no_points": gettext("the results need each player's victory points"),
        "winner": gettext("the results need the winner, one of the players"),
    }.get(rule)


# Chefs


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
        return gettext("%(players)s did not play at this table") % {"players": _names(p["players"])}
    if rule == "missing":
        return gettext("no final position for %(players)s") % {"players": _names(p["players"])}
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


def _simple(text: Callable[[], str], *keys: str) -> Sentence:
    """A sentence of one form: its words (looked up when said) and the params it takes."""

    def sentence(p: Mapping[str, Any], namer: Namer) -> str:
        return text() % {k: p[k] for k in keys} if keys else text()

    return sentence


# Crazy Kitchen


def _ck_out_of_order(p: Mapping[str, Any], namer: Namer) -> str | None:
    return {
        "started": gettext("the game has already started"),
        "game_started": gettext("a record starts with game_started"),
    }.get(p["rule"])


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


_CLUB_SHARED: dict[str, Sentence] = {
    "bad_event": _club_event,
    "bad_json": _club_bad_json,
    "wrong_round": _club_wrong_round,
    "unknown_player": _unknown_player_named,
}

_GAME_SENTENCES: dict[str, dict[str, Sentence]] = {
    "food-truck": {
        **_CLUB_SHARED,
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
        "not_removable": _ft_not_removable,
        "dish_not_in_market": _ft_dish_not_in_market,
        "no_next_dish": _ft_no_next_dish,
        "pile_not_empty": _ft_pile_not_empty,
        "bad_dish": _ft_bad_dish,
        "bad_effect": _ft_bad_effect,
        "bad_results": _ft_bad_results,
    },
    "chefs": {
        **_CLUB_SHARED,
        "game_over": _simple(
            lambda: gettext(
                "the game is over: it ended with the round in which a chef passed field 20"
            )
        ),
        "out_of_order": _ch_out_of_order,
        "wrong_turn": _ch_wrong_turn,
        "bad_players": _ch_bad_players,
        "wrong_starting_player": _ch_wrong_starting_player,
        "door_full": _simple(
            lambda: gettext(
                "the door has no free circle: there are five chests, one for each marker there"
            )
        ),
        "wrong_circle": _ch_wrong_circle,
        "bad_count": _simple(
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
        "bad_steps": _simple(
            lambda: gettext("a meal card's number of steps is 1 or more, not %(got)s"), "got"
        ),
        "bad_ingredients": _simple(
            lambda: gettext(
                "a meal is made by putting in the right ingredients: at least one ingredient "
                "card or the chef card"
            )
        ),
        "not_enough_cards": _ch_not_enough_cards,
        "chef_card_used": lambda p, namer: (
            gettext(
                "%(player)s's chef card was already used at %(place)s this round: it is only valid "
                "once at one location"
            )
            % {"player": p["player"], "place": _place(p["location"])}
        ),
        "chest_taken": _simple(
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
        "wrong_position": _simple(
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
    },
    "crazy-kitchen": {
        **_CLUB_SHARED,
        "game_over": _simple(lambda: gettext("the game is over: it lasts six rounds")),
        "out_of_order": _ck_out_of_order,
        "bad_teams": _ck_bad_teams,
        "unknown_team": _simple(lambda: gettext('"%(team)s" is not a team in this game'), "team"),
        "bad_compensation": _ck_bad_compensation,
        "wrong_cooks": _simple(
            lambda: gettext(
                "%(team)s cook in round %(round)s: the teams swap cooks and customers every round"
            ),
            "team",
            "round",
        ),
        "bad_order_value": _simple(
            lambda: gettext("a fulfilled order is worth 1 or more victory points")
        ),
        "bad_penalty": _simple(
            lambda: gettext(
                "a penalty is written as the positive number of penalty points on the order "
                "card (2 for a -2 order), 1 or more"
            )
        ),
        "too_many_orders": _simple(
            lambda: gettext("there are only %(count)s order cards in the game"), "count"
        ),
        "wrong_score": _ck_wrong_score,
        "bad_results": _ck_bad_results,
    },
}
"""Each club game's codes and their sentences."""
