from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.django_db  # the home page lists the tournaments
def test_home_page_says_what_the_project_is(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="en" dir="ltr">' in html
    assert "<h1>Trick-n-Chef</h1>" in html
    assert "tournament manager" in html
    assert "htmx" in html  # the htmx script is loaded by base.html


def test_admin_asks_for_a_login(client: Client) -> None:
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
