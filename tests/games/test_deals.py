"""Deals entered in parallel on the seats' phones (games.tricknchef.deals), and a phone's taps sent
late from its outbox (game_append's ``queued``). On both backends: the locking that turns two
last hands into one round_started is the database's."""

from __future__ import annotations

import functools
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User

from engine.tricknchef.cards import describe
from engine.tricknchef.events import to_json
from engine.tricknchef.simulate import simulate
from engine.tricknchef.snapshot import from_snapshot
from games import services
from games.models import DealDraft, Event, GameProjection
from games.seats import SeatAccess
from games.services import NotAllowed, Refused
from games.tricknchef import deals
from games.tricknchef.deals import DealClosed
from games.tricknchef.phone import PANEL, phone_view
from tests.games.concurrency import run_together

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
GAME = [to_json(e) for e in simulate(seed=5, players=4, names=tuple(NAMES), first_player="Ana")]
DEAL = GAME[1]
HANDS: dict[str, list[str]] = DEAL["hands"]


def new_game(user: User | None = None) -> tuple[uuid.UUID, list[SeatAccess]]:
    game = services.game_create(players=NAMES, user=user)
    links = services.seat_links_issue(game_id=game.game_id, user=None)
    return game.game_id, [services.seat_open(link.token) for link in links]


def save(game_id: uuid.UUID, seat: SeatAccess, cards: list[str], round: int = 1) -> Any:
    return deals.deal_hand_save(
        game_id=game_id, round=round, seat=seat.seat, cards=cards, access=seat
    )


def stream(game_id: uuid.UUID) -> list[dict[str, Any]]:
    rows = Event.objects.filter(stream_id=game_id).order_by("version")
    return [{"type": e.type, **e.data} for e in rows]


@pytest.mark.django_db
def test_the_last_hand_of_a_consistent_deal_starts_the_round() -> None:
    game_id, seats = new_game()
    for seat in seats[:3]:
        assert save(game_id, seat, HANDS[seat.player]).started is False
    assert save(game_id, seats[3], HANDS["Dev"]).started is True
    started = stream(game_id)[-1]
    assert started == DEAL  # record v1, unchanged: the same event a scorekeeper would enter
    assert Event.objects.get(stream_id=game_id, version=2).metadata["by_seat"] == 4
    # Drafts of a round are ignored once it started: the phone is told, nothing changes.
    with pytest.raises(DealClosed):
        save(game_id, seats[0], HANDS["Ana"][:5])
    assert len(stream(game_id)) == 2


@pytest.mark.django_db
def test_a_hand_is_saved_whole_and_last_write_wins() -> None:
    game_id, seats = new_game()
    save(game_id, seats[0], HANDS["Ana"][:4])
    save(game_id, seats[0], HANDS["Ana"][:4])  # the same again: idempotent
    save(game_id, seats[0], HANDS["Ana"][1:3])
    draft = DealDraft.objects.get(game_id=game_id, round=1, seat=1)
    assert draft.cards == sorted(HANDS["Ana"][1:3], key=lambda c: ("GRYB".index(c[0]), int(c[1:])))


@pytest.mark.django_db
def test_bad_hands_are_refused_in_words_and_lose_nothing() -> None:
    game_id, seats = new_game()
    save(game_id, seats[0], HANDS["Ana"][:3])
    for cards, words in [
        (["G11"], "G11 is not a card of this game"),
        (["G1", "G1"], "green 1 is in the hand twice"),
        ([*HANDS["Ana"], HANDS["Ben"][0]], "a hand has 10 cards"),
    ]:
        with pytest.raises(Refused) as refused:
            save(game_id, seats[0], cards)
        assert words in refused.value.message
    assert len(DealDraft.objects.get(game_id=game_id, seat=1).cards) == 3


@pytest.mark.django_db
def test_a_phone_enters_its_own_hand_only(django_user_model: type[User]) -> None:
    game_id, seats = new_game()
    with pytest.raises(NotAllowed):
        deals.deal_hand_save(game_id=game_id, round=1, seat=2, cards=HANDS["Ben"], access=seats[0])
    stranger = django_user_model.objects.create_user("mallory", password="x")
    with pytest.raises(NotAllowed):
        deals.deal_hand_save(game_id=game_id, round=1, seat=2, cards=[], user=stranger)
    other_id, other_seats = new_game()
    with pytest.raises(NotAllowed):  # a link of another game
        deals.deal_hand_save(game_id=game_id, round=1, seat=1, cards=[], access=other_seats[0])
    assert not DealDraft.objects.filter(game_id=game_id).exists()


@pytest.mark.django_db
def test_a_contradiction_is_shown_to_the_two_seats_involved_only() -> None:
    game_id, seats = new_game()
    clash = HANDS["Ben"][0]  # Ana claims one of Ben's cards instead of one of hers
    missing = HANDS["Ana"][-1]
    ana = [*HANDS["Ana"][:-1], clash]
    save(game_id, seats[0], ana)
    for seat in seats[1:]:
        assert save(game_id, seat, HANDS[seat.player]).started is False
    game, deal = deals.deal_table(game_id)
    assert deal is not None and deal.check.full and not deal.check.ok
    state = from_snapshot(game.snapshot)
    shown = {}
    for seat in seats:
        view = phone_view(
            state=state,
            version=game.version,
            acts_for=seat.acts_for,
            focus=seat.seat,
            deal=deal,
            summary={},
        )
        assert view.deal is not None
        shown[seat.player] = view.deal.clashes
        # Never another hand's cards: only this seat's own are chosen on its grid.
        chosen = {c.card for _, _, cards in view.deal.suits for c in cards if c.chosen}
        assert chosen == set(ana if seat.seat == 1 else HANDS[seat.player])
    assert shown["Ana"] == [
        f"you and Ben both entered {describe(clash)}; one of you may hold {describe(missing)} "
        "instead: check your cards"
    ]
    assert shown["Ben"] == [
        f"you and Ana both entered {describe(clash)}; one of you may hold {describe(missing)} "
        "instead: check your cards"
    ]
    assert shown["Cleo"] == [] and shown["Dev"] == []
    assert len(stream(game_id)) == 1  # nothing recorded
    assert save(game_id, seats[0], HANDS["Ana"]).started is True  # Ana fixes hers


@pytest.mark.django_db
def test_the_first_player_is_one_tap_of_any_phone() -> None:
    game_id, seats = new_game()
    deals.deal_first_player(game_id=game_id, round=1, player="Cleo", access=seats[1])
    with pytest.raises(Refused):
        deals.deal_first_player(game_id=game_id, round=1, player="Zoe", access=seats[1])
    for seat in seats:
        save(game_id, seat, HANDS[seat.player])
    assert stream(game_id)[-1]["first_player"] == "Cleo"


@pytest.mark.django_db
def test_round_two_is_led_by_a_player_with_the_most_points() -> None:
    game_id, seats = new_game()
    at = next(i for i, e in enumerate(GAME) if e["type"] == "round_started" and e["round"] == 2)
    services.game_append(game_id=game_id, expected_version=1, events=GAME[1:at], user=None)
    game, deal = deals.deal_table(game_id)
    assert deal is not None and deal.round == 2
    totals = from_snapshot(game.snapshot).totals
    best = max(totals.values())
    assert deal.choices == [p for p in NAMES if totals[p] == best]
    assert deal.first_player == deal.choices[0]
    second = GAME[at]
    for seat in seats:
        deals.deal_hand_save(
            game_id=game_id,
            round=2,
            seat=seat.seat,
            cards=second["hands"][seat.player],
            access=seat,
        )
    assert stream(game_id)[-1]["first_player"] in deal.choices


@pytest.mark.django_db(transaction=True)
def test_two_last_hands_racing_start_the_round_once(committed_db: None) -> None:
    game_id, seats = new_game()
    for seat in seats[:2]:
        save(game_id, seat, HANDS[seat.player])
    works = [functools.partial(save, game_id, s, HANDS[s.player]) for s in seats[2:]]
    outcomes = run_together(works, "last-hand")
    assert sum(o.started for o in outcomes) == 1
    starts = [e for e in stream(game_id) if e["type"] == "round_started"]
    # Each hand was saved: whichever transaction came second saw every hand and started it.
    assert len(starts) == 1
    assert GameProjection.objects.get(stream_id=game_id).version == 2


# ----------------------------------------------------------------------------- queued taps


def played_to(game_id: uuid.UUID, until: int) -> None:
    services.game_append(game_id=game_id, expected_version=1, events=GAME[1:until])


def first_card_at(trick_start: int) -> tuple[int, dict[str, Any]]:
    index = next(i for i, e in enumerate(GAME) if i >= trick_start and e["type"] == "card_played")
    return index, GAME[index]


@pytest.mark.django_db
def test_a_queued_tap_is_recorded_in_its_own_slot_when_the_others_moved_on() -> None:
    game_id, seats = new_game()
    index, _ = first_card_at(6)  # the first card of round 1 (after the deal and 4 picks)
    # The phone of the second player saw the table before the first card (version index).
    second = GAME[index + 1]
    player_seat = NAMES.index(second["player"])
    played_to(game_id, index + 1)  # the leader's card is in meanwhile
    change = services.game_append(
        game_id=game_id,
        expected_version=index,  # stale by one
        events=[second],
        seat=seats[player_seat],
        idempotency_key="queued-1",
        queued=(1, 1),
        seat_plays=PANEL.seat_plays,
    )
    assert change.version == index + 2
    again = services.game_append(  # the retry of the same tap: its first result
        game_id=game_id,
        expected_version=index,
        events=[second],
        seat=seats[player_seat],
        idempotency_key="queued-1",
        queued=(1, 1),
        seat_plays=PANEL.seat_plays,
    )
    assert again.version == change.version
    assert Event.objects.filter(stream_id=game_id).count() == index + 2


@pytest.mark.django_db
def test_a_queued_tap_for_a_slot_gone_by_is_refused_in_words() -> None:
    game_id, seats = new_game()
    index, _ = first_card_at(6)
    leader = GAME[index]
    played_to(game_id, index + 2)  # the leader's card and the next are in
    phone = seats[NAMES.index(leader["player"])]
    # The same card, entered meanwhile by someone else: done, nothing recorded twice.
    same = services.game_append(
        game_id=game_id,
        expected_version=index,
        events=[leader],
        seat=phone,
        idempotency_key="late-same",
        queued=(1, 1),
        seat_plays=PANEL.seat_plays,
    )
    assert same.appended == () and same.version == index + 2
    # Another card for that slot: the rules refuse it, in their words.
    hand = next(e for e in GAME if e["type"] == "round_started")["hands"][leader["player"]]
    other = {**leader, "card": next(c for c in hand if c != leader["card"])}
    with pytest.raises(Refused) as refused:
        services.game_append(
            game_id=game_id,
            expected_version=index,
            events=[other],
            seat=phone,
            idempotency_key="late",
            queued=(1, 1),
            seat_plays=PANEL.seat_plays,
        )
    assert refused.value.code == "wrong_turn"  # the rule's words
    assert refused.value.message.startswith("it is ")
    # A card for a trick still to come waits (the phone keeps it and sends it again).
    with pytest.raises(Refused) as early:
        services.game_append(
            game_id=game_id,
            expected_version=index,
            events=[GAME[index + 2]],
            seat=seats[NAMES.index(GAME[index + 2]["player"])],
            idempotency_key="early",
            queued=(1, 2),
            seat_plays=PANEL.seat_plays,
        )
    assert early.value.code == services.QUEUED_EARLY
    assert "waits for its turn (deal 1, trick 2)" in early.value.message
    assert Event.objects.filter(stream_id=game_id).count() == index + 2


@pytest.mark.django_db
def test_a_stale_tap_not_queued_is_a_conflict() -> None:
    game_id, seats = new_game()
    index, _ = first_card_at(6)
    played_to(game_id, index + 1)
    second = GAME[index + 1]
    with pytest.raises(services.Conflict):
        services.game_append(
            game_id=game_id,
            expected_version=index,
            events=[second],
            seat=seats[NAMES.index(second["player"])],
            seat_plays=PANEL.seat_plays,
        )


@pytest.mark.django_db
def test_a_phones_tap_then_records_what_the_rules_leave_no_choice_about() -> None:
    from engine.tricknchef.referee import forced_next
    from engine.tricknchef.replay import replay

    events = simulate(seed=5, players=4, names=tuple(NAMES), first_player="Ana")
    # Find a tap after which the rules force the next events (the fourth pick, a lone card).
    index = next(
        i
        for i in range(6, len(GAME) - 1)
        if forced_next(replay(events[: i + 1])) is not None and GAME[i].get("player")
    )
    game_id, seats = new_game()
    played_to(game_id, index)
    tap = GAME[index]
    change = services.game_append(
        game_id=game_id,
        expected_version=index,
        events=[tap],
        seat=seats[NAMES.index(tap["player"])],
        forced=True,
        seat_plays=PANEL.seat_plays,
    )
    then = []
    state = replay(events[: index + 1])
    while (event := forced_next(state)) is not None:
        then.append(to_json(event))
        state = replay([event], state)
    assert then and change.version == index + 1 + len(then)
    assert stream(game_id)[index + 1 :] == then  # what a legal record could only hold
    forced_rows = Event.objects.filter(stream_id=game_id, version__gt=index + 1)
    assert all(row.metadata["forced"] is True for row in forced_rows)
    assert Event.objects.get(stream_id=game_id, version=index + 1).metadata["by_seat"]


@pytest.mark.django_db
def test_without_forced_a_tap_records_only_itself() -> None:
    game_id, seats = new_game()
    played_to(game_id, 4)
    tap = GAME[4]  # the third Chef pick: the fourth is then forced, but not asked for
    change = services.game_append(
        game_id=game_id,
        expected_version=4,
        events=[tap],
        seat=seats[NAMES.index(tap["player"])],
        seat_plays=PANEL.seat_plays,
    )
    assert change.version == 5 and len(stream(game_id)) == 5
