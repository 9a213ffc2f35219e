"""The tournaments API's URLs, below /api/tournaments/ (config/urls.py)."""

from __future__ import annotations

from django.urls import path

from tournaments.api import relay, views

app_name = "tournaments-api"

T = "<uuid:tournament_id>"
ROUND = f"{T}/rounds/<int:round>"

urlpatterns = [
    path("", views.TournamentListView.as_view(), name="tournaments"),
    path(f"{T}/", views.TournamentDetailView.as_view(), name="tournament"),
    path(f"{T}/settings/", views.TournamentSettingsView.as_view(), name="settings"),
    path(f"{T}/players/", views.PlayersView.as_view(), name="players"),
    path(f"{T}/players/<str:player>/check-in/", views.CheckInView.as_view(), name="check-in"),
    path(f"{T}/players/<str:player>/check-out/", views.CheckOutView.as_view(), name="check-out"),
    path(f"{T}/players/<str:player>/drop/", views.DropView.as_view(), name="drop"),
    path(f"{T}/players/<str:player>/reinstate/", views.ReinstateView.as_view(), name="reinstate"),
    path(f"{T}/roles/", views.RolesView.as_view(), name="roles"),
    path(f"{T}/rounds/", views.RoundsView.as_view(), name="rounds"),
    path(f"{ROUND}/swap/", views.SwapView.as_view(), name="swap"),
    path(f"{ROUND}/publish/", views.PublishView.as_view(), name="publish"),
    path(f"{ROUND}/schedule/", views.ScheduleView.as_view(), name="schedule"),
    path(f"{ROUND}/clock/", views.ClockView.as_view(), name="clock"),
    path(f"{ROUND}/delay/", views.DelayView.as_view(), name="delay"),
    path(f"{ROUND}/close/", views.CloseView.as_view(), name="close"),
    path(f"{ROUND}/relay.jsonl", relay.RelayStreamView.as_view(), name="relay-stream"),
    path(f"{ROUND}/tables/<int:table>/confirm/", views.ConfirmView.as_view(), name="confirm"),
    path(f"{T}/finish/", views.FinishView.as_view(), name="finish"),
    path(f"{T}/undo/", views.UndoView.as_view(), name="undo"),
    path(f"{T}/history/", views.HistoryView.as_view(), name="history"),
    path(f"{T}/standings/", views.StandingsView.as_view(), name="standings"),
    path(f"{T}/standings.csv", views.StandingsCsvView.as_view(), name="standings-csv"),
    path(f"{T}/results.csv", views.ResultsCsvView.as_view(), name="results-csv"),
    path(f"{T}/results.jsonl", views.ResultsJsonlView.as_view(), name="results-jsonl"),
    path(f"{T}/games.zip", views.GamesZipView.as_view(), name="games-zip"),
]
