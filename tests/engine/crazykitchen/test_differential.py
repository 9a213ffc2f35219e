"""The Crazy Kitchen engine against an independent referee (reference.py, written from the docs):
legal records cut at every length and spoiled ones must get the same verdict. The reference
referees record v1, so the records here are v1's (simulate_v1); v2 is test_rulebook_v2.py's."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.crazykitchen import CrazyKitchenRules
from engine.crazykitchen.events import to_json
from engine.crazykitchen.simulate import simulate_v1
from engine.errors import InvalidRecord
from tests.engine.crazykitchen import reference

RULES = CrazyKitchenRules()


def ours(lines: list[str]) -> dict[str, Any]:
    try:
        summary = RULES.replay(lines)
    except InvalidRecord as error:
        return {"error": {"event": error.index, "code": error.code}}
    out: dict[str, Any] = {"status": summary["status"]}
    if summary["teams"]:
        out["totals"] = summary["totals"]
        out["upgrades"] = summary["upgrades"]
    if summary["ranking"]:
        out["ranks"] = {r["team"]: r["rank"] for r in summary["ranking"]}
    return out


def agree(lines: list[str]) -> dict[str, Any]:
    mine, theirs = ours(lines), reference.replay_lines(lines)
    assert mine == theirs, (mine, theirs, lines)
    return mine


def test_legal_games_and_their_prefixes_agree() -> None:
    for seed in range(40):
        lines = [json.dumps(e) for e in (to_json(e) for e in simulate_v1(seed, 4 + seed % 9))]
        assert agree(lines)["status"] == "finished"
        for cut in range(len(lines)):
            agree(lines[:cut])


VALUES: st.SearchStrategy[object] = st.one_of(
    st.integers(-3, 70),
    st.sampled_from(["Pizza", "French Fries", "Soup", "", True, None, 2.0, [], {}]),
    st.lists(st.integers(-1, 7), max_size=6),
)


@given(st.integers(0, 10_000), st.data())
def test_spoiled_records_agree(seed: int, data: st.DataObject) -> None:
    rng = random.Random(seed)
    objs = [to_json(e) for e in simulate_v1(seed, rng.randint(4, 12))]
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(objs) - 1))
        how = data.draw(st.integers(0, 5))
        obj = dict(objs[i]) if isinstance(objs[i], dict) else {}
        if not obj:
            continue  # every key already spoiled away
        if how == 0:
            obj[data.draw(st.sampled_from(sorted(obj)))] = data.draw(VALUES)
        elif (
            how == 1
            and obj.get("type") == "game_started"
            and isinstance(obj.get("teams"), list)
            and len(obj["teams"]) == 2
        ):
            teams = [dict(t) if isinstance(t, dict) else {} for t in obj["teams"]]
            t = data.draw(st.integers(0, 1))
            teams[t]["players"] = data.draw(
                st.lists(st.sampled_from(["p1", "p2", "x", "y", "z", "w", " "]), max_size=8)
            )
            obj["teams"] = teams
        elif how == 2:
            obj.pop(data.draw(st.sampled_from(sorted(obj))))
        elif how == 3:
            objs.insert(i, obj)
            continue
        elif how == 4 and obj.get("type") == "round_scored":
            # (an earlier spoiling of this line may have removed or changed any key)
            done, missed = obj.get("fulfilled"), obj.get("penalties")
            if not (isinstance(done, list) and isinstance(missed, list)) or not all(
                type(x) is int for x in [*done, *missed]
            ):
                continue
            good = max(0, sum(done) - sum(missed))
            obj["score"] = good + data.draw(st.integers(-2, 2))
        else:
            obj["compensation"] = data.draw(st.integers(-1, 20))
        objs[i] = obj
    agree([json.dumps(o) for o in objs])
