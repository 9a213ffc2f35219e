"""Postprocessing of the OpenAPI schema: what drf-spectacular cannot say by itself, so that the
schema accepts exactly what the server takes (schemathesis checks it: a request the schema
allows is not refused for its shape, one it forbids is refused; tests/web/test_api_schema_fuzz.py).

* A request body names every key it may have (``additionalProperties: false``), nested objects
  included (a tournament's teams): the request serializers refuse any other key
  (games.api.serializers.RequestSerializer).
* A few bodies have a rule across their keys, or bounds the serializers leave to the engine or
  the services (a game's number of players, at least one event): :func:`body_rules`, each
  game's from its package (GameAPI.schema_rules); the tournaments' own are
  tournaments.api.schema's.
* A request's strings hold no NUL (DRF refuses it in every string), and one that may not be
  blank holds something else than whitespace (DRF trims it first).
* A request body the server needs (one with a required key or a rule across keys) is required.
* Every operation that reads a JSON body may answer 413 ``too_large`` (games.api.parsers).
* A body documented as one of several shapes (each game's results entry) closes each shape.
* The games' events and summaries are *any* of their games' shapes (:data:`ANY_OF`): one game's
  event may also fit another's open shape (Trick-n-Chef's game_started has no ``game`` key).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.api.serializers.fields import PLAYER_NAME_COMPONENT, PLAYER_NAME_MAX
from games.api.serializers.gameapi import Rule, game_apis
from games.gametypes import GAME_TYPES
from games.names import visible_class

SPACES = "".join(chr(c) for c in range(0x10000) if chr(c).isspace())
"""What DRF trims off a string (Python's whitespace: all of it in the Basic Multilingual Plane),
for a pattern's character class."""


def _class(chars: str) -> str:
    """``chars`` as the body of a regex character class (ECMA and Python alike)."""
    return "".join(f"\\u{ord(c):04x}" if not c.isprintable() or c in "\\]^-" else c for c in chars)


NO_NUL = r"^[^\x00]*$"
"""A string DRF takes: no NUL anywhere."""
NOT_BLANK = rf"^[^\x00]*[^\x00{_class(SPACES)}][^\x00]*$"
"""A string DRF takes where it may not be blank: no NUL, and something left once trimmed."""


def counted(key: str) -> dict[str, Any]:
    """A game's ``players``: as many distinct names as its tables seat."""
    sizes = GAME_TYPES[key].table_sizes
    return {"minItems": min(sizes), "maxItems": max(sizes), "uniqueItems": True}


def players_counted(key: str) -> Rule:
    """A game's create body whose only rule is its number of players."""

    def rule(component: dict[str, Any]) -> dict[str, Any]:
        merge(component, "players", counted(key))
        return {}

    return rule


SHARED_RULES: dict[str, Rule] = {
    # POST /api/games/{id}/events/: at least one event.
    "GameAppend": lambda component: merged(component, "events", {"minItems": 1}),
}
"""The shared request components' rules; each game gives its own (GameAPI.schema_rules)."""


def body_rules() -> dict[str, Rule]:
    """Request components (by name) and what they say beyond their fields: a rule returns keys
    for the component (``anyOf`` ...) and may tighten its properties (:func:`merge`)."""
    rules = dict(SHARED_RULES)
    for _key, api in game_apis():
        rules.update(api.schema_rules)
    return rules


TOO_LARGE = "A JSON body over 1 MiB (too_large)."

ANY_OF = ("RecordEvent", "GameState")
"""Components that list each game's shape: a value fits at least one. A record event's keys are
the engine's to check (tests/web/test_api_schema_fuzz.py plays real games)."""


def merge(component: dict[str, Any], name: str, extra: dict[str, Any]) -> None:
    """Tighten one property of a component (if it has it)."""
    prop = component.get("properties", {}).get(name)
    if prop is not None:
        prop.update(extra)


def merged(component: dict[str, Any], name: str, extra: dict[str, Any]) -> dict[str, Any]:
    """A rule that only tightens one property."""
    merge(component, name, extra)
    return {}


def player_name() -> dict[str, Any]:
    """A player's (or team's) name as games.names takes it: something visible in it (a
    character neither Unicode's Other, controls and format characters included, nor a
    Separator; is_blank), no NUL, no lone surrogate; at most 100 characters."""
    return {
        "type": "string",
        "minLength": 1,
        "maxLength": PLAYER_NAME_MAX,
        "pattern": rf"^[^\x00]*[{visible_class()}][^\x00]*$",
        "description": "A player's (or a team's) name: something visible in it (not only "
        "spaces, control or format characters: else 422 bad_players), written in any way (it "
        "is stored in its one spelling: docs/api.md, Player names).",
    }


def request_bodies_are_closed(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular's POSTPROCESSING_HOOKS entry (after its enum hook and the tournaments')."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components[PLAYER_NAME_COMPONENT] = player_name()
    rules = body_rules()
    for name in ANY_OF:
        if name in components and "oneOf" in components[name]:
            components[name]["anyOf"] = components[name].pop("oneOf")
    done: set[str] = set()
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            body = operation.get("requestBody", {})
            content = body.get("content", {})
            if any(media_type.endswith("json") for media_type in content):
                _may_be_too_large(operation.setdefault("responses", {}))
            for media_type, described in content.items():
                if not media_type.endswith("json"):
                    continue
                ref = described.get("schema", {}).get("$ref", "")
                shapes = _shapes(components, ref.rpartition("/")[2])
                if any(_needed(components[name]) for name in shapes):
                    body["required"] = True
                for name in _reached(components, shapes):
                    if name in done:
                        continue
                    done.add(name)
                    component = components[name]
                    component.setdefault("additionalProperties", False)
                    if name in rules:
                        component.update(rules[name](component))
                    for node in _nodes(component):
                        if node.get("type") == "string":
                            _text(node)
    return result


def _needed(component: dict[str, Any]) -> bool:
    """A body the server cannot do without: it has a required key, or a rule across keys."""
    return bool(component.get("required")) or any(
        key in component for key in ("anyOf", "oneOf", "allOf")
    )


def _text(string: dict[str, Any]) -> None:
    """A request's free text: no NUL; something visible if it may not be blank."""
    if any(key in string for key in ("pattern", "format", "enum")):
        return
    string["pattern"] = NOT_BLANK if string.get("minLength", 0) >= 1 else NO_NUL


def _nodes(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The schemas of a component's properties, nested arrays and maps included (not other
    components: they are visited on their own)."""
    stack: list[Any] = list(schema.get("properties", {}).values())
    while stack:
        node = stack.pop()
        if not isinstance(node, dict) or "$ref" in node:
            continue
        yield node
        stack.extend(node.get("properties", {}).values())
        for key in ("items", "additionalProperties"):
            stack.append(node.get(key))


def _reached(components: dict[str, Any], names: list[str]) -> list[str]:
    """The request's object components and those nested in them (a team in a registration),
    but not the events' (:data:`ANY_OF`)."""
    seen: list[str] = []
    stack = list(names)
    while stack:
        name = stack.pop()
        if name in seen or name in ANY_OF or name not in components:
            continue
        if components[name].get("type") != "object":
            stack.extend(_shapes(components, name))
            continue
        seen.append(name)
        stack.extend(_refs(components[name]))
    return seen


def _refs(schema: Any) -> Iterator[str]:
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str):
            yield ref.rpartition("/")[2]
        for value in schema.values():
            yield from _refs(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _refs(value)


def _may_be_too_large(responses: dict[str, Any]) -> None:
    known = responses.get("413")
    if known is not None:
        known["description"] = f"{known.get('description', '')} Or: {TOO_LARGE}".strip()
        return
    responses["413"] = {
        "description": TOO_LARGE,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def _shapes(components: dict[str, Any], name: str) -> list[str]:
    """The object components a request body's component stands for: itself, or each of the
    shapes it is one of."""
    component = components.get(name)
    if component is None:
        return []
    if component.get("type") == "object":
        return [name]
    refs = [item.get("$ref", "") for item in component.get("oneOf", ())]
    return [
        ref.rpartition("/")[2]
        for ref in refs
        if components.get(ref.rpartition("/")[2], {}).get("type") == "object"
    ]
