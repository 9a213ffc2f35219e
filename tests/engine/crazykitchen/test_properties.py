"""Random whole Crazy Kitchen games, checked against invariants after every round (docs/
crazykitchen-rules.md): the teams swap cooks every round, a round scores its orders less its
penalties but never below 0, the totals are the rounds' scores plus the smaller team's
compensation, the upgrades after rounds 2 and 4 go to the team behind over those two rounds,
each up to the other's points, and the ranking follows the totals (equal totals: a draw).
Hypothesis draws the teams and every round's orders, so a failure shrinks to a short game."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.crazykitchen.events import GameStarted, RoundScored, Team
from engine.crazykitchen.replay import step
from engine.crazykitchen.rules import ROUNDS
from engine.crazykitchen.state import KitchenState
from engine.crazykitchen.summary import summarize


@st.composite
def teams(draw: st.DrawFn) -> tuple[Team, Team]:
    first = draw(st.integers(2, 6))
    second = draw(st.integers(max(2, first - 1), min(6, first + 1)))  # CK1: at most one apart
    return (
        Team("Pizza", tuple(f"p{i}" for i in range(first))),
        Team("Fries", tuple(f"f{i}" for i in range(second))),
    )


ORDERS = st.lists(st.integers(1, 6), max_size=4)
PENALTIES = st.lists(st.integers(1, 4), max_size=3)


@given(teams(), st.booleans(), st.lists(st.tuples(ORDERS, PENALTIES), min_size=6, max_size=6))
def test_random_games_keep_the_invariants(
    pair: tuple[Team, Team], pizza_first: bool, rounds: list[tuple[list[int], list[int]]]
) -> None:
    first, second = (pair[0].name, pair[1].name) if pizza_first else (pair[1].name, pair[0].name)
    state = KitchenState()
    step(state, GameStarted(pair, first, None))
    sizes = {t.name: len(t.players) for t in pair}
    smaller = min(sizes, key=sizes.__getitem__) if len(set(sizes.values())) == 2 else None
    scored = {t.name: 0 for t in pair}
    by_round: list[tuple[str, int]] = []
    for number, (fulfilled, penalties) in enumerate(rounds, start=1):
        cooks = first if number % 2 else second  # CK2.1: the teams swap every round
        score = max(0, sum(fulfilled) - sum(penalties))  # CK3.2
        step(state, RoundScored(number, cooks, tuple(fulfilled), tuple(penalties), score))
        scored[cooks] += score
        by_round.append((cooks, score))
        summary = summarize(state)
        assert summary["points"] == scored
        for upgrade in summary["upgrades"]:  # CK4: after rounds 2 and 4
            after = upgrade["after_round"]
            assert after in (2, 4) and after <= number
            two = {t.name: 0 for t in pair}
            for team, points in by_round[after - 2 : after]:
                two[team] += points
            assert upgrade["points"] == two
            behind, ahead = upgrade["order"]
            assert two[behind] <= two[ahead]
            if two[behind] == two[ahead]:
                assert behind == first  # equal: the team that cooked first
            assert upgrade["limits"] == {behind: two[ahead], ahead: two[behind]}
        assert len(summary["upgrades"]) == sum(1 for after in (2, 4) if number >= after)
    summary = summarize(state)
    assert summary["status"] == "finished" and len(rounds) == ROUNDS
    bonus = 15 if smaller is not None else 0  # CK1.4: an odd number of players
    totals = {team: points + (bonus if team == smaller else 0) for team, points in scored.items()}
    assert summary["totals"] == totals
    ranks = {entry["team"]: entry["rank"] for entry in summary["ranking"]}
    a, b = pair[0].name, pair[1].name
    if totals[a] == totals[b]:
        assert ranks == {a: 1, b: 1} and summary["result"] == "draw"
    else:
        winner = a if totals[a] > totals[b] else b
        assert ranks[winner] == 1 and ranks[b if winner == a else a] == 2
