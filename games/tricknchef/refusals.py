"""Trick-n-Chef's refusals in the reader's language: each code of engine.tricknchef's referee and
record reader (and the game-neutral line reader's, engine.jsonline), and the card names its
messages hold (``say_message``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext, ngettext

from engine.tricknchef.cards import CARD_SUIT
from games.refusals import (
    Namer,
    Sentence,
    bad_json,
    names,
    unknown_player,
    wrong_round,
)
from games.tricknchef.cardnames import card_name, chef_name, suit_list, suit_name
from games.words import word_list


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
            "players": names(p["players"])
        }
    return None


def _bad_suits(p: Mapping[str, Any], namer: Namer) -> str | None:
    return {
        "suits_missing": gettext("a 3-player game must say which three suits are in play"),
        "suit_twice": gettext("each suit in play is listed once"),
        "four_suits": gettext("with 4 players all four suits are in play"),
        "three_suits": gettext("with 3 players exactly three suits are in play"),
    }.get(p["rule"])


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
        return gettext("the deal has no hand for %(players)s") % {"players": names(p["players"])}
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
        return gettext("%(players)s did not play at this table") % {"players": names(p["players"])}
    if rule == "no_scores":
        return gettext("no scores for %(players)s") % {"players": names(p["players"])}
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


_CARD_CODE = re.compile(r"(?<![\w.])([A-Z]\d{1,2})(?!\w|\.\d)")
"""A card's code as the engine writes it ("Y8"), not a rule number ("R4.3") nor part of a word."""


def say_cards(message: str) -> str:
    """The card codes in a message ("holds Y8, Y9") named as the language names them ("holds
    yellow 8, yellow 9")."""

    def word(match: re.Match[str]) -> str:
        code = match.group(1)
        return card_name(code) if code in CARD_SUIT else code

    return _CARD_CODE.sub(word, message)


SENTENCES: dict[str, Sentence] = {
    "game_over": _game_over,
    "out_of_order": _out_of_order,
    "unknown_player": unknown_player,
    "suit_not_in_play": _suit_not_in_play,
    "bad_players": _bad_players,
    "bad_suits": _bad_suits,
    "wrong_round": wrong_round,
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
    "bad_json": bad_json,
    "bad_suit": _bad_suit,
    "bad_card": _bad_card,
    "bad_results": _bad_results,
}
"""Each Trick-n-Chef code's sentences (and the game-neutral record reader's, engine.jsonline);
the club games' are :data:`_GAME_SENTENCES`, by the refusal's ``params["game"]``."""


NAMER = card_name
"""Cards in a sentence named as the language names them ("yellow 8"; the API keeps "Y8")."""


def say_message(message: str) -> str:
    """The engine's English message with its card codes in words (said when no sentence fits)."""
    return say_cards(message)
