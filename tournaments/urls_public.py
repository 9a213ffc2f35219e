"""Public tournament pages (filled in by their views)."""

from __future__ import annotations

from django.urls import URLPattern

app_name = "public"
urlpatterns: list[URLPattern] = []
