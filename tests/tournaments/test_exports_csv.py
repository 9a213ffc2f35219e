"""CSV downloads open right in a spreadsheet: names with accents, Cyrillic and kana survive in
Excel (which reads a CSV file without a byte-order mark in the system's legacy code page) and
in LibreOffice (which takes a byte-order mark as the file's encoding)."""

from __future__ import annotations

import csv
import io

from tournaments.api import exports

NAMES = ["Chloé", "Фёдор", "佐藤", "Zoë-Ann"]


def standings() -> dict[str, object]:
    columns = [{"key": "rank", "title": "Rank"}, {"key": "name", "title": "Player"}]
    rows = [{"rank": i, "name": name, "tiebreaks": {}, "dropped": False} for i, name in
            enumerate(NAMES, start=1)]  # fmt: skip
    return {"columns": columns, "rows": rows}


def as_excel_reads_it(data: bytes) -> str:
    """Excel: a UTF-8 byte-order mark says UTF-8; without one, the legacy code page."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    return data.decode("cp1252", errors="replace")


def as_libreoffice_reads_it(data: bytes) -> str:
    """LibreOffice's import: a byte-order mark decides the encoding (and is not a character)."""
    for bom, encoding in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le")):
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding)
    return data.decode("latin-1")


def test_the_standings_file_opens_with_every_name_intact_in_both_spreadsheets() -> None:
    data = exports.standings_csv(standings()).encode("utf-8")  # as the view sends it
    for read in (as_excel_reads_it, as_libreoffice_reads_it):
        table = list(csv.reader(io.StringIO(read(data))))
        assert table[0][:2] == ["Rank", "Player"]  # no stray mark in the first title
        assert [row[1] for row in table[1:]] == NAMES


def test_the_results_file_starts_with_the_mark_once() -> None:
    text = exports.results_csv({"rounds": []}, {})
    assert text.startswith(exports.BOM) and text.count(exports.BOM) == 1
    assert list(csv.reader(io.StringIO(text.removeprefix(exports.BOM))))[0][0] == "Round"


def test_a_cell_that_would_be_a_formula_is_text_and_figures_stay_figures() -> None:
    for text in ("=1+1", "+1", "-2+3", "@SUM(1+1)", "\t=1", "\r=1", "-", "-1e3", "- 4"):
        assert exports.safe_cell(text) == "'" + text
    for value in ("-3", "8.63", "-0.5", "12", -3, 8.63, "", "Zoë-Ann", "'quoted", "a=b"):
        assert exports.safe_cell(value) == value


def test_a_results_row_keeps_negative_scores_as_numbers() -> None:
    text = exports.standings_csv(
        {
            "columns": [{"key": "name", "title": "Player"}, {"key": "points", "title": "Points"}],
            "rows": [{"name": "-2+3", "points": -4, "tiebreaks": {}, "dropped": False}],
        }
    )
    assert list(csv.reader(io.StringIO(text.removeprefix(exports.BOM))))[1] == ["'-2+3", "-4", "no"]


def test_every_csv_the_project_writes_goes_through_the_safe_writer() -> None:
    """A new CSV download written with its own csv.writer would skip :func:`exports.safe_cell`."""
    from tests.project import BASE_DIR

    writers = sorted(
        str(path.relative_to(BASE_DIR))
        for package in ("config", "engine", "games", "tournaments")
        for path in (BASE_DIR / package).rglob("*.py")
        if "csv.writer" in path.read_text(encoding="utf-8")
        or "DictWriter" in path.read_text(encoding="utf-8")
    )
    assert writers == ["tournaments/api/exports.py"]
