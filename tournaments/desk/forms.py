"""The organizer desk's forms: they parse and check what was typed, so a refused form comes back
with everything still in it. The services decide; these only turn text into arguments."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils import timezone, translation
from django.utils.formats import time_format
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.gametypes import DEFAULT_GAME_TYPE, GAME_TYPES
from tournaments import domain, standings, timezones
from tournaments.domain.decisions import RELAY_DELAY_LONGEST

MAX_TIEBREAKS = len(standings.TIEBREAKS)
MAX_UPLOAD = domain.MAX_PLAYER_LIST_BYTES
"""A CSV of players is a few kilobytes: the desk takes a pasted list or a file as large as the
API does (256 KiB), and the registration as many names (500: the services refuse more)."""

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise as Text
else:
    Text = str | Promise
"""A label: a string, or a lazy translation (gettext_lazy) made a string where it is shown."""

PAIRING_LABELS: Mapping[str, tuple[Text, Text]] = {
    "manual": (
        pgettext_lazy("pairing of the next round", "By hand"),
        gettext_lazy("I press Pair for each round."),
    ),
    "auto": (
        gettext_lazy("When the round is complete"),
        gettext_lazy("The next round is paired as soon as the last table's result is confirmed."),
    ),
    "scheduled": (
        gettext_lazy("At a set time"),
        gettext_lazy("Each round is paired at the time I set for it."),
    ),
}
PUBLISH_LABELS: Mapping[str, tuple[Text, Text]] = {
    "manual": (
        gettext_lazy("After I check it"),
        gettext_lazy("I review each proposal (and swap players) before publishing."),
    ),
    "auto": (
        gettext_lazy("At once"),
        gettext_lazy("An automatically paired round is published as soon as it is paired."),
    ),
}
ROUND1_LABELS: Mapping[str, tuple[Text, Text]] = {
    "random": (
        pgettext_lazy("round 1 seating", "Random"),
        gettext_lazy("Players are shuffled (the seed is recorded)."),
    ),
    "order": (
        gettext_lazy("Registration order"),
        gettext_lazy("The first four registered share table 1, and so on."),
    ),
    "rating": (
        gettext_lazy("By rating"),
        gettext_lazy("The highest rated share table 1, and so on."),
    ),
}
CONFIRMATION_LABELS: Mapping[str, tuple[Text, Text]] = {
    "organizer": (
        gettext_lazy("An organizer"),
        gettext_lazy(
            "An organizer confirms each table's result (or a scorekeeper who did not enter it)."
        ),
    ),
    "second_person": (
        gettext_lazy("A second person"),
        gettext_lazy("Someone who did not enter the table confirms it, organizers included."),
    ),
    "auto": (gettext_lazy("Nobody"), gettext_lazy("A finished table's result counts at once.")),
}
ROLE_LABELS: Mapping[str, Text] = {
    domain.SCOREKEEPER: gettext_lazy("Scorekeeper"),
    domain.ORGANIZER: gettext_lazy("Co-organizer"),
}
TIEBREAK_LABELS: Mapping[int, Text] = {
    1: gettext_lazy("First tie-break"),
    2: gettext_lazy("Second tie-break"),
    3: gettext_lazy("Third tie-break"),
    4: gettext_lazy("Fourth tie-break"),
    5: gettext_lazy("Fifth tie-break"),
}
"""The tie-break fields' labels, by position (one whole label each: the word order is the
language's)."""


def _choices(
    keys: tuple[str, ...], labels: Mapping[str, tuple[Text, Text]]
) -> list[tuple[str, Text]]:
    """Every value the domain allows, labelled (an unlabelled one still shows, by its key)."""
    return [(key, labels.get(key, (key, ""))[0]) for key in keys]


def described(
    field: forms.BoundField, labels: Mapping[str, tuple[Text, Text]]
) -> list[dict[str, Any]]:
    """A radio field's options with their explanations, for the template."""
    return [
        {"radio": radio, "description": labels.get(str(radio.data["value"]), ("", ""))[1]}
        for radio in field
    ]


class DeskForm(forms.Form):
    """Labels without a colon; a field with an error says so to assistive technology."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def full_clean(self) -> None:
        super().full_clean()
        for name in self.errors:
            if name not in self.fields:
                continue
            bound = self[name]
            attrs = self.fields[name].widget.attrs
            attrs["aria-invalid"] = "true"
            described_by = [f"{bound.auto_id}_error"]
            if self.fields[name].help_text:
                described_by.insert(0, f"{bound.auto_id}_helptext")
            attrs["aria-describedby"] = " ".join(described_by)

    def first_error(self) -> str:
        """One line for a summary."""
        for errors in self.errors.values():
            return str(errors[0])
        return ""


# ----------------------------------------------------------------------------- dates and times
# Native date and time boxes (<input type="date|time|datetime-local">) are drawn by the
# browser in the browser's (or the system's) locale, not the page's language: an English page
# in a US browser shows 12/02/2026 and AM/PM while the lists say "12 Dec 2026" and 19:30, and
# no attribute changes that. So the desk takes dates and times in text boxes with one
# documented format for every language (the help under each box says it): dates year first,
# 2026-12-12 (also the language's own numeric form: 12/12/2026 in French, 12.12.2026 in
# Russian, 2026/12/12 in Japanese, "12 Dec 2026" in English), times on the 24-hour clock, as
# every page shows them (19:30; 19.30 and 19h30 are read too), in the tournament's time zone
# (tournaments.timezones), named in the help.

ISO_DATE = "%Y-%m-%d"
TIME_INPUTS = ("%H:%M", "%H.%M", "%Hh%M", "%H:%M:%S")
DATE_INPUTS: Mapping[str, tuple[str, ...]] = {
    "en": ("%d %b %Y", "%d %B %Y"),
    "fr": ("%d/%m/%Y", "%d.%m.%Y"),
    "ru": ("%d.%m.%Y",),
    "ja": ("%Y/%m/%d", "%Y年%m月%d日"),
}
"""Besides ISO (2026-12-12, always read): the date as each language writes it in figures."""


def date_inputs() -> list[str]:
    """The date formats read in the current language, ISO first."""
    language = (translation.get_language() or "en").split("-")[0]
    return [ISO_DATE, *DATE_INPUTS.get(language, ())]


def datetime_inputs() -> list[str]:
    """Date and time formats read in the current language ("2026-12-12 19:30" first)."""
    return [
        f"{day}{between}{clock}"
        for day in date_inputs()
        for between in (" ", "T", ", ")
        for clock in TIME_INPUTS
    ]


def zone_label() -> str:
    """The current time zone as the desk names it next to a time ("Europe/Paris")."""
    return timezone.get_current_timezone_name()


def _text_box(placeholder: str, size: int) -> forms.TextInput:
    return forms.TextInput(
        attrs={
            "placeholder": placeholder,
            "autocomplete": "off",
            "size": size,
            "spellcheck": "false",
        }
    )


def zone_help() -> str:
    return _(
        "Where the club plays, by the zone's name, such as Europe/Paris or America/New_York: "
        "every time on the desk and the public pages is in it. Leave empty for the site's "
        "(%(zone)s)."
    ) % {"zone": timezones.site_zone()}


def time_zone_field() -> ClubTimeZoneField:
    return ClubTimeZoneField(
        label=gettext_lazy("Time zone"),
        required=False,
        max_length=64,
        widget=_text_box("Europe/Paris", 24),
    )


class ClubTimeZoneField(forms.CharField):
    """A time zone's IANA name (Europe/Paris), in any case; empty: the site's zone (None)."""

    def to_python(self, value: Any) -> str | None:
        text = "".join(str(value or "").split())
        if not text:
            return None
        names = {name.lower(): name for name in domain.time_zone_names()}
        found = names.get(text.lower())
        if found is None:
            try:
                domain.check_time_zone(text)
            except domain.Refusal as refusal:
                raise forms.ValidationError(refusal.say(translation)) from None
        return found


# ----------------------------------------------------------------------------- a new tournament


def tiebreaks_note() -> str:
    """Whose tie-breaks the new tournament's form offers (the games ranked by the Swiss
    standings), and how each other game ranks its entrants (its standings rule's words)."""
    swiss = _(", ").join(kind.name for kind in GAME_TYPES.values() if kind.standings_rule is None)
    orders = [
        _(kind.standings_rule.order) % {"game": kind.name}
        for kind in GAME_TYPES.values()
        if kind.standings_rule is not None and kind.standings_rule.order
    ]
    if not orders:
        return _("These tie-breaks are %(games)s's.") % {"games": swiss}
    between = pgettext("the separator between the parts of a list that hold commas", "; ")
    return _(
        "These tie-breaks are %(games)s's. The other games keep their own order: %(orders)s."
    ) % {"games": swiss, "orders": between.join(orders)}


def table_sizes_help() -> str:
    """The new tournament's table size, explained: each registered game's full table (a team
    game's two teams last)."""
    sizes = _(", ").join(
        _full_table(kind.name, kind.table_sizes) for kind in GAME_TYPES.values() if not kind.teams
    )
    for kind in GAME_TYPES.values():
        if kind.teams:
            sizes = _("%(sizes)s (%(game)s: two teams)") % {"sizes": sizes, "game": kind.name}
    return _(
        "A full table: %(sizes)s. Leave empty for the game's largest; a smaller table fills in "
        "where the players do not divide evenly."
    ) % {"sizes": sizes}


def _full_table(game: str, sizes: tuple[int, ...]) -> str:
    least, most = min(sizes), max(sizes)
    if least == most:
        return _("%(game)s %(size)s") % {"game": game, "size": least}
    if most == least + 1:
        return _("%(game)s %(least)s or %(most)s") % {"game": game, "least": least, "most": most}
    return _("%(game)s %(least)s to %(most)s") % {"game": game, "least": least, "most": most}


def team_sizes_help() -> str:
    """How many players a team of each registered team game may have."""
    return " ".join(
        _("%(game)s: %(least)s to %(most)s players a team.")
        % {"game": kind.name, "least": kind.team_members[0], "most": kind.team_members[1]}
        for kind in GAME_TYPES.values()
        if kind.team_members is not None
    )


def game_label(key: str) -> str:
    """A game as the new tournament's form offers it: its name (a brand, never translated) and
    who sits at its tables."""
    kind = GAME_TYPES[key]
    if kind.teams:
        return _("%(game)s (two teams a table)") % {"game": kind.name}
    least, most = min(kind.table_sizes), max(kind.table_sizes)
    return _("%(game)s (%(least)s to %(most)s players a table)") % {
        "game": kind.name,
        "least": least,
        "most": most,
    }


class TournamentForm(DeskForm):
    name = forms.CharField(max_length=domain.MAX_TOURNAMENT_NAME, label=gettext_lazy("Name"))
    date = forms.DateField(
        label=gettext_lazy("Date"),
        widget=forms.DateInput(
            format=ISO_DATE, attrs={"placeholder": "2026-12-12", "autocomplete": "off", "size": 12}
        ),
        help_text=gettext_lazy("Year, month, day: such as 2026-12-12."),
        error_messages={"invalid": gettext_lazy("Give the date as 2026-12-12 (year, month, day).")},
    )
    game_type = forms.ChoiceField(
        label=gettext_lazy("Game"),
        choices=lambda: [(key, game_label(key)) for key in GAME_TYPES],
        initial=DEFAULT_GAME_TYPE,
        required=False,  # an older form without it: Trick-n-Chef
    )
    table_size = forms.IntegerField(
        label=gettext_lazy("Players a table (optional)"),
        required=False,
        min_value=2,
        max_value=12,
        help_text=lazy(table_sizes_help, str)(),
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Swiss rounds"),
        min_value=1,
        max_value=30,
        initial=4,
        help_text=gettext_lazy("How many rounds every player plays (you can change it later)."),
    )
    scoring = forms.ChoiceField(
        label=gettext_lazy("Scoring"),
        choices=[(key, gettext_lazy(preset.name)) for key, preset in standings.PRESETS.items()],
        initial="scaled",
        widget=forms.RadioSelect,
    )
    pairing = forms.ChoiceField(
        label=gettext_lazy("Pairing of the next round"),
        choices=_choices(domain.PAIRING_MODES, PAIRING_LABELS),
        initial="manual",
        widget=forms.RadioSelect,
    )
    publish = forms.ChoiceField(
        label=gettext_lazy("Publishing a paired round"),
        choices=_choices(domain.PUBLISH_MODES, PUBLISH_LABELS),
        initial="manual",
        widget=forms.RadioSelect,
    )
    round1 = forms.ChoiceField(
        label=gettext_lazy("Round 1 seating"),
        choices=_choices(domain.ROUND1_METHODS, ROUND1_LABELS),
        initial="random",
        widget=forms.RadioSelect,
    )
    confirmation = forms.ChoiceField(
        label=gettext_lazy("Who confirms a table's result"),
        choices=_choices(domain.CONFIRMATION_MODES, CONFIRMATION_LABELS),
        initial="organizer",
        widget=forms.RadioSelect,
    )
    check_in = forms.BooleanField(
        label=gettext_lazy("Players check in on the day (only checked-in players are seated)"),
        required=False,
        initial=True,
    )
    bye_points = forms.DecimalField(
        label=gettext_lazy("Points for a bye"),
        required=False,
        min_value=0,
        max_digits=6,
        decimal_places=2,
        help_text=gettext_lazy("Leave empty for the scoring's average at a full table."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].input_formats = date_inputs()  # type: ignore[attr-defined]
        self.fields["time_zone"] = time_zone_field()
        self.fields["time_zone"].help_text = zone_help()
        none = [("", _("(none)"))]
        options = [(key, _(tiebreak.title)) for key, tiebreak in standings.TIEBREAKS.items()]
        defaults = list(domain.Settings.tiebreaks)
        for position in range(1, MAX_TIEBREAKS + 1):
            self.fields[f"tiebreak_{position}"] = forms.ChoiceField(
                label=_tiebreak_label(position),
                choices=none + options,
                required=False,
                initial=defaults[position - 1] if position <= len(defaults) else "",
            )

    @property
    def tiebreak_fields(self) -> list[forms.BoundField]:
        return [self[f"tiebreak_{n}"] for n in range(1, MAX_TIEBREAKS + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        order = [data.get(f"tiebreak_{n}") for n in range(1, MAX_TIEBREAKS + 1)]
        chosen = [key for key in order if key]
        for n, key in enumerate(order, start=1):
            if key and order.index(key) != n - 1:
                title = _(standings.TIEBREAKS[key].title)
                position = str(_tiebreak_label(order.index(key) + 1)).lower()
                self.add_error(
                    f"tiebreak_{n}",
                    _("%(title)s is already the %(position)s.")
                    % {"title": title, "position": position},
                )
        data["tiebreaks"] = chosen
        data["game_type"] = data.get("game_type") or DEFAULT_GAME_TYPE
        kind = GAME_TYPES[data["game_type"]]
        if data.get("table_size") is not None:
            try:
                domain.check_table_size(data["table_size"], kind)
            except domain.Refusal as refusal:
                self.add_error("table_size", refusal.say(translation))
        return data

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        bye = data.get("bye_points")
        return {
            "name": data["name"],
            "date": data["date"].isoformat(),
            "rounds": data["rounds"],
            "game_type": data["game_type"],
            "table_size": data.get("table_size"),
            "time_zone": data.get("time_zone"),
            "scoring": data["scoring"],
            "tiebreaks": data["tiebreaks"],
            "pairing": data["pairing"],
            "publish": data["publish"],
            "round1": data["round1"],
            "confirmation": data["confirmation"],
            "check_in": data["check_in"],
            "bye_points": None if bye is None else float(bye),
        }


def _tiebreak_label(n: int) -> Text:
    """First tie-break, Second tie-break, ... (a sixth: Tie-break 6)."""
    return TIEBREAK_LABELS.get(n) or _("Tie-break %(position)d") % {"position": n}


# ----------------------------------------------------------------------------- players


class RegisterListForm(DeskForm):
    text = forms.CharField(
        label=gettext_lazy("Names, one per line"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "autocomplete": "off", "spellcheck": "false"}),
        help_text=gettext_lazy("Or CSV with a name column and, optionally, a rating column."),
    )
    file = forms.FileField(
        label=gettext_lazy("Or upload a CSV file"),
        required=False,
        widget=forms.FileInput(attrs={"accept": ".csv,.txt,text/csv,text/plain"}),
    )
    here = forms.BooleanField(
        label=gettext_lazy("Everyone on the list is here: check them all in"),
        required=False,
        help_text=gettext_lazy("Someone not here after all? Tap their Here to check them out."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        text = (data.get("text") or "").strip()
        upload = data.get("file")
        if upload and text:
            raise forms.ValidationError(
                _(
                    "Paste a list or upload a file, not both (your list is kept: clear it to use "
                    "the file)."
                )
            )
        if upload:
            if upload.size is not None and upload.size > MAX_UPLOAD:
                self.add_error("file", _too_large(upload.size))
                return data
            raw = upload.read(MAX_UPLOAD + 1)
            if len(raw) > MAX_UPLOAD:
                self.add_error("file", _too_large(len(raw)))
                return data
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                text = raw.decode("cp1252", errors="replace")
            if not text.strip():
                self.add_error("file", _("This file is empty."))
        elif not text:
            self.add_error("text", _("Paste at least one name, or choose a file."))
        elif (size := len(text.encode("utf-8", "surrogatepass"))) > MAX_UPLOAD:
            self.add_error("text", _too_large(size))
        data["players_text"] = text
        return data


def _too_large(size: int) -> str:
    return _(
        "This list is too large: %(size)s KiB, and a list of players takes at most %(max)s KiB "
        "(500 players with ratings are about 20 KiB)."
    ) % {"size": -(-size // 1024), "max": MAX_UPLOAD // 1024}


class TeamForm(DeskForm):
    """A team game's entrant: the team's name and its players, one a line (or a comma
    between them)."""

    name = forms.CharField(label=gettext_lazy("Team name"), max_length=domain.MAX_NAME)
    members = forms.CharField(
        label=gettext_lazy("Its players, one per line"),
        widget=forms.Textarea(attrs={"rows": 3, "autocomplete": "off", "spellcheck": "false"}),
        help_text=lazy(team_sizes_help, str)(),
    )
    here = forms.BooleanField(
        label=gettext_lazy("Here now: check the team in"), required=False, initial=True
    )

    def clean_members(self) -> list[str]:
        text: str = self.cleaned_data["members"]
        names = [n.strip() for line in text.splitlines() for n in line.split(",")]
        return [n for n in names if n]


class AddPlayerForm(DeskForm):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=domain.MAX_NAME)
    rating = forms.IntegerField(label=gettext_lazy("Rating (optional)"), required=False)
    here = forms.BooleanField(
        label=gettext_lazy("Here now: check them in"), required=False, initial=True
    )


# ----------------------------------------------------------------------------- roles and settings


class RoleForm(DeskForm):
    username = forms.CharField(
        label=gettext_lazy("Username"),
        max_length=150,
        help_text=gettext_lazy("They need an account on this site; ask them for their username."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )
    role = forms.ChoiceField(
        label=gettext_lazy("Role"), choices=list(ROLE_LABELS.items()), initial="scorekeeper"
    )


DELAY_MINUTES_MOST = RELAY_DELAY_LONGEST // 60
"""The spectators' delay is typed in whole minutes on the desk (the services take seconds)."""
DELAY_ERRORS = {
    key: gettext_lazy("Give the delay in whole minutes, from 0 to 60.")
    for key in ("required", "invalid", "min_value", "max_value")
}


def delay_minutes(seconds: int) -> int:
    """A delay in seconds as the desk's forms show it: whole minutes, rounded up (a delay under a
    minute is not shown as none)."""
    return -(-seconds // 60)


class PublicForm(DeskForm):
    """What the public sees."""

    standings_hidden_from = forms.IntegerField(
        label=gettext_lazy("Hide the standings from round"),
        required=False,
        min_value=1,
        help_text=gettext_lazy(
            "Keeps the last rounds a surprise. Leave empty to always show them."
        ),
    )
    standings_revealed = forms.BooleanField(
        label=gettext_lazy("Standings revealed (show them even in the hidden rounds)"),
        required=False,
    )
    downloads_released = forms.BooleanField(
        label=gettext_lazy("Downloads released (results CSV and game records are public)"),
        required=False,
    )
    time_zone = time_zone_field()
    rank_not_checked_in = forms.BooleanField(
        label=gettext_lazy("Rank the players who never checked in"),
        required=False,
        help_text=gettext_lazy(
            "Otherwise a player who has not checked in and has played no game is listed apart, "
            "under the standings."
        ),
    )

    relay_delay = forms.IntegerField(
        label=gettext_lazy("Spectators' delay (minutes)"),
        required=False,
        min_value=0,
        max_value=DELAY_MINUTES_MOST,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages=DELAY_ERRORS,
        help_text=gettext_lazy(
            "Spectators see every table this many minutes after it is played, its plays and its "
            "results. The organizers, the scorekeepers and the table's own seats see it at once. "
            "0 or empty: no delay. A round may have its own, on the round panel."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].help_text = zone_help()

    def clean_relay_delay(self) -> int:
        minutes: int | None = self.cleaned_data.get("relay_delay")
        return minutes or 0

    def changes(self, current: Mapping[str, Any]) -> dict[str, Any]:
        """The settings that differ from ``current`` (the tournament's settings); the delay in
        the services' seconds, changed only if the minutes typed are not the ones shown (a delay
        set through the API in seconds, 90, shows as 2 minutes, and stays 90 seconds unless the
        organizer types another number)."""
        changed = {}
        for key, value in self.cleaned_data.items():
            if key not in self.fields:
                continue
            if key == "relay_delay":
                if value != delay_minutes(current.get("relay_delay", 0)):
                    changed[key] = value * 60
            elif _current(current, key, self.fields[key]) != value:
                changed[key] = value
        return changed


def _current(current: Mapping[str, Any], key: str, field: forms.Field) -> Any:
    """A setting's value now; a yes/no setting the summary leaves out when unset
    (rank_not_checked_in) is no."""
    return current.get(key, False) if isinstance(field, forms.BooleanField) else current.get(key)


class ScheduleForm(DeskForm):
    at = forms.DateTimeField(
        label=gettext_lazy("Pair at"),
        widget=forms.DateTimeInput(
            format="%Y-%m-%d %H:%M",
            attrs={"placeholder": "2026-12-12 19:30", "autocomplete": "off", "size": 18},
        ),
        error_messages={
            "invalid": gettext_lazy(
                "Give the date and the time as 2026-12-12 19:30 (24-hour clock)."
            )
        },
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["at"].input_formats = datetime_inputs()  # type: ignore[attr-defined]
        self.fields["at"].help_text = _(
            "Date and time in %(zone)s, on the 24-hour clock: such as 2026-12-12 19:30."
        ) % {"zone": zone_label()}

    def clean_at(self) -> datetime:
        at: datetime = self.cleaned_data["at"]
        if at <= timezone.now():
            raise forms.ValidationError(_("Choose a time in the future."))
        return at


class SwapForm(DeskForm):
    a = forms.CharField(label=pgettext_lazy("swap a player", "Swap"), max_length=20)
    b = forms.CharField(label=pgettext_lazy("swap a player with", "with"), max_length=20)

    def __init__(self, *args: Any, seated: list[tuple[str, str]] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if seated is not None:
            choices = [("", _("Choose a player")), *seated]
            self.fields["a"] = forms.ChoiceField(
                label=pgettext_lazy("swap a player", "Swap"), choices=choices
            )
            self.fields["b"] = forms.ChoiceField(
                label=pgettext_lazy("swap a player with", "with"), choices=choices
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("a") and data.get("a") == data.get("b"):
            self.add_error("b", _("Choose two different players."))
        return data


CLOCK_AHEAD_HOURS = 12
"""An end time is the next time the clock shows it, at most this many hours from now."""


class ClockForm(DeskForm):
    """The round's clock: the time it ends, or how many minutes it lasts from now."""

    ends_at = forms.TimeField(
        label=gettext_lazy("Ends at"),
        required=False,
        input_formats=list(TIME_INPUTS),
        widget=forms.TimeInput(
            format="%H:%M", attrs={"placeholder": "20:30", "autocomplete": "off", "size": 6}
        ),
        error_messages={"invalid": gettext_lazy("Give the time as 20:30 (24-hour clock).")},
    )
    minutes = forms.IntegerField(
        label=gettext_lazy("Or lasts (minutes)"),
        required=False,
        min_value=1,
        max_value=600,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text=gettext_lazy("From now, such as 50."),
    )

    def __init__(self, *args: Any, now: datetime | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.now = now or timezone.now()
        self.fields["ends_at"].help_text = _(
            "The time on the clock in %(zone)s, 24-hour: such as 20:30."
        ) % {"zone": zone_label()}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        ends_at, minutes = data.get("ends_at"), data.get("minutes")
        if ends_at is None and minutes is None:
            self.add_error(
                "ends_at",
                _("Give the time the round ends, such as 20:30, or how many minutes it lasts."),
            )
        elif ends_at is not None and minutes is not None:
            self.add_error("minutes", _("Give an end time or a number of minutes, not both."))
        elif ends_at is not None:
            local = timezone.localtime(self.now)
            when = local.replace(hour=ends_at.hour, minute=ends_at.minute, second=0, microsecond=0)
            if when <= local:
                when += timedelta(days=1)
            if when - local > timedelta(hours=CLOCK_AHEAD_HOURS):
                self.add_error(
                    "ends_at",
                    _("%(time)s has passed: give a later time, or a number of minutes.")
                    % {"time": time_format(ends_at, "H:i")},
                )
            else:
                data["when"] = when
        return data


class DelayForm(DeskForm):
    """A round's own spectators' delay, in minutes (the services take seconds)."""

    minutes = forms.IntegerField(
        label=gettext_lazy("This round's delay (minutes)"),
        min_value=0,
        max_value=DELAY_MINUTES_MOST,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages=DELAY_ERRORS,
        help_text=gettext_lazy(
            "From 0 to 60; 0: spectators see this round as it is played. The organizers, the "
            "scorekeepers and each table's seats always see it at once."
        ),
    )
