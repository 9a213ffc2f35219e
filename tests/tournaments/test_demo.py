"""The demo the README's run command shows a new user."""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from games.gametypes import GAME_TYPES
from tournaments import services
from tournaments.demo import NAME, build, kept_passwords, other_games

PASSWORDS = re.compile(r"log in as '(\w+)' with the password (\S+)")

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


def desk_opens(client: Client) -> bool:
    return client.get("/desk/").status_code == 200  # else to the login page


def test_running_it_again_keeps_the_tournament_the_passwords_and_the_sessions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A restart of bin/run (a crash, a reboot) runs the demo again: nobody is logged out, and
    the passwords printed are the ones that work."""
    kept = tmp_path / "demo_passwords.json"
    call_command("demo", url="http://127.0.0.1:9000", passwords=kept)
    first = PASSWORDS.findall(capsys.readouterr().out)
    assert [name for name, _ in first] == ["organizer", "scorekeeper"]
    assert first[0][1] != first[1][1]
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    clients = {name: Client() for name, _ in first}
    for name, password in first:
        assert clients[name].login(username=name, password=password)
    hashes = dict(User.objects.values_list("username", "password"))

    call_command("demo", url="http://127.0.0.1:9000", passwords=kept)
    out = capsys.readouterr().out
    assert "already there" in out
    demo = services.tournament_list().get(name=NAME)
    assert f"http://127.0.0.1:9000/t/{demo.stream_id}/" in out
    assert PASSWORDS.findall(out) == first
    assert dict(User.objects.values_list("username", "password")) == hashes  # not even rehashed
    assert all(desk_opens(client) for client in clients.values())

    # --new-passwords: new ones, kept from now on; the old ones' sessions end.
    call_command("demo", url="http://127.0.0.1:9000", passwords=kept, new_passwords=True)
    renewed = PASSWORDS.findall(capsys.readouterr().out)
    assert [name for name, _ in renewed] == ["organizer", "scorekeeper"]
    assert all(new != old for (_, new), (_, old) in zip(renewed, first, strict=True))
    assert not any(desk_opens(client) for client in clients.values())
    assert all(Client().login(username=name, password=password) for name, password in renewed)
    call_command("demo", url="http://127.0.0.1:9000", passwords=kept)
    assert PASSWORDS.findall(capsys.readouterr().out) == renewed


def test_a_lost_or_damaged_passwords_file_gives_new_passwords_that_work(tmp_path: Path) -> None:
    kept = tmp_path / "demo_passwords.json"
    kept.write_text("{not json")
    passwords = kept_passwords(kept)
    assert set(passwords) == {"organizer", "scorekeeper"}
    assert json.loads(kept.read_text()) == passwords
    assert kept_passwords(kept) == passwords
    assert kept_passwords(kept, renew=True) != passwords
    build(passwords=kept_passwords(kept))
    for name, password in kept_passwords(kept).items():
        assert Client().login(username=name, password=password)


def test_the_demo_has_a_tournament_of_each_other_game_with_round_2_paired(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    demo = build()
    others = other_games()
    assert [other.game_type for other in others] == [
        key for key, kind in GAME_TYPES.items() if kind.demo is not None
    ]
    assert len(others) == len(GAME_TYPES) - 1  # every game but the club night's
    assert [name for name, _ in demo.others] == [other.name for other in others]
    for (name, tid), other in zip(demo.others, others, strict=True):
        organizer = User.objects.get(username=demo.organizer)  # sees the proposed round 2
        summary = services.tournament_get(tournament_id=tid, user=organizer).summary
        assert (summary["name"], summary["game_type"]) == (name, other.game_type)
        first, second = summary["rounds"]
        assert first["status"] == "closed" and all(t["confirmed"] for t in first["tables"])
        assert second["status"] == "proposed" and second["tables"]
        if GAME_TYPES[other.game_type].teams:
            assert all(len(t["seats"]) == 2 for t in second["tables"])
            assert all(s["members"] for t in first["tables"] for s in t["seats"])
    call_command("demo", url="http://x", passwords=tmp_path / "passwords")
    out = capsys.readouterr().out
    assert all(f"{name}: http://x/t/{tid}/" in out for name, tid in demo.others)
