"""Session authentication whose CSRF failure has its own error code (``csrf_failed``)."""

from __future__ import annotations

from rest_framework import authentication, exceptions
from rest_framework.request import Request

from games.api.exceptions import CsrfFailed


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's session authentication: writes of a logged-in browser need the CSRF token."""

    def enforce_csrf(self, request: Request) -> None:
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied as denied:
            raise CsrfFailed(
                f"{denied.detail} (a browser session must send the CSRF token in the "
                "X-CSRFToken header; API clients should use a token instead)"
            ) from None
