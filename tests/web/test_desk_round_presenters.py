"""The round panel's read model (tournaments.desk.presenters.round_view): a published round's
tables by where their games stand, in the public round page's words; a proposal's ranks and
points, its quality in words, and why a table seats players far apart in the standings. Pure:
no database, no request."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests.web.test_desk_presenters import LINKS, a_round, four, seat, summary, table
from tournaments import notes
from tournaments.desk.presenters.round import round_view
from tournaments.public.presenters import GAME_STATUS, game_state


@dataclass(frozen=True)
class Progress:
    status: str
    round: int | None = None
    trick: int | None = None


RESULT = [
    {"player": "a", "name": "Ana", "place": 1, "victory_points": 12},
    {"player": "b", "name": "Ben", "place": 2, "victory_points": 10},
]


def test_a_published_rounds_tables_say_where_their_games_stand() -> None:
    tables = [
        table(1, four("abcd"), game="g1"),
        table(2, four("abcd"), game="g2"),
        table(3, four("abcd"), game="g3"),
        table(4, four("abcd"), game="g4", result=RESULT),
        table(5, four("abcd"), game="g5", result=RESULT, confirmed=True),
        table(6, four("abcd"), game="g6"),
        table(7, four("abcd"), game="g7"),
    ]
    progress = {
        "g1": Progress("not_started"),
        "g2": Progress("in_progress", round=2, trick=5),
        "g3": Progress("finished"),  # its result is on its way to the tournament
        "g4": Progress("finished"),
        "g5": Progress("finished"),
        "g6": Progress("void"),
        "g7": Progress("in_progress", round=0),  # started, nothing dealt yet
    }
    rnd = a_round(1, "published", tables, missing=[1, 2, 3, 4, 6, 7])
    view = round_view(summary([rnd]), rnd, LINKS, progress=progress)
    assert [(t.status_label, t.progress) for t in view.tables] == [
        ("Not started", ""),
        ("In progress", "Deal 2, trick 5"),
        ("Finished: result on its way", ""),
        ("Finished: to confirm", ""),
        ("Confirmed", ""),
        ("Voided", ""),
        ("Not started", ""),
    ]
    assert view.confirmed == (5,) and view.to_confirm == (4,)
    assert view.progress_line == (
        "Not started: 1, 7.",
        "In progress: 2.",
        "Finished, result on its way: 3.",
        "Finished, to confirm: 4.",
        "Voided: 6.",
    )


@pytest.mark.parametrize(
    ("status", "round", "trick"),
    [("not_started", None, None), ("in_progress", 0, None), ("in_progress", 1, 3), ("void", 2, 1)],
)
def test_the_desk_and_the_public_round_page_name_a_tables_game_alike(
    status: str, round: int | None, trick: int | None
) -> None:
    rnd = a_round(1, "published", [table(1, four("abcd"), game="g")])
    view = round_view(summary([rnd]), rnd, LINKS, progress={"g": Progress(status, round, trick)})
    public_status, _ = game_state(status, round, trick)
    assert view.tables[0].status_label == GAME_STATUS[public_status]


def test_round_one_has_no_standing_spread_nor_ranks() -> None:
    rnd = {**a_round(1, "proposed", [table(1, four("abcd"))]), "method": "random"}
    standings = {"rows": [{"player": "a", "rank": 1, "points": 0, "name": "Ana"}]}
    view = round_view(summary([rnd]), rnd, LINKS, standings=standings)
    assert not view.by_standings
    assert "nobody has points yet" in view.quality and "spread" not in view.quality
    assert all(s.standing == "" for s in view.tables[0].seats)


def twelve() -> tuple[dict[str, Any], dict[str, Any]]:
    """Round 3 of 12 players: table 1 seats the leader and the 2nd with the 11th and 12th."""
    ids = [f"p{n}" for n in range(1, 13)]
    names = {pid: f"Player {pid[1:]}" for pid in ids}

    def seats(*numbers: int) -> list[dict[str, str]]:
        return [seat(f"p{n}", names[f"p{n}"]) for n in numbers]

    rnd = {
        **a_round(3, "proposed", [table(1, seats(1, 2, 11, 12)), table(2, seats(3, 4, 5, 6))]),
        "method": "exhaustive",
        "cost": {"total": 14, "repeats": 0, "small_tables": 0, "spread": 14},
        "lower_bound": 14,
    }
    rnd["tables"].append(table(3, seats(7, 8, 9, 10)))
    rows = [
        {"player": pid, "name": names[pid], "rank": n if n != 4 else 3, "points": 20 - n}
        for n, pid in enumerate(ids, start=1)
    ]
    rows[0]["points"] = 1.0
    return rnd, {"rows": rows}


def test_a_proposal_shows_each_players_rank_and_points_and_its_figures_in_words() -> None:
    rnd, standings = twelve()
    view = round_view(summary([rnd]), rnd, LINKS, standings=standings)
    first, second, _ = view.tables
    assert [s.standing for s in first.seats] == [
        "rank 1, 1 point",
        "rank 2, 18 points",
        "rank 11, 9 points",
        "rank 12, 8 points",
    ]
    assert second.seats[0].standing == "rank 3 (shared), 17 points"
    assert view.quality == (
        "No two players meet again, and the standing spread is 14 (the tables' rank gaps added "
        "up). No grouping does better."
    )
    assert "Cost" not in view.quality and "14 =" not in view.quality


def test_a_table_seating_the_leader_with_the_last_says_why() -> None:
    rnd, standings = twelve()
    view = round_view(summary([rnd]), rnd, LINKS, standings=standings)
    first, second, third = view.tables
    assert first.wide == (
        "Table 1 seats players ranked 1st, 2nd, 11th and 12th: every seating with the standings "
        "closer together repeats more meetings, and the pairing avoids repeat meetings before it "
        "keeps the standings close."
    )
    assert second.wide == third.wide == ""  # ranks 3 to 6, and 7 to 10: close together

    searched = {**rnd, "method": "local search", "lower_bound": 10}
    view = round_view(summary([searched]), searched, LINKS, standings=standings)
    assert "the search found no seating with the standings closer" in view.tables[0].wide
    assert "cannot prove that none is better" in view.quality

    swapped = {**rnd, "notes": ["Changed by hand: Player 3 and Player 11 swapped."]}
    view = round_view(summary([swapped]), swapped, LINKS, standings=standings)
    assert view.tables[0].wide == (
        "Table 1 seats players ranked 1st, 2nd, 11th and 12th, after the changes by hand."
    )
    assert view.quality.endswith("No grouping does better, even after the changes by hand.")


def test_after_a_swap_the_searchs_verdict_no_longer_claims_the_lowest_cost() -> None:
    search = notes.search_cost(
        method="exhaustive",
        total=2_000_036,
        repeats=2,
        repeat_weight=1_000_000,
        small_tables=0,
        small_table_weight=1_000,
        spread=36,
        bound=2_000_036,
    )
    before = notes.describe_all([search], {})
    assert before[0].endswith(
        "This is the lowest possible cost: every allowed grouping was checked."
    )
    after = notes.describe_all([search, notes.swapped("a", "b")], {"a": "Ana", "b": "Ben"})
    assert "lowest possible cost: every allowed" not in after[0]
    assert after[0].endswith(
        "That was the search's grouping; the changes by hand below came after it, so it may no "
        "longer be the lowest possible cost."
    )
    assert after[1] == "Changed by hand: Ana and Ben swapped."
