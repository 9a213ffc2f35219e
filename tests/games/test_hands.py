"""games/tricknchef/hands.py: what a reader who is not one of a game's officials sees (no
database)."""

from __future__ import annotations

from typing import Any

from games.tricknchef import hands

DEAL = {
    "round": 2,
    "first_player": "ana",
    "hands": {"ana": ["G1", "G2", "R3"], "ben": ["Y4", "B5", "R6"]},
}
HIDDEN = hands.Hidden(cards=frozenset({"G2", "R3", "B5", "R6"}), since=40)
"""Round 2 was dealt at version 40; ana played G1 and ben Y4 since."""


def test_a_deal_of_the_round_being_played_keeps_its_shape_and_shows_the_cards_played() -> None:
    shown = hands.redact(40, "round_started", DEAL, HIDDEN)
    assert shown == {
        "round": 2,
        "first_player": "ana",
        "hands": {"ana": ["G1"], "ben": ["Y4"]},
        "hands_hidden": True,
        "held": {"ana": 2, "ben": 2},
    }
    assert DEAL["hands"] == {"ana": ["G1", "G2", "R3"], "ben": ["Y4", "B5", "R6"]}  # untouched


def test_a_play_taken_back_whose_card_is_still_held_hides_it() -> None:
    play: dict[str, Any] = {"player": "ana", "card": "R3", "coins": 1}
    assert hands.redact(45, "card_played", play, HIDDEN) == {
        "player": "ana",
        "card": None,
        "coins": 1,
        "card_hidden": True,
    }
    played = {"player": "ana", "card": "G1", "coins": 0}
    assert hands.redact(45, "card_played", played, HIDDEN) is played


def test_earlier_rounds_other_events_and_officials_show_everything() -> None:
    old_play = {"player": "ben", "card": "R6", "coins": 0}  # round 1: the same card, played
    assert hands.redact(39, "card_played", old_play, HIDDEN) is old_play
    assert hands.redact(39, "round_started", DEAL, HIDDEN) is DEAL
    pick = {"player": "ana", "suit": "red"}
    assert hands.redact(41, "chef_chosen", pick, HIDDEN) is pick
    assert hands.redact(40, "round_started", DEAL, None) is DEAL


def test_what_is_hidden_comes_from_the_snapshot_and_the_deals() -> None:
    snapshot = {"round": 2, "hands": {"ana": ["G2", "R3"], "ben": ["B5", "R6"]}}
    # Round 1 at 2; round 2 dealt at 30, taken back, dealt again at 40.
    found = hands.round_in_progress(snapshot, [(2, 1), (30, 2), (40, 2)])
    assert found == hands.Hidden(frozenset({"G2", "R3", "B5", "R6"}), since=30)
    between_rounds = {"round": 2, "hands": {"ana": [], "ben": []}}
    assert hands.round_in_progress(between_rounds, [(2, 1), (40, 2)]) is None
    assert hands.round_in_progress(None, []) is None


def test_an_export_stops_at_the_end_of_the_last_finished_round() -> None:
    record: list[dict[str, Any]] = [
        {"type": "game_started"},
        {"type": "round_started", "round": 1},
        {"type": "card_played"},
        {"type": "round_started", "round": 2},
        {"type": "card_played"},
    ]
    assert hands.finished_rounds(record) == record[:3]
    assert hands.finished_rounds(record[:2]) == record[:1]
