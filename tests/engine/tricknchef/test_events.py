"""The record format v1: events to and from JSON, read strictly (docs/record-format.md)."""

from __future__ import annotations

import json

import pytest

from engine.errors import BadEvent, InvalidRecord
from engine.jsonline import split_lines
from engine.tricknchef.events import (
    EVENT_TYPES,
    CardPlayed,
    ChefChosen,
    ChefTaken,
    GameStarted,
    RoundStarted,
    dumps,
    loads,
    to_json,
)
from engine.tricknchef.replay import replay_record
from engine.tricknchef.simulate import simulate


def test_every_event_of_a_game_survives_a_round_trip() -> None:
    for players in (3, 4):
        for event in simulate(seed=1, players=players):
            assert loads(dumps(event)) == event


def test_the_registry_names_every_event_class_once() -> None:
    assert set(EVENT_TYPES) == {
        "game_started",
        "round_started",
        "chef_chosen",
        "card_played",
        "chef_taken",
    }
    assert set(EVENT_TYPES.values()) == {
        GameStarted,
        RoundStarted,
        ChefChosen,
        CardPlayed,
        ChefTaken,
    }


def test_events_are_immutable() -> None:
    event = CardPlayed("p1", "G3", 1)
    with pytest.raises(AttributeError):
        event.coins = 2  # type: ignore[misc]


def test_coins_default_to_zero_and_are_written_only_when_placed() -> None:
    assert loads('{"type":"card_played","player":"p1","card":"G3"}') == CardPlayed("p1", "G3", 0)
    assert "coins" not in to_json(CardPlayed("p1", "G3", 0))
    assert to_json(CardPlayed("p1", "G3", -2))["coins"] == -2


def test_four_player_suits_may_be_omitted_and_stay_omitted() -> None:
    line = '{"type":"game_started","players":["a","b","c","d"]}'
    event = loads(line)
    assert event == GameStarted(("a", "b", "c", "d"), None)
    assert json.loads(dumps(event)) == json.loads(line)


def test_the_documented_examples_parse() -> None:
    assert loads('{"type":"chef_chosen","player":"p1","suit":"red"}') == ChefChosen("p1", "red")
    assert loads('{"type":"card_played","player":"p2","card":"R7","coins":-1}') == CardPlayed(
        "p2", "R7", -1
    )
    assert loads('{"type":"chef_taken","player":"p3","suit":"green"}') == ChefTaken("p3", "green")


@pytest.mark.parametrize(
    ("line", "code", "words"),
    [
        ("", "bad_json", "the line is empty"),
        ("   ", "bad_json", "the line is empty"),
        ("not json", "bad_json", "not valid JSON"),
        ('{"type":"card_played","player":"p1"', "bad_json", "not valid JSON"),
        ("[1, 2]", "bad_json", "not a JSON object"),
        ('"card_played"', "bad_json", "not a JSON object"),
        ('{"type":"card_played","player":"p1","card":"G3","coins":NaN}', "bad_json", "NaN"),
        ('{"type":"card_played","player":"p1","card":"G3","coins":Infinity}', "bad_json", ""),
        ("[" * 100000 + "]" * 100000, "bad_json", "not valid JSON"),
        ("{}", "bad_event", 'no "type"'),
        ('{"type":"trick_won"}', "bad_event", 'unknown event type "trick_won"'),
        ('{"type":3}', "bad_event", "unknown event type 3"),
        ('{"type":"card_played","card":"G3"}', "bad_event", 'needs a "player"'),
        ('{"type":"card_played","player":"p1","card":"G3","coin":2}', "bad_event", '"coin"'),
        ('{"type":"card_played","player":"p1","card":"G3","player":"p2"}', "bad_event", "twice"),
        ('{"type":"card_played","player":"p1","card":"G3","coins":true}', "bad_event", "whole"),
        ('{"type":"card_played","player":"p1","card":"G3","coins":1.0}', "bad_event", "whole"),
        ('{"type":"card_played","player":"p1","card":"G3","coins":null}', "bad_event", "whole"),
        ('{"type":"card_played","player":"p1","card":"G3","coins":"1"}', "bad_event", "whole"),
        ('{"type":"card_played","player":7,"card":"G3"}', "bad_event", "string"),
        ('{"type":"card_played","player":"p1","card":"G11"}', "bad_card", '"G11" is not a card'),
        ('{"type":"card_played","player":"p1","card":"G0"}', "bad_card", ""),
        ('{"type":"card_played","player":"p1","card":"g3"}', "bad_card", ""),
        ('{"type":"card_played","player":"p1","card":"G03"}', "bad_card", ""),
        ('{"type":"card_played","player":"p1","card":"X3"}', "bad_card", ""),
        ('{"type":"card_played","player":"p1","card":"R 3"}', "bad_card", ""),
        ('{"type":"card_played","player":"p1","card":3}', "bad_event", "string"),
        (
            '{"type":"chef_taken","player":"p1","suit":"purple"}',
            "bad_suit",
            '"purple" is not a suit',
        ),
        ('{"type":"chef_chosen","player":"p1","suit":"Red"}', "bad_suit", ""),
        ('{"type":"chef_taken","player":"p1"}', "bad_event", 'needs a "suit"'),
        ('{"type":"chef_taken","player":"p1","suit":"red","card":"R1"}', "bad_event", '"card"'),
        ('{"type":"game_started","players":"abc"}', "bad_event", "list of names"),
        ('{"type":"game_started","players":["a",2,"c"]}', "bad_event", "list of names"),
        (
            '{"type":"game_started","players":["a","b","c"],"suits":"red"}',
            "bad_event",
            "suit names",
        ),
        ('{"type":"game_started","players":["a","b","c"],"suits":null}', "bad_event", "suit names"),
        (
            '{"type":"game_started","players":["a","b","c"],"suits":["red","x","blue"]}',
            "bad_suit",
            "",
        ),
        ('{"type":"round_started","round":1,"first_player":"a","hands":[]}', "bad_event", "map"),
        (
            '{"type":"round_started","round":1,"first_player":"a","hands":{"a":"G1"}}',
            "bad_event",
            "list",
        ),
        (
            '{"type":"round_started","round":1,"first_player":"a","hands":{"a":["G1","Z9"]}}',
            "bad_card",
            "",
        ),
        (
            '{"type":"round_started","round":true,"first_player":"a","hands":{}}',
            "bad_event",
            "whole",
        ),
        ('{"type":"round_started","round":1,"hands":{}}', "bad_event", '"first_player"'),
        (
            '{"type":"round_started","round":1,"first_player":"a","hands":{},"hands":{}}',
            "bad_event",
            "twice",
        ),
    ],
)
def test_malformed_lines_are_refused_with_a_clear_reason(line: str, code: str, words: str) -> None:
    with pytest.raises(BadEvent) as refused:
        loads(line)
    assert refused.value.code == code
    assert words in refused.value.message


def test_a_record_may_use_crlf_a_bom_and_no_final_newline() -> None:
    lines = [dumps(e) for e in simulate(seed=2, players=4)[:30]]
    plain = "\n".join(lines) + "\n"
    expected = replay_record(plain.encode())
    for variant in (
        "\r\n".join(lines) + "\r\n",
        "\ufeff" + plain,
        "\n".join(lines),
    ):
        state = replay_record(variant.encode("utf-8"))
        assert (state.trick_no, state.expected, state.coins) == (
            expected.trick_no,
            expected.expected,
            expected.coins,
        )


def test_an_empty_file_is_a_game_not_yet_started() -> None:
    assert split_lines(b"") == []
    assert replay_record(b"").phase.value == "game_started"


def test_a_blank_line_inside_a_record_is_refused_at_its_line() -> None:
    lines = [dumps(e) for e in simulate(seed=2, players=4)[:5]]
    data = ("\n".join(lines[:3]) + "\n\n" + "\n".join(lines[3:]) + "\n").encode()
    with pytest.raises(InvalidRecord) as refused:
        replay_record(data)
    assert (refused.value.index, refused.value.code) == (3, "bad_json")


def test_a_line_that_is_not_utf8_is_refused_at_its_line() -> None:
    lines = [dumps(e).encode() for e in simulate(seed=2, players=4)[:5]]
    lines[2] = b'{"type":"chef_chosen","player":"p\xff","suit":"red"}'
    with pytest.raises(InvalidRecord) as refused:
        replay_record(b"\n".join(lines))
    assert (refused.value.index, refused.value.code) == (2, "bad_json")
    assert "UTF-8" in refused.value.violation.message


def test_names_may_be_any_unicode_text() -> None:
    line = json.dumps(
        {
            "type": "game_started",
            "players": ["Zoë", "Łukasz", "美咲"],
            "suits": ["green", "red", "blue"],
        }
    )
    assert replay_record(line.encode()).players == ("Zoë", "Łukasz", "美咲")
