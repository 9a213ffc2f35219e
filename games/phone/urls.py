"""A seat's phone page (games/phone/): the seat link under /seat/, and the officials' view of any
seat under /table/<game>/seat/<n>/ (both in the namespace "seat"). A tap posts to one of the
game's panel's actions, ``<page>/<action>/`` (Trick-n-Chef's ``hand/``, ``first/``, ``act/``)."""

from __future__ import annotations

from django.urls import URLPattern, path

from games.phone import views

app_name = "seat"
urlpatterns: list[URLPattern] = [
    path("seat/<str:token>/", views.page, name="page"),
    path("seat/<str:token>/state/", views.state, name="state"),
    path("seat/<str:token>/undo/", views.undo, name="undo"),
    path("seat/<str:token>/undo/ask/", views.undo_ask, name="undo_ask"),
    path("seat/<str:token>/undo/answer/", views.undo_answer, name="undo_answer"),
    path("seat/<str:token>/<slug:name>/", views.action, name="action"),
    path("table/<uuid:game_id>/undo/answer/", views.official_answer, name="official_answer"),
    path("table/<uuid:game_id>/seat/<int:seat>/", views.official, name="official"),
    path(
        "table/<uuid:game_id>/seat/<int:seat>/state/", views.official_state, name="official_state"
    ),
    path(
        "table/<uuid:game_id>/seat/<int:seat>/<slug:name>/",
        views.official_action,
        name="official_action",
    ),
]
