from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from config import views

urlpatterns = [
    path("", views.home, name="home"),
    path("admin/", admin.site.urls),
    path("api/tournaments/", include("tournaments.api.urls")),
    path("api/", include("games.api.urls")),
]

# JSON errors below /api/ (an unknown URL, a bug); HTML pages elsewhere.
handler404 = "games.api.errors.not_found"
handler500 = "games.api.errors.server_error"
