"""Trick-n-Chef's table page (games/tricknchef/table_views.py), driven with the Django test client.

Every action posts the fields of the form the page rendered (read back from the HTML: the
version, the idempotency key, the player) plus what the scorekeeper taps, exactly as a browser
does; with the HX-Request header the answer is the panel partial, without it a redirect to the
page. The assertions read what the page says (whose turn, trump, coins, the refusal) as text.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from engine.tricknchef.cards import CARD_SUIT, CARD_VALUE, COIN_STEP, describe
from engine.tricknchef.events import Event, to_json
from engine.tricknchef.referee import legal_cards
from engine.tricknchef.replay import step
from engine.tricknchef.rules import most_points
from engine.tricknchef.simulate import simulate
from engine.tricknchef.state import GameState, Phase
from engine.tricknchef.summary import summarize
from games import services
from games.models import Event as StoredEvent
from games.models import GameProjection
from games.table.views import CONFLICT
from games.tricknchef.table_presenters import coin_words, say_cards
from tests.web.a11y import assert_accessible

pytestmark = pytest.mark.django_db

NAMES = ("ana", "ben", "cleo", "dev")
HTMX = {"HX-Request": "true"}


# ----------------------------------------------------------------------------- reading pages


@dataclass
class Form:
    action: str
    fields: dict[str, str] = field(default_factory=dict)
    """What the form posts as rendered: hidden and text inputs, checked radios, selected
    options."""
    choices: dict[str, list[str]] = field(default_factory=dict)
    """The values offered by each radio group and select."""
    buttons: list[tuple[str, str]] = field(default_factory=list)
    """Submit buttons that carry a value: (name, value)."""
    disabled: list[str] = field(default_factory=list)
    """Texts of the disabled buttons."""
    inputs: dict[str, dict[str, str | None]] = field(default_factory=dict)
    """Each input's attributes, by name."""


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: str | None = None
        self.button: dict[str, str | None] | None = None
        self.button_text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.form = Form(action=a.get("action") or "")
            self.forms.append(self.form)
        if self.form is None:
            return
        name = a.get("name") or ""
        if tag == "input":
            self.form.inputs[name] = a
            kind = a.get("type", "text")
            if kind == "radio":
                self.form.choices.setdefault(name, []).append(a.get("value") or "")
                if "checked" in a:
                    self.form.fields[name] = a.get("value") or ""
            elif "disabled" not in a:
                self.form.fields[name] = a.get("value") or ""
        elif tag == "select":
            self.select = name
            self.form.choices[name] = []
        elif tag == "option" and self.select is not None:
            value = a.get("value") or ""
            self.form.choices[self.select].append(value)
            if "selected" in a:
                self.form.fields[self.select] = value
        elif tag == "button":
            self.button = a
            self.button_text = []

    def handle_data(self, data: str) -> None:
        if self.button is not None:
            self.button_text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        elif tag == "button" and self.button is not None and self.form is not None:
            if "disabled" in self.button:
                self.form.disabled.append(" ".join("".join(self.button_text).split()))
            elif self.button.get("name"):
                self.form.buttons.append(
                    (self.button["name"] or "", self.button.get("value") or "")
                )
            self.button = None


def page_forms(html: str) -> dict[str, Form]:
    """The page's forms by the last part of their action: deal, pick, play, take, undo."""
    parser = _Forms()
    parser.feed(html)
    return {f.action.rstrip("/").rsplit("/", 1)[-1]: f for f in parser.forms}


def text(html: str) -> str:
    """What the page says: tags dropped, white space collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def shown_coins(html: str) -> dict[str, int]:
    """Each player's coins as the players table shows them."""
    rows = re.findall(
        r'<th scope="row"><span class="muted">\d+\.</span> ([^<\s]+).*?</th>\s*'
        r'<td class="num">(-?\d+)</td>',
        html,
        re.S,
    )
    return {name: int(coins) for name, coins in rows}


def shown_trump(html: str) -> list[str]:
    found = re.search(r"<dt>Trump</dt><dd>(.*?)</dd>", html, re.S)
    assert found is not None
    return re.findall(r'<span class="chip suit-\w+">(\w+)</span>', found.group(1))


def turn_banner(html: str) -> str:
    found = re.search(r'<div id="table-turn"[^>]*>(.*?)</div>', html, re.S)
    assert found is not None
    return text(found.group(1))


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture
def keeper(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("keeper", password="x")


@pytest.fixture
def client_in(client: Client, keeper: User) -> Client:
    client.force_login(keeper)
    return client


def new_game(user: User, names: tuple[str, ...] = NAMES, **options: Any) -> uuid.UUID:
    return services.game_create(players=list(names), user=user, **options).game_id


def page(game_id: uuid.UUID) -> str:
    return f"/table/{game_id}/"


def version(game_id: uuid.UUID) -> int:
    return GameProjection.objects.get(stream_id=game_id).version


def stored(game_id: uuid.UUID) -> int:
    return StoredEvent.objects.filter(stream_id=game_id).count()


def append(game_id: uuid.UUID, user: User, events: list[Event]) -> None:
    """Record events behind the page's back (another scorekeeper, or a quick set-up)."""
    if events:
        services.game_append(
            game_id=game_id,
            expected_version=version(game_id),
            events=[to_json(e) for e in events],
            user=user,
        )


def tap_data(html: str, event: Event, players: tuple[str, ...]) -> tuple[str, dict[str, str]]:
    """The form a scorekeeper uses for ``event`` and what it posts once they tapped it, checking
    that the page offers that tap."""
    obj = to_json(event)
    forms = page_forms(html)
    kind = obj["type"]
    if kind == "round_started":
        form = forms["deal"]
        data = dict(form.fields)
        for seat, name in enumerate(players):
            for card in obj["hands"][name]:
                data[f"deal-{card}"] = str(seat)
        assert obj["first_player"] in form.choices["first_player"]
        data["first_player"] = obj["first_player"]
        return form.action, data
    name = {"chef_chosen": "pick", "card_played": "play", "chef_taken": "take"}[kind]
    form = forms[name]
    data = dict(form.fields)
    assert data["player"] == obj["player"]
    if kind == "card_played":
        assert ("card", obj["card"]) in form.buttons
        coins = obj.get("coins", 0)
        if coins:
            assert str(coins) in form.choices["coins"]
            data["coins"] = str(coins)
        data["card"] = obj["card"]
    else:
        assert ("suit", obj["suit"]) in form.buttons
        data["suit"] = obj["suit"]
    return form.action, data


def expected_words(state: GameState) -> str:
    """What the turn banner must say in this state."""
    p = state.expected
    if state.phase is Phase.ROUND_START:
        return f"Deal {state.round_no + 1}: deal the cards"
    if state.phase is Phase.CHEF_PICK:
        return f"{p}'s turn: pick a Chef"
    if state.phase is Phase.PLAY:
        return f"{p}'s turn: " + ("lead trick" if not state.trick else "play a card")
    if state.phase is Phase.CHEF_TAKE:
        return f"{p} played the lowest card and takes a Chef: tap a colour"
    return "The game is over"


def replayed(events: list[Event]) -> GameState:
    state = GameState()
    for event in events:
        step(state, event)
    return state


def a_revoke(events: list[Event]) -> tuple[int, str, str]:
    """The first moment of the game where the player to play could revoke: (how many events
    were played before, the player, an illegal card)."""
    state = GameState()
    for index, event in enumerate(events):
        if state.phase is Phase.PLAY and state.led_suit is not None and state.expected:
            legal = set(legal_cards(state))
            illegal = sorted(set(state.hands[state.expected]) - legal)
            if illegal:
                return index, state.expected, illegal[0]
        step(state, event)
    raise AssertionError("no revoke possible in this game")


# ----------------------------------------------------------------------------- a whole game


def test_a_whole_simulated_game_through_the_page(client_in: Client, keeper: User) -> None:
    events = simulate(11, 4, names=NAMES)
    game_id = new_game(keeper)  # game_created made simulate's first event, game_started
    html = client_in.get(page(game_id)).content.decode()
    state = replayed(events[:1])
    assert "Undo last" in page_forms(html)["undo"].disabled[0]  # nothing to undo yet
    coins_seen = 0
    checked: set[str] = set()
    for number, event in enumerate(events[1:], start=1):
        if state.phase.value not in checked:  # each kind of page once: labels, headings, names
            checked.add(state.phase.value)
            assert_accessible(
                client_in.get(page(game_id)).content.decode(), where=state.phase.value
            )
        action, data = tap_data(html, event, NAMES)
        if number % 9 == 0:  # now and then the way a browser without JavaScript does it
            response = client_in.post(action, data)
            assert response.status_code == 303
            assert response["Location"] == page(game_id)
            response = client_in.get(page(game_id))
            assert "<html" in response.content.decode()
        else:
            response = client_in.post(action, data, headers=HTMX)
            assert response.status_code == 200, text(response.content.decode())[:500]
            assert "<html" not in response.content.decode()  # the panel only
        html = response.content.decode()
        step(state, event)
        # Whose turn, in words; everyone's coins; the trump of the trick.
        assert expected_words(state) in turn_banner(html)
        if state.phase is not Phase.ROUND_START and state.phase is not Phase.OVER:
            assert shown_coins(html) == state.coins
            assert shown_trump(html) == list(state.trump)
        obj = to_json(event)
        if obj["type"] == "card_played" and obj.get("coins"):
            coins_seen += 1
            value = CARD_VALUE[obj["card"]] + COIN_STEP * obj["coins"]
            said = f"{obj['player']} {describe(obj['card'])} with {coin_words(obj['coins'])}"
            assert f"{said}: counts {value}" in text(html)
    assert coins_seen > 5
    assert_accessible(client_in.get(page(game_id)).content.decode(), where="the end")
    game = GameProjection.objects.get(stream_id=game_id)
    assert game.status == "finished"
    assert game.version == len(events)
    assert game.summary == services.as_stored(summarize(state))
    assert "The game is over" in turn_banner(html)
    ranking = text(html).split("Final ranking", 1)[1]
    for entry in summarize(state)["ranking"]:
        assert entry["player"] in ranking
    assert "Enter the results" not in html  # a game played to the end has its results


def test_a_three_player_deal_shows_only_the_suits_in_play(client_in: Client, keeper: User) -> None:
    names = ("ana", "ben", "cleo")
    game_id = new_game(keeper, names, suits=["green", "red", "yellow"])
    form = page_forms(client_in.get(page(game_id)).content.decode())["deal"]
    dealt = [name for name in form.choices if name.startswith("deal-")]
    assert len(dealt) == 30
    assert not [name for name in dealt if name.startswith("deal-B")]


# ----------------------------------------------------------------------------- the deal


def test_the_last_hand_is_filled_with_the_cards_left(client_in: Client, keeper: User) -> None:
    events = simulate(5, 4, names=NAMES)
    game_id = new_game(keeper)
    html = client_in.get(page(game_id)).content.decode()
    action, data = tap_data(html, events[1], NAMES)
    for key in [k for k, v in data.items() if k.startswith("deal-") and v == "3"]:
        data[key] = ""  # dev's 10 cards not tapped
    response = client_in.post(action, data, headers=HTMX)
    assert response.status_code == 200
    first = to_json(events[1])["first_player"]
    assert f"{first}'s turn: pick a Chef" in turn_banner(response.content.decode())
    game = GameProjection.objects.get(stream_id=game_id)
    assert sorted(game.snapshot["hands"]["dev"]) == sorted(to_json(events[1])["hands"]["dev"])


def test_an_incomplete_deal_is_refused_and_kept_as_tapped(client_in: Client, keeper: User) -> None:
    events = simulate(5, 4, names=NAMES)
    game_id = new_game(keeper)
    html = client_in.get(page(game_id)).content.decode()
    action, data = tap_data(html, events[1], NAMES)
    cleared = [k for k, v in data.items() if k.startswith("deal-") and v in ("2", "3")][:14]
    for key in cleared:
        data[key] = ""
    response = client_in.post(action, data, headers=HTMX)
    assert response.status_code == 422
    html = response.content.decode()
    assert "must be dealt 10 cards" in text(html)
    assert stored(game_id) == 1
    kept = page_forms(html)["deal"].fields
    assert {k: v for k, v in kept.items() if k.startswith("deal-") and v} == {
        k: v for k, v in data.items() if k.startswith("deal-") and v
    }


def test_rounds_two_and_three_offer_only_the_leaders_as_first_player(
    client_in: Client, keeper: User
) -> None:
    events = simulate(8, 4, names=NAMES)
    game_id = new_game(keeper)
    end_of_round_1 = next(
        i for i, e in enumerate(events) if i > 1 and to_json(e)["type"] == "round_started"
    )
    append(game_id, keeper, events[1:end_of_round_1])
    state = replayed(events[:end_of_round_1])
    html = client_in.get(page(game_id)).content.decode()
    form = page_forms(html)["deal"]
    assert form.choices["first_player"] == list(most_points(state.totals))
    assert "Deal 1 is over" in turn_banner(html)
    assert "Deal 2: deal the cards" in turn_banner(html)
    scores = text(html).split("Scores", 1)[1]
    for player in NAMES:
        assert f"{player} {state.round_scores[0][player]}" in scores


# ----------------------------------------------------------------------------- refusals


def test_an_illegal_card_is_refused_in_the_rules_words(client_in: Client, keeper: User) -> None:
    events = simulate(3, 4, names=NAMES)
    at, player, card = a_revoke(events)
    game_id = new_game(keeper)
    append(game_id, keeper, events[1:at])
    state = replayed(events[:at])
    led = state.led_suit
    assert led is not None
    held = ", ".join(
        describe(c)  # in words ("yellow 8"), not the engine's codes ("Y8")
        for c in sorted(
            (c for c in state.hands[player] if CARD_SUIT[c] == led), key=CARD_VALUE.__getitem__
        )
    )
    html = client_in.get(page(game_id)).content.decode()
    form = page_forms(html)["play"]
    assert ("card", card) in form.buttons  # still offered: the server says why not
    before = stored(game_id)
    data = {**form.fields, "card": card}
    for headers in (HTMX, {}):
        response = client_in.post(form.action, data, headers=headers)
        assert response.status_code == 422
        said = text(response.content.decode())
        assert f"{player} must follow {led}: {led} was led and {player} holds {held}" in said
        assert f"{player}'s turn: play a card" in said
        assert stored(game_id) == before


def test_refusals_name_cards_in_words_not_rule_numbers() -> None:
    said = say_cards("R4.3: ana must follow yellow: yellow was led and ana holds Y8, Y10.")
    assert said == "R4.3: ana must follow yellow: yellow was led and ana holds yellow 8, yellow 10."
    assert say_cards("G1 (R2) and B7; not XY9, Z3 or R11") == (
        "green 1 (red 2) and blue 7; not XY9, Z3 or R11"
    )


def test_too_many_coins_are_refused(client_in: Client, keeper: User) -> None:
    game_id = new_game(keeper)
    events = simulate(3, 4, names=NAMES)
    append(game_id, keeper, events[1:6])  # the deal and the picks: nobody holds a coin
    html = client_in.get(page(game_id)).content.decode()
    form = page_forms(html)["play"]
    assert "coins" not in form.choices  # no coin stepper for a player without coins
    player = form.fields["player"]
    card = form.buttons[0][1]
    response = client_in.post(
        form.action, {**form.fields, "card": card, "coins": "2"}, headers=HTMX
    )
    assert response.status_code == 422
    assert f"{player} placed 2 coins but holds 0" in text(response.content.decode())


def test_a_stale_page_is_a_conflict_showing_the_table_as_it_stands(
    client_in: Client, keeper: User
) -> None:
    events = simulate(4, 4, names=NAMES)
    game_id = new_game(keeper)
    append(game_id, keeper, events[1:6])
    html = client_in.get(page(game_id)).content.decode()
    form = page_forms(html)["play"]
    first = to_json(events[6])
    append(game_id, keeper, [events[6]])  # another scorekeeper taps first
    second = to_json(events[7])
    for headers in (HTMX, {}):
        response = client_in.post(
            form.action, {**form.fields, "card": first["card"]}, headers=headers
        )
        assert response.status_code == 409
        said = response.content.decode()
        assert CONFLICT in text(said)
        assert f"{second['player']}'s turn: play a card" in text(said)
        assert stored(game_id) == 7


def test_a_double_tap_records_once(client_in: Client, keeper: User) -> None:
    events = simulate(4, 4, names=NAMES)
    game_id = new_game(keeper)
    html = client_in.get(page(game_id)).content.decode()
    action, data = tap_data(html, events[1], NAMES)
    first = client_in.post(action, data, headers=HTMX)
    again = client_in.post(action, data, headers=HTMX)  # same idempotency key
    assert first.status_code == again.status_code == 200
    assert stored(game_id) == 2
    assert "pick a Chef" in turn_banner(again.content.decode())


# ----------------------------------------------------------------------------- undo


def test_undo_takes_back_the_last_card_with_a_reason(client_in: Client, keeper: User) -> None:
    events = simulate(6, 4, names=NAMES)
    game_id = new_game(keeper)
    append(game_id, keeper, events[1:7])  # the deal, the picks, a first card
    played = to_json(events[6])
    html = client_in.get(page(game_id)).content.decode()
    undo = page_forms(html)["undo"]
    assert f"Undo last: {played['player']}'s {describe(played['card'])}" in text(html)
    response = client_in.post(undo.action, {**undo.fields, "reason": "wrong card"}, headers=HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert f"{played['player']}'s turn: lead trick 1" in turn_banner(html)
    assert ("card", played["card"]) in page_forms(html)["play"].buttons
    last = StoredEvent.objects.filter(stream_id=game_id).order_by("-version").first()
    assert last is not None
    assert last.type == "events_retracted"
    assert last.data == {"count": 1, "reason": "wrong card"}


def test_undo_sits_under_the_current_controls(client_in: Client, keeper: User) -> None:
    events = simulate(3, 4, names=NAMES)
    game_id = new_game(keeper)
    append(game_id, keeper, events[1:8])
    said = text(client_in.get(page(game_id)).content.decode())
    controls, undo, players = (
        said.index(" plays a card"),
        said.index("Correct a mistake"),
        said.index("Players"),
    )
    assert controls < undo < players  # not below the players and the scores


def test_undoing_a_deal_offers_it_again(client_in: Client, keeper: User) -> None:
    events = simulate(6, 4, names=NAMES)
    game_id = new_game(keeper)
    html = client_in.get(page(game_id)).content.decode()
    action, data = tap_data(html, events[1], NAMES)
    html = client_in.post(action, data, headers=HTMX).content.decode()
    undo = page_forms(html)["undo"]
    assert "Undo last: the cards of deal 1" in text(html)
    response = client_in.post(undo.action, undo.fields)  # without JavaScript
    assert response.status_code == 303
    html = client_in.get(page(game_id)).content.decode()
    offered = page_forms(html)["deal"].fields
    assert {k: v for k, v in offered.items() if k.startswith("deal-")} == {
        k: v for k, v in data.items() if k.startswith("deal-")
    }
    assert offered["first_player"] == data["first_player"]


# ----------------------------------------------------------------------------- results only


def results_data(
    html: str, scores: dict[str, list[int | str]], totals: dict[str, Any]
) -> dict[str, str]:
    form = page_forms(html)["results"]
    data = dict(form.fields)
    for seat, name in enumerate(NAMES):
        for number, points in enumerate(scores[name], start=1):
            data[f"score-{seat}-{number}"] = str(points)
        data[f"total-{seat}"] = str(totals.get(name, ""))
    return data


def test_results_only_good_and_bad(client_in: Client, keeper: User) -> None:
    game_id = new_game(keeper)
    html = client_in.get(page(game_id)).content.decode()
    assert "did not record play by play? Enter the results" in text(html)
    url = f"/table/{game_id}/results/"
    html = client_in.get(url).content.decode()
    assert_accessible(html, where=url)
    good: dict[str, list[int | str]] = {
        "ana": [10, 12, 8],
        "ben": [9, 9, 9],
        "cleo": [15, 3, 12],
        "dev": [7, 11, 10],
    }
    # Four mistakes, all said at once, each beside its own box (ben's total waits for his
    # rounds to be whole numbers).
    bad: dict[str, list[int | str]] = {
        **good,
        "ben": [9, "nine", 9],
        "cleo": [15, 3, ""],
        "dev": [7, 99, 10],
    }
    response = client_in.post(url, results_data(html, bad, {"ana": 31, "ben": 3}))
    assert response.status_code == 422
    assert stored(game_id) == 1
    answer = response.content.decode()
    said = text(answer)
    expected = {
        "score-1-2": "ben's deal 2 score must be a whole number",
        "score-2-3": "cleo's deal 3 score is missing",
        "score-3-2": "dev's deal 2 score of 99 is impossible (a deal scores 0 to 64)",
        "total-0": "ana's total is 31, but the deals add up to 10 + 12 + 8 = 30",
    }
    assert "4 mistakes to correct, each marked beside its box" in said
    boxes = page_forms(answer)["results"]
    for name, message in expected.items():
        assert message in said
        box = boxes.inputs[name]
        assert box["aria-invalid"] == "true"
        described = str(box["aria-describedby"]).split()[0]
        assert text(answer.split(f'id="{described}">', 1)[1]).lstrip("⚠ ").startswith(message)
        assert f'href="#id-{name}"' in answer
    assert "ben's total" not in said  # ben's rounds are not all whole numbers: not checked yet
    invalid = [name for name, box in boxes.inputs.items() if box.get("aria-invalid")]
    assert sorted(invalid) == sorted(expected)
    assert boxes.fields["score-1-2"] == "nine"  # everything typed is still there
    assert_accessible(answer, where=url)

    # One total is enough: it is checked, and the blank ones are not asked for.
    response = client_in.post(url, results_data(html, good, {"ana": 29}))
    assert response.status_code == 422
    assert "ana's total is 29" in text(response.content.decode())
    assert "no total for" not in text(response.content.decode())
    totals = {"ana": 30, "ben": 27, "cleo": 30, "dev": 28}
    response = client_in.post(url, results_data(html, good, totals))
    assert response.status_code == 303
    html = client_in.get(page(game_id)).content.decode()
    said = text(html)
    assert "Results entered" in said
    ranking = said.split("Final ranking", 1)[1]
    assert ranking.index("cleo") < ranking.index("ana")  # 30 each: cleo scored more in round 3
    assert "Undo last: the results entered" in said
    html = client_in.get(url).content.decode()
    assert "Correct the results" in text(html)  # recorded: the form is now their correction


def test_a_correction_opens_the_results_form_filled_in_and_one_number_is_one_number(
    client_in: Client, keeper: User
) -> None:
    game_id = new_game(keeper)
    url = f"/table/{game_id}/results/"
    entered: dict[str, list[int | str]] = {
        "ana": [10, 12, 8],
        "ben": [9, 9, 9],
        "cleo": [15, 3, 12],
        "dev": [7, 11, 17],
    }
    response = client_in.post(url, results_data(client_in.get(url).content.decode(), entered, {}))
    assert response.status_code == 303
    html = client_in.get(page(game_id)).content.decode()
    undo = page_forms(html)["undo"]
    assert "Undo last: the results entered" in text(html)
    # Without JavaScript the undo is a POST/redirect/GET to the results form, filled in with
    # the entry the correction took back (read from the log, where it stays as it was).
    response = client_in.post(f"/table/{game_id}/undo/", {**undo.fields, "reason": "dev's 3"})
    assert response.status_code == 303 and response["Location"] == url
    html = client_in.get(url).content.decode()
    said = text(html)
    assert "The results that were taken back are filled in below" in said
    form = page_forms(html)["results"]
    for seat, name in enumerate(NAMES):
        for number, points in enumerate(entered[name], start=1):
            assert form.fields[f"score-{seat}-{number}"] == str(points)
        assert form.fields[f"total-{seat}"] == ""  # none given: none invented
    assert_accessible(html, where=url)
    # The table page, meanwhile, offers the correction first, above the empty deal.
    table = text(client_in.get(page(game_id)).content.decode())
    assert table.index("Correct the results") < table.index("Dealing to")
    assert "did not record play by play?" not in table
    # One number changed, then submit.
    response = client_in.post(url, {**form.fields, "score-3-3": "11"})
    assert response.status_code == 303
    results = [
        (e.type, e.data)
        for e in StoredEvent.objects.filter(stream_id=game_id).order_by("version")
        if e.type in ("results_entered", "events_retracted")
    ]
    assert [kind for kind, _ in results] == [
        "results_entered",
        "events_retracted",
        "results_entered",
    ]
    assert results[1][1]["reason"] == "dev's 3"
    assert results[2][1]["scores"] == {**results[0][1]["scores"], "dev": [7, 11, 11]}
    # Recorded again: nothing is offered to fill in any more.
    assert "filled in below" not in text(client_in.get(url).content.decode())


def test_totals_entered_come_back_with_the_scores(client_in: Client, keeper: User) -> None:
    game_id = new_game(keeper)
    url = f"/table/{game_id}/results/"
    scores: dict[str, list[int | str]] = {name: [n, 2 * n, 3] for n, name in enumerate(NAMES)}
    totals = {name: 3 * n + 3 for n, name in enumerate(NAMES)}
    html = client_in.get(url).content.decode()
    assert client_in.post(url, results_data(html, scores, totals)).status_code == 303
    undo = page_forms(client_in.get(page(game_id)).content.decode())["undo"]
    response = client_in.post(f"/table/{game_id}/undo/", undo.fields, headers=HTMX)
    assert response["HX-Redirect"] == url
    form = page_forms(client_in.get(url).content.decode())["results"]
    assert [form.fields[f"total-{seat}"] for seat in range(4)] == ["3", "6", "9", "12"]


# ----------------------------------------------------------------------------- who may enter


def test_an_anonymous_user_is_sent_to_the_login(client: Client, keeper: User) -> None:
    game_id = new_game(keeper)
    response = client.get(page(game_id))
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/table/{game_id}/"
    response = client.post(f"/table/{game_id}/play/", {"card": "R1"})
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/table/{game_id}/"
    response = client.post(f"/table/{game_id}/play/", {"card": "R1"}, headers=HTMX)
    assert response["HX-Redirect"] == f"/accounts/login/?next=/table/{game_id}/"
    assert stored(game_id) == 1


def test_an_unknown_game_is_not_found(client_in: Client) -> None:
    assert client_in.get(page(uuid.uuid4())).status_code == 404


@pytest.fixture
def tournament_table(django_user_model: type[User]) -> Iterator[tuple[uuid.UUID, tuple[str, ...]]]:
    from tournaments import services as t

    organizer = django_user_model.objects.create_user("olga", password="x")
    tid = t.tournament_create(
        user=organizer, name="Club night", date="2026-12-01", rounds=3, seed=7
    ).tournament_id
    t.tournament_register(
        tournament_id=tid, user=organizer, names=["Ana", "Ben", "Cleo", "Dev"], checked_in=True
    )
    t.tournament_set_role(
        tournament_id=tid, username="keeper", role="scorekeeper", grant=True, user=organizer
    )
    t.tournament_pair(tournament_id=tid, user=organizer)
    table = t.tournament_publish(tournament_id=tid, round=1, user=organizer).state["rounds"][0][
        "tables"
    ][0]
    yield uuid.UUID(table["game"]), tuple(s["name"] for s in table["seats"])


def test_only_the_tournaments_scorekeepers_enter_its_tables(
    client: Client,
    django_user_model: type[User],
    keeper: User,
    tournament_table: tuple[uuid.UUID, tuple[str, ...]],
) -> None:
    game_id, seats = tournament_table
    outsider = django_user_model.objects.create_user("oscar", password="x")
    client.force_login(outsider)
    response = client.get(page(game_id))
    assert response.status_code == 403
    assert_accessible(response.content.decode(), where="403")
    assert "Only this tournament's scorekeepers and organizers" in text(response.content.decode())
    # The tournament's scorekeeper: the page says which table it is, and offers seat 1 only as
    # round 1's first player; another one (posted all the same) is refused.
    client.force_login(keeper)
    html = client.get(page(game_id)).content.decode()
    assert "Club night · round 1 · table 1" in text(html)
    form = page_forms(html)["deal"]
    assert form.fields["first_player"] == seats[0]
    assert form.choices["first_player"] == [seats[0]]
    events = simulate(2, 4, names=seats, first_player=seats[0])
    action, data = tap_data(html, events[1], seats)
    response = client.post(action, {**data, "first_player": seats[1]}, headers=HTMX)
    assert response.status_code == 422
    assert f"{seats[0]} (seat 1) is the first player of round 1" in text(response.content.decode())
    # The refused deal stays saved: a reload (without JavaScript too) shows it as tapped.
    offered = page_forms(client.get(page(game_id)).content.decode())["deal"].fields
    assert {k: v for k, v in offered.items() if k.startswith("deal-")} == {
        k: v for k, v in data.items() if k.startswith("deal-")
    }
    # A tap by someone who lost the right meanwhile: a 403 (the panel, for htmx).
    client.force_login(outsider)
    response = client.post(action, {**data, "first_player": seats[0]}, headers=HTMX)
    assert response.status_code == 403
    assert "<html" not in response.content.decode()


# ----------------------------------------------------------------------------- htmx or not


def test_htmx_gets_the_panel_and_the_turn_out_of_band_others_a_redirect(
    client_in: Client, keeper: User
) -> None:
    events = simulate(9, 4, names=NAMES)
    game_id = new_game(keeper)
    full = client_in.get(page(game_id)).content.decode()
    assert "<html" in full and "<h1" in full
    assert 'role="status"' in full  # the turn banner is a live region
    assert "responseHandling" in full  # htmx swaps the 403/409/422 answers
    append(game_id, keeper, events[1:2])
    html = client_in.get(page(game_id)).content.decode()
    form = page_forms(html)["pick"]
    suit = form.buttons[0][1]
    response = client_in.post(form.action, {**form.fields, "suit": suit}, headers=HTMX)
    partial = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in partial and "<h1" not in partial
    assert 'id="table-panel"' in partial
    assert 'hx-swap-oob="innerHTML"' in partial
    form = page_forms(partial)["pick"]
    response = client_in.post(form.action, {**form.fields, "suit": form.buttons[0][1]})
    assert response.status_code == 303
    assert response["Location"] == page(game_id)


def test_the_results_form_and_the_table_say_deal_for_a_games_rounds(
    client_in: Client, keeper: User
) -> None:
    """The rulebook's "round" of a game is a *deal* on the table page and its results form
    (the tournament has rounds of its own): one word in every string, labels included."""
    game_id = new_game(keeper)
    url = f"/table/{game_id}/results/"
    html = client_in.get(url).content.decode()
    said = text(html) + " " + " ".join(re.findall(r'aria-label="([^"]*)"', html))
    assert "three deals" in said and "ana, deal 1" in said
    bad: dict[str, list[int | str]] = {
        "ana": [10, 12, 8],
        "ben": [9, 99, 9],
        "cleo": [1, 2, 3],
        "dev": [1, 2, 3],
    }
    answer = client_in.post(url, results_data(html, bad, {"ana": 29})).content.decode()
    said += " " + text(answer)
    events = simulate(4, 4, names=NAMES)
    append(game_id, keeper, events[1:40])
    said += " " + text(client_in.get(page(game_id)).content.decode())
    assert not re.search(r"\bround", said, re.I), re.findall(r".{30}\bround.{30}", said, re.I)


def test_correct_the_results_goes_straight_to_the_form_and_records_both_events_at_once(
    client_in: Client, keeper: User
) -> None:
    game_id = new_game(keeper)
    url = f"/table/{game_id}/results/"
    entered: dict[str, list[int | str]] = {name: [n, 2 * n, 3] for n, name in enumerate(NAMES)}
    html = client_in.get(url).content.decode()
    assert client_in.post(url, results_data(html, entered, {})).status_code == 303
    table = client_in.get(page(game_id)).content.decode()
    assert f'href="{url}"' in table and "Correct the results" in text(table)
    html = client_in.get(url).content.decode()
    assert_accessible(html, where=url)
    form = page_forms(html)["results"]
    assert form.fields["correct"] == "1"
    assert [form.fields[f"score-{seat}-2"] for seat in range(4)] == ["0", "2", "4", "6"]
    before = stored(game_id)
    data = {**form.fields, "score-2-2": "5", "reason": "cleo's deal 2 was 5"}
    response = client_in.post(url, data)
    assert response.status_code == 303
    kinds = [e.type for e in StoredEvent.objects.filter(stream_id=game_id).order_by("version")]
    assert kinds[before:] == ["events_retracted", "results_entered"]
    last = StoredEvent.objects.filter(stream_id=game_id).order_by("-version")
    again, undone = last[0].data, last[1].data
    assert undone == {"count": 1, "reason": "cleo's deal 2 was 5"}
    assert again["scores"] == {**{p: entered[p] for p in NAMES}, "cleo": [2, 5, 3]}
    # The same form sent again (a double tap): recorded once.
    assert client_in.post(url, data).status_code == 303
    assert stored(game_id) == before + 2
    # A correction of a table whose results were taken back meanwhile: a conflict, nothing
    # written, and the form is an entry again.
    undo = page_forms(client_in.get(page(game_id)).content.decode())["undo"]
    stale = page_forms(client_in.get(url).content.decode())["results"].fields
    client_in.post(f"/table/{game_id}/undo/", undo.fields)
    response = client_in.post(url, {**stale, "score-0-1": "1"})
    assert response.status_code == 409
    assert stored(game_id) == before + 3
    assert 'name="correct"' not in response.content.decode()
