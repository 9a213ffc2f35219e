"""The API's own exceptions (DRF APIExceptions with this API's error codes).

Kept apart from :mod:`games.api.errors` so that the authentication and parser classes, which
DRF's settings import early, do not import ``rest_framework.views`` (a circular import).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, status


class BadRequest(exceptions.ValidationError):
    """A malformed request (a field of the body, a query parameter or a header)."""


class BadJSON(exceptions.ParseError):
    default_detail = _("the request body is not valid JSON")
    default_code = "bad_json"


class RecordTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = _("the record file is too large")
    default_code = "record_too_large"


class TooLarge(exceptions.APIException):
    """A request body over the API's limit (docs/api.md, "Limits")."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = _("the request body is too large")
    default_code = "too_large"


class CsrfFailed(exceptions.PermissionDenied):
    default_detail = _("CSRF check failed")
    default_code = "csrf_failed"
