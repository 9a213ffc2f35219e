"""Every game with seat phones plays a whole game in the browser, from its phones alone (issue 25,
"Measure"): tests/browser/phone_game.py's harness (one Chromium context per seat at 390x844,
random moves among what each phone offers, one phone offline for a while, the result checked
against ``python -m engine replay`` of the exported record), at the largest table the game
allows up to four phones. Parametrized from the registry at collection (every game type whose
panel is not None) plus the tests' toy High Card through its fixture. Trick-n-Chef's phones
enter the dealt hands (no random moves): tests/browser/test_phones.py plays it from a simulated
game.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser  # noqa: E402
from pytest_django.live_server_helper import LiveServer  # noqa: E402

from tests.browser.phone_game import play_from_phones  # noqa: E402
from tests.highcard.conftest import high_card  # noqa: E402, F401 (the fixture)
from tests.phones.scorekeepers import SCOREKEEPER  # noqa: E402
from tests.phones.tables import phone_games, table_specs  # noqa: E402

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TOY = "high-card"
OWN_TEST = {"trick-n-chef": "tests/browser/test_phones.py"}
"""Games played in the browser by a test of their own."""
RULES_OUTSIDE_ENGINE = {TOY: "tests.highcard.engine"}
"""The module of the engine rules of a game outside engine/ (for ``python -m engine replay``)."""
GAMES = [key for key in phone_games() if key not in OWN_TEST] + [TOY]
PHONES = 4
"""At most this many phones at a table (one Chromium context each)."""


@pytest.mark.parametrize("game_type", GAMES)
def test_phones_play_a_whole_game(
    game_type: str,
    request: pytest.FixtureRequest,
    browser: Browser,
    live_server: LiveServer,
    transactional_db: None,
    django_user_model: Any,
) -> None:
    if game_type == TOY:
        request.getfixturevalue("high_card")
    owner = django_user_model.objects.create_user("owner", password="x")
    # The four-phone table: the largest the game allows up to four phones (Food Truck's
    # five and Chefs' six phones play in the test client, tests/games/test_every_phone_plays.py).
    spec = [s for s in table_specs(game_type) if len(s.players) <= PHONES][-1]
    played = play_from_phones(
        browser,
        live_server.url,
        spec,
        owner,
        rules_module=RULES_OUTSIDE_ENGINE.get(game_type),
        scorekeeper=SCOREKEEPER.get(game_type),  # what no phone enters (a round's start...)
    )
    print("\n" + played.line())
    assert played.final and played.taps > 0
