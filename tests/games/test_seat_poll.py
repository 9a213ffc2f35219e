"""A seat phone's poll in one query (games.services.seat_poll) gives exactly what the two reads it
replaces give: seat_open's access or refusal, and the table's stamp (games.services.drafts:
table_stamp, and the panel's read of the game with it, table_stamped). An ETag made from either is
the same, so a phone is never sent a panel it already has, and never kept on a stale one. On both
backends: the query is raw SQL, and the stamp's timestamp comes back differently from each."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import User

from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games import services
from games.services import GameNotFound, NotAllowed, drafts
from games.tricknchef import deals

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
HANDS: dict[str, list[str]] = to_json(simulate(seed=5, players=4, names=tuple(NAMES))[1])["hands"]


def same_as_two_reads(token: str, game_id: uuid.UUID) -> None:
    """The poll's stamp, table_stamp's, and the panel's (read with the game in one query) agree:
    a panel's ETag that the next poll did not match would redraw every phone every poll."""
    access = services.seat_open(token)
    for focus in (None, *range(1, 5)):
        polled = services.seat_poll(token, focus)
        assert polled.access == access
        stamp = drafts.table_stamp(game_id, focus or access.seat)
        assert polled.stamp == stamp
        assert drafts.table_stamped(game_id, focus or access.seat)[1] == stamp


@pytest.mark.django_db
def test_the_poll_reads_what_seat_open_and_table_stamp_read(django_user_model: type[User]) -> None:
    olga = django_user_model.objects.create_user("olga", is_staff=True)
    game_id = services.game_create(players=NAMES, user=olga).game_id
    tokens = [link.token for link in services.seat_links_issue(game_id=game_id, user=olga)]
    seats = [services.seat_open(token) for token in tokens]
    same_as_two_reads(tokens[0], game_id)  # no drafts yet: the stamp is the version alone
    deals.deal_hand_save(game_id=game_id, round=1, seat=1, cards=HANDS["Ana"][:4], access=seats[0])
    deals.deal_hand_save(game_id=game_id, round=1, seat=2, cards=HANDS["Ben"], access=seats[1])
    for token in tokens:  # a hand in progress (seat 1's own), a full one (seen by every seat)
        same_as_two_reads(token, game_id)
    services.seat_link_share(game_id=game_id, seat=3, shared=True, user=olga)
    polled = services.seat_poll(tokens[0], None)
    assert polled.access.acts_for == ((1, "Ana"), (3, "Cleo"))
    same_as_two_reads(tokens[0], game_id)


@pytest.mark.django_db
def test_the_poll_refuses_what_seat_open_refuses(django_user_model: type[User]) -> None:
    olga = django_user_model.objects.create_user("olga", is_staff=True)
    game_id = services.game_create(players=NAMES, user=olga).game_id
    tokens = [link.token for link in services.seat_links_issue(game_id=game_id, user=olga)]
    services.seat_link_revoke(game_id=game_id, seat=1, user=olga)
    services.seat_link_reissue(game_id=game_id, seat=2, user=olga)
    for token, refusal in (
        (tokens[0], NotAllowed),  # revoked
        (tokens[1], NotAllowed),  # replaced by a new link
        (tokens[2] + "x", GameNotFound),  # not signed by this site
        ("12.abc", GameNotFound),
    ):
        with pytest.raises(refusal) as opened:
            services.seat_open(token)
        with pytest.raises(refusal) as polled:
            services.seat_poll(token, None)
        assert polled.value.message == opened.value.message
    same_as_two_reads(tokens[3], game_id)  # the table's other links still hold


@pytest.mark.postgres
def test_a_poll_on_a_connection_the_server_ended_opens_a_new_one(committed_db: None) -> None:
    """The poll's statement is its own health check (no SELECT 1 before it): when the kept
    connection died (a restarted server ends every backend), the poll still answers, on a
    new connection, as Django's health check would have made it."""
    import psycopg
    from django.db import connection

    game_id = services.game_create(players=NAMES).game_id
    token = services.seat_links_issue(game_id=game_id)[0].token
    before = services.seat_poll(token, None)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as other:  # the server, ending it
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    connection.health_check_done = False  # type: ignore[attr-defined]  # a new request
    assert services.seat_poll(token, None) == before
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid
