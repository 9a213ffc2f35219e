"""``python -m engine``: replay (check and score) records, simulate games, benchmark.

python -m engine replay FILE [FILE ...]     (FILE may be - for standard input)
python -m engine simulate --seed N --players 3|4 [--events K] [--game KEY]

A record's first line names its game (engine.registry); without a name it is Trick-n-Chef.
python -m engine bench [--games N] [--repeat R]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from engine.errors import BadEvent, InvalidRecord
from engine.registry import DEFAULT, RULES, replay_data


def replay_file(path: str) -> dict[str, Any]:
    """The replay result for one file: the summary, or ``{"error": {...}}``."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        error = InvalidRecord(None, BadEvent("unreadable", f"cannot read {path}: {exc.strerror}"))
        return {"error": error.as_dict()}
    try:
        return replay_data(data)
    except InvalidRecord as error:
        return {"error": error.as_dict()}


def _replay(args: argparse.Namespace) -> int:
    several = len(args.files) > 1
    status = 0
    for path in args.files:
        result = replay_file(path)
        if "error" in result:
            status = 1
        if several:
            result = {"file": path, **result}
        print(json.dumps(result), flush=True)
    return status


def _simulate(args: argparse.Namespace) -> int:
    events = RULES[args.game].simulate(args.seed, args.players)
    if args.events is not None:
        events = events[: args.events]
    lines = (json.dumps(e, separators=(",", ":"), ensure_ascii=False) + "\n" for e in events)
    sys.stdout.write("".join(lines))
    return 0


def _bench(args: argparse.Namespace) -> int:
    RULES[args.game].bench(games=args.games, repeat=args.repeat, players=args.players)  # type: ignore[attr-defined]
    return 0


BENCHED = sorted(key for key, rules in RULES.items() if hasattr(rules, "bench"))
"""The games whose rules carry a replay benchmark (a ``bench`` method: Trick-n-Chef's)."""


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
    commands = top.add_subparsers(dest="command", required=True)

    rp = commands.add_parser("replay", help="check records and print their scores and state")
    rp.add_argument("files", nargs="+", metavar="FILE", help="a .jsonl record, or - for stdin")
    rp.set_defaults(run=_replay)

    sim = commands.add_parser("simulate", help="write a random legal record")
    sim.add_argument("--seed", type=int, required=True)
    sim.add_argument("--players", type=int, required=True)
    sim.add_argument("--game", choices=sorted(RULES), default=DEFAULT)
    sim.add_argument("--events", type=_non_negative, help="stop after this many events")
    sim.set_defaults(run=_simulate)

    bench = commands.add_parser("bench", help="measure replay speed (prints figures)")
    bench.add_argument("--games", type=int, default=1000)
    bench.add_argument("--repeat", type=int, default=5)
    bench.add_argument("--players", type=int, default=4)
    bench.add_argument("--game", choices=BENCHED, default=DEFAULT)
    bench.set_defaults(run=_bench)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    top = parser()
    args = top.parse_args(argv)
    if args.command in ("simulate", "bench") and args.players not in (
        sizes := RULES[args.game].players
    ):
        top.error(
            f"argument --players: {RULES[args.game].name} is played by "
            + ", ".join(str(n) for n in sizes)
            + " players"
        )
    code: int = args.run(args)
    return code
