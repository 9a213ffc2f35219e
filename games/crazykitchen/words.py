"""Crazy Kitchen's words for the pages and the phones: the tools of the scoreboard (the record's
codes, engine.crazykitchen.rules.TOOLS) and an upgrade in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def tool_name(code: str) -> str:
    """A tool's name in the reader's language (the code itself for one this site does not
    know)."""
    names = {
        "knife": pgettext("crazy kitchen tool", "knife"),
        "grater": pgettext("crazy kitchen tool", "grater"),
        "pan": pgettext("crazy kitchen tool", "pan"),
        "pot": pgettext("crazy kitchen tool", "pot"),
        "oven": pgettext("crazy kitchen tool", "oven"),
        "blender": pgettext("crazy kitchen tool", "blender"),
        "sink": pgettext("crazy kitchen tool", "sink"),
    }
    return names.get(code, code)


def event_words(event: Mapping[str, Any]) -> str:
    """A v2 event in words: "Reds: order fulfilled, 3 points"."""
    kind, team = event.get("type"), event.get("team", "")
    if kind == "order_fulfilled":
        text = _("%(team)s: order fulfilled, %(points)s points")
        return text % {"team": team, "points": event.get("points")}
    if kind == "order_failed":
        text = _("%(team)s: order failed, penalty %(penalty)s")
        return text % {"team": team, "penalty": event.get("penalty")}
    if kind == "order_struck":
        return _("%(team)s: order %(order)s struck") % {"team": team, "order": event.get("order")}
    if kind == "round_returned":
        return _("%(team)s returned the round to the cooks") % {"team": team}
    if kind == "round_confirmed":
        return _("%(team)s confirmed the round") % {"team": team}
    if kind == "tool_sped_up":
        return _("%(team)s sped up the %(tool)s for %(cost)s") % {
            "team": team,
            "tool": tool_name(str(event.get("tool", ""))),
            "cost": event.get("cost"),
        }
    if kind == "card_taken":
        return _("%(team)s took a one-time card for %(cost)s") % {
            "team": team,
            "cost": event.get("cost"),
        }
    if kind == "upgrades_done":
        return _("%(team)s finished upgrading") % {"team": team}
    return str(kind)
