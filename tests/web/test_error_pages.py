"""What a visitor sees at a wrong address or when the server fails: the site's own pages, never
Django's debug pages (which list every URL pattern)."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import Client

from tests.web.a11y import assert_accessible

pytestmark = pytest.mark.django_db


def test_a_wrong_address_gets_the_sites_not_found_page(client: Client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page not found" in html and 'href="/"' in html
    assert "URLconf" not in html and "urlpatterns" not in html
    assert_accessible(html, where="/no-such-page/")


def test_a_wrong_api_address_still_answers_json(client: Client) -> None:
    response = client.get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_the_server_error_page_renders_without_a_request() -> None:
    html = render_to_string("500.html")  # Django renders it with no context at all
    assert "Something went wrong" in html and "Traceback" not in html
