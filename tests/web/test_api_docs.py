"""The API's OpenAPI schema and its Swagger UI, served from our own static files (no CDN)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import RequestFactory
from rest_framework.test import APIClient

from games.api import errors


def test_the_schema_is_valid_openapi_without_warnings(tmp_path: Path) -> None:
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = out.read_text()
    assert schema.startswith("openapi: 3.")
    for path in (
        "/api/auth/token/",
        "/api/games/",
        "/api/games/import/",
        "/api/games/{game_id}/",
        "/api/games/{game_id}/events/",
        "/api/games/{game_id}/corrections/",
        "/api/games/{game_id}/void/",
        "/api/games/{game_id}/publish/",
        "/api/games/{game_id}/results/",
        "/api/games/{game_id}/record/",
        "/api/events/",
    ):
        assert f"  {path}:\n" in schema, path


def test_the_schema_endpoint_answers() -> None:
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert "/api/games/{game_id}/events/" in schema["paths"]
    assert set(schema["components"]["securitySchemes"]) == {"tokenAuth", "cookieAuth"}
    append = schema["paths"]["/api/games/{game_id}/events/"]["post"]
    assert {"201", "400", "401", "403", "404", "409", "422"} <= set(append["responses"])


def test_the_docs_page_uses_only_local_static_files() -> None:
    response = APIClient().get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert not re.search(r"https?://", html), "the docs page must not load anything from a CDN"
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert assets
    for url in assets:
        assert url.startswith("/static/drf_spectacular_sidecar/"), url
        assert finders.find(url.removeprefix("/static/")), f"{url} is not in our static files"
    assert "/api/schema/" in html


def test_the_swagger_ui_bundle_itself_is_served_locally() -> None:
    path = finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    assert path is not None and Path(str(path)).stat().st_size > 100_000


def test_server_errors_below_api_are_json() -> None:
    request = RequestFactory().get("/api/games/")
    response = errors.server_error(request)
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert b'"code": "server_error"' in response.content


@pytest.mark.django_db
def test_pages_outside_the_api_keep_their_html_errors() -> None:
    response = APIClient().get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
