"""Scorekeeper pages: entering a table (games/table/, docs/scorekeeping.md). The addresses every
game's table page has, then those a game's pages give for their own entries (games.pages)."""

from __future__ import annotations

from django.urls import URLPattern, path

from games.pages import table_urls
from games.table import views as table_views

app_name = "table"
urlpatterns: list[URLPattern] = [
    path("<uuid:game_id>/", table_views.enter, name="enter"),
    path("<uuid:game_id>/undo/", table_views.undo, name="undo"),
    path("<uuid:game_id>/results/", table_views.results, name="results"),
    path("<uuid:game_id>/event/", table_views.event, name="event"),
    *table_urls(),
]
