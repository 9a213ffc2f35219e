"""The club's consumer of the log: entries, members, ratings (club.services.sync).

Ratings kept step by step as results arrive must equal the ratings rated from scratch from the
log (``club_rebuild``), whatever happened in between: a correction, a merge, a split."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User

from club import ratings, services
from club.models import (
    GameFeat,
    GameStatistic,
    LogPosition,
    Member,
    MemberEntry,
    Rating,
    RatingChange,
)
from club.services import reads, state, sync, writes
from games import services as games
from games.models import GameProjection
from tests.club.helpers import by_seat, kitchen_entry, season_tournament
from tests.tournaments.helpers import new_tournament, play
from tournaments import services as t
from tournaments.models import TournamentTable

pytestmark = pytest.mark.django_db
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]


@pytest.fixture
def organizer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("olga", password="x", is_staff=True)


def stored() -> dict[tuple[str, str], tuple[float, float, int]]:
    return {(r.game_type, r.member_id): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}


def assert_as_rebuilt() -> None:
    """What the consumer kept equals what a rebuild from the whole log makes."""
    checked, differences = services.club_rebuild(fix=False)
    assert checked and differences == []


def member(name: str) -> Member:
    return MemberEntry.objects.filter(name=name).select_related("member").first().member  # type: ignore[union-attr]


def test_a_season_of_two_tournaments_is_rated(organizer: User, on_commit: Any) -> None:
    season_tournament(organizer, NAMES, on_commit=on_commit, no_shows=("Zed",))
    services.club_sync()
    after_one = stored()
    season_tournament(organizer, [n.lower() for n in NAMES], on_commit=on_commit, date="2026-12-08")
    services.club_sync()
    # The same name in another case is the same member; the no-show is a member, placeless.
    assert Member.objects.count() == 9
    assert MemberEntry.objects.get(name="Zed").place is None
    assert member("Ana") == member("ana")
    assert Rating.objects.filter(game_type="trick-n-chef").count() == 8
    assert RatingChange.objects.count() == 2 * 2 * 2 * 4  # tournaments x rounds x tables x seats
    assert Rating.objects.get(member=member("Ana")).games == 4
    assert stored() != after_one
    assert not services.club_sync().events  # nothing new: nothing handled twice
    writes.league_create(name="Autumn", rules={}, user=organizer)
    # The pages' one-query version is the club stream's and the consumer's, as they read them.
    assert reads.version() == (state.club_key(), sync.generation()) != ((0, 0), (0, 0, 0))
    assert_as_rebuilt()


def test_ratings_follow_openskill_in_the_order_results_were_recorded(
    organizer: User, on_commit: Any
) -> None:
    season_tournament(organizer, NAMES[:4], on_commit=on_commit, rounds=2)
    services.club_sync()
    model = ratings.MODEL
    people = {n: model.rating() for n in NAMES[:4]}
    for change in RatingChange.objects.order_by("seq").values("seq").distinct():
        game = RatingChange.objects.filter(seq=change["seq"]).order_by("place")
        names = [c.member.name for c in game]
        new = model.rate([[people[n]] for n in names], ranks=[c.place for c in game])
        people.update({n: r[0] for n, r in zip(names, new, strict=True)})
    for name, expected in people.items():
        got = Rating.objects.get(member=member(name))
        assert (got.mu, got.sigma) == pytest.approx((expected.mu, expected.sigma), abs=1e-12)


def correct_first_game(organizer: User, tid: uuid.UUID, on_commit: Any) -> uuid.UUID:
    """Round 1, table 1's results entered again, in the reverse order (a correction)."""
    game_id = TournamentTable.objects.get(tournament_id=tid, round=1, number=1).game_id
    game = GameProjection.objects.get(stream_id=game_id)
    names = list(game.players)
    with on_commit(execute=True):
        games.game_correct_results(
            game_id=game_id,
            expected_version=game.version,
            entry=by_seat(names[::-1]),
            reason="the sheet was read upside down",
            user=organizer,
        )
    return game_id


def test_a_correction_re_rates(organizer: User, on_commit: Any) -> None:
    tid = season_tournament(organizer, NAMES, on_commit=on_commit)
    services.club_sync()
    before = stored()
    game_id = correct_first_game(organizer, tid, on_commit)
    report = services.club_sync()
    assert "trick-n-chef" in report.rerated or report.events == 0  # the nudge may have run it
    places = dict(RatingChange.objects.filter(game_id=game_id).values_list("member__name", "place"))
    players = GameProjection.objects.get(stream_id=game_id).players
    assert places == {name: 4 - i for i, name in enumerate(players)}  # now last seat won
    assert stored() != before
    assert_as_rebuilt()


def test_a_merge_and_a_split_re_rate_from_the_log(organizer: User, on_commit: Any) -> None:
    season_tournament(organizer, NAMES, on_commit=on_commit)
    renamed = ["Olga Petrova" if n == "Ana" else n for n in NAMES]
    season_tournament(organizer, renamed, on_commit=on_commit, date="2026-12-08")
    services.club_sync()
    ana, olga = member("Ana"), member("Olga Petrova")
    assert ana != olga
    writes.member_merge(member=olga.id, into=ana.id, user=organizer)
    services.club_sync()
    assert member("Olga Petrova") == ana
    assert Rating.objects.get(member=ana).games == 4
    assert Member.objects.get(id=olga.id).merged_into == ana.id
    assert_as_rebuilt()

    entry = MemberEntry.objects.get(name="Olga Petrova")
    writes.member_split(tournament=entry.tournament_id, player=entry.player, user=organizer)
    services.club_sync()
    split = member("Olga Petrova")
    assert split not in (ana, olga)
    assert Rating.objects.get(member=ana).games == 2
    assert Rating.objects.get(member=split).games == 2
    assert_as_rebuilt()


def test_a_consumer_killed_half_way_leaves_its_position(
    organizer: User, on_commit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    season_tournament(organizer, NAMES, on_commit=on_commit)
    services.club_sync()
    before = LogPosition.objects.get(name=sync.NAME)
    changes = RatingChange.objects.count()

    def killed(*args: Any) -> None:
        raise RuntimeError("killed")

    monkeypatch.setattr(sync, "_statistics", killed)  # dies after rating, before its commit
    season_tournament(organizer, NAMES, on_commit=on_commit, date="2026-12-08")
    with pytest.raises(RuntimeError):
        sync.club_sync()
    after = LogPosition.objects.get(name=sync.NAME)
    assert (after.tx, after.event) == (before.tx, before.event)
    assert RatingChange.objects.count() == changes  # what it rated was rolled back with it
    monkeypatch.undo()
    services.club_sync()
    assert RatingChange.objects.count() == 2 * changes
    assert_as_rebuilt()


def test_team_members_are_rated_as_teams(organizer: User, on_commit: Any) -> None:
    tid = season_tournament(
        organizer,
        ["Reds", "Blues"],
        on_commit=on_commit,
        rounds=1,
        game_type="crazy-kitchen",
        entry=kitchen_entry,
    )
    services.club_sync()
    entries = MemberEntry.objects.filter(tournament_id=tid)
    assert sorted(e.name for e in entries) == ["Blues 1", "Blues 2", "Reds 1", "Reds 2"]
    assert {e.team for e in entries} == {"Reds", "Blues"}
    changes = RatingChange.objects.filter(tournament_id=tid)
    assert changes.count() == 4
    by_team: dict[str, set[int]] = {}
    for c in changes.select_related("member"):
        by_team.setdefault(c.member.name.split()[0], set()).add(c.place)
    assert all(len(places) == 1 for places in by_team.values())  # a team shares its place
    assert_as_rebuilt()


def test_games_entered_play_by_play_give_their_statistics(organizer: User, on_commit: Any) -> None:
    tid = new_tournament(organizer, names=NAMES[:4], rounds=1, confirmation="auto")
    t.tournament_pair(tournament_id=tid, user=organizer)
    t.tournament_publish(tournament_id=tid, round=1, user=organizer)
    play(tid, 1, 1, organizer, on_commit, seed=5)
    t.tournament_sync_pending()  # the result reaches the tournament
    services.club_sync()
    game_id = TournamentTable.objects.get(tournament_id=tid, round=1, number=1).game_id
    stats = GameStatistic.objects.filter(game_id=game_id)
    tricks = dict(stats.filter(code="tnc.tricks_won").values_list("entry__name", "value"))
    summary = GameProjection.objects.get(stream_id=game_id).summary
    assert set(tricks) == set(NAMES[:4])
    assert sum(tricks.values()) == 3 * 10  # every trick of the three deals is someone's
    assert set(stats.filter(code="tnc.tricks_won").values_list("sample", flat=True)) == {3}
    best = GameFeat.objects.filter(game_id=game_id, code="tnc.best_game_total").order_by("-value")
    assert best[0].value == max(summary["totals"].values())

    correct_first_game_play(organizer, game_id, on_commit)
    services.club_sync()
    assert not GameStatistic.objects.filter(game_id=game_id).exists()  # withdrawn with its result


def correct_first_game_play(organizer: User, game_id: uuid.UUID, on_commit: Any) -> None:
    game = GameProjection.objects.get(stream_id=game_id)
    with on_commit(execute=True):
        games.game_correct(
            game_id=game_id, expected_version=game.version, retract=1, user=organizer
        )
    t.tournament_sync_pending()
