"""Postprocessing of the OpenAPI schema: what drf-spectacular cannot say by itself.

* A request body names every key it may have (``additionalProperties: false``): the request
  serializers refuse any other key (games.api.serializers.RequestSerializer).
* A few bodies have a rule across their keys: :data:`BODY_RULES`.
* Every operation that reads a JSON body may answer 413 ``too_large`` (games.api.parsers).
* A body documented as one of several shapes (each game's results entry) closes each shape.
* The games' events and summaries are *any* of their games' shapes (:data:`ANY_OF`): one game's
  event may also fit another's open shape (Trick-n-Chef's game_started has no ``game`` key).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _one_setting_at_least(component: dict[str, Any]) -> dict[str, Any]:
    settings = [name for name in component.get("properties", {}) if name != "expected_version"]
    return {"anyOf": [{"required": [name]} for name in settings]}


BODY_RULES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    # PATCH /api/tournaments/{id}/settings/: at least one setting to change.
    "PatchedTournamentSettingsChange": _one_setting_at_least,
    "TournamentSettingsChange": _one_setting_at_least,
    # POST /api/tournaments/{id}/players/ as JSON: one of names, text or teams.
    "TournamentRegister": lambda _: {
        "oneOf": [{"required": ["names"]}, {"required": ["text"]}, {"required": ["teams"]}]
    },
}


TOO_LARGE = "A JSON body over 1 MiB (too_large)."

ANY_OF = ("RecordEvent", "GameState")
"""Components that list each game's shape: a value fits at least one."""


def request_bodies_are_closed(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular's POSTPROCESSING_HOOKS entry (after its enum hook)."""
    components = result.get("components", {}).get("schemas", {})
    for name in ANY_OF:
        if name in components and "oneOf" in components[name]:
            components[name]["anyOf"] = components[name].pop("oneOf")
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            content = operation.get("requestBody", {}).get("content", {})
            if any(media_type.endswith("json") for media_type in content):
                _may_be_too_large(operation.setdefault("responses", {}))
            for media_type, body in content.items():
                if not media_type.endswith("json"):
                    continue
                ref = body.get("schema", {}).get("$ref", "")
                for name in _shapes(components, ref.rpartition("/")[2]):
                    component = components[name]
                    component.setdefault("additionalProperties", False)
                    if name in BODY_RULES:
                        component.update(BODY_RULES[name](component))
    return result


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
