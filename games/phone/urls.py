"""A seat's phone page (games/phone/): the seat link under /seat/, and the officials' view of any
seat under /table/<game>/seat/<n>/ (both in the namespace "seat")."""

from __future__ import annotations

from django.urls import URLPattern, path

from games.phone import views

app_name = "seat"
urlpatterns: list[URLPattern] = [
    path("seat/<str:token>/", views.page, name="page"),
    path("seat/<str:token>/state/", views.state, name="state"),
    path("seat/<str:token>/hand/", views.hand, name="hand"),
    path("seat/<str:token>/first/", views.first, name="first"),
    path("seat/<str:token>/act/", views.act, name="act"),
    path("seat/<str:token>/undo/", views.undo, name="undo"),
    path("seat/<str:token>/undo/ask/", views.undo_ask, name="undo_ask"),
    path("seat/<str:token>/undo/answer/", views.undo_answer, name="undo_answer"),
    path("table/<uuid:game_id>/undo/answer/", views.official_answer, name="official_answer"),
    path("table/<uuid:game_id>/seat/<int:seat>/", views.official, name="official"),
    path(
        "table/<uuid:game_id>/seat/<int:seat>/state/", views.official_state, name="official_state"
    ),
    path("table/<uuid:game_id>/seat/<int:seat>/hand/", views.official_hand, name="official_hand"),
    path(
        "table/<uuid:game_id>/seat/<int:seat>/first/", views.official_first, name="official_first"
    ),
    path("table/<uuid:game_id>/seat/<int:seat>/act/", views.official_act, name="official_act"),
]
