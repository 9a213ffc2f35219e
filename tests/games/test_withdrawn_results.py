"""games.projection.withdrawn_results: the results entry a correction took back, which the
results form opens with (docs/scorekeeping.md, "Correcting results"). Pure: no database."""

from __future__ import annotations

from typing import Any

from games.projection import PUBLISHED, RESULTS, RETRACTED, STORE_TYPES, withdrawn_results

START = ("game_started", {"players": ["ana", "ben", "cleo"]})
FIRST = (RESULTS, {"scores": {"ana": [1, 2, 3]}})
SECOND = (RESULTS, {"scores": {"ana": [1, 2, 4]}})


def undo(count: int = 1) -> tuple[str, dict[str, Any]]:
    return (RETRACTED, {"count": count, "reason": ""})


def test_nothing_was_withdrawn_from_a_new_or_a_results_only_game() -> None:
    assert withdrawn_results([START]) is None
    assert withdrawn_results([START, FIRST]) is None


def test_the_entry_taken_back_is_offered_until_anything_else_is_entered() -> None:
    assert withdrawn_results([START, FIRST, undo()]) == FIRST[1]
    assert withdrawn_results([START, FIRST, undo(), (PUBLISHED, {})]) == FIRST[1]
    assert withdrawn_results([START, FIRST, undo(), SECOND]) is None
    assert withdrawn_results([START, FIRST, undo(), SECOND, undo()]) == SECOND[1]
    deal = ("round_started", {"round": 1})
    assert withdrawn_results([START, FIRST, undo(), deal]) is None
    assert withdrawn_results([START, FIRST, undo(), deal, undo()]) is None


def test_a_retraction_of_plays_withdraws_no_results() -> None:
    plays: list[tuple[str, dict[str, Any]]] = [
        ("round_started", {"round": 1}),
        ("chef_chosen", {"suit": "G"}),
    ]
    assert withdrawn_results([START, *plays, undo(2)]) is None


def test_the_stores_own_events_are_no_entries() -> None:
    """Only record events and results entries count (the store's other events, whatever they
    are, never clear what a correction took back)."""
    others: list[tuple[str, dict[str, Any]]] = [
        (kind, {}) for kind in sorted(STORE_TYPES - {RESULTS, RETRACTED})
    ]
    assert withdrawn_results([START, FIRST, undo(), *others]) == FIRST[1]
