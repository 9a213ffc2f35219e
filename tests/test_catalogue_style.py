"""Style rules of the catalogues a machine can check (docs/translation.md): Japanese text uses
Japanese punctuation, and Russian card names agree with their dish.

Fast: reads the .po files and renders card names; no database, no browser."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from engine.tricknchef.cards import CARD_SUIT, CARD_VALUE
from games.tricknchef.cardnames import DISH_NAMES, card_label
from tests.test_translations import catalogue, read_po
from tests.web.i18n_compiled import ensure_compiled

pytestmark = pytest.mark.one_backend

JAPANESE = r"[\u3000-\u303f\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]"
CODE = re.compile(
    r"""%\([a-z_0-9]+\)[sdf]|%[sdf]  # placeholders
    |\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}  # {name}, and JSON the organizer types
    |"[^"]*"|`[^`]*`  # quoted code
    |https?://\S+  # addresses
    |\d[.,:]\d  # numbers: 1.5, 2,000, 21:30""",
    re.VERBOSE,
)
ASCII_IN_JAPANESE = re.compile(
    rf"(?:{JAPANESE}|\x00)[,.:;!?]|(?:^|[^A-Za-z0-9])[,.:;!?] *{JAPANESE}"
)


def ascii_punctuation(text: str) -> list[str]:
    """What breaks the Japanese style in ``text``: ASCII , . : ; ! ? next to Japanese text (a
    placeholder counts as Japanese text; code, numbers and addresses are left out), and an
    ASCII space after 。."""
    masked = CODE.sub(lambda m: "\x00" if m.group().startswith("%") else "C", text)
    faults = [m.group() for m in ASCII_IN_JAPANESE.finditer(masked)]
    return faults + re.findall("。 ", text)


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("値7, 勝ち, 最低", True),
        ("…受け取りました.", True),
        ("3位.", True),
        ("終了・確定待ち：2, 3", False),  # numbers joined: the joiner is code's (page checks)
        ("%(a)s, %(b)s", True),  # placeholders stand for Japanese text
        ("%(player)s、値%(value)s", False),
        ("持ち点は1.5です。", False),
        ("受け取りました。 次へ", True),
        ("%(name)sの番です.", True),
        ('記録は"game": "%(key)s"です', False),
        ("https://example.org/t/1/ を開く", False),
    ],
)
def test_the_japanese_check_finds_ascii_punctuation(text: str, bad: bool) -> None:
    assert bool(ascii_punctuation(text)) is bad


def test_no_japanese_entry_has_ascii_punctuation_in_a_sentence() -> None:
    faults = [
        (entry.label(), string)
        for entry in read_po(catalogue("ja"))
        if entry.msgid
        for string in entry.strings
        if ascii_punctuation(string)
    ]
    assert not faults, faults


# Russian: a card's colour agrees with its dish's gender (бургер m., пицца f., лапша f., суши n.).
DISH_GENDER = {"бургер": "m", "пицца": "f", "лапша": "f", "суши": "n"}
"""The grammatical gender of each dish name the Russian catalogue uses (a Russian dictionary's)."""
COLOUR_FORMS = {
    "green": {"m": "зелёный", "f": "зелёная", "n": "зелёное"},
    "red": {"m": "красный", "f": "красная", "n": "красное"},
    "yellow": {"m": "жёлтый", "f": "жёлтая", "n": "жёлтое"},
    "blue": {"m": "синий", "f": "синяя", "n": "синее"},
}


def test_russian_card_names_agree_with_the_dish() -> None:
    ensure_compiled()
    with translation.override("ru"):
        dishes = {suit: str(name) for suit, name in DISH_NAMES.items()}
        assert set(dishes.values()) <= set(DISH_GENDER), dishes  # a new dish: add its gender
        for card, suit in CARD_SUIT.items():
            label = card_label(card)
            colour = COLOUR_FORMS[suit][DISH_GENDER[dishes[suit]]]
            assert label.startswith(f"{colour} {dishes[suit]} {CARD_VALUE[card]}, "), label


def test_no_russian_entry_builds_a_plural_or_a_gender_with_a_bracketed_ending() -> None:
    """ "получил(и)", "снят(а)": a plural goes through ngettext, a name's gender is not known
    (say "игрок %(name)s" and agree with "игрок")."""
    hack = re.compile(r"[а-яё]\((?:и|а|ы|ов|ей|ась|ось|ись|о)\)", re.IGNORECASE)
    faults = [
        (entry.label(), string)
        for entry in read_po(catalogue("ru"))
        for string in entry.strings
        if hack.search(string)
    ]
    assert not faults, faults
