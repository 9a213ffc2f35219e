"""Streams and events in the Django admin, read-only: the log is never edited, even by staff."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Event, GameProjection, Stream


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class EventInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Event
    fields = ("version", "type", "data", "metadata", "recorded_at")
    readonly_fields = fields
    ordering = ("version",)
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Stream)
class StreamAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "created_at")
    list_filter = ("kind",)
    search_fields = ("id",)
    inlines = (EventInline,)


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("id", "stream", "version", "type", "recorded_at")
    list_filter = ("type",)
    search_fields = ("stream__id", "type")
    ordering = ("-id",)


@admin.register(GameProjection)
class GameProjectionAdmin(ReadOnlyAdmin):
    list_display = ("stream", "game_type", "status", "version", "published", "updated_at")
    list_filter = ("status", "published", "game_type")
