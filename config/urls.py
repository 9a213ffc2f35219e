from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config import views
from config.health import health

urlpatterns = [
    path("", views.home, name="home"),
    path("health/", health, name="health"),
    # The language chooser (templates/_language.html): a GET form, so that pages rendered once
    # for everyone can carry it; it keeps the choice in the language cookie.
    path("i18n/choose/", views.choose_language, name="choose_language"),
    # Django's set_language (a POST with a CSRF token), for forms that prefer it.
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Pages, by audience: the public, organizers, scorekeepers at a table.
    path("t/", include("tournaments.urls_public")),
    path("g/", include("games.urls_public")),
    path("club/", include("club.urls_public")),
    path("desk/club/", include("club.desk.urls")),
    path("desk/", include("tournaments.desk.urls")),
    path("table/", include("games.urls_table")),
    # A seat's phone: /seat/<token>/ (a seat link) and /table/<game>/seat/<n>/ (an official).
    path("", include("games.phone.urls")),
    path("admin/", admin.site.urls),
    path("api/tournaments/", include("tournaments.api.urls")),
    path("api/", include("club.api.urls")),
    path("api/", include("games.api.urls")),
]

# JSON errors below /api/ (an unknown URL, a bug); HTML pages elsewhere.
handler404 = "games.api.errors.not_found"
handler500 = "games.api.errors.server_error"
