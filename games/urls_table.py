"""Scorekeeper pages: entering a table (filled in by the table-entry views)."""

from __future__ import annotations

from django.urls import URLPattern

app_name = "table"
urlpatterns: list[URLPattern] = []
