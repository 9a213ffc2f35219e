"""Scorekeeper pages: entering a table (games/table/, docs/scorekeeping.md)."""

from __future__ import annotations

from django.urls import URLPattern, path

from games.tricknchef import table_views

app_name = "table"
urlpatterns: list[URLPattern] = [
    path("<uuid:game_id>/", table_views.enter, name="enter"),
    path("<uuid:game_id>/deal/", table_views.deal, name="deal"),
    path("<uuid:game_id>/pick/", table_views.pick, name="pick"),
    path("<uuid:game_id>/play/", table_views.play, name="play"),
    path("<uuid:game_id>/take/", table_views.take, name="take"),
    path("<uuid:game_id>/undo/", table_views.undo, name="undo"),
    path("<uuid:game_id>/results/", table_views.results, name="results"),
    path("<uuid:game_id>/event/", table_views.event, name="event"),
]
