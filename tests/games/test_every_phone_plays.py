"""Every game with seat phones plays a whole game from its phones alone (issue 25, "Measure"):
a bot that knows no game (tests/phones/bot.py) reads each phone's live panel through the
seat-phone DOM contract and taps random moves among those the phones offer, until the game is
finished. Parametrized from the registry at collection (every game type whose panel is not
None), plus the tests' toy High Card through its fixture; each at the smallest and the largest
table it allows.

Checked, for every table:

* no answer is a 5xx or an error page: the page, every poll (200 with the live panel, or 304)
  and every tap;
* every move a phone offers is accepted (a refusal of an offered move is a bug: the panel
  offered what the referee refuses, or a move of another seat);
* after every accepted tap the other phones' next poll shows the new version (and a poll with
  nothing new is a 304: the ETag works);
* the finished panels' ``<ol data-final>`` is, on every phone, the places and points of the
  engine's replay (engine.registry.RULES) of the record the export URL gives;
* where the game declares hidden hands (``GameType.hands``), no answer a phone received holds a
  card another seat held at that moment.

Trick-n-Chef's deal is entered by its scorekeeper here (a mixed table): its phones enter the
hands dealt at the table (a grid of the deck, ``form[data-hand]``: a draft of the cards the
player holds, not a choice among legal moves), which no random player can make up, so when the
table waits for a deal and no phone offers a move, the scorekeeper records the next deal drawn
by the engine (tests/phones/scorekeepers.py); the phones play everything else (the Chefs and
the cards; a card's coins are a radio choice beside it: the bot taps none).
tests/browser/test_phones.py plays its hand entry from the phones, following a simulated game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from django.test import Client

from games.gametypes import GAME_TYPES
from games.models import GameProjection
from tests.highcard import engine as high_card_engine
from tests.highcard.conftest import high_card  # noqa: F401 (the fixture, for getfixturevalue)
from tests.phones.bot import Answer, DjangoTransport, SeatBot, pick
from tests.phones.scorekeepers import SCOREKEEPER, scorekeeper_enters
from tests.phones.tables import (
    create_table,
    held_by,
    hidden_rule,
    leaks,
    others_secrets,
    phone_games,
    placements_of_record,
    table_specs,
)

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

TOY = "high-card"
EXTRA_RULES = {TOY: high_card_engine.RULES}
"""Engine rules of games outside engine/ (the toy), for the replay of their records."""
STEP_CAP = 3000
"""More taps than any game of the registry takes: a game that never ends is a bug."""
GAMES = [*phone_games(), TOY]


def _ok(bot: SeatBot, answer: Answer, what: str) -> None:
    assert answer.status < 500, f"{bot.player}'s {what}: {answer.status}\n{answer.body[:2000]}"
    assert answer.status in (200, 204, 304), (
        f"{bot.player}'s {what}: {answer.status} {answer.header('X-Seat-Refusal')}\n"
        f"{bot.panel.refusal or bot.panel.notice or answer.body[:2000]}"
    )
    if answer.status == 200:
        assert "data-live" in answer.body, f"{bot.player}'s {what} is no live panel"


def _private(bot: SeatBot, answer: Answer, held: Mapping[str, frozenset[str]], what: str) -> int:
    """The answer holds nothing another seat holds (``held``: by player, at the answer's
    moment: the test client is synchronous). Returns 1 if there was a secret to look for."""
    secret = others_secrets(held, [bot.player])
    if answer.status != 200 or not secret:
        return 0
    found = leaks(answer.body, secret)
    assert not found, f"{bot.player}'s {what} shows another seat's {found}"
    return 1


def _held(rule: Any, game: GameProjection) -> dict[str, frozenset[str]]:
    return held_by(rule, game.snapshot) if rule is not None else {}


@pytest.mark.parametrize("game_type", GAMES)
def test_every_phone_plays_a_whole_game(
    game_type: str, request: pytest.FixtureRequest, django_user_model: Any
) -> None:
    if game_type == TOY:
        request.getfixturevalue("high_card")
    kind = GAME_TYPES[game_type]
    owner = django_user_model.objects.create_user("owner", password="x")
    exporter = Client()
    exporter.force_login(owner)
    rule = hidden_rule(game_type)
    played = []
    # The smallest and the largest table the game allows (every size between plays the same
    # panel; each whole game is a few hundred requests).
    for spec in table_specs(game_type, {min(kind.table_sizes), max(kind.table_sizes)}):
        change, links = create_table(spec, owner)
        game_id = change.game_id
        bots = [
            SeatBot(DjangoTransport(Client()), link.token, seat=link.seat, player=link.player)
            for link in links
        ]
        assert [b.player for b in bots] == list(spec.players)
        held = _held(rule, GameProjection.objects.get(stream_id=game_id))
        checked = 0  # answers looked through for another seat's secrets
        for bot in bots:
            answer = bot.open()
            _ok(bot, answer, "page")
            checked += _private(bot, answer, held, "page")
        rng = random.Random(f"{spec.label}:1")
        taps = 0
        while True:
            game = GameProjection.objects.get(stream_id=game_id)
            version, held = game.version, _held(rule, game)
            for bot in bots:
                answer = bot.poll()
                _ok(bot, answer, "poll")
                checked += _private(bot, answer, held, "poll")
                assert bot.panel.version == version, (
                    f"{bot.player}'s poll shows v{bot.panel.version}, the table is at v{version}"
                )
                if taps % 8 == 0:  # now and then (each is a request): nothing new is a 304
                    again = bot.poll()
                    assert again.status == 304, (
                        f"{bot.player}'s poll of nothing new: {again.status}"
                    )
            if game.status == GameProjection.Status.FINISHED:
                break
            chosen = pick(bots, rng)
            if (
                chosen is None
                and game_type in SCOREKEEPER
                and scorekeeper_enters(
                    SCOREKEEPER[game_type],
                    game_type,
                    game_id,
                    version,
                    owner,
                    rng.randrange(1 << 30),
                )
            ):
                continue
            assert chosen is not None, (
                f"{spec.label}: the game is not finished (v{version}) and no phone offers a "
                "move:\n" + "\n".join(f"{b.player}: {b.panel.text[:400]}" for b in bots)
            )
            bot, move = chosen
            tapped = bot.tap(move)
            assert tapped.answer.status == 200, (
                f"{spec.label} v{version}: {bot.player}'s phone offered {move.data} "
                f"({move.label!r}) and its tap was answered {tapped.answer.status} "
                f"{tapped.answer.header('X-Seat-Refusal')}: "
                f"{tapped.panel.refusal or tapped.panel.notice or tapped.panel.text[:400]}"
            )
            after = _held(rule, GameProjection.objects.get(stream_id=game_id))
            checked += _private(bot, tapped.answer, after, f"tap {move.data}")
            assert tapped.panel.version is not None and tapped.panel.version > version
            taps += 1
            assert taps < STEP_CAP, f"{spec.label}: {taps} taps and the game is not finished"
        record = exporter.get(f"/api/games/{game_id}/record/")
        assert record.status_code == 200, record.content[:500]
        expected = placements_of_record(
            game_type, record.content.decode(), EXTRA_RULES.get(game_type)
        )
        for bot in bots:
            final = bot.panel.final
            assert final is not None, f"{bot.player}'s finished panel has no data-final list"
            shown = [(f.player, f.place, f.points) for f in final]
            assert shown == expected, f"{bot.player}'s phone: {shown}, the replay: {expected}"
        assert rule is None or checked, f"{spec.label}: hidden hands, but no secret to look for"
        played.append((spec.label, taps, checked))
    print(f"\n{game_type}: (table, taps, answers checked for secrets) {played}")
    assert played and all(kind.table_sizes)
