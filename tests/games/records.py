"""What starts a table with a given record (for tests that play a simulated record of any game
through the store, the pages or the API)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def start_args(first: Mapping[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """``game_create``'s entrants (in seat order) and options for a table whose record starts
    with ``first``, the inverse of ``GameType.start``: a team game's teams, the team that cooks
    first in seat 1, with their players and the record's compensation."""
    if "teams" not in first:  # the players, and Trick-n-Chef's suits if the record names them
        return list(first["players"]), ({"suits": first["suits"]} if "suits" in first else {})
    teams = sorted((t["name"] for t in first["teams"]), key=lambda t: t != first["cooks_first"])
    options: dict[str, Any] = {"members": {t["name"]: t["players"] for t in first["teams"]}}
    if first.get("compensation") is not None:
        options["compensation"] = first["compensation"]
    if any("head_chef" in t for t in first["teams"]):  # Crazy Kitchen v2
        options["head_chefs"] = {t["name"]: t["head_chef"] for t in first["teams"]}
    return teams, options
