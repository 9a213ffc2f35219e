"""The tournaments' part of the OpenAPI schema's postprocessing (games.api.schema does the rest):
the settings the services check, said in the schema, so that it accepts what the server takes.

The services refuse an unknown preset, tie-break or mode, a number of rounds out of range and a
table size the game does not allow with 422 ``bad_settings`` (docs/api.md); the schema lists the
values they take. Which setting may still change once round 1 is paired depends on the
tournament, not on the body, and stays the services' to say.
"""

from __future__ import annotations

from typing import Any

from games.gametypes import DEFAULT_GAME_TYPE, GAME_TYPES
from tournaments import domain, standings

SETTINGS = ("TournamentCreate", "TournamentSettingsChange", "PatchedTournamentSettingsChange")
"""The request components that carry settings: a new tournament's, and a change's."""

CHANGES = ("TournamentSettingsChange", "PatchedTournamentSettingsChange")


def _settings_properties() -> dict[str, dict[str, Any]]:
    sizes = sorted({size for kind in GAME_TYPES.values() for size in kind.table_sizes})
    return {
        "rounds": {"minimum": 1, "maximum": domain.MAX_ROUNDS},
        "scoring": {"enum": list(standings.PRESETS)},
        "tiebreaks": {"items": {"type": "string", "enum": list(standings.TIEBREAKS)}},
        "pairing": {"enum": list(domain.PAIRING_MODES)},
        "publish": {"enum": list(domain.PUBLISH_MODES)},
        "round1": {"enum": list(domain.ROUND1_METHODS)},
        "confirmation": {"enum": list(domain.CONFIRMATION_MODES)},
        "table_size": {"enum": [*sizes, None]},
        "game_type": {"enum": list(GAME_TYPES)},
    }


def _table_size_of_each_game() -> dict[str, Any]:
    """A new tournament's table size is one its game allows (no game_type: the default's)."""
    shapes = []
    for key, kind in GAME_TYPES.items():
        shape: dict[str, Any] = {
            "properties": {
                "game_type": {"enum": [key]},
                "table_size": {"enum": [*sorted(kind.table_sizes), None]},
            }
        }
        if key != DEFAULT_GAME_TYPE:
            shape["required"] = ["game_type"]
        shapes.append(shape)
    return {"anyOf": shapes}


def _one_setting_at_least(component: dict[str, Any]) -> dict[str, Any]:
    settings = [name for name in component.get("properties", {}) if name != "expected_version"]
    return {"anyOf": [{"required": [name]} for name in settings]}


def _exactly_one_clock(component: dict[str, Any]) -> dict[str, Any]:
    """A round's clock: ends_at, minutes or stop (true), exactly one (else 422 bad_clock)."""
    return {
        "oneOf": [
            {"required": ["ends_at"]},
            {"required": ["minutes"]},
            {"required": ["stop"], "properties": {"stop": {"enum": [True]}}},
        ]
    }


def _one_list(component: dict[str, Any]) -> dict[str, Any]:
    """A registration: names (and their ratings), text or teams, one of them. (One rating per
    name is the rules' to check: 422 bad_players.)"""
    return {
        "oneOf": [{"required": ["names"]}, {"required": ["text"]}, {"required": ["teams"]}],
        "anyOf": [{"required": ["names"]}, {"not": {"required": ["ratings"]}}],
    }


PATH_PARAMETERS: dict[str, dict[str, Any]] = {
    "round": {"minimum": 1, "maximum": domain.MAX_ROUNDS},
    "table": {"minimum": 1},
    "player": {"pattern": "^P[1-9][0-9]*$"},
}
"""What a tournament's path names: a round (1 to the most a tournament plans), a table (from 1)
and a player's id (``P1``, ``P2``, ... in registration order: tournaments.domain). Anything else
names nothing the tournament can have (422 ``unknown_round``, ``unknown_table``,
``unknown_player``); which of them exist is the tournament's state."""


def _path_parameters(paths: dict[str, Any]) -> None:
    for operations in paths.values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", ()):
                extra = PATH_PARAMETERS.get(parameter.get("name", ""))
                if parameter.get("in") == "path" and extra is not None:
                    parameter.setdefault("schema", {}).update(extra)


def tournament_bodies(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular's POSTPROCESSING_HOOKS entry (before games.api.schema's)."""
    _path_parameters(result.get("paths", {}))
    components = result.get("components", {}).get("schemas", {})
    rules = _settings_properties()
    for name in SETTINGS:
        component = components.get(name)
        if component is None:
            continue
        for key, extra in rules.items():
            prop = component.get("properties", {}).get(key)
            if prop is not None:
                prop.update(extra)
        if "tiebreaks" in component.get("properties", {}):
            component["properties"]["tiebreaks"]["uniqueItems"] = True
    if "TournamentCreate" in components:
        components["TournamentCreate"].update(_table_size_of_each_game())
    for name in CHANGES:
        if name in components:
            components[name].update(_one_setting_at_least(components[name]))
    if "TournamentClock" in components:
        components["TournamentClock"].update(_exactly_one_clock(components["TournamentClock"]))
    if "TournamentRegister" in components:
        register = components["TournamentRegister"]
        register.update(_one_list(register))
        for key in ("names", "teams"):  # at least one entrant (else 422 bad_players)
            if key in register.get("properties", {}):
                register["properties"][key]["minItems"] = 1
        if "names" in register.get("properties", {}):
            register["properties"]["names"]["uniqueItems"] = True
    team = components.get("TournamentTeam")
    if team is not None and "members" in team.get("properties", {}):
        least = min(k.team_members[0] for k in GAME_TYPES.values() if k.team_members)
        most = max(k.team_members[1] for k in GAME_TYPES.values() if k.team_members)
        team["properties"]["members"].update(
            {"minItems": least, "maxItems": most, "uniqueItems": True}
        )
    return result
