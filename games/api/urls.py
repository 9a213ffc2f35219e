"""The API's URLs, below /api/ (config/urls.py)."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games.api import views

app_name = "api"

urlpatterns = [
    path("auth/token/", views.ObtainAuthTokenView.as_view(), name="auth-token"),
    path("games/", views.GameListView.as_view(), name="games"),
    path("games/import/", views.GameImportView.as_view(), name="game-import"),
    path("games/<uuid:game_id>/", views.GameDetailView.as_view(), name="game"),
    path("games/<uuid:game_id>/events/", views.GameEventsView.as_view(), name="game-events"),
    path(
        "games/<uuid:game_id>/corrections/",
        views.GameCorrectionView.as_view(),
        name="game-corrections",
    ),
    path("games/<uuid:game_id>/void/", views.GameVoidView.as_view(), name="game-void"),
    path("games/<uuid:game_id>/publish/", views.GamePublishView.as_view(), name="game-publish"),
    path("games/<uuid:game_id>/results/", views.GameResultsView.as_view(), name="game-results"),
    path("games/<uuid:game_id>/record/", views.GameRecordView.as_view(), name="game-record"),
    path("events/", views.LogView.as_view(), name="events"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
]
