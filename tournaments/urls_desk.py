"""The organizer desk: /desk/ (docs/tournaments.md, "The organizer desk")."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournaments import views_desk as views

app_name = "desk"

_T = "<uuid:tournament_id>/"
_ROUND = _T + "round/<int:round>/"

urlpatterns: list[URLPattern] = [
    path("", views.home, name="home"),
    path("new/", views.create, name="create"),
    path(_T, views.dashboard, name="dashboard"),
    path(_T + "round/", views.round_panel, name="round_panel"),
    path(_T + "players/", views.register, name="register"),
    path(_T + "players/add/", views.add_player, name="add_player"),
    path(_T + "players/<str:player>/check-in/", views.check_in, name="check_in"),
    path(_T + "players/<str:player>/drop/", views.drop, name="drop"),
    path(_T + "players/<str:player>/reinstate/", views.reinstate, name="reinstate"),
    path(_T + "roles/", views.grant_role, name="grant_role"),
    path(_T + "roles/revoke/", views.revoke_role, name="revoke_role"),
    path(_T + "pair/", views.pair, name="pair"),
    path(_ROUND + "swap/", views.swap, name="swap"),
    path(_ROUND + "undo-pairing/", views.undo_pairing, name="undo_pairing"),
    path(_ROUND + "undo-swap/", views.undo_swap, name="undo_swap"),
    path(_ROUND + "publish/", views.publish, name="publish"),
    path(_ROUND + "table/<int:table>/confirm/", views.confirm, name="confirm"),
    path(_ROUND + "close/", views.close_round, name="close"),
    path(_ROUND + "pairings/print/", views.print_pairings, name="print_pairings"),
    path(_ROUND + "sheets/print/", views.print_sheets, name="print_sheets"),
    path(_T + "qr/<uuid:game>.svg", views.qr, name="qr"),
    path(_T + "settings/", views.public_settings, name="settings"),
    path(_T + "schedule/", views.schedule, name="schedule"),
    path(_T + "finish/", views.finish, name="finish"),
    path(_T + "history/", views.history, name="history"),
    path(_T + "history/undo/", views.undo, name="undo"),
]
