"""A game's rounds are "deals" on every page and printed sheet (issue 13), so that "Round 3 ·
Table 1" (the tournament's round) never meets a game's "Round 1/2/3"."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from tests.web.desk import desk, html, logged_in, new_tournament
from tournaments import services as t

pytestmark = pytest.mark.django_db


def test_the_score_sheet_has_a_box_per_deal_under_the_tournament_round(olga: User) -> None:
    tid = new_tournament(olga)
    t.tournament_pair(tournament_id=tid, user=olga)
    t.tournament_publish(tournament_id=tid, round=1, user=olga)
    sheets = html(logged_in(olga).get(desk(tid, "round/1/sheets/print/")))
    assert "Round 1 · Table 1" in sheets
    head = re.search(r"<thead>.*?</thead>", sheets, re.S)
    assert head is not None
    boxes = re.findall(r'<th scope="col" class="box">([^<]+)</th>', head.group())
    assert boxes == ["Deal 1", "Deal 2", "Deal 3", "Total", "Place"]
    assert "Round" not in head.group()
