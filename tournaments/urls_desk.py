"""The organizer desk (filled in by its views)."""

from __future__ import annotations

from django.urls import URLPattern, path
from django.views.generic import RedirectView

app_name = "desk"
urlpatterns: list[URLPattern] = [
    # Replaced by the desk's own home view.
    path("", RedirectView.as_view(pattern_name="home"), name="home"),
]
