"""An independent Crazy Kitchen referee written from docs/crazykitchen-rules.md and
docs/crazykitchen-record-format.md alone, for the differential test."""

from __future__ import annotations

import json
from typing import Any


class Bad(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({k for k, _ in pairs}) != len(pairs):
        raise Bad("bad_event")
    return dict(pairs)


def _nan(_: str) -> Any:
    raise Bad("bad_json")


def _is_int(v: Any) -> bool:
    return type(v) is int


def read(line: str) -> dict[str, Any]:
    try:
        obj = json.loads(line, object_pairs_hook=_hook, parse_constant=_nan)
    except Bad:
        raise
    except (ValueError, RecursionError):
        raise Bad("bad_json") from None
    if type(obj) is not dict:
        raise Bad("bad_json")
    t = obj.get("type")
    if t == "game_started":
        keys = {"type", "game", "teams", "cooks_first"}
        if not keys <= set(obj) <= keys | {"compensation"}:
            raise Bad("bad_event")
        if obj["game"] != "crazy-kitchen" or type(obj["teams"]) is not list:
            raise Bad("bad_event")
        for team in obj["teams"]:
            if type(team) is not dict or set(team) != {"name", "players"}:
                raise Bad("bad_event")
            if type(team["name"]) is not str or type(team["players"]) is not list:
                raise Bad("bad_event")
            if any(type(p) is not str for p in team["players"]):
                raise Bad("bad_event")
        if type(obj["cooks_first"]) is not str:
            raise Bad("bad_event")
        if "compensation" in obj and not _is_int(obj["compensation"]):
            raise Bad("bad_event")
    elif t == "round_scored":
        if set(obj) != {"type", "round", "cooks", "fulfilled", "penalties", "score"}:
            raise Bad("bad_event")
        if not _is_int(obj["round"]) or type(obj["cooks"]) is not str or not _is_int(obj["score"]):
            raise Bad("bad_event")
        for key in ("fulfilled", "penalties"):
            if type(obj[key]) is not list or not all(_is_int(v) for v in obj[key]):
                raise Bad("bad_event")
    else:
        raise Bad("bad_event")
    return obj


def replay_lines(lines: list[str]) -> dict[str, Any]:
    teams: list[dict[str, Any]] | None = None
    first = ""
    bonus: dict[str, int] = {}
    played: list[tuple[str, int]] = []
    for index, line in enumerate(lines):
        try:
            e = read(line)
            if len(played) == 6:
                raise Bad("game_over")
            if e["type"] == "game_started":
                if teams is not None:
                    raise Bad("out_of_order")
                ts = e["teams"]
                if len(ts) != 2 or ts[0]["name"] == ts[1]["name"]:
                    raise Bad("bad_teams")
                if not ts[0]["name"].strip() or not ts[1]["name"].strip():
                    raise Bad("bad_teams")
                everyone = ts[0]["players"] + ts[1]["players"]
                if any(not p.strip() for p in everyone) or len(set(everyone)) < len(everyone):
                    raise Bad("bad_teams")
                n0, n1 = len(ts[0]["players"]), len(ts[1]["players"])
                if min(n0, n1) < 2 or abs(n0 - n1) > 1 or n0 + n1 > 12:
                    raise Bad("bad_teams")
                if e["cooks_first"] not in (ts[0]["name"], ts[1]["name"]):
                    raise Bad("unknown_team")
                comp = e.get("compensation", 15 if (n0 + n1) % 2 else 0)
                if comp < 0 or (comp > 0 and n0 == n1):
                    raise Bad("bad_compensation")
                teams, first = ts, e["cooks_first"]
                bonus = {t["name"]: 0 for t in ts}
                if n0 != n1:
                    bonus[ts[0]["name"] if n0 < n1 else ts[1]["name"]] = comp
            else:
                if teams is None:
                    raise Bad("out_of_order")
                if e["round"] != len(played) + 1:
                    raise Bad("wrong_round")
                names = [t["name"] for t in teams]
                if e["cooks"] not in names:
                    raise Bad("unknown_team")
                other = names[1] if names[0] == first else names[0]
                if e["cooks"] != (first if e["round"] % 2 else other):
                    raise Bad("wrong_cooks")
                if min(e["fulfilled"], default=1) < 1:
                    raise Bad("bad_order_value")
                if min(e["penalties"], default=1) < 1:
                    raise Bad("bad_penalty")
                if len(e["fulfilled"]) + len(e["penalties"]) > 57:
                    raise Bad("too_many_orders")
                if e["score"] != max(0, sum(e["fulfilled"]) - sum(e["penalties"])):
                    raise Bad("wrong_score")
                played.append((e["cooks"], e["score"]))
        except Bad as bad:
            return {"error": {"event": index, "code": bad.code}}
    out: dict[str, Any] = {"status": "finished" if len(played) == 6 else "in_progress"}
    if teams is None:
        return out
    totals = {name: bonus[name] + sum(s for c, s in played if c == name) for name in bonus}
    out["totals"] = totals
    ups = []
    for after in (2, 4):
        if len(played) >= after:
            pts = {
                name: sum(s for c, s in played[after - 2 : after] if c == name) for name in bonus
            }
            a, b = list(pts)
            lo = first if pts[a] == pts[b] else min(pts, key=lambda k: pts[k])
            hi = b if lo == a else a
            ups.append(
                {
                    "after_round": after,
                    "points": pts,
                    "order": [lo, hi],
                    "limits": {lo: pts[hi], hi: pts[lo]},
                }
            )
    out["upgrades"] = ups
    if len(played) == 6:
        a, b = list(totals)
        if totals[a] == totals[b]:
            out["ranks"] = {a: 1, b: 1}
        else:
            out["ranks"] = {a: 1, b: 2} if totals[a] > totals[b] else {a: 2, b: 1}
    return out
