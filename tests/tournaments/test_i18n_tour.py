"""The tournament's own words in French, Russian and Japanese (issue 14): refusals raised by
the pure domain, pairing notes, standings titles and CSV headers, said in the active language
through the catalogues (locale/), with Russian's three plural forms and Japanese's one.

The domain speaks through a translator (tournaments.domain.words): English without Django,
``django.utils.translation`` where a request chose a language."""

from __future__ import annotations

import csv
import io

import pytest
from django.utils import translation

from tournaments import notes, standings
from tournaments.api import exports
from tournaments.domain import (
    Refusal,
    TournamentState,
    check_can_pair,
    check_close,
    undo_refusals,
)
from tournaments.domain.state import Round, Settings, Table
from tournaments.domain.words import ENGLISH, gettext_lazy, ngettext_lazy
from tournaments.services.access import _refused, said

LANGUAGES = ("fr", "ru", "ja")


def state_with_open_round(missing: list[int]) -> TournamentState:
    """A running tournament of 3 rounds whose round 1 is published, with tables ``missing``
    still waiting for a confirmed result."""
    state = TournamentState(
        settings=Settings(name="Spring Open", date="2026-03-14", rounds=3, game_type="tnc")
    )
    state.status = "running"
    tables = [Table(number=n, seats=("P1", "P2", "P3")) for n in range(1, 8)]
    for table in tables:
        table.confirmed = table.number not in missing
    state.rounds = [
        Round(number=1, status="published", tables=tables, byes=(), method="random", seed=1)
    ]
    return state


def refusal(decide: object, *args: object) -> Refusal:
    with pytest.raises(Refusal) as caught:
        decide(*args)  # type: ignore[operator]
    return caught.value


# ----------------------------------------------------------------------------- refusals


def test_a_domain_refusal_is_english_without_django_and_keeps_its_code() -> None:
    found = refusal(check_close, state_with_open_round([2, 5]), 1)
    assert found.code == "results_missing"
    assert found.message == "round 1 cannot close: tables 2, 5 have no confirmed result yet"
    assert found.say(ENGLISH) == found.message


@pytest.mark.parametrize(
    ("missing", "words"),
    [
        ([2], "у стола 2 ещё нет"),
        ([2, 5], "у столов 2, 5 ещё нет"),
        ([1, 2, 3, 4, 5], "у столов 1, 2, 3, 4, 5 ещё нет"),
    ],
)
def test_a_refusal_is_said_in_russian_with_the_plural_for_its_count(
    missing: list[int], words: str
) -> None:
    found = refusal(check_can_pair, state_with_open_round(missing), 2)
    with translation.override("ru"):
        error = _refused(found)
    assert error.code == "results_missing"
    assert error.message.startswith("тур 1 не завершён: ") and words in error.message


def test_the_tournament_has_one_round_two_rounds_five_rounds_in_russian() -> None:
    words = {
        n: ngettext_lazy(
            "the tournament has %(rounds)s round; finish it instead",
            "the tournament has %(rounds)s rounds; finish it instead",
            n,
            rounds=n,
        )
        for n in (1, 2, 5, 21)
    }
    with translation.override("ru"):
        said_ru = {n: said(say) for n, say in words.items()}
    assert said_ru[1] == "в турнире 1 тур; лучше завершите его"
    assert said_ru[2] == "в турнире 2 тура; лучше завершите его"
    assert said_ru[5] == "в турнире 5 туров; лучше завершите его"
    assert said_ru[21] == "в турнире 21 тур; лучше завершите его"
    assert words[1](ENGLISH) == "the tournament has 1 round; finish it instead"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("fr", "la ronde 3 est déjà publiée"),
        ("ru", "тур 3 уже опубликован"),
        ("ja", "ラウンド3はすでに公開されています"),
        ("en", "round 3 is already published"),
    ],
)
def test_a_refusal_follows_the_active_language(language: str, expected: str) -> None:
    say = gettext_lazy("round %(round)s is already published", round=3)
    with translation.override(language):
        assert said(say) == expected


def test_the_history_says_why_an_action_cannot_be_undone_in_the_readers_language() -> None:
    state = TournamentState(
        settings=Settings(name="Spring Open", date="2026-03-14", rounds=3, game_type="tnc")
    )
    state.version = 1
    events: list[tuple[int, str, dict[str, object]]] = [(1, "tournament_created", {})]
    assert undo_refusals(state, events) == {1: "creating the tournament cannot be undone"}
    with translation.override("ja"):
        said_ja = undo_refusals(state, events, translation)
    assert said_ja == {1: "トーナメントの作成は取り消せません"}


# ----------------------------------------------------------------------------- pairing notes

NAMES = {"P1": "Ana", "P2": "Boris", "P3": "さくら"}


def describe(note: dict[str, object], language: str) -> str:
    with translation.override(language):
        return notes.describe_all([note], NAMES, translation)[0]


def test_a_bye_note_has_russian_plural_forms_and_one_japanese_form() -> None:
    ru = {n: describe(notes.bye("P2", n), "ru") for n in (1, 2, 5)}
    assert "у кого раньше был 1 пропуск:" in ru[1]
    assert "у кого раньше было 2 пропуска:" in ru[2]
    assert "у кого раньше было 5 пропусков:" in ru[5]
    assert all(text.startswith("Пропуск тура: Boris,") for text in ru.values())
    ja = {n: describe(notes.bye("P3", n), "ja") for n in (1, 5)}
    assert ja[1].startswith("不戦勝：さくら（これまで不戦勝1回）")
    assert ja[5].startswith("不戦勝：さくら（これまで不戦勝5回）")
    assert describe(notes.bye("P2", 0), "en") == (
        "Bye: Boris, who had no bye before (byes go to the lowest-placed players among those "
        "with the fewest byes)."
    )


def test_round_ones_note_counts_tables_in_russian_and_japanese() -> None:
    ru = {n: describe(notes.round_one(order="random", seed=4, tables=n), "ru") for n in (1, 3, 5)}
    assert ru[1].endswith("без поиска: 1 стол.")
    assert ru[3].endswith("без поиска: 3 стола.")
    assert ru[5].endswith("без поиска: 5 столов.")
    ja = describe(notes.round_one(order="given", seed=0, tables=3), "ja")
    assert ja == "指定された順（登録順またはレーティング順）の席決め、探索なし：3テーブル。"


def test_a_met_before_note_and_its_reason_are_one_language() -> None:
    note = notes.met_before(2, "P1", "P3", notes.FEWEST_REPEATS, repeats=2)
    assert describe(note, "ru") == (
        "Стол 2: Ana и さくら уже встречались: в любой допустимой рассадке повторяется не "
        "меньше 2 встреч."
    )
    assert describe(note, "ja") == (
        "テーブル2：Ana と さくら は以前に対戦しています：許される組み分けではどれも少なくとも2回の"
        "再戦が生じます。"
    )


def test_a_small_table_note_lists_players_in_the_languages_own_way() -> None:
    note = notes.small_table(3, 3, 4, [("P1", 1), ("P2", 2)], notes.ALL_HAD_ONE)
    ru = describe(note, "ru")
    assert "Ana (1 раз раньше), Boris (2 раза раньше)" in ru
    ja = describe(note, "ja")
    assert "Ana（過去1回）、Boris（過去2回）" in ja


def test_a_swap_by_hand_is_worded_in_the_language_and_stored_as_a_code() -> None:
    swap = notes.swapped("P1", "P2")
    assert swap == {"code": "swapped", "a": "P1", "b": "P2"}  # data, never prose
    assert describe(swap, "fr") == "Modifié à la main : Ana et Boris échangés."
    search = notes.search_cost(
        method="exhaustive",
        total=10,
        repeats=1,
        repeat_weight=10,
        small_tables=0,
        small_table_weight=5,
        spread=0,
        bound=10,
    )
    with translation.override("ja"):
        before, after = notes.describe_all([search, swap], NAMES, translation)
    assert before.startswith("順位表に基づく席決め（全探索）。")
    assert "下の手動変更はその後に行われた" in before
    assert after == "手動で変更：Ana と Boris を入れ替えました。"


# ----------------------------------------------------------------------------- standings, CSV


def test_standings_titles_are_msgids_translated_where_shown() -> None:
    titles = dict(standings.columns(standings.Settings()))
    assert titles["rank"] == "Rank" and titles["victory_points"] == "Victory points"
    with translation.override("ru"):
        assert [translation.gettext(t) for t in titles.values()] == [
            "Место",
            "Игрок",
            "Очки",
            "Победные очки",
            "Средний результат соперников",
            "Первые места",
            "Партии",
            "Пропуски туров",
        ]
    with translation.override("ja"):
        scaled = standings.PRESETS["scaled"]
        assert translation.gettext(scaled.name) == "均等配分"
        assert translation.gettext(standings.TIEBREAKS["first_places"].title) == "1位の回数"


def test_the_csv_headers_follow_the_language_and_the_data_stays_data() -> None:
    table = {
        "columns": [{"key": "rank", "title": "Rank"}, {"key": "name", "title": "Player"}],
        "rows": [{"rank": 1, "name": "Фёдор", "tiebreaks": {}, "dropped": True}],
    }
    with translation.override("ru"):
        text = exports.standings_csv(table)
        results = exports.results_csv({"rounds": []}, {})
    rows = list(csv.reader(io.StringIO(text.removeprefix(exports.BOM))))
    assert rows == [["Место", "Игрок", "Снят с турнира"], ["1", "Фёдор", "yes"]]
    header = next(csv.reader(io.StringIO(results.removeprefix(exports.BOM))))
    assert header == [
        "Тур",
        "Стол",
        "Место за столом",
        "Игрок",
        "Место в партии",
        "Победные очки",
        "Подтверждён",
    ]
