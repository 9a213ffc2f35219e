"""The club's public pages (/club/): the club, its leagues' seasons and ratings, the roster,
members' pages and head-to-head, the club's records."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from club.public import views

app_name = "club"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.club, name="club"),
    path("leagues/<int:league_id>/", views.league, name="league"),
    path("leagues/<int:league_id>/ratings/", views.ratings, name="ratings"),
    path("members/", views.members, name="members"),
    path("members/<str:member_id>/", views.member, name="member"),
    path("members/<str:member_id>/vs/", views.versus_choose, name="versus_choose"),
    path("members/<str:member_id>/vs/<str:other_id>/", views.versus, name="versus"),
    path("records/", views.records, name="records"),
]
