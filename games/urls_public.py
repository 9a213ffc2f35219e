"""Public game pages: the replay viewer."""

from __future__ import annotations

from django.urls import URLPattern, path

from games import views_public as views

app_name = "game"
urlpatterns: list[URLPattern] = [
    path("<uuid:game_id>/", views.replay, name="replay"),
]
