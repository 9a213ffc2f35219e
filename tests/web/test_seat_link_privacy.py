"""A seat link never leaks (issue 12): after a round is published (every seat gets a link), a
phone has played through its link, and the organizer reissued, revoked and shared links, every
public page, every API read and every download, read as anyone but the tournament's organizers
at the desk, carries no seat token, no nonce and no signature: anonymous, the tournament's
scorekeeper, another tournament's organizer, and the organizer too wherever a page is not the
desk's seat links (the API, the dashboard, the pairings for the wall). A reissued or revoked link
is refused at once.

Both backends: the crawl reads what the services store (the log's metadata, the projections).
"""

from __future__ import annotations

import io
import re
import uuid
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.test import Client

from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from games import services as games
from games.models import Event, SeatLink
from games.services import GameNotFound, NotAllowed
from games.tricknchef.phone import PANEL
from tests.tournaments.helpers import play
from tournaments import services as t

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]


@dataclass
class Scene:
    tid: uuid.UUID
    other: uuid.UUID
    games: list[uuid.UUID]
    players: list[str]
    """The tournament's player ids."""
    users: dict[str, User]
    tokens: set[str]
    """Every seat token ever issued (the reissued and revoked ones too)."""

    def secrets(self) -> set[str]:
        """Tokens, their nonces and signatures: none may appear anywhere."""
        out = set(self.tokens)
        for token in self.tokens:
            value, _, signature = token.partition(":")
            out |= {value.partition(".")[2], signature}
        out |= set(SeatLink.objects.values_list("nonce", flat=True))
        return out


def _tokens(game_ids: Iterable[uuid.UUID]) -> set[str]:
    found = games.seat_links_of(list(game_ids))
    return {link.token for links in found.values() for link in links if link.token}


@pytest.fixture
def scene(committed_db: None, django_user_model: type[User]) -> Scene:
    users = {
        name: django_user_model.objects.create_user(name, password="x")
        for name in ("olga", "kim", "otto", "pat")
    }
    olga = users["olga"]
    tid = t.tournament_create(
        user=olga, name="Club night", date="2026-12-01", rounds=3, seed=7
    ).tournament_id
    t.tournament_register(tournament_id=tid, user=olga, names=NAMES, checked_in=True)
    t.tournament_set_role(
        tournament_id=tid, username="kim", role="scorekeeper", grant=True, user=olga
    )
    t.tournament_change_settings(tournament_id=tid, changes={"downloads_released": True}, user=olga)
    t.tournament_pair(tournament_id=tid, user=olga)
    published = t.tournament_publish(tournament_id=tid, round=1, user=olga)
    tables = published.state["rounds"][0]["tables"]
    game_ids = [uuid.UUID(table["game"]) for table in tables]
    tokens = _tokens(game_ids)
    assert len(tokens) == len(NAMES)  # every seat has its link from the publication on

    # Table 1 is played to its end by the scorekeeper.
    play(tid, 1, 1, users["kim"], lambda: _nothing(), seed=5)
    # Table 2: dealt at the desk, then a phone plays its own card through its seat link.
    names = tuple(s["name"] for s in tables[1]["seats"])
    record = [to_json(e) for e in simulate(31, 4, names=names, first_player=names[0])]
    start = games.game_get(game_id=game_ids[1], user=olga).version
    games.game_append(game_id=game_ids[1], expected_version=start, events=record[1:6], user=olga)
    links = {link.player: link for link in games.seat_links_of([game_ids[1]])[game_ids[1]]}
    card = record[6]
    access = games.seat_open(links[card["player"]].token, opened=True)
    games.game_append(
        game_id=game_ids[1],
        expected_version=start + 5,
        events=[card],
        seat=access,
        idempotency_key="p1",
        seat_plays=PANEL.seat_plays,
    )
    by_phone = Event.objects.get(stream_id=game_ids[1], version=start + 6)
    assert by_phone.metadata["by_seat"] == access.seat
    # The organizer reissues one link, revokes another, shares a third.
    changes: list[tuple[t.SeatAction, int]] = [("reissue", 1), ("revoke", 2), ("share", 3)]
    for action, seat in changes:
        t.tournament_seat_link_change(
            tournament_id=tid, round=1, table=2, seat=seat, action=action, user=olga
        )
    tokens |= _tokens(game_ids)
    assert len(tokens) == len(NAMES) + 1

    other = t.tournament_create(
        user=users["otto"], name="Other club", date="2026-12-02", rounds=2, seed=1
    ).tournament_id
    players = [p["id"] for p in published.state["players"]]
    return Scene(tid, other, game_ids, players, users, tokens)


class _Nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        return None


def _nothing() -> _Nothing:
    return _Nothing()


def public_urls(scene: Scene) -> list[str]:
    tid = scene.tid
    urls = ["/", f"/t/{tid}/", f"/t/{tid}/round/1/", f"/t/{tid}/standings/"]
    urls += [f"/t/{tid}/player/{player}/" for player in scene.players]
    for game in scene.games:
        urls += [f"/g/{game}/", f"/g/{game}/?step=1", f"/g/{game}/?step=9"]
    return urls


def api_urls(scene: Scene) -> list[str]:
    tid = scene.tid
    base = f"/api/tournaments/{tid}/"
    urls = ["/api/tournaments/", base, f"{base}standings/"]
    urls += [f"{base}{part}" for part in ("standings.csv", "results.csv", "results.jsonl")]
    urls += [f"{base}games.zip", "/api/games/"]
    for game in scene.games:
        urls += [f"/api/games/{game}/{part}" for part in ("", "events/", "record/")]
    return urls


LOGGED_IN_READS = ["/api/events/?limit=1000"]
"""Reads for a logged-in user (anonymous: 401)."""


def logged_in_urls(scene: Scene) -> list[str]:
    return [*LOGGED_IN_READS, f"/api/tournaments/{scene.tid}/history/"]


def desk_urls(scene: Scene) -> list[str]:
    """The desk's pages other than the seat links' own (which only organizers reach)."""
    tid = scene.tid
    urls = ["/desk/", f"/desk/{tid}/", f"/desk/{tid}/history/"]
    urls += [f"/desk/{tid}/round/1/pairings/print/"]
    urls += [f"/table/{game}/" for game in scene.games]
    return urls


def body(response: object) -> str:
    content: bytes = getattr(response, "content", b"") or b"".join(
        getattr(response, "streaming_content", [])
    )
    if response["Content-Type"].startswith("application/zip"):  # type: ignore[index]
        archive = zipfile.ZipFile(io.BytesIO(content))
        return "".join(archive.read(name).decode() for name in archive.namelist())
    return content.decode(errors="replace")


def client_of(scene: Scene, who: str) -> Client:
    client = Client()
    if who != "anonymous":
        client.force_login(scene.users[who])
    return client


def crawl(client: Client, urls: Iterable[str], secrets: set[str]) -> dict[str, int]:
    statuses = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code < 500, url
        text = body(response)
        leaked = {secret for secret in secrets if secret in text}
        assert not leaked, f"{url} shows a seat link's secret"
        # No seat link at all, whatever its nonce (a token is "<link id>.<nonce>:<signature>";
        # an official's own seat view, /table/<game>/seat/<n>/, carries none).
        assert not re.search(r"/seat/\d+\.", text), url
        statuses[url] = response.status_code
    return statuses


@pytest.mark.parametrize("who", ["anonymous", "kim", "otto", "pat", "olga"])
def test_no_page_api_read_or_download_carries_a_seat_link(scene: Scene, who: str) -> None:
    secrets = scene.secrets()
    assert len(secrets) >= 3 * len(NAMES)
    client = client_of(scene, who)
    statuses = crawl(client, public_urls(scene) + api_urls(scene), secrets)
    # The crawl reached the content: the public pages and reads answer everyone.
    assert all(status == 200 for status in statuses.values()), statuses
    reads = crawl(client, logged_in_urls(scene), secrets)
    if who != "anonymous":
        assert all(reads[url] == 200 for url in LOGGED_IN_READS), reads
    desk = crawl(client, desk_urls(scene), secrets)
    if who in ("kim", "olga"):  # the desk's people: their pages are there (and carry no link)
        history = f"/desk/{scene.tid}/history/"  # the organizers'
        assert desk.pop(history) == (200 if who == "olga" else 403)
        assert all(status == 200 for status in desk.values()), desk


def test_the_tables_officials_pages_carry_no_seat_link(scene: Scene) -> None:
    """The scorekeeper's score sheets keep the table's code, not the seats'; the organizer's
    carry them (which is how the crawl above would see a leak)."""
    secrets = scene.secrets()
    sheets = f"/desk/{scene.tid}/round/1/sheets/print/"
    statuses = crawl(client_of(scene, "kim"), [sheets], secrets)
    assert set(statuses.values()) == {200}
    for page in (sheets, f"/desk/{scene.tid}/round/1/table/2/seats/"):
        with pytest.raises(AssertionError, match="shows a seat link's secret"):
            crawl(client_of(scene, "olga"), [page], secrets)


@pytest.mark.parametrize("who", ["anonymous", "kim", "otto", "pat"])
def test_the_seat_link_pages_refuse_everyone_but_the_organizers(scene: Scene, who: str) -> None:
    tid = scene.tid
    client = client_of(scene, who)
    refused = (302,) if who == "anonymous" else (403, 404)
    secrets = scene.secrets()
    for url in (
        f"/desk/{tid}/round/1/seats/",
        f"/desk/{tid}/round/1/table/2/seats/",
        f"/desk/{tid}/round/1/table/2/seats/print/",
        f"/desk/{tid}/round/1/table/2/seats/print/?seat=1",
    ):
        response = client.get(url)
        assert response.status_code in refused, url
        assert not {s for s in secrets if s in body(response)}
    for action in ("reissue", "revoke", "share", "unshare"):
        response = client.post(f"/desk/{tid}/round/1/table/2/seats/1/{action}/", {"confirm": "1"})
        assert response.status_code in refused, action
    # Nor through another tournament's desk (Otto organizes that one).
    mine = client_of(scene, "otto").get(f"/desk/{scene.other}/round/1/table/2/seats/")
    assert mine.status_code == 404


def test_a_reissued_or_revoked_link_is_refused_at_once(scene: Scene) -> None:
    live = _tokens(scene.games)
    dead = scene.tokens - live
    assert len(dead) == 2  # the reissued seat's old link, the revoked seat's
    for token in dead:
        with pytest.raises(NotAllowed) as refused:
            games.seat_open(token)
        assert refused.value.code == "seat_link_revoked"
    for token in live:
        games.seat_open(token)
    with pytest.raises(GameNotFound):
        games.seat_open(next(iter(live))[:-3] + "abc")
