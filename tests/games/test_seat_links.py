"""Seat links (games.seats, games.services.seats): a signed, revocable token binds a phone to
one seat of one game; the phone records its own seat's plays (and its shared seats') only."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games import services
from games.models import Event
from games.services import GameNotFound, NotAllowed, Refused
from games.tricknchef.phone import PANEL

pytestmark = pytest.mark.django_db

GAME = [to_json(e) for e in simulate(seed=31, players=4)]
PLAYERS = GAME[0]["players"]


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x")


def new_game(organizer: User) -> services.GameChange:
    game = services.game_create(players=PLAYERS, suits=GAME[0]["suits"], user=organizer)
    # Up to the first card: the deal and the round-start picks, entered by the organizer.
    services.game_append(
        game_id=game.game_id, expected_version=game.version, events=GAME[1:6], user=organizer
    )
    return game


def test_every_seat_gets_its_own_link_once(organizer: User) -> None:
    game = new_game(organizer)
    first = services.seat_links_issue(game_id=game.game_id, user=organizer)
    again = services.seat_links_issue(game_id=game.game_id, user=organizer)
    assert [(link.seat, link.player) for link in first] == list(enumerate(PLAYERS, start=1))
    assert len({link.token for link in first}) == 4
    assert again == first
    access = services.seat_open(first[1].token)
    assert (access.seat, access.player, access.acts_for) == (2, PLAYERS[1], ((2, PLAYERS[1]),))


def test_a_made_up_or_damaged_token_opens_nothing(organizer: User) -> None:
    game = new_game(organizer)
    token = services.seat_links_issue(game_id=game.game_id, user=organizer)[0].token
    for bad in ("", "1.abc:def", token[:-2] + "xx", token.replace(".", "0.", 1)):
        with pytest.raises(GameNotFound):
            services.seat_open(bad)


def test_reissue_and_revoke_stop_the_old_link_at_once(organizer: User) -> None:
    game = new_game(organizer)
    old = services.seat_links_issue(game_id=game.game_id, user=organizer)[0].token
    new = services.seat_link_reissue(game_id=game.game_id, seat=1, user=organizer).token
    assert new != old
    with pytest.raises(NotAllowed) as refused:
        services.seat_open(old)
    assert refused.value.code == "seat_link_revoked"
    assert services.seat_open(new).seat == 1
    revoked = services.seat_link_revoke(game_id=game.game_id, seat=1, user=organizer)
    assert revoked.revoked and revoked.token == ""
    with pytest.raises(NotAllowed):
        services.seat_open(new)


def test_only_the_organizer_manages_links(organizer: User, django_user_model: type[User]) -> None:
    game = new_game(organizer)
    other = django_user_model.objects.create_user("mallory", password="x")
    with pytest.raises(NotAllowed):
        services.seat_links_issue(game_id=game.game_id, user=other)
    services.seat_links_issue(game_id=game.game_id, user=organizer)
    with pytest.raises(NotAllowed):
        services.seat_link_reissue(game_id=game.game_id, seat=1, user=other)
    with pytest.raises(NotAllowed):
        services.seat_links(game_id=game.game_id, user=other)


def test_a_seat_records_its_own_plays_only_and_shared_seats_when_allowed(
    organizer: User,
) -> None:
    game = new_game(organizer)
    links = services.seat_links_issue(game_id=game.game_id, user=organizer)
    next_play = GAME[6]
    owner = PLAYERS.index(next_play["player"]) + 1
    neighbour = links[owner % 4]
    with pytest.raises(NotAllowed):
        services.game_append(
            game_id=game.game_id,
            expected_version=6,
            events=[next_play],
            seat=services.seat_open(neighbour.token),
            seat_plays=PANEL.seat_plays,
        )
    services.seat_link_share(game_id=game.game_id, seat=owner, shared=True, user=organizer)
    change = services.game_append(
        game_id=game.game_id,
        expected_version=6,
        events=[next_play],
        seat=services.seat_open(neighbour.token),
        idempotency_key="k1",
        seat_plays=PANEL.seat_plays,
    )
    assert change.version == 7
    stored = Event.objects.get(stream_id=game.game_id, version=7)
    assert stored.metadata["by_seat"] == neighbour.seat and stored.metadata["by"] is None


def test_a_seat_cannot_record_a_deal_or_the_store_events(organizer: User) -> None:
    game = services.game_create(players=PLAYERS, suits=GAME[0]["suits"], user=organizer)
    token = services.seat_links_issue(game_id=game.game_id, user=organizer)[0].token
    with pytest.raises(Refused):
        services.game_append(
            game_id=game.game_id,
            expected_version=1,
            events=[GAME[1]],
            seat=services.seat_open(token),
            seat_plays=PANEL.seat_plays,
        )
