"""The settings panel: the tournament's settings in words, the roles, the scheduled pairings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings as django_settings
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.gametypes import GAME_TYPES
from tournaments import domain, standings
from tournaments.desk.forms import (
    CONFIRMATION_LABELS,
    PAIRING_LABELS,
    PUBLISH_LABELS,
    ROUND1_LABELS,
)
from tournaments.desk.presenters.common import ROLE_NAMES, delay_words


def settings_view(
    settings: Mapping[str, Any], game_type: str | None = None
) -> list[tuple[str, str]]:
    """Every setting of the tournament, labelled as the organizer chose it (with the game and
    its full table first, when ``game_type`` is given)."""
    s = settings
    preset = standings.PRESETS.get(s["scoring"])
    bye = s["bye_points"]
    game: list[tuple[str, str]] = []
    kind = GAME_TYPES.get(game_type or "")
    if kind is not None:
        full = domain.pairing_sizes(kind.table_sizes, s.get("table_size"))[-1]
        game = [
            (_("Game"), kind.name),
            (
                _("Full table"),
                _("two teams")
                if kind.teams
                else ngettext("%(count)s player", "%(count)s players", full) % {"count": full},
            ),
        ]
    return game + [
        (_("Swiss rounds"), str(s["rounds"])),
        (_("Scoring"), _(preset.name) if preset else s["scoring"]),
        (
            _("Tie-breaks"),
            ", ".join(
                _(standings.TIEBREAKS[k].title) for k in s["tiebreaks"] if k in standings.TIEBREAKS
            )
            or pgettext("no tie-breaks", "none"),
        ),
        (_("Pairing"), str(PAIRING_LABELS.get(s["pairing"], (s["pairing"], ""))[0])),
        (_("Publishing"), str(PUBLISH_LABELS.get(s["publish"], (s["publish"], ""))[0])),
        (_("Round 1"), str(ROUND1_LABELS.get(s["round1"], (s["round1"], ""))[0])),
        (
            _("Confirms results"),
            str(CONFIRMATION_LABELS.get(s["confirmation"], (s["confirmation"], ""))[0]),
        ),
        (_("Check-in"), _("yes") if s["check_in"] else _("no")),
        (
            _("Time zone"),
            s.get("time_zone") or _("the site's (%(zone)s)") % {"zone": django_settings.TIME_ZONE},
        ),
        (
            _("Points for a bye"),
            _("the scoring's average") if bye is None else formats.number_format(f"{bye:g}"),
        ),
        (_("Spectators' delay"), delay_words(s.get("relay_delay", 0))),
    ]


@dataclass(frozen=True, slots=True)
class RoleRow:
    user: str
    roles: tuple[tuple[str, str], ...]
    """(role, its name) for each role the user holds."""


def role_rows(summary: Mapping[str, Any]) -> list[RoleRow]:
    return [
        RoleRow(r["user"], tuple((role, str(ROLE_NAMES.get(role, role))) for role in r["roles"]))
        for r in summary["roles"]
    ]


def scheduled(summary: Mapping[str, Any]) -> list[tuple[int, datetime]]:
    """The rounds to be paired at a set time, and when."""
    return [(int(n), datetime.fromisoformat(at)) for n, at in summary["scheduled"].items()]
