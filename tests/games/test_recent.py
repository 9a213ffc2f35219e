"""games.recent.Recent: a process's few most recent values by key."""

from __future__ import annotations

from games.recent import Recent


def test_the_least_recently_used_goes_first() -> None:
    kept: Recent[str, int] = Recent(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # now the most recent
    kept.put("c", 3)
    assert kept.keys() == ["a", "c"] and kept.get("b") is None


def test_unless_keeps_the_value_held_when_it_says_so() -> None:
    kept: Recent[str, int] = Recent(4)
    kept.put("a", 5)
    kept.put("a", 3, unless=lambda held: held > 3)
    assert kept.get("a") == 5
    kept.put("a", 7, unless=lambda held: held > 7)
    assert kept.get("a") == 7
    kept.clear()
    assert kept.keys() == []
