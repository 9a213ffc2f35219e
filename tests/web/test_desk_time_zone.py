"""The club's time zone (issue 23, item 15): a site default (TNC_TIME_ZONE) a tournament may
override through its event-sourced settings; every page about the tournament shows and takes
times in it, and says which zone; dates and times are typed in text boxes with one documented
format (no native boxes, which follow the browser's locale, not the page's language)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from config.settings.base import time_zone
from games.services import Refused
from tests.web.desk import HTMX, desk, html, logged_in, new_tournament, summary, text
from tournaments import services as t

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")


def _winter_evening() -> datetime:
    """Next year's 15 January at 19:30 (Paris is UTC+1 then)."""
    return datetime(timezone.now().year + 1, 1, 15, 19, 30)


def test_the_site_zone_comes_from_the_environment_and_is_checked() -> None:
    assert time_zone("Europe/Paris") == "Europe/Paris"
    assert time_zone("  ") == "UTC"
    with pytest.raises(ImproperlyConfigured, match="TNC_TIME_ZONE='Paris' is not a time zone"):
        time_zone("Paris")


def test_the_tournaments_zone_is_validated_and_stored_as_an_event(olga: User) -> None:
    tid = new_tournament(olga)
    with pytest.raises(Refused) as refused:
        t.tournament_change_settings(
            tournament_id=tid, changes={"time_zone": "Mars/Olympus"}, user=olga
        )
    assert refused.value.code == "bad_settings"
    assert "'Mars/Olympus' is not a time zone" in refused.value.message

    client = logged_in(olga)
    bad = client.post(desk(tid, "settings/"), {"public-time_zone": "Paris"}, headers=HTMX)
    assert bad.status_code == 422
    assert "&#x27;Paris&#x27; is not a time zone: give its name, such as Europe/Paris" in html(bad)
    assert "time_zone" not in summary(tid, olga)["settings"]

    saved = client.post(desk(tid, "settings/"), {"public-time_zone": "europe/paris"}, headers=HTMX)
    assert saved.status_code == 200
    assert summary(tid, olga)["settings"]["time_zone"] == "Europe/Paris"  # its own name
    history = t.tournament_history(tournament_id=tid, user=olga)
    assert history[-1]["type"] == "settings_changed"
    assert history[-1]["data"]["changes"] == {"time_zone": "Europe/Paris"}
    page = text(client.get(desk(tid)))
    assert "Time zone Europe/Paris" in page  # the settings' summary
    assert "Times are in Europe/Paris." in text(client.get(desk(tid, "history/")))

    # Undoing the change brings the site's zone back at once (the cached zone is dropped).
    client.post(desk(tid, "history/undo/"), {"version": history[-1]["version"], "confirmed": "1"})
    assert "Times are in UTC." in text(client.get(desk(tid, "history/")))


def test_pair_at_is_typed_and_shown_in_the_clubs_zone(olga: User) -> None:
    tid = new_tournament(olga, time_zone="Europe/Paris")
    client = logged_in(olga)
    page = html(client.get(desk(tid)))
    field = re.search(r'<input[^>]*name="schedule-at"[^>]*>', page)
    assert field is not None and 'type="text"' in field.group(0)
    assert "datetime-local" not in page and 'type="time"' not in page
    assert "Date and time in Europe/Paris, on the 24-hour clock" in text(client.get(desk(tid)))

    evening = _winter_evening()
    scheduled = client.post(
        desk(tid, "schedule/"), {"round": "1", "schedule-at": evening.strftime("%Y-%m-%d 19:30")}
    )
    assert scheduled.status_code == 302
    stored = datetime.fromisoformat(summary(tid, olga)["scheduled"]["1"])
    assert stored == evening.replace(hour=18, tzinfo=UTC)  # 19:30 in Paris, in winter
    shown = text(client.get(desk(tid)))
    assert "Round 1 will be paired at 19:30" in shown
    assert "Round 1: 19:30, 15 January" in shown
    assert "Round 1 is paired at that time (Europe/Paris)" in shown
    assert "Round 1 at 19:30" in text(client.get(desk(tid, "history/")))

    # A time the form cannot read says what it wants.
    bad = client.post(desk(tid, "schedule/"), {"round": "1", "schedule-at": "7:30 PM"})
    assert bad.status_code == 422
    assert "Give the date and the time as 2026-12-12 19:30 (24-hour clock)." in html(bad)


def test_the_clock_public_pages_and_history_show_local_times(olga: User) -> None:
    tid = new_tournament(olga, time_zone="Asia/Tokyo")  # UTC+9: never the same hour as UTC
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    client = logged_in(olga)
    clock = client.post(desk(tid, "round/1/clock/"), {"clock-ends_at": "", "clock-minutes": "50"})
    assert clock.status_code == 302
    ends = datetime.fromisoformat(summary(tid, olga)["rounds"][0]["ends_at"])
    tokyo = ends.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%H:%M")
    utc = ends.astimezone(UTC).strftime("%H:%M")
    assert f"Round 1 ends at {tokyo}" in text(client.get(desk(tid)))
    public = text(Client().get(f"/t/{tid}/"))
    assert f"Round 1 ends at {tokyo}." in public and f"ends at {utc}" not in public
    history = text(client.get(desk(tid, "history/")))
    assert f"Round 1 ends at {tokyo} (50 minutes)" in history
    at = datetime.fromisoformat(t.tournament_history(tournament_id=tid, user=olga)[-1]["at"])
    assert f"olga {at.astimezone(ZoneInfo('Asia/Tokyo')).strftime('%-d %b, %H:%M')}" in history

    # The clock's end time is typed in Tokyo's time too, on the 24-hour clock.
    later = (ends + timedelta(minutes=30)).astimezone(ZoneInfo("Asia/Tokyo"))
    typed = client.post(
        desk(tid, "round/1/clock/"), {"clock-ends_at": later.strftime("%H:%M"), "clock-minutes": ""}
    )
    assert typed.status_code == 302
    moved = datetime.fromisoformat(summary(tid, olga)["rounds"][0]["ends_at"])
    assert moved == later.replace(second=0, microsecond=0)


def test_a_tournament_without_a_zone_follows_the_site(olga: User, settings: object) -> None:
    settings.TIME_ZONE = "Europe/Paris"  # type: ignore[attr-defined]
    tid = new_tournament(olga)
    client = logged_in(olga)
    assert "Times are in Europe/Paris." in text(client.get(desk(tid, "history/")))
    assert "Leave empty for the site&#x27;s (Europe/Paris)." in html(client.get(desk(tid)))


@pytest.mark.parametrize(
    ("language", "typed"),
    [("en", "15 Jan 2027"), ("fr", "15/01/2027"), ("ru", "15.01.2027"), ("ja", "2027/01/15")],
)
def test_a_date_is_typed_as_the_language_writes_it_or_year_first(
    olga: User, language: str, typed: str
) -> None:
    client = logged_in(olga)
    home = html(client.get("/desk/", headers={"Accept-Language": language}))
    field = re.search(r'<input[^>]*name="date"[^>]*>', home)
    assert field is not None and 'type="date"' not in field.group(0)
    for date in (typed, "2027-01-15"):
        created = client.post(
            "/desk/new/",
            {
                "name": "Cup",
                "date": date,
                "rounds": "3",
                "scoring": "scaled",
                "tiebreak_1": "victory_points",
                "pairing": "manual",
                "publish": "manual",
                "round1": "random",
                "confirmation": "organizer",
                "time_zone": "Europe/Paris",
            },
            headers={"Accept-Language": language},
        )
        assert created.status_code == 302, date
        made = summary(created["Location"].split("/")[2], olga)
        assert made["date"] == "2027-01-15" and made["settings"]["time_zone"] == "Europe/Paris"


def test_the_api_sets_the_zone_and_keeps_speaking_utc(olga: User) -> None:
    api = APIClient()
    api.force_authenticate(olga)
    tid = new_tournament(olga)
    refused = api.patch(
        f"/api/tournaments/{tid}/settings/", {"time_zone": "Nowhere"}, format="json"
    )
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "bad_settings"
    changed = api.patch(
        f"/api/tournaments/{tid}/settings/", {"time_zone": "Europe/Paris"}, format="json"
    )
    assert changed.status_code in (200, 201)
    assert changed.json()["tournament"]["settings"]["time_zone"] == "Europe/Paris"
    evening = _winter_evening().replace(hour=18, tzinfo=UTC)
    api.post(f"/api/tournaments/{tid}/rounds/1/schedule/", {"at": evening.isoformat()})
    read = api.get(f"/api/tournaments/{tid}/").json()
    assert read["scheduled"] == {"1": evening.isoformat()}  # UTC, as the API always said
