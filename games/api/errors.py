"""One shape for every API error: ``{"error": {"code": "<stable code>", "message": "...", ...}}``.

:func:`exception_handler` is DRF's ``EXCEPTION_HANDLER``: it maps the services' refusals
(:class:`games.services.GameError`) to their HTTP statuses and rewrites DRF's own errors
(parse, validation, authentication, permission, 404, 405, 406, 415, throttling) into the same
shape. :func:`not_found` and :func:`server_error` are the project's ``handler404`` and
``handler500``: below ``/api/`` they answer in JSON too (an unknown URL, a game id that is not a
UUID, a bug), elsewhere they leave the HTML pages to Django.

Codes are stable; messages may be reworded. docs/api.md lists them.
"""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from games import services
from games.api.exceptions import TooLarge
from games.api.parsers import body_too_large_message
from games.refusals import refusal_message

API_PREFIX = "/api/"

GAME_ERROR_STATUS: tuple[tuple[type[services.GameError], int], ...] = (
    (services.GameNotFound, status.HTTP_404_NOT_FOUND),
    (services.NotAllowed, status.HTTP_403_FORBIDDEN),
    (services.Conflict, status.HTTP_409_CONFLICT),
    (services.KeyReused, status.HTTP_422_UNPROCESSABLE_ENTITY),
    (services.Refused, status.HTTP_422_UNPROCESSABLE_ENTITY),
)
"""The services' refusals, most specific first; any other GameError is a 422."""

DRF_CODES = {
    "invalid": "bad_request",  # ValidationError
    "parse_error": "bad_request",  # a form or multipart body DRF could not read
    "permission_denied": "forbidden",
    "error": "bad_request",
}
"""DRF's default codes that this API names otherwise; the rest (not_authenticated,
authentication_failed, not_found, method_not_allowed, not_acceptable, unsupported_media_type,
throttled) are kept as DRF names them."""


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER. Returns None (a 500, raised and logged by Django) for anything
    that is not a refusal: a bug is never presented as the client's fault."""
    if isinstance(exc, services.GameError):
        http_status = next((s for kind, s in GAME_ERROR_STATUS if isinstance(exc, kind)), 422)
        set_rollback()  # as DRF does for its own errors (matters under ATOMIC_REQUESTS)
        # The message follows Accept-Language; the code never changes (docs/api.md).
        body = {**exc.as_dict(), "message": refusal_message(exc, codes=True)}
        return Response({"error": body}, status=http_status)
    if isinstance(exc, RequestDataTooBig):  # over DATA_UPLOAD_MAX_MEMORY_SIZE, before parsing
        exc = TooLarge(body_too_large_message())
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = _validation_body(exc.detail)
    elif isinstance(exc, exceptions.APIException):
        response.data = _api_exception_body(exc)
    else:  # Django's Http404 or PermissionDenied, already turned into a response
        code = "not_found" if response.status_code == 404 else "forbidden"
        detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
        response.data = error_body(code, str(detail))
    return response


def _api_exception_body(exc: exceptions.APIException) -> dict[str, Any]:
    detail = exc.detail
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else exc.default_code
    code = DRF_CODES.get(code, code)
    extra: dict[str, Any] = {}
    wait = getattr(exc, "wait", None)
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        extra["retry_after"] = math.ceil(wait)
    if not isinstance(detail, str):  # a list or dict detail from some other APIException
        return error_body(code, _flatten_message(detail), details=detail, **extra)
    return error_body(code, str(detail), **extra)


def _validation_body(detail: Any) -> dict[str, Any]:
    """``{"expected_version": ["This field is required."]}`` -> code ``bad_request`` and a
    message naming the field(s), the full detail under ``details``."""
    if isinstance(detail, dict):
        return error_body("bad_request", _flatten_message(detail), details=detail)
    return error_body("bad_request", _flatten_message(detail))


def _flatten_message(detail: Any) -> str:
    messages = [f"{path}: {text}" if path else text for path, text in _leaves(detail, "")]
    return "; ".join(messages) or gettext("the request is not valid")


def _leaves(detail: Any, path: str) -> list[tuple[str, str]]:
    if isinstance(detail, dict):
        out: list[tuple[str, str]] = []
        for key, value in detail.items():
            if isinstance(key, int):  # a ListField's item
                out.extend(_leaves(value, f"{path}[{key}]"))
            elif key in ("non_field_errors", "detail"):
                out.extend(_leaves(value, path))
            else:
                out.extend(_leaves(value, f"{path}.{key}" if path else str(key)))
        return out
    if isinstance(detail, list):
        if all(isinstance(item, str) for item in detail):
            return [(path, str(item)) for item in detail]
        out = []
        for index, item in enumerate(detail):
            out.extend(_leaves(item, f"{path}[{index}]"))
        return out
    return [(path, str(detail))]


# ----------------------------------------------------------------------------- Django handlers


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler404``: JSON below /api/ (an unknown URL, a game id that is not a UUID)."""
    if not _is_api(request):
        return defaults.page_not_found(request, exception)
    return JsonResponse(
        error_body("not_found", gettext("there is nothing at %(path)s") % {"path": request.path}),
        status=status.HTTP_404_NOT_FOUND,
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: JSON below /api/. Django has already logged the exception."""
    if not _is_api(request):
        return defaults.server_error(request)
    return JsonResponse(
        error_body(
            "server_error",
            gettext(
                "something went wrong on our side and it was logged; try again later (a write "
                "retried with the same Idempotency-Key is never recorded twice)"
            ),
        ),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )
