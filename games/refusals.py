"""A refusal of the rules in the reader's language: the lookup every game shares.

The engine says why it refuses an event with a stable ``code``, its English ``message`` and the
``params`` the sentence is made of (engine/errors.py; ``params["rule"]`` tells apart the
sentences of one code). :func:`say` turns them into the same sentence in the active language
(gettext). Each game's sentences are in its own package (``games/<game>/refusals.py``, found
through its type: ``GameType.refusals``), by the refusal's ``params["game"]`` (a refusal without
one is the registry's default game's, whose records name no game); this module holds the
lookup and the sentences of what the games share (the kernel's line and field readers, a
player not at the table, the wrong round). A game's module may also name cards as the language
does (``NAMER``; for the API they stay record codes) and put words on its English messages
(``say_message``). In English the engine's own message is said: it is that sentence already, and
the API, the CLI and external tools compare it. A code or rule no module knows falls back to the
engine's message, so a new refusal is never lost, only untranslated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import Any

from django.utils.translation import get_language, gettext

from engine.errors import RuleViolation
from games.gametypes import DEFAULT_GAME_TYPE, GAME_TYPES, game_module
from games.words import word_list

Namer = Callable[[str], str]


def _code(name: str) -> str:
    return name


def is_english() -> bool:
    return (get_language() or "en").split("-")[0] == "en"


def _module(game: str) -> ModuleType | None:
    return game_module(game, "refusals")


def _say_message(game: str, message: str) -> str:
    module = _module(game)
    hook = getattr(module, "say_message", None)
    return hook(message) if hook is not None else message


def say(violation: RuleViolation, *, codes: bool = False) -> str:
    """The refusal in the active language. ``codes``: name cards by their record codes (the
    API), else in words (the pages)."""
    params = violation.params
    named = params.get("game")
    game = named if isinstance(named, str) else DEFAULT_GAME_TYPE
    if not is_english():
        module = _module(game)
        table: Mapping[str, Sentence] = getattr(module, "SENTENCES", {})
        sentence = table.get(violation.code)
        if sentence is not None and params:
            namer: Namer = _code if codes else getattr(module, "NAMER", _code)
            try:
                text = sentence(params, namer)
            except (KeyError, TypeError, ValueError):
                text = None
            if text is not None:
                return text
    return violation.message if codes else _say_message(game, violation.message)


def refusal_message(error: Exception, *, codes: bool = False) -> str:
    """What a page or the API says for a service's refusal: an engine refusal in the reader's
    language, any other refusal as the service worded it (already translated there; the
    default game's record codes in it put in words for a page)."""
    violation = getattr(error, "violation", None)
    if isinstance(violation, RuleViolation):
        return say(violation, codes=codes)
    message = getattr(error, "message", None)
    text = str(message if message is not None else error)
    return text if codes else _say_message(DEFAULT_GAME_TYPE, text)


def names(values: object) -> str:
    return word_list(values if isinstance(values, Iterable) else ())


def unknown_player(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext("%(player)s is not playing in this game (%(players)s)") % {
        "player": repr(p["player"]),
        "players": names(p["players"]),
    }


def wrong_round(p: Mapping[str, Any], namer: Namer) -> str:
    return gettext("the next round is round %(expected)s, not round %(got)s") % {
        "expected": p["expected"],
        "got": p["got"],
    }


def bad_json(p: Mapping[str, Any], namer: Namer) -> str | None:
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


Sentence = Callable[[Mapping[str, Any], Namer], str | None]


def list_of(values: object) -> str:
    return ", ".join(str(v) for v in values)  # type: ignore[attr-defined]


def field_event(p: Mapping[str, Any], namer: Namer) -> str | None:
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
                "game": _game_name(p["game"]),
            }
        return gettext("%(type)s has no field %(fields)s in %(game)s record format v1") % {
            "type": p["type"],
            "fields": fields,
            "game": _game_name(p["game"]),
        }
    if rule == "game":
        return gettext('a %(game)s record has "game": "%(key)s"') % {
            "game": _game_name(p["game"]),
            "key": p["game"],
        }
    return {
        "players_list": gettext('"players" must be a list of names'),
        "market_list": gettext('"market" must be a list of dishes'),
        "companies_map": gettext('"companies" must map each player to a Company effect'),
        "team_object": gettext('a team is {"name": ..., "players": [...]}'),
    }.get(rule)


def _game_name(key: str) -> str:
    """A game's name (a name, not translated), from its type."""
    kind = GAME_TYPES.get(key)
    return kind.name if kind is not None else key


def unknown_player_named(p: Mapping[str, Any], namer: Namer) -> str:
    if "players" in p:
        return unknown_player(p, namer)
    return gettext('"%(player)s" is not a chef in this game') % {"player": p["player"]}


def club_wrong_round(p: Mapping[str, Any], namer: Namer) -> str:
    return wrong_round(p, namer)


def club_bad_json(p: Mapping[str, Any], namer: Namer) -> str | None:
    return bad_json(p, namer)


def simple(text: Callable[[], str], *keys: str) -> Sentence:
    """A sentence of one form: its words (looked up when said) and the params it takes."""

    def sentence(p: Mapping[str, Any], namer: Namer) -> str:
        return text() % {k: p[k] for k in keys} if keys else text()

    return sentence


SHARED: dict[str, Sentence] = {
    "bad_event": field_event,
    "bad_json": club_bad_json,
    "wrong_round": club_wrong_round,
    "unknown_player": unknown_player_named,
}
