"""A seat's phone page (games/phone/), driven with the Django test client as seat.js drives it:
its answers' headers (no caching, no referrer), the poll's ETag and 304, a revoked link, CSRF,
the refusals (409, 422), the officials' door, and above all that no answer to one seat's phone
ever carries a card another seat still holds."""

from __future__ import annotations

import re
import uuid
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from engine.tricknchef.cards import describe
from engine.tricknchef.events import to_json
from engine.tricknchef.replay import replay
from engine.tricknchef.simulate import simulate
from games import services
from games.models import DealDraft, GameProjection, SeatLink
from games.services import drafts
from games.tricknchef import deals
from games.tricknchef.table_presenters import card_label
from tests.web.a11y import assert_accessible

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
EVENTS = simulate(seed=8, players=4, names=tuple(NAMES), first_player="Ana")
GAME = [to_json(e) for e in EVENTS]
FETCH = {"X-Seat-Fetch": "1"}


def new_game(user: User | None = None, until: int = 1) -> tuple[uuid.UUID, list[str]]:
    game = services.game_create(players=NAMES, user=user)
    if until > 1:
        services.game_append(game_id=game.game_id, expected_version=1, events=GAME[1:until])
    links = services.seat_links_issue(game_id=game.game_id, user=None)
    return game.game_id, [link.token for link in links]


def url(token: str, what: str = "") -> str:
    return f"/seat/{token}/{what}"


def first_card() -> int:
    return next(i for i, e in enumerate(GAME) if e["type"] == "card_played")


def held_by_others(until: int, me: str) -> set[str]:
    state = replay(EVENTS[:until])
    return {c for p, hand in state.hands.items() if p != me for c in hand}


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match, "the page carries its CSRF token"
    return match.group(1)


def test_the_page_opens_the_seat_and_is_never_cached_nor_referred() -> None:
    game_id, tokens = new_game()
    response = Client().get(url(tokens[1]))
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    assert response["Referrer-Policy"] == "no-referrer"
    html = response.content.decode()
    assert "Ben" in html and "seat 2" in html
    assert "?next=" not in html  # no login link carrying the token elsewhere
    assert SeatLink.objects.get(game_id=game_id, seat=2).opened_at is not None
    assert_accessible(html)


def test_a_revoked_or_unknown_link_answers_a_clear_page(django_user_model: type[User]) -> None:
    olga = django_user_model.objects.create_user("olga", password="x")
    game_id, tokens = new_game(olga)
    services.seat_link_revoke(game_id=game_id, seat=1, user=olga)
    client = Client()
    for path in (url(tokens[0]), url(tokens[0], "state/")):
        response = client.get(path)
        assert response.status_code == 403
        assert "ask the organizer for your seat's new link" in response.content.decode().lower()
        assert response["Referrer-Policy"] == "no-referrer"
    response = client.post(url(tokens[0], "act/"), {"type": "card_played"})
    assert response.status_code == 403
    response = client.get(url(tokens[0][:-3] + "abc"))
    assert response.status_code == 404
    assert "not a seat link of this site" in response.content.decode()


def test_the_poll_answers_304_until_the_game_or_a_hand_it_sees_changes() -> None:
    game_id, tokens = new_game()
    client = Client()
    first = client.get(url(tokens[0], "state/"), headers=FETCH)
    tag = first["ETag"]
    assert first.status_code == 200 and tag
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url(tokens[0], "state/"), headers={**FETCH, "If-None-Match": tag})
    assert again.status_code == 304 and again.content == b""
    assert len(queries) <= 2  # the token and the game's stamp
    # Another hand being tapped shows as "tapping" until it is complete: no redraw per tap.
    ben = services.seat_open(tokens[1])
    hand = GAME[1]["hands"]["Ben"]
    deals.deal_hand_save(game_id=game_id, round=1, seat=2, cards=hand[:9], access=ben)
    same = client.get(url(tokens[0], "state/"), headers={**FETCH, "If-None-Match": tag})
    assert same.status_code == 304
    deals.deal_hand_save(game_id=game_id, round=1, seat=2, cards=hand, access=ben)
    changed = client.get(url(tokens[0], "state/"), headers={**FETCH, "If-None-Match": tag})
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert "Ben: all 10 in" in changed.content.decode()
    # The phone's own hand changes its stamp at once.
    ana = services.seat_open(tokens[0])
    tag = changed["ETag"]
    deals.deal_hand_save(game_id=game_id, round=1, seat=1, cards=["G1"], access=ana)
    mine = client.get(url(tokens[0], "state/"), headers={**FETCH, "If-None-Match": tag})
    assert mine.status_code == 200 and "1</span>/10" in mine.content.decode()


def test_the_page_carries_its_panels_etag_so_the_first_poll_redraws_nothing() -> None:
    # A redraw would reset what the player chose meanwhile (issue 22: a coin choice).
    _, tokens = new_game(until=first_card())
    client = Client()
    page = client.get(url(tokens[0]))
    found = re.search(r'data-etag="([^"]*)"', page.content.decode())
    assert found is not None and unescape(found.group(1)) == page["ETag"]
    poll = client.get(url(tokens[0], "state/"), headers={**FETCH, "If-None-Match": page["ETag"]})
    assert poll.status_code == 304


def test_every_post_needs_the_csrf_token() -> None:
    _, tokens = new_game()
    client = Client(enforce_csrf_checks=True)
    page = client.get(url(tokens[0])).content.decode()
    fields = {"round": "1", "seat": "1", "cards": "G1"}
    assert client.post(url(tokens[0], "hand/"), fields, headers=FETCH).status_code == 403
    answer = client.post(
        url(tokens[0], "hand/"), fields, headers={**FETCH, "X-CSRFToken": csrf_of(page)}
    )
    assert answer.status_code == 204 and answer["ETag"]  # a hand in progress: its stamp only


def test_a_phone_sees_its_own_hand_and_never_another_seats() -> None:
    at = first_card() + 5  # round 1, a few cards into trick 2
    game_id, tokens = new_game(until=at)
    client = Client()
    state = replay(EVENTS[:at])
    for seat, token in enumerate(tokens):
        me = NAMES[seat]
        secret = held_by_others(at, me)
        for path in (url(token), url(token, "state/")):
            html = unescape(client.get(path, headers=FETCH).content.decode())
            for card in secret:
                assert card_label(card) not in html, f"{me}'s phone shows {card}"
                assert f'value="{card}"' not in html
            for card in state.hands[me]:
                assert card_label(card) in html  # its own hand is there


def test_during_the_deal_other_hands_show_only_whether_they_are_in() -> None:
    game_id, tokens = new_game()
    ben = services.seat_open(tokens[1])
    hand = GAME[1]["hands"]["Ben"]
    deals.deal_hand_save(game_id=game_id, round=1, seat=2, cards=hand[:7], access=ben)
    client = Client()
    html = client.get(url(tokens[0], "state/"), headers=FETCH).content.decode()
    assert "Ben: tapping…" in html and "7/10" not in html
    pressed = re.findall(r'value="([A-Z]\d+)" class="ph-gridcard" aria-pressed="true"', html)
    assert pressed == []  # Ana tapped none, and Ben's are not marked on her grid
    assert 'name="cards" value=""' in html
    mine = client.get(url(tokens[1], "state/"), headers=FETCH).content.decode()
    assert sorted(
        re.findall(r'value="([A-Z]\d+)" class="ph-gridcard" aria-pressed="true"', mine)
    ) == sorted(hand[:7])


def test_a_tap_is_recorded_and_stale_or_illegal_taps_get_409_and_422() -> None:
    at = first_card()
    game_id, tokens = new_game(until=at)
    card = GAME[at]
    seat = NAMES.index(card["player"])
    client = Client()
    fields = {
        "type": "card_played",
        "player": card["player"],
        "card": card["card"],
        "coins": str(card.get("coins", 0)),
        "version": str(at),
        "key": "k-1",
        "round": "1",
        "trick": "1",
    }
    ok = client.post(url(tokens[seat], "act/"), fields, headers=FETCH)
    assert ok.status_code == 200
    again = client.post(url(tokens[seat], "act/"), fields, headers=FETCH)  # a retry: the same key
    assert again.status_code == 200
    assert drafts.table_stamp(game_id, 1) == (at + 1, "")  # recorded once
    stale = client.post(url(tokens[seat], "act/"), {**fields, "key": "k-2"}, headers=FETCH)
    assert stale.status_code == 409
    assert "Someone else entered this first" in stale.content.decode()
    assert stale["X-Seat-Refusal"] == "conflict"  # the phone's outbox sends it again, queued
    # A queued card for a trick the record has not reached: kept on the phone, sent again.
    ahead = {**fields, "key": "k-5", "queued": "1", "trick": "2"}
    early = client.post(url(tokens[seat], "act/"), ahead, headers=FETCH)
    assert early.status_code == 409 and early["X-Seat-Refusal"] == "queued_early"
    # The next player tries a card they do not hold: the rule's words, cards in words.
    nxt = GAME[at + 1]
    other = next(c for c in held_by_others(at + 1, nxt["player"]))
    bad = {**fields, "player": nxt["player"], "card": other, "version": str(at + 1), "key": "k-3"}
    refused = client.post(url(tokens[NAMES.index(nxt["player"])], "act/"), bad, headers=FETCH)
    assert refused.status_code == 422
    assert refused["X-Seat-Refusal"] == "card_not_in_hand"
    said = re.findall(r"<strong>Refused:</strong>([^<]*)", unescape(refused.content.decode()))
    assert said and describe(other) in said[0]
    assert not re.search(rf"\b{other}\b", said[0])  # "red 4", not "R4"
    # A phone may not play for another seat.
    theirs = client.post(url(tokens[seat], "act/"), {**bad, "key": "k-4"}, headers=FETCH)
    assert theirs.status_code == 403


def test_a_taps_answer_is_the_panel_a_poll_draws_then_without_reading_the_game_again(
    committed_db: None,
) -> None:
    at = first_card()
    game_id, tokens = new_game(until=at)
    card = GAME[at]
    seat = NAMES.index(card["player"])
    client = Client()
    fields = {
        "type": "card_played",
        "player": card["player"],
        "card": card["card"],
        "coins": str(card.get("coins", 0)),
        "version": str(at),
        "key": "k-1",
        "round": "1",
        "trick": "1",
    }
    client.get(url(tokens[seat], "state/"), headers=FETCH)  # the phone's last redraw
    with CaptureQueriesContext(connection) as tapped:
        ok = client.post(url(tokens[seat], "act/"), fields, headers=FETCH)
    assert ok.status_code == 200
    # The write's own projection is drawn (not read again with its stamp), and the log's new
    # event is not read back (this process's memo of the log was extended at the commit).
    sql = [q["sql"] for q in tapped.captured_queries]
    assert not [q for q in sql if q.startswith("SELECT g.*")], sql
    assert not [q for q in sql if q.startswith("SELECT") and '"games_event"' in q], sql
    poll = client.get(url(tokens[seat], "state/"), headers={**FETCH, "If-None-Match": ok["ETag"]})
    assert poll.status_code == 304  # the answer's ETag is the poll's: nothing to redraw
    drawn = client.get(url(tokens[seat], "state/"), headers=FETCH)
    keys = re.compile(r'name="(key|csrfmiddlewaretoken)" value="[^"]+"')  # fresh each answer
    assert keys.sub("", drawn.content.decode()) == keys.sub("", ok.content.decode())
    assert drawn["ETag"] == ok["ETag"]


def test_without_javascript_a_tap_redirects_back_to_the_page() -> None:
    _, tokens = new_game()
    response = Client().post(
        url(tokens[0], "hand/"), {"round": "1", "seat": "1", "cards": "", "toggle": "G3"}
    )
    assert response.status_code == 303 and response["Location"] == url(tokens[0])
    html = Client().get(url(tokens[0])).content.decode()
    assert re.search(r'value="G3"[^>]*aria-pressed="true"', html)


def test_officials_open_any_seat_without_a_token(django_user_model: type[User]) -> None:
    keeper = django_user_model.objects.create_user("sam", password="x")
    other = django_user_model.objects.create_user("oscar", password="x")
    game = services.game_create(players=NAMES, user=keeper)
    client = Client()
    path = f"/table/{game.game_id}/seat/3/"
    assert client.get(path).status_code == 302  # to the login
    client.force_login(other)
    assert client.get(path).status_code == 403
    client.force_login(keeper)
    page = client.get(path)
    assert page.status_code == 200 and "Cleo" in page.content.decode()
    saved = client.post(
        path + "hand/", {"round": "1", "seat": "3", "cards": "G1,G2"}, headers=FETCH
    )
    assert saved.status_code == 204
    assert "2</span>/10" in client.get(path + "state/", headers=FETCH).content.decode()
    table = client.get(f"/table/{game.game_id}/").content.decode()
    assert path in table  # the scorekeeper page links to each seat's view


def test_a_shared_seat_is_entered_from_a_neighbours_phone(django_user_model: type[User]) -> None:
    olga = django_user_model.objects.create_user("olga", password="x")
    game_id, tokens = new_game(olga)
    client = Client()
    cleo = GAME[1]["hands"]["Cleo"]
    refused = client.post(
        url(tokens[0], "hand/"), {"round": "1", "seat": "3", "cards": cleo[0]}, headers=FETCH
    )
    assert refused.status_code == 403  # not shared yet
    services.seat_link_share(game_id=game_id, seat=3, shared=True, user=olga)
    page = client.get(url(tokens[0])).content.decode()
    assert "You (Ana)" in page and "Cleo (shared)" in page
    saved = client.post(
        url(tokens[0], "hand/"),
        {"round": "1", "seat": "3", "cards": ",".join(cleo[:2]), "as": "3"},
        headers=FETCH,
    )
    assert saved.status_code == 204
    html = client.get(url(tokens[0], "state/") + "?as=3", headers=FETCH).content.decode()
    assert "Cleo's hand, deal 1" in html
    pressed = re.findall(r'value="([A-Z]\d+)" class="ph-gridcard" aria-pressed="true"', html)
    assert sorted(pressed) == sorted(cleo[:2])
    # Ben's phone, which Cleo's seat is shared with too, sees only that she is tapping (his
    # own grid).
    ben = client.get(url(tokens[1], "state/"), headers=FETCH).content.decode()
    assert "Cleo: tapping…" in ben
    assert re.findall(r'value="([A-Z]\d+)" class="ph-gridcard" aria-pressed="true"', ben) == []


def test_once_the_other_hands_are_in_the_last_phone_confirms_its_hand_in_one_tap() -> None:
    game_id, tokens = new_game()
    hands = GAME[1]["hands"]
    access = [services.seat_open(t) for t in tokens]
    for seat, name in enumerate(NAMES[:3]):
        deals.deal_hand_save(
            game_id=game_id, round=1, seat=seat + 1, cards=hands[name], access=access[seat]
        )
    dev = Client()
    page = dev.get(url(tokens[3])).content.decode()
    offered = re.search(r'data-hand-all>.*?name="cards" value="([^"]+)"', page, re.S)
    assert offered is not None and sorted(offered.group(1).split(",")) == sorted(hands["Dev"])
    assert "That&#x27;s my hand" in page or "That's my hand" in page
    for token in tokens[:3]:  # the seats whose hands are in are offered nothing
        assert "data-hand-all" not in Client().get(url(token)).content.decode()
    csrf = csrf_of(page)
    answer = dev.post(
        url(tokens[3], "hand/"),
        {"round": 1, "seat": 4, "cards": offered.group(1), "confirm": "1"},
        headers={"X-CSRFToken": csrf, **FETCH},
    )
    assert answer.status_code == 200
    assert GameProjection.objects.get(stream_id=game_id).version == 2  # the round started


def test_no_hand_is_offered_while_the_other_hands_disagree() -> None:
    game_id, tokens = new_game()
    hands = GAME[1]["hands"]
    access = [services.seat_open(t) for t in tokens]
    wrong = [*hands["Ana"][:9], hands["Ben"][0]]  # Ana tapped one of Ben's cards
    for seat, cards in enumerate([wrong, hands["Ben"], hands["Cleo"]]):
        deals.deal_hand_save(
            game_id=game_id, round=1, seat=seat + 1, cards=cards, access=access[seat]
        )
    assert "data-hand-all" not in Client().get(url(tokens[3])).content.decode()


def test_a_hand_tap_the_rules_refuse_answers_the_panel_in_words_and_saves_nothing() -> None:
    game_id, tokens = new_game()
    client = Client()
    hand = GAME[1]["hands"]["Ana"]
    ok = client.post(
        url(tokens[0], "hand/"), {"round": "1", "seat": "1", "cards": hand[0]}, headers=FETCH
    )
    assert ok.status_code == 204
    bad = client.post(
        url(tokens[0], "hand/"),
        {"round": "1", "seat": "1", "cards": f"{hand[0]},X9"},
        headers=FETCH,
    )
    assert bad.status_code == 422
    assert "X9 is not a card of this game" in bad.content.decode()
    assert DealDraft.objects.get(game_id=game_id, round=1, seat=1).cards == [hand[0]]
