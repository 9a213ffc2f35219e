"""Public tournament pages: overview, a round's pairings, the standings, a player's games."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournaments.public import views

app_name = "public"

T = "<uuid:tournament_id>"

urlpatterns: list[URLPattern] = [
    path(f"{T}/", views.tournament, name="tournament"),
    path(f"{T}/round/<int:number>/", views.round_pairings, name="round"),
    path(f"{T}/standings/", views.standings, name="standings"),
    path(f"{T}/player/<str:player_id>/", views.player, name="player"),
    path(f"{T}/find/", views.find, name="find"),
    path(f"{T}/clock/", views.clock, name="clock"),
    path(f"{T}/screen/", views.screen, name="screen"),
]
