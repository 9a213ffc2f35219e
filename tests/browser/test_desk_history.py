"""The desk's history on a phone (issue 23, items 9 and 15): a result withdrawn with a reason
and entered again reads "withdrawn by olga: <reason>" and "recorded by olga", in Russian, at
390 px, with no word broken across lines and no sideways scrolling; its times are the club's
(Europe/Paris), and the page says so."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

pytest.importorskip("playwright.sync_api")

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from games import services as games  # noqa: E402
from games.models import GameProjection  # noqa: E402
from tests.browser.helpers import broken_words, look  # noqa: E402
from tests.browser.recorders import Shots  # noqa: E402
from tournaments import services as t  # noqa: E402

pytestmark = pytest.mark.slow

USERNAME, PASSWORD = "olga", "Trick-n-Chef 2026!"
REASON = "Sato's deal 3 was 11, not 17"


def _enter(game_id: str, user: User, seated: list[str], shift: int) -> None:
    game = GameProjection.objects.get(stream_id=game_id)
    games.game_enter_results(
        game_id=game.stream_id,
        expected_version=game.version,
        scores={n: [i + 1 + shift, i, 2] for i, n in enumerate(seated)},
        user=user,
    )


def test_the_history_names_who_and_why_on_a_phone_in_russian(
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: type[User],
    page: Page,
    shots: Shots,
) -> None:
    page.set_default_timeout(10_000)
    olga = django_user_model.objects.create_user(USERNAME, password=PASSWORD)
    tid = t.tournament_create(
        user=olga,
        name="Вечер клуба",
        date="2026-12-04",
        rounds=3,
        seed=5,
        time_zone="Europe/Paris",
        confirmation="auto",
    ).tournament_id
    names = ["Анастасия Воскресенская", "Sato", "Léa Fontaine", "Zoë O'Brien"]
    t.tournament_register(tournament_id=tid, user=olga, names=names, checked_in=True)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    table = t.tournament_get(tournament_id=tid, user=olga).summary["rounds"][0]["tables"][0]
    seated = [s["name"] for s in table["seats"]]
    _enter(table["game"], olga, seated, 0)
    game = GameProjection.objects.get(stream_id=table["game"])
    games.game_correct(
        game_id=game.stream_id, expected_version=game.version, retract=1, reason=REASON, user=olga
    )
    _enter(table["game"], olga, seated, 1)

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.set_extra_http_headers({"Accept-Language": "ru"})
    page.goto(f"{live_server.url}/desk/{tid}/history/")
    expect(page.get_by_text(f"Результат отозван пользователем olga: {REASON}")).to_be_visible()
    expect(page.get_by_text("Результат записан пользователем olga")).to_have_count(2)
    expect(page.get_by_text("Время указано по поясу Europe/Paris.")).to_be_visible()
    last = t.tournament_history(tournament_id=tid, user=olga)[-1]
    paris = datetime.fromisoformat(last["at"]).astimezone(ZoneInfo("Europe/Paris"))
    when = page.locator(f"#action-{last['version']} time")
    assert when.inner_text().endswith(paris.strftime("%H:%M"))
    assert broken_words(page) == []
    look(page, shots, "history-ru-390")
