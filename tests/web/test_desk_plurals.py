"""The pairing review counts in words, through ngettext, in every language (issue 23 item 12):
"1 table", "2 tables", "5 tables" and the Russian forms (1 стол, 2 стола, 5 столов), never
"table(s)"; the desk's own messages need no "(а)"/"(e)" for a player's gender."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from tests.web.test_desk_presenters import LINKS, summary
from tests.web.test_desk_round_presenters import twelve
from tournaments import notes
from tournaments.desk.presenters.round import round_view

ROOT = Path(__file__).resolve().parents[2]
COUNTS = (1, 2, 5)


def quality(repeats: int, small_tables: int, language: str) -> str:
    rnd, standings = twelve()
    rnd = {**rnd, "cost": {**rnd["cost"], "repeats": repeats, "small_tables": small_tables}}
    rnd["tables"][2]["seats"] = rnd["tables"][2]["seats"][:3]  # a short table
    with translation.override(language):
        return round_view(summary([rnd]), rnd, LINKS, standings=standings).quality


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            [
                "1 pair of players meets again, the players at short tables had 1 short table",
                "2 pairs of players meet again, the players at short tables had 2 short tables",
                "5 pairs of players meet again, the players at short tables had 5 short tables",
            ],
        ),
        (
            "ru",
            [
                "1 пара игроков встречается повторно, у игроков за неполными столами раньше был 1 "
                "неполный стол",
                "2 пары игроков встречаются повторно, у игроков за неполными столами раньше было 2 "
                "неполных стола",
                "5 пар игроков встречаются повторно, у игроков за неполными столами раньше было 5 "
                "неполных столов",
            ],
        ),
    ],
)
def test_the_proposals_figures_count_in_words(language: str, expected: list[str]) -> None:
    for count, words in zip(COUNTS, expected, strict=True):
        said = quality(count, count, language)
        assert said.startswith(words), said
        assert "(s)" not in said and "(и)" not in said
    assert quality(0, 0, "en").startswith("No two players meet again, nobody at a short table")
    japanese = quality(2, 2, "ja")
    assert "。 " not in japanese and japanese.startswith("2組のプレイヤーが再戦します。")


def described(note: dict[str, Any], language: str) -> str:
    with translation.override(language):
        return notes.describe(note, str, t=translation)


@pytest.mark.parametrize(
    ("language", "tables", "repeats"),
    [
        (
            "en",
            ["1 table.", "2 tables.", "5 tables."],
            ["1 repeated meeting x", "2 repeated meetings x", "5 repeated meetings x"],
        ),
        (
            "ru",
            ["1 стол.", "2 стола.", "5 столов."],
            ["1 повторная встреча x", "2 повторные встречи x", "5 повторных встреч x"],
        ),
    ],
)
def test_the_pairing_notes_count_in_words(
    language: str, tables: list[str], repeats: list[str]
) -> None:
    for count, table_words, repeat_words in zip(COUNTS, tables, repeats, strict=True):
        seating = described(notes.round_one(order="random", seed=7, tables=count), language)
        assert seating.endswith(f": {table_words}"), seating
        cost = notes.search_cost(
            method="exhaustive",
            total=count * 1_000_000 + 9,
            repeats=count,
            repeat_weight=1_000_000,
            small_tables=0,
            small_table_weight=1_000,
            spread=9,
            bound=count * 1_000_000 + 9,
        )
        assert repeat_words in described(cost, language)
        for said in (seating, described(cost, language)):
            assert "(s)" not in said


def test_the_desks_messages_about_a_player_need_no_gender_marks() -> None:
    messages = [
        "%(name)s has dropped: not seated any more.",
        "%(name)s is back: seated from the next round.",
        "%(name)s is checked in.",
        "%(name)s is checked out: not seated at the next pairing.",
        "<strong>%(name)s</strong> is selected: now tap the player to swap with, or",
    ]
    for language, hack in (("ru", re.compile(r"\((а|ась|и)\)")), ("fr", re.compile(r"\(e\)"))):
        with translation.override(language):
            for message in messages:
                said = translation.gettext(message)
                assert said != message and not hack.search(said), said


def test_no_plural_hack_is_left_in_the_desks_sources() -> None:
    sources = [
        *(ROOT / "templates" / "desk").glob("*.html"),
        *(ROOT / "tournaments" / "desk").rglob("*.py"),
    ]
    for path in sources:
        assert "(s)" not in path.read_text(), path.name
