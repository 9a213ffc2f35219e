"""Public tournament pages: overview, a round's pairings, the standings, a player's games."""

from __future__ import annotations

from django.urls import URLPattern, path, register_converter

from tournaments import shortcodes
from tournaments.public import relay, views


class ShortCode:
    """A tournament's short code in the URL (tournaments.shortcodes), in any case."""

    regex = shortcodes.PATTERN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ShortCode, "shortcode")

app_name = "public"

T = "<uuid:tournament_id>"

urlpatterns: list[URLPattern] = [
    path(f"{T}/", views.tournament, name="tournament"),
    path(f"{T}/round/<int:number>/", views.round_pairings, name="round"),
    path(f"{T}/round/<int:number>/live/", relay.relay_page, name="relay"),
    path(f"{T}/standings/", views.standings, name="standings"),
    path(f"{T}/player/<str:player_id>/", views.player, name="player"),
    path(f"{T}/find/", views.find, name="find"),
    path(f"{T}/clock/", views.clock, name="clock"),
    path(f"{T}/screen/", views.screen, name="screen"),
    # The short address a player types (/t/bcdfg/): to the tournament's page.
    path("<shortcode:code>/", views.short_address, name="short"),
]
