"""The demo the README's run command shows a new user."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tournaments import services
from tournaments.demo import NAME, OTHER_GAMES, build

pytestmark = pytest.mark.django_db


def test_the_demo_is_a_tournament_in_its_second_round() -> None:
    demo = build()
    read = services.tournament_get_with_standings(tournament_id=demo.tournament_id)
    summary, standings = read.summary, read.standings
    assert summary["name"] == NAME
    assert len(summary["players"]) == 16
    first, second = summary["rounds"]
    assert first["status"] == "closed" and all(t["confirmed"] for t in first["tables"])
    assert second["status"] == "published" and second["ends_at"]  # its clock runs
    assert second["tables"][0]["result"] is not None
    assert [t["result"] is None for t in second["tables"][1:]] == [True, True, True]
    assert standings is not None and standings["rows"][0]["games"] == 1


def test_running_it_again_keeps_the_tournament_and_gives_a_new_password(
    capsys: pytest.CaptureFixture[str],
) -> None:
    first = build()
    call_command("demo", url="http://127.0.0.1:9000")
    out = capsys.readouterr().out
    assert f"http://127.0.0.1:9000/t/{first.tournament_id}/" in out
    assert "already there" in out
    assert first.password not in out


def test_the_demo_has_a_tournament_of_each_other_game_with_round_2_paired(
    capsys: pytest.CaptureFixture[str],
) -> None:
    demo = build()
    assert [name for name, _ in demo.others] == [other.name for other in OTHER_GAMES]
    for (name, tid), other in zip(demo.others, OTHER_GAMES, strict=True):
        organizer = User.objects.get(username=demo.organizer)  # sees the proposed round 2
        summary = services.tournament_get(tournament_id=tid, user=organizer).summary
        assert (summary["name"], summary["game_type"]) == (name, other.game_type)
        first, second = summary["rounds"]
        assert first["status"] == "closed" and all(t["confirmed"] for t in first["tables"])
        assert second["status"] == "proposed" and second["tables"]
        if other.game_type == "crazy-kitchen":
            assert all(len(t["seats"]) == 2 for t in second["tables"])
            assert all(s["members"] for t in first["tables"] for s in t["seats"])
    call_command("demo", url="http://x")
    out = capsys.readouterr().out
    assert all(f"{name}: http://x/t/{tid}/" in out for name, tid in demo.others)
