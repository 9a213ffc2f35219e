"""Every registered game's refusals in the reader's language, gathered the same way for each
game through its type (games.gametypes: new_state, parse, step) from its engine's random games
(engine.registry: simulate), each point of them offered spoiled events: every refusal code has
its game's sentence, and says it in French, Russian and Japanese, never the English fallback.
The list of games is the registry's: a game added to it is checked without a line here (the
club games' and Trick-n-Chef's own tests gather their rarer refusals too)."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.utils import translation

from engine.errors import RuleViolation
from engine.registry import RULES
from games.gametypes import GAME_TYPES, GameType
from games.refusals import say
from tests.games.test_i18n_club_refusals import spoiled, values_of

LANGUAGES = ("fr", "ru", "ja")

# No database: one backend pass is enough.
pytestmark = pytest.mark.one_backend


def gather(kind: GameType, seeds: range) -> list[RuleViolation]:
    """The refusals of spoiled events at every point of the engine's random games."""
    rules = RULES[kind.key]
    out: list[RuleViolation] = []
    for seed in seeds:
        for size in sorted({rules.players[0], rules.players[-1]}):  # the smallest, the largest
            record = rules.simulate(seed, size)
            first = record[0]
            names = list(first.get("players") or [t["name"] for t in first["teams"]])
            extra = values_of(record)
            state = kind.new_state()
            for index, obj in enumerate([*record, record[-1]]):
                offered = [obj, record[0]]
                if index + 1 < len(record):
                    offered.append(record[index + 1])
                for candidate in [c for o in offered for c in spoiled(o, names, extra)]:
                    try:
                        kind.step(state, kind.parse(candidate))
                    except RuleViolation as violation:
                        out.append(violation)
                    else:  # accepted: this point's state is gone, replay to it
                        state = kind.new_state()
                        for done in record[:index]:
                            kind.step(state, kind.parse(done))
                if index < len(record):
                    kind.step(state, kind.parse(obj))
    return out


@pytest.fixture(scope="module", params=sorted(GAME_TYPES))
def refused(request: pytest.FixtureRequest) -> tuple[GameType, list[RuleViolation]]:
    kind = GAME_TYPES[str(request.param)]
    return kind, gather(kind, range(1))


def test_every_refusal_code_has_its_games_sentence(
    refused: tuple[GameType, list[RuleViolation]],
) -> None:
    kind, violations = refused
    sentences = importlib.import_module(kind.refusals).SENTENCES
    codes = {v.code for v in violations}
    assert len(codes) >= 3, codes  # the gathering itself works
    assert codes <= set(sentences), sorted(codes - set(sentences))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_is_said_in_the_readers_language(
    refused: tuple[GameType, list[RuleViolation]], language: str
) -> None:
    kind, violations = refused
    english: list[tuple[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    with translation.override(language):
        for violation in violations:
            if (violation.code, violation.message) in seen:
                continue
            seen.add((violation.code, violation.message))
            if say(violation) == violation.message:
                english.append((violation.code, violation.message))
    assert not english, english[:10]
