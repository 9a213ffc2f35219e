"""Scorekeeper pages: entering a table (games/views_table.py, docs/scorekeeping.md)."""

from __future__ import annotations

from django.urls import URLPattern, path

from games import views_table

app_name = "table"
urlpatterns: list[URLPattern] = [
    path("<uuid:game_id>/", views_table.enter, name="enter"),
    path("<uuid:game_id>/deal/", views_table.deal, name="deal"),
    path("<uuid:game_id>/pick/", views_table.pick, name="pick"),
    path("<uuid:game_id>/play/", views_table.play, name="play"),
    path("<uuid:game_id>/take/", views_table.take, name="take"),
    path("<uuid:game_id>/undo/", views_table.undo, name="undo"),
    path("<uuid:game_id>/results/", views_table.results, name="results"),
]
