"""The club's API URLs, below /api/ (config/urls.py; docs/api.md, "The club")."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from club.api import views

app_name = "club-api"

L = "leagues/<int:league_id>"
M = "members/<str:member_id>"

urlpatterns: list[URLPattern | URLResolver] = [
    path("leagues/", views.LeagueListView.as_view(), name="leagues"),
    path(f"{L}/", views.LeagueDetailView.as_view(), name="league"),
    path(f"{L}/standings/", views.StandingsView.as_view(), name="standings"),
    path(f"{L}/standings.csv", views.StandingsCsvView.as_view(), name="standings-csv"),
    path(f"{L}/ratings/", views.LeagueRatingsView.as_view(), name="ratings"),
    path(f"{L}/tournaments/", views.LeagueTournamentsView.as_view(), name="league-tournaments"),
    path(
        f"{L}/tournaments/<uuid:tournament>/",
        views.LeagueTournamentView.as_view(),
        name="league-tournament",
    ),
    path(f"{L}/divisions/", views.LeagueDivisionsView.as_view(), name="league-divisions"),
    # Before the member's own address: "merge" and "split" are no member's id.
    path("members/merge/", views.MemberMergeView.as_view(), name="member-merge"),
    path("members/split/", views.MemberSplitView.as_view(), name="member-split"),
    path(f"{M}/", views.MemberDetailView.as_view(), name="member"),
    path(f"{M}/head-to-head/<str:other>/", views.HeadToHeadView.as_view(), name="head-to-head"),
    path("club/results/", views.ResultsView.as_view(), name="results"),
    path("club/results.jsonl", views.ResultsJsonlView.as_view(), name="results-jsonl"),
    path("club/records/", views.RecordsView.as_view(), name="records"),
]
