"""An independent Chefs referee, written from docs/chefs-rules.md and docs/chefs-record-format.md
alone, in another shape than engine/chefs (one loop over the lines, a schedule of expected
turns computed up front for each round), for the differential tests. Slow and plain on purpose.
"""

from __future__ import annotations

import json
from typing import Any

LOCS = ["counter", "window", "door", "wall", "service"]
CHESTS = {"1:1": (1, 1), "1:2": (1, 2), "2:2": (2, 2), "2:3": (2, 3), "3:4": (3, 4)}
ACTION = {
    "counter": "ingredients_taken",
    "window": "meal_cooked",
    "door": "cards_exchanged",
    "wall": "meal_cooked",
    "service": "meal_served",
}
FIELDS: dict[str, dict[str, type]] = {
    "game_started": {"game": str, "players": list},
    "round_started": {"round": int, "starting_player": str},
    "marker_placed": {"player": str, "location": str, "circle": int},
    "ingredients_taken": {"player": str, "count": int},
    "meal_cooked": {"player": str, "steps": int, "ingredients": int, "chef_card": bool},
    "cards_exchanged": {"player": str, "chest": str},
    "meal_served": {"player": str, "steps": int, "position": int},
    "action_passed": {"player": str},
}


class Bad(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise Bad("bad_event")
    return dict(pairs)


def _const(_: str) -> Any:
    raise Bad("bad_json")


def parse(line: str) -> dict[str, Any]:
    try:
        obj = json.loads(line, object_pairs_hook=_pairs, parse_constant=_const)
    except Bad:
        raise
    except (ValueError, RecursionError):
        raise Bad("bad_json") from None
    if not isinstance(obj, dict):
        raise Bad("bad_json")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise Bad("bad_event")
    spec = FIELDS[kind]
    for key, typ in spec.items():
        if key not in obj:
            raise Bad("bad_event")
        value = obj[key]
        if typ is int and (type(value) is not int):
            raise Bad("bad_event")
        if typ is bool and type(value) is not bool:
            raise Bad("bad_event")
        if typ is str and type(value) is not str:
            raise Bad("bad_event")
        if typ is list and not (type(value) is list and all(type(v) is str for v in value)):
            raise Bad("bad_event")
        if kind == "game_started" and key == "game" and value != "chefs":
            raise Bad("bad_event")
        if kind == "marker_placed" and key == "location" and value not in LOCS:
            raise Bad("bad_location")
        if kind == "cards_exchanged" and key == "chest" and value not in CHESTS:
            raise Bad("bad_chest")
    if set(obj) - set(spec) - {"type"}:
        raise Bad("bad_event")
    return obj


def replay_lines(lines: list[str]) -> dict[str, Any]:
    g: dict[str, Any] = {"players": [], "over": False, "round": 0, "start": None}
    for index, line in enumerate(lines):
        try:
            event(g, parse(line))
        except Bad as bad:
            return {"error": {"event": index, "code": bad.code}}
    return summary(g)


def event(g: dict[str, Any], e: dict[str, Any]) -> None:
    kind = e["type"]
    if g["over"]:
        raise Bad("game_over")
    if not g["players"]:
        if kind != "game_started":
            raise Bad("out_of_order")
        names = e["players"]
        if not 2 <= len(names) <= 6 or len(set(names)) < len(names):
            raise Bad("bad_players")
        if any(n.strip() == "" for n in names):
            raise Bad("bad_players")
        n = len(names)
        g.update(
            players=names,
            hand={p: 2 for p in names},
            pos={p: 0 for p in names},
            meals={p: [] for p in names},
            ingr_total=60,
            meal_total=29,
            counter=0,
            cook={"window": 0, "wall": 0},
            want=(4, 1) if n == 2 else (6, 2) if n <= 4 else (8, 3),
            todo=[],
            rounds=[],
            markers={loc: [] for loc in LOCS},
            chests=[],
            chefcard=[],
        )
        refill(g)
        return
    if not g["todo"]:  # between rounds
        if kind != "round_started":
            raise Bad("out_of_order")
        if e["round"] != g["round"] + 1:
            raise Bad("wrong_round")
        s = e["starting_player"]
        if s not in g["players"]:
            raise Bad("unknown_player")
        ps = g["players"]
        if g["start"] is not None and ps[(ps.index(g["start"]) + 1) % len(ps)] != s:
            raise Bad("wrong_starting_player")
        g["round"] += 1
        g["start"] = s
        k = ps.index(s)
        g["todo"] = [("place", ps[(k + i) % len(ps)]) for i in range(3 * len(ps))]
        g["markers"] = {loc: [] for loc in LOCS}
        g["chests"] = []
        g["chefcard"] = []
        return
    what, who = g["todo"][0]
    if what == "place":
        if kind != "marker_placed":
            raise Bad("out_of_order")
    else:
        if kind not in (ACTION[what], "action_passed"):
            raise Bad("out_of_order")
    p = e.get("player")
    if p not in g["players"]:
        raise Bad("unknown_player")
    if p != who:
        raise Bad("wrong_turn")
    g["todo"].pop(0)
    if what == "place":
        loc = e["location"]
        if loc == "door" and len(g["markers"]["door"]) == 5:
            g["todo"].insert(0, (what, who))
            raise Bad("door_full")
        if e["circle"] != len(g["markers"][loc]) + 1:
            g["todo"].insert(0, (what, who))
            raise Bad("wrong_circle")
        g["markers"][loc].append(p)
        if not g["todo"]:
            g["todo"] = [(loc, q) for loc in LOCS for q in g["markers"][loc]]
        return
    try:
        act(g, what, e)
    except Bad:
        g["todo"].insert(0, (what, who))
        raise
    if not g["todo"]:
        g["rounds"].append(dict(g["pos"]))
        if max(g["pos"].values()) >= 21:
            g["over"] = True
        else:
            refill(g)


def supply_ingr(g: dict[str, Any]) -> int:
    return int(g["ingr_total"] - sum(g["hand"].values()) - g["counter"])


def refill(g: dict[str, Any]) -> None:
    ing, meals = g["want"]
    while g["counter"] < ing and supply_ingr(g) > 0:
        g["counter"] += 1
    for c in ("window", "wall"):
        while g["cook"][c] < meals and meal_supply(g) > 0:
            g["cook"][c] += 1


def meal_supply(g: dict[str, Any]) -> int:
    held = sum(len(m) for m in g["meals"].values())
    return int(g["meal_total"] - held - g["cook"]["window"] - g["cook"]["wall"])


def act(g: dict[str, Any], loc: str, e: dict[str, Any]) -> None:
    p = e["player"]
    kind = e["type"]
    if kind == "action_passed":
        return
    if kind == "ingredients_taken":
        if e["count"] not in (1, 2):
            raise Bad("bad_count")
        if e["count"] > g["counter"]:
            raise Bad("not_enough_on_counter")
        g["counter"] -= e["count"]
        g["hand"][p] += e["count"]
    elif kind == "meal_cooked":
        if g["cook"][loc] < 1:
            raise Bad("no_meal_left")
        if e["steps"] <= 0:
            raise Bad("bad_steps")
        if e["ingredients"] < 0 or e["ingredients"] + int(e["chef_card"]) == 0:
            raise Bad("bad_ingredients")
        if e["ingredients"] > g["hand"][p]:
            raise Bad("not_enough_cards")
        if e["chef_card"] and (p, loc) in g["chefcard"]:
            raise Bad("chef_card_used")
        if e["chef_card"]:
            g["chefcard"].append((p, loc))
        g["cook"][loc] -= 1
        g["hand"][p] -= e["ingredients"]
        g["meals"][p].append(e["steps"])
    elif kind == "cards_exchanged":
        if e["chest"] in g["chests"]:
            raise Bad("chest_taken")
        give, draw = CHESTS[e["chest"]]
        if g["hand"][p] < give:
            raise Bad("not_enough_cards")
        if supply_ingr(g) + give < draw:
            raise Bad("deck_empty")
        g["chests"].append(e["chest"])
        g["hand"][p] += draw - give
    else:
        if e["steps"] not in g["meals"][p]:
            raise Bad("meal_not_held")
        if e["position"] != g["pos"][p] + e["steps"]:
            raise Bad("wrong_position")
        g["meals"][p].remove(e["steps"])
        g["pos"][p] = e["position"]


def summary(g: dict[str, Any]) -> dict[str, Any]:
    """The parts of the summary the differential test compares."""
    players = g["players"]
    ranking = []
    if g["over"]:
        ordered = sorted(players, key=lambda p: (-g["pos"][p], players.index(p)))
        for p in ordered:
            better = sum(1 for q in players if g["pos"][q] > g["pos"][p])
            ranking.append(
                {"player": p, "rank": better + 1, "points": g["pos"][p], "tiebreaks": []}
            )
    return {
        "status": "finished" if g["over"] else "in_progress",
        "players": list(players),
        "positions": dict(g.get("pos", {})),
        "rounds": [{"round": i + 1, "positions": r} for i, r in enumerate(g.get("rounds", []))],
        "ranking": ranking,
        "counter": g.get("counter", 0),
        "hands": dict(g.get("hand", {})),
    }
