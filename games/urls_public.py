"""Public game pages: the replay viewer (filled in by its views)."""

from __future__ import annotations

from django.urls import URLPattern

app_name = "game"
urlpatterns: list[URLPattern] = []
