"""An independent reading of Food Truck records, written from docs/foodtruck-rules.md and
docs/foodtruck-record-format.md alone (it imports nothing from engine/).

It is deliberately plain: one loop over the lines, the table kept as dicts and lists, a pile as
its unordered top (a list) and its known bottom (a list). ``replay_lines`` returns what
``python -m engine replay`` prints for the record: the summary, or ``{"error": {...}}`` with the
line and the code (the message is not compared).
"""

from __future__ import annotations

import json
import re
from typing import Any

EFFECTS = ["rearrange", "remove", "swap", "under", "copy"]
FIELDS = {
    "rearrange": [],
    "remove": ["target", "dish"],
    "swap": ["dish", "market"],
    "under": ["dish"],
    "copy": [],
}
START = ["dessert", "burger", "burger", "pizza", "hotdog", "sandwich"]
DISH = re.compile(r"[a-z][a-z0-9-]{0,29}")


class Refused(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise Refused("bad_event")
    return dict(pairs)


def _constant(_: str) -> Any:
    raise Refused("bad_json")


def parse(line: str) -> dict[str, Any]:
    try:
        obj = json.loads(line, object_pairs_hook=_pairs, parse_constant=_constant)
    except Refused:
        raise
    except (ValueError, RecursionError):
        raise Refused("bad_json") from None
    if not isinstance(obj, dict):
        raise Refused("bad_json")
    kind = obj.get("type")
    order = {
        "game_started": ["game", "players"],
        "round_started": ["round", "first_player", "market", "companies"],
        "company_played": ["player", "effect"],
        "dish_revealed": ["player", "dish"],
        "market_taken": ["player", "dish"],
    }
    if not isinstance(kind, str) or kind not in order:
        raise Refused("bad_event")
    keys = list(order[kind])
    if kind == "game_started" and "version" in obj:  # v2
        keys.insert(1, "version")
    for key in keys:
        if key not in obj:
            raise Refused("bad_event")
        value = obj[key]
        if key == "game" and value != "food-truck":
            raise Refused("bad_event")
        if key == "players" and not (
            isinstance(value, list) and all(isinstance(p, str) for p in value)
        ):
            raise Refused("bad_event")
        if key == "version" and (type(value) is not int or value != 2):
            raise Refused("bad_event")
        if key == "round" and type(value) is not int:
            raise Refused("bad_event")
        if key in ("first_player", "player", "target", "chosen_by") and not isinstance(value, str):
            raise Refused("bad_event")
        if key == "market" and kind == "round_started":
            if not isinstance(value, list):
                raise Refused("bad_event")
            for dish in value:
                check_dish(dish)
        if key == "companies":
            if not isinstance(value, dict):
                raise Refused("bad_event")
            for effect in value.values():
                if effect not in EFFECTS:
                    raise Refused("bad_effect")
        if key == "dish" or (key == "market" and kind == "company_played"):
            check_dish(value)
        if key == "effect":
            if not isinstance(value, str) or value not in EFFECTS:
                raise Refused("bad_effect")
            for extra in FIELDS[value]:
                keys.append(extra)
            if value == "remove" and "chosen_by" in obj:
                keys.append("chosen_by")
    if set(obj) - set(keys) - {"type"}:
        raise Refused("bad_event")
    return obj


def check_dish(value: Any) -> None:
    if not isinstance(value, str) or not DISH.fullmatch(value):
        raise Refused("bad_dish")


class Game:
    def __init__(self) -> None:
        self.players: list[str] = []
        self.stage = "start"  # start, round, turn, served, pick, over
        self.round = 0
        self.rounds: list[dict[str, Any]] = []
        self.vp: dict[str, int] = {}
        self.marker: str | None = None
        self.market: list[str] = []
        self.draw = 0
        self.cards: dict[str, list[str]] = {}  # between rounds
        self.top: dict[str, list[str]] = {}
        self.bottom: dict[str, list[str]] = {}
        self.served: dict[str, dict[str, int]] = {}
        self.owned: dict[str, int] = {}
        self.company: dict[str, str | None] = {}
        self.seen: dict[str, list[str]] = {}
        self.out: list[str] = []
        self.first: str | None = None
        self.who: str | None = None
        self.forced: str | None = None
        self.copying = False
        self.version = 1

    # --- helpers

    def live(self) -> list[str]:
        return [p for p in self.players if p not in self.out]

    def after(self, player: str) -> str:
        i = self.players.index(player)
        n = len(self.players)
        for k in range(1, n + 1):
            q = self.players[(i + k) % n]
            if q not in self.out:
                return q
        raise AssertionError

    def mover(self) -> str | None:
        if self.stage in ("turn", "pick"):
            return self.who
        if self.stage == "served":
            assert self.who is not None
            return self.after(self.who)
        return None

    def pile(self, p: str) -> int:
        return len(self.top[p]) + len(self.bottom[p])

    def must_pick(self, p: str) -> bool:
        """Is ``p`` (the mover) due to take a market card now?"""
        if self.stage == "pick":
            return True
        if self.stage == "turn" and self.forced is not None:
            return False
        return self.pile(p) == 0

    def top_ok(self, p: str, dish: str) -> None:
        if self.stage == "turn" and self.forced is not None and p == self.who:
            if dish != self.forced:
                raise Refused("not_on_top")
            return
        if self.pile(p) == 0:
            raise Refused("pile_empty")
        if self.top[p]:
            if dish in self.top[p]:
                return
        elif self.bottom[p][0] == dish:
            return
        raise Refused("not_on_top" if dish in self.bottom[p] else "dish_not_in_pile")

    def pop_top(self, p: str, dish: str) -> None:
        if self.top[p]:
            self.top[p].remove(dish)
        else:
            self.bottom[p].pop(0)

    def begin(self, p: str) -> None:
        self.who, self.stage, self.forced, self.copying = p, "turn", None, False

    def knock_out(self, p: str) -> None:
        if not self.out:
            self.marker = p
        self.out.append(p)
        self.who, self.stage = p, "pick"

    # --- events

    def event(self, e: dict[str, Any]) -> None:
        kind = e["type"]
        expected = {
            "game_started": ("start",),
            "round_started": ("round",),
            "company_played": ("turn", "served", "pick"),
            "dish_revealed": ("turn", "served"),
            "market_taken": ("turn", "served", "pick"),
        }[kind]
        if kind == "company_played":  # the fields that depend on the record's version
            if "chosen_by" in e and self.version == 1:
                raise Refused("bad_event")
            if e["effect"] == "remove" and self.version == 2 and "chosen_by" not in e:
                raise Refused("bad_event")
        if self.stage not in expected:
            raise Refused("game_over" if self.stage == "over" else "out_of_order")
        getattr(self, kind)(e)

    def known(self, p: str) -> None:
        if p not in self.players:
            raise Refused("unknown_player")

    def game_started(self, e: dict[str, Any]) -> None:
        ps = e["players"]
        if not 2 <= len(ps) <= 5 or "" in ps or len(set(ps)) != len(ps):
            raise Refused("bad_players")
        self.players = list(ps)
        self.version = e.get("version", 1)
        for p in ps:
            self.vp[p] = 0
            self.cards[p] = list(START)
            self.seen[p] = []
            self.company[p] = None
            self.served[p] = {}
            self.top[p], self.bottom[p] = [], []
        self.draw = 60 - 5 * len(ps)
        self.stage = "round"

    def round_started(self, e: dict[str, Any]) -> None:
        if e["round"] != self.round + 1:
            raise Refused("wrong_round")
        self.known(e["first_player"])
        if self.marker is not None and e["first_player"] != self.marker:
            raise Refused("bad_first_player")
        if len(e["market"]) != len(self.players) or "dessert" in e["market"]:
            raise Refused("bad_market")
        for p, effect in e["companies"].items():
            self.known(p)
            if effect in self.seen[p]:
                raise Refused("bad_company")
        if set(e["companies"]) != set(self.players):
            raise Refused("bad_company")
        self.round += 1
        self.market = list(e["market"])
        self.draw -= len(self.players)
        self.marker = self.first = e["first_player"]
        for p in self.players:
            self.top[p], self.bottom[p] = self.cards[p], []
            self.cards[p] = []
            self.served[p] = {}
            self.company[p] = e["companies"][p]
            self.seen[p].append(e["companies"][p])
        self.out = []
        self.begin(e["first_player"])

    def company_played(self, e: dict[str, Any]) -> None:
        p, effect = e["player"], e["effect"]
        self.known(p)
        nxt = self.mover()
        if p != nxt and not (self.stage == "served" and p == self.who):
            raise Refused("wrong_turn")  # (in "pick" the mover is the eliminated player)
        if self.company[p] is None:
            raise Refused("company_used")
        if self.company[p] != effect:
            raise Refused("wrong_effect")
        late = self.stage in ("served", "pick") and p == self.who
        if late and effect in ("swap", "under", "copy"):
            raise Refused("effect_not_now")
        if effect == "remove":
            self.known(e["target"])
            if "chosen_by" in e:
                self.known(e["chosen_by"])
                if e["chosen_by"] != e["target"]:
                    raise Refused("wrong_chooser")
            if self.served[e["target"]].get(e["dish"], 0) != 1:
                raise Refused("not_removable")
        # the turn now belongs to p
        turn_of_p = not late
        if turn_of_p and self.stage == "served":
            self.begin(p)
        if effect in ("swap", "under"):
            self.top_ok(p, e["dish"])
            if effect == "swap" and e["market"] not in self.market:
                raise Refused("dish_not_in_market")
            if effect == "under" and self.pile(p) < 2:
                raise Refused("no_next_dish")
        if effect == "copy" and self.pile(p) == 0:
            raise Refused("pile_empty")
        self.company[p] = None
        if effect == "rearrange":
            room = 5 - len(self.top[p])
            if room > 0:
                self.top[p] += self.bottom[p][:room]
                self.bottom[p] = self.bottom[p][room:]
        elif effect == "remove":
            t, d = e["target"], e["dish"]
            del self.served[t][d]
            self.bottom[t].append(d)
        elif effect == "swap":
            self.pop_top(p, e["dish"])
            self.market.remove(e["market"])
            self.market.append(e["dish"])
            self.forced = e["market"]
        elif effect == "under":
            self.pop_top(p, e["dish"])
            self.bottom[p].append(e["dish"])
        else:
            self.copying = True

    def dish_revealed(self, e: dict[str, Any]) -> None:
        p, dish = e["player"], e["dish"]
        self.known(p)
        if p != self.mover():
            raise Refused("wrong_turn")
        self.top_ok(p, dish)
        if self.stage == "served":
            self.begin(p)
        if self.forced is not None:
            self.forced = None
        else:
            self.pop_top(p, dish)
        others = [q for q in self.players if q != p and self.served[q].get(dish)]
        ok = (
            dish == "dessert"
            or not others
            or (self.copying and len(others) == 1 and self.served[others[0]][dish] == 1)
        )
        self.copying = False
        if ok:
            self.served[p][dish] = self.served[p].get(dish, 0) + 1
            self.stage = "served"
        else:
            self.cards[p].append(dish)  # set aside: back to its owner at the end
            self.knock_out(p)

    def market_taken(self, e: dict[str, Any]) -> None:
        p, dish = e["player"], e["dish"]
        self.known(p)
        if p != self.mover():
            raise Refused("wrong_turn")
        if not self.must_pick(p):
            raise Refused("pile_not_empty")
        if dish not in self.market:
            raise Refused("dish_not_in_market")
        if self.stage != "pick":
            self.knock_out(p)
        self.market.remove(dish)
        self.cards[p].append(dish)
        if len(self.live()) > 1:
            self.begin(self.after(p))
            return
        winner = self.live()[0]
        assert len(self.market) == 1
        self.cards[winner].append(self.market.pop())
        self.vp[winner] += 1
        self.rounds.append(
            {
                "round": self.round,
                "first_player": self.first,
                "eliminated": list(self.out),
                "winner": winner,
            }
        )
        for q in self.players:
            for d, n in self.served[q].items():
                self.cards[q] += [d] * n
            self.cards[q] += self.top[q] + self.bottom[q]
            self.top[q], self.bottom[q], self.served[q] = [], [], {}
            self.company[q] = None
            if len(self.seen[q]) == 5:
                self.seen[q] = []
        self.who = None
        goal = 2 if len(self.players) == 5 else 3
        self.stage = "over" if self.vp[winner] == goal else "round"

    # --- the summary

    def summary(self) -> dict[str, Any]:
        done = self.stage == "over"
        ranking: list[dict[str, Any]] = []
        if done:
            order = sorted(self.players, key=lambda p: (-self.vp[p], self.players.index(p)))
            for i, p in enumerate(order):
                same = ranking and ranking[-1]["points"] == self.vp[p]
                rank = ranking[-1]["rank"] if same else i + 1
                ranking.append({"player": p, "rank": rank, "points": self.vp[p], "tiebreaks": []})
        if self.stage == "start":
            nxt: Any = {"type": "game_started", "player": None}
        elif self.stage == "round":
            nxt = {"type": "round_started", "player": None}
        elif done:
            nxt = None
        else:
            who = self.mover()
            assert who is not None
            kind = "market_taken" if self.must_pick(who) else "dish_revealed"
            nxt = {"type": kind, "player": who}
        in_service = self.stage in ("turn", "served", "pick")

        def owned(p: str) -> int:
            forced = self.forced is not None and p == self.who and self.stage == "turn"
            return len(self.cards[p]) + self.pile(p) + sum(self.served[p].values()) + forced

        return {
            "status": "finished" if done else "in_progress",
            "players": list(self.players),
            "victory_points": dict(self.vp),
            "rounds": list(self.rounds),
            "ranking": ranking,
            "state": {
                "round": self.round,
                "next": nxt,
                "first_player_marker": self.marker,
                "market": sorted(self.market),
                "market_pile": self.draw,
                "in_round": self.live() if in_service else [],
                "companies": dict(self.company),
                "served": {p: dict(sorted(self.served[p].items())) for p in self.players},
                "pile_sizes": {p: self.pile(p) for p in self.players},
                "dish_cards": {p: owned(p) for p in self.players},
            },
        }


def replay_lines(lines: list[str]) -> dict[str, Any]:
    game = Game()
    for index, line in enumerate(lines):
        try:
            game.event(parse(line))
        except Refused as refused:
            return {"error": {"event": index, "code": refused.code}}
    return game.summary()
