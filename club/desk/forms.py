"""The club desk's forms: they turn what an official typed into the services' arguments, and
come back with it still in them when it is refused. The services (club.services.writes) decide;
these only read the text: numbers are numbers, lists are split at their commas."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from club import domain
from tournaments.desk.forms import DeskForm

_LIST_SPLIT: Final = re.compile(r"[,;、，]")
_NUMBER_SPLIT: Final = re.compile(r"[\s,;、，]+")


def points_text(points: Sequence[int]) -> str:
    return ", ".join(str(p) for p in points)


def divisions_text(divisions: Sequence[str]) -> str:
    return ", ".join(divisions)


REFUSED_FIELDS: Final[Mapping[str, str]] = {
    "bad_name": "name",
    "bad_points": "points",
    "bad_best": "best",
    "bad_drop_worst": "drop_worst",
    "bad_min_events": "min_events",
    "bad_divisions": "divisions",
}
"""The field a service's refusal (by its code) is about: the words go next to it."""


class LeagueForm(DeskForm):
    """A league's name and rules (club.domain.LeagueRules), as the new league's form and the
    league's page show them."""

    name = forms.CharField(label=pgettext_lazy("a league's name", "Name"), max_length=100)
    points = forms.CharField(
        label=gettext_lazy("Points per place"),
        max_length=2000,
        help_text=gettext_lazy(
            "Whole numbers separated by commas, first place first: the first number is the "
            "winner's points. A place beyond the list scores nothing."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", "size": 50}),
    )
    best = forms.IntegerField(
        label=gettext_lazy("Count only the best results (optional)"),
        required=False,
        min_value=1,
        max_value=1000,
        help_text=gettext_lazy("Leave empty to count every result."),
    )
    drop_worst = forms.IntegerField(
        label=gettext_lazy("Drop the worst results"),
        required=False,
        min_value=0,
        max_value=1000,
        initial=0,
        help_text=gettext_lazy("How many of each member's worst results do not count."),
    )
    min_events = forms.IntegerField(
        label=gettext_lazy("Minimum tournaments"),
        required=False,
        min_value=1,
        max_value=1000,
        initial=1,
        help_text=gettext_lazy("A member is ranked once they took part in this many."),
    )
    divisions = forms.CharField(
        label=gettext_lazy("Divisions (optional)"),
        required=False,
        max_length=1000,
        help_text=gettext_lazy(
            "Names separated by commas, such as Open, Juniors. Leave empty for one table."
        ),
    )

    @classmethod
    def initial_for(cls, league: domain.League | None = None) -> dict[str, Any]:
        rules = league.rules if league is not None else domain.LeagueRules()
        return {
            "name": league.name if league is not None else "",
            "points": points_text(rules.points),
            "best": rules.best,
            "drop_worst": rules.drop_worst,
            "min_events": rules.min_events,
            "divisions": divisions_text(rules.divisions),
        }

    def clean_points(self) -> list[int]:
        text = str(self.cleaned_data.get("points") or "")
        parts = [p for p in _NUMBER_SPLIT.split(text.strip()) if p]
        if not parts:
            raise forms.ValidationError(_("Give at least the winner's points."))
        try:
            return [int(p) for p in parts]
        except ValueError:
            raise forms.ValidationError(
                _(
                    "Give the points as whole numbers separated by commas, first place first: "
                    "such as 25, 20, 16."
                )
            ) from None

    def clean_divisions(self) -> list[str]:
        text = str(self.cleaned_data.get("divisions") or "")
        return [d.strip() for d in _LIST_SPLIT.split(text) if d.strip()]

    def rules(self) -> dict[str, Any]:
        """The rules as the services take them (the JSON form of LeagueRules)."""
        data = self.cleaned_data
        return {
            "points": data["points"],
            "best": data["best"],
            "drop_worst": data["drop_worst"] if data["drop_worst"] is not None else 0,
            "min_events": data["min_events"] if data["min_events"] is not None else 1,
            "divisions": data["divisions"],
        }

    def changes(self, league: domain.League) -> tuple[str | None, dict[str, Any]]:
        """(the new name or None, the rules that differ from the league's)."""
        name = self.cleaned_data["name"].strip()
        now = league.rules.to_json()
        rules = {key: value for key, value in self.rules().items() if now.get(key) != value}
        return (name if name != league.name else None), rules

    def refused(self, code: str, message: str) -> None:
        """A service's refusal, next to the field it is about (else above the form)."""
        self.add_error(REFUSED_FIELDS.get(code), message)


class LinkForm(DeskForm):
    tournament = forms.ChoiceField(label=gettext_lazy("Tournament"))

    def __init__(self, *args: Any, choices: Sequence[tuple[str, str]] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        field = self.fields["tournament"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = list(choices)


class DisplayNameForm(DeskForm):
    display_name = forms.CharField(
        label=gettext_lazy("Display name"),
        required=False,
        max_length=100,
        help_text=gettext_lazy(
            "The name every page shows for this member. Leave empty to show the name they "
            "last registered with."
        ),
    )


class MergeForm(DeskForm):
    into = forms.ChoiceField(label=gettext_lazy("Merge into"))

    def __init__(self, *args: Any, choices: Sequence[tuple[str, str]] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        field = self.fields["into"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", _("Choose a member")), *choices]
