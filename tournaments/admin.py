"""Tournaments in the admin, read-only: they change only through their events."""

from __future__ import annotations

from django.contrib import admin

from games.admin import ReadOnlyAdmin
from tournaments.models import TournamentProjection, TournamentRole, TournamentTable


@admin.register(TournamentProjection)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "date", "status", "current_round", "rounds_planned", "version")
    list_filter = ("status",)
    search_fields = ("name",)


@admin.register(TournamentRole)
class TournamentRoleAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "user", "role")
    list_filter = ("role",)


@admin.register(TournamentTable)
class TournamentTableAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "round", "number", "game")
