"""Site-wide guards on responses."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware.locale import LocaleMiddleware as DjangoLocaleMiddleware
from django.utils.cache import add_never_cache_headers, patch_cache_control, patch_vary_headers

logger = logging.getLogger(__name__)


class PersonalNeverPublic:
    """A response marked ``Cache-Control: public`` (a proxy may keep it and give it to anyone:
    the public standings, tournaments/public/) must be the same for everyone. If it goes
    to a logged-in user, or sets a cookie, it is not: made private and unstorable instead. For a
    logged-in user that is a bug (logged as one); a cookie may be ordinary (the session
    middleware deleting an expired session's cookie). Costs nothing on other responses (they
    are not public)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        control = response.get("Cache-Control", "")
        if "public" not in control and "s-maxage" not in control:
            return response
        user = getattr(request, "user", None)
        logged_in = user is not None and user.is_authenticated
        if response.cookies or logged_in:
            if logged_in:
                logger.error("a logged-in user's response was marked public: %s", request.path)
            del response["Cache-Control"]
            add_never_cache_headers(response)
            patch_cache_control(response, private=True)
        return response


class LocaleMiddleware(DjangoLocaleMiddleware):
    """Django's LocaleMiddleware (the language cookie, else Accept-Language, else English), and
    ``Vary: Cookie`` besides its ``Vary: Accept-Language``: the language cookie the chooser sets
    changes every page, so a cache in between must not give one visitor's language to another.
    """

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        response = super().process_response(request, response)
        patch_vary_headers(response, ("Cookie",))
        return response
