"""A mixed table in every game with phones (issue 25, item 6): a seat without a phone is entered
from a neighbour's phone once the organizer shares it (the desk's "Let the table's phones enter
for this seat"), and not before. The same frame for every game of the registry (and the tests'
toy High Card): the neighbour's phone shows the shared seat's panel (``?as=``), offers the moves
that seat's own phone offers, and its tap is recorded as that seat's move, sent by the
neighbour's seat (``by_seat``)."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Event
from tests.highcard.conftest import high_card  # noqa: F401 (the fixture, for getfixturevalue)
from tests.phones.bot import DjangoTransport, Move, SeatBot, pick
from tests.phones.scorekeepers import SCOREKEEPER, scorekeeper_enters
from tests.phones.tables import create_table, phone_games, table_specs

pytestmark = pytest.mark.django_db

TOY = "high-card"
STEP_CAP = 400


class SharedBot(SeatBot):
    """A phone entering for another seat shared with it: its panel asked with ``?as=``."""

    def __init__(self, transport: Any, token: str, focus: int) -> None:
        super().__init__(transport, token)
        self.focus = focus

    def poll_as(self) -> Any:
        answer = self.transport.get(f"{self.base}state/?as={self.focus}", {"X-Seat-Fetch": "1"})
        return self._took(answer)

    def tap_as(self, move: Move) -> Any:
        """The move posted for the shared seat (the form's hidden ``as``)."""
        data = {**move.data, "as": str(self.focus), "key": uuid.uuid4().hex, "queued": "0"}
        headers = {"X-Seat-Fetch": "1", "X-CSRFToken": self.csrf}
        return self._took(self.transport.post(self.base + move.path, data, headers))


def until_seat_two_may_move(
    key: str, game_id: Any, bots: list[SeatBot], owner: User, rng: random.Random
) -> None:
    """Random offered moves (and the scorekeeper's entries) until seat 2's phone offers one."""
    for _ in range(STEP_CAP):
        for bot in bots:
            bot.poll()
        if bots[1].moves:
            return
        chosen = pick(bots, rng)
        if chosen is None:
            version = services.game_get(game_id=game_id, user=owner).version
            entered = scorekeeper_enters(
                SCOREKEEPER[key], key, game_id, version, owner, rng.randrange(1 << 30)
            )
            assert entered, f"{key}: no phone offers a move and nothing to enter"
            continue
        bot, move = chosen
        assert bot.tap(move).answer.status == 200, move
    raise AssertionError(f"{key}: seat 2 was never to move in {STEP_CAP} taps")


@pytest.mark.parametrize("key", [*phone_games(), TOY])
def test_a_shared_seat_is_entered_from_a_neighbours_phone_once_the_organizer_allows_it(
    key: str, request: pytest.FixtureRequest, django_user_model: type[User]
) -> None:
    if key == TOY:
        request.getfixturevalue("high_card")
    owner = django_user_model.objects.create_user("olga", password="x")
    spec = table_specs(key)[0]
    change, links = create_table(spec, owner)
    game_id = change.game_id
    bots = [
        SeatBot(DjangoTransport(Client()), link.token, seat=link.seat, player=link.player)
        for link in links
    ]
    for bot in bots:
        bot.open()
    until_seat_two_may_move(key, game_id, bots, owner, random.Random(7))
    own_moves = {(m.path, m.fields) for m in bots[1].moves}

    neighbour = SharedBot(DjangoTransport(Client()), links[0].token, focus=2)
    neighbour.open()
    before = services.game_get(game_id=game_id, user=owner).version
    # Not shared yet: the phone asked for seat 2 shows its own seat, and seat 2's move sent from
    # it is refused (as its own seat's move, out of turn), never recorded for seat 2.
    assert 'name="as" value="2"' not in neighbour.poll_as().body, key
    refused = neighbour.tap_as(bots[1].moves[0])
    assert refused.status in (403, 409, 422), f"{key}: {refused.status} for an unshared seat"
    assert services.game_get(game_id=game_id, user=owner).version == before, key

    services.seat_link_share(game_id=game_id, seat=2, shared=True, user=owner)
    neighbour.etag = ""
    assert 'name="as" value="2"' in neighbour.poll_as().body, key
    offered = {(m.path, m.fields) for m in neighbour.moves}
    assert offered == own_moves, f"{key}: the neighbour's phone offers other moves than seat 2's"
    tapped = neighbour.tap_as(neighbour.moves[0])
    assert tapped.status == 200, tapped.body[:500]
    recorded = Event.objects.filter(stream_id=game_id, version__gt=before).order_by("version")
    first = recorded.first()
    assert first is not None and (first.metadata or {}).get("by_seat") == 1
    named = first.data.get("player", first.data.get("team"))
    assert named == links[1].player, f"{key}: the tap was recorded as {named}'s"
