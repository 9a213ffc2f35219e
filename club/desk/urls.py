"""The club desk: /desk/club/ (club.desk.views), for the club's officials (staff users)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from club.desk import views

app_name = "club_desk"

_LEAGUE = "leagues/<int:league_id>/"
_MEMBER = "members/<str:member_id>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
    path("leagues/new/", views.league_create, name="league_create"),
    path(_LEAGUE, views.league, name="league"),
    path(_LEAGUE + "change/", views.league_change, name="league_change"),
    path(_LEAGUE + "link/", views.league_link, name="league_link"),
    path(_LEAGUE + "unlink/", views.league_unlink, name="league_unlink"),
    path(_LEAGUE + "division/", views.league_division, name="league_division"),
    path(_MEMBER, views.member, name="member"),
    path(_MEMBER + "name/", views.member_name, name="member_name"),
    path(_MEMBER + "hide/", views.member_hide, name="member_hide"),
    path(_MEMBER + "merge/", views.member_merge, name="member_merge"),
    path(_MEMBER + "split/", views.member_split, name="member_split"),
]
