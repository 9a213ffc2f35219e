"""The organizer desk: /desk/ (docs/tournaments.md, "The organizer desk")."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournaments.desk.views import (
    clock,
    dashboard,
    delay,
    history,
    players,
    printing,
    round,
    seats,
    settings,
)

app_name = "desk"

_T = "<uuid:tournament_id>/"
_ROUND = _T + "round/<int:round>/"
_TABLE = _ROUND + "table/<int:table>/"

urlpatterns: list[URLPattern] = [
    path("", dashboard.home, name="home"),
    path("new/", dashboard.create, name="create"),
    path(_T, dashboard.dashboard, name="dashboard"),
    path(_T + "round/", dashboard.round_panel, name="round_panel"),
    path(_T + "players/", players.register, name="register"),
    path(_T + "players/add/", players.add_player, name="add_player"),
    path(_T + "players/team/", players.add_team, name="add_team"),
    path(_T + "players/<str:player>/check-in/", players.check_in, name="check_in"),
    path(_T + "players/<str:player>/drop/", players.drop, name="drop"),
    path(_T + "players/<str:player>/reinstate/", players.reinstate, name="reinstate"),
    path(_T + "roles/", settings.grant_role, name="grant_role"),
    path(_T + "roles/revoke/", settings.revoke_role, name="revoke_role"),
    path(_T + "pair/", round.pair, name="pair"),
    path(_ROUND + "swap/", round.swap, name="swap"),
    path(_ROUND + "undo-pairing/", round.undo_pairing, name="undo_pairing"),
    path(_ROUND + "undo-swap/", round.undo_swap, name="undo_swap"),
    path(_ROUND + "publish/", round.publish, name="publish"),
    path(_ROUND + "table/<int:table>/confirm/", round.confirm, name="confirm"),
    path(_ROUND + "confirm-finished/", round.confirm_finished, name="confirm_finished"),
    path(_ROUND + "close/", round.close_round, name="close"),
    path(_ROUND + "clock/", clock.set_clock, name="clock"),
    path(_ROUND + "delay/", delay.set_delay, name="delay"),
    path(_ROUND + "pairings/print/", printing.print_pairings, name="print_pairings"),
    path(_ROUND + "sheets/print/", printing.print_sheets, name="print_sheets"),
    path(_T + "qr/<uuid:game>.svg", printing.qr, name="qr"),
    path(_ROUND + "seats/", seats.round_seats, name="round_seats"),
    path(_TABLE + "seats/", seats.table_seats, name="table_seats"),
    path(_TABLE + "seats/print/", seats.print_seat_links, name="print_seat_links"),
    path(_TABLE + "seats/<int:seat>/<str:action>/", seats.seat_action, name="seat_action"),
    path(_T + "settings/", settings.public_settings, name="settings"),
    path(_T + "schedule/", settings.schedule, name="schedule"),
    path(_T + "finish/", round.finish, name="finish"),
    path(_T + "history/", history.history, name="history"),
    path(_T + "history/undo/", history.undo, name="undo"),
]
