"""The club's rules engines: the referees of the games' records. Pure Python, no Django.

The kernel every game shares, at this package's root, holds no game's rules:

- :mod:`engine.errors` -- RuleViolation (a stable code, its English message and params),
  BadEvent, InvalidRecord (the 0-based line that stopped a replay), InvariantError;
- :mod:`engine.jsonline` -- the one strict record-line reader (a line of JSON: one object,
  unique keys, no NaN, no lone surrogates) and ``split_lines`` (a record file's lines);
- :mod:`engine.fields` -- the fields of a record event read strictly, with refusals;
- :mod:`engine.fold` -- the replay driver: check each event, then fold it in;
- :mod:`engine.registry` -- every game by its key, and which game a record is;
- :mod:`engine.cli` -- ``python -m engine replay | simulate | bench``.

One package per game, each the same shape (events, referee, apply, rules, state, replay,
summary, results, simulate; ``RULES`` for the registry): :mod:`engine.tricknchef`,
:mod:`engine.foodtruck`, :mod:`engine.chefs`, :mod:`engine.crazykitchen`. No game imports
another.
"""

from __future__ import annotations

from engine.errors import BadEvent, InvalidRecord, InvariantError, RuleViolation

__all__ = ["BadEvent", "InvalidRecord", "InvariantError", "RuleViolation"]
