"""Request body parsers: JSON with this API's error codes and limits, and record files as raw
bytes.

Every JSON body, on every endpoint (the token endpoint and the tournaments' too), is read by
:class:`JSONParser`, which refuses what it cannot read safely before decoding it: a body over
:data:`MAX_JSON_BYTES` (413 ``too_large``) and arrays or objects nested deeper than
:data:`MAX_JSON_DEPTH` (400 ``bad_json``; Python's decoder would otherwise run out of stack near
1,000 levels); and, once decoded, a string or key holding a lone surrogate (``"\\ud800"``: 400
``bad_json``; no database stores it, no UTF-8 answer can quote it). The token endpoint's form
bodies have the same size limit (:class:`FormParser`, :class:`MultiPartParser`). docs/api.md,
"Limits", lists them.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Mapping
from typing import IO, Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.utils import json as drf_json

from engine.jsonline import lone_surrogate
from games.api.exceptions import BadJSON, RecordTooLarge, TooLarge

MAX_RECORD_BYTES = 1024 * 1024
"""A whole 4-player record is about 12 KiB; anything near this is not a game record."""

MAX_JSON_BYTES = 1024 * 1024
"""A JSON request body. The largest real ones (a whole game's events, a tournament's pasted
list of players, at most 256 KiB) are far smaller."""

MAX_JSON_DEPTH = 32
"""How deeply arrays and objects may nest in a JSON body. The deepest real request (a round's
hands: body, events, event, hands, hand) has 5 levels."""

_STRING = re.compile(r'"(?:[^"\\]++|\\.?)*+"?', re.DOTALL)
"""A JSON string, or an unterminated one up to the end (never failing, so the scan is linear)."""
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]++")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def nesting_depth(text: str) -> int:
    """How deeply the JSON text nests arrays and objects (brackets in strings do not count),
    counted in C (Python's own decoder fails with RecursionError near 1,000 levels, and a
    counting loop in Python would be slower)."""
    brackets = _NOT_A_BRACKET.sub("", _STRING.sub("", text))
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets)), default=0)


class JSONParser(parsers.JSONParser):
    """DRF's strict JSON parser (no NaN or Infinity), with this API's limits, refusing with the
    codes ``bad_json`` and ``too_large``."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        data = stream.read(MAX_JSON_BYTES + 1) if stream is not None else b""
        if len(data) > MAX_JSON_BYTES:
            raise TooLarge(body_too_large_message())
        try:
            text = bytes(data).decode("utf-8")  # JSON is UTF-8 (RFC 8259), whatever the charset
        except UnicodeDecodeError as error:
            raise BadJSON(
                _("the request body is not valid JSON (%(error)s)") % {"error": error}
            ) from None
        if nesting_depth(text) > MAX_JSON_DEPTH:
            raise BadJSON(
                _(
                    "the request body is not valid JSON here: its arrays and objects nest more "
                    "than %(depth)s levels deep"
                )
                % {"depth": MAX_JSON_DEPTH}
            )
        try:
            value = drf_json.loads(text, parse_constant=drf_json.strict_constant)
        except RecursionError:  # not reached after the check above; kept as a last guard
            raise BadJSON(
                _(
                    "the request body is not valid JSON here: it nests more than %(depth)s "
                    "levels deep"
                )
                % {"depth": MAX_JSON_DEPTH}
            ) from None
        except ValueError as error:
            raise BadJSON(
                _("the request body is not valid JSON (%(error)s)") % {"error": error}
            ) from None
        found = lone_surrogate(value, text)
        if found is not None:
            raise BadJSON(
                _(
                    "the request body is not valid JSON text: %(at)s holds a lone surrogate "
                    "(%(code_point)s), half of a character"
                )
                % {"at": found.path or "the body", "code_point": found.code_point}
            )
        return value


def _bounded(stream: IO[Any] | None) -> io.BytesIO:
    """The body, read up to the JSON limit: a form body is no larger than a JSON one."""
    data = stream.read(MAX_JSON_BYTES + 1) if stream is not None else b""
    if len(data) > MAX_JSON_BYTES:
        raise TooLarge(body_too_large_message())
    return io.BytesIO(bytes(data))


class FormParser(parsers.FormParser):
    """DRF's form parser, with the JSON body's size limit (413 ``too_large``)."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        return super().parse(_bounded(stream), media_type, parser_context)


class MultiPartParser(parsers.MultiPartParser):
    """DRF's multipart parser, with the JSON body's size limit (413 ``too_large``): its files
    too, which Django would otherwise spool to disk whatever their size."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        return super().parse(_bounded(stream), media_type, parser_context)


def body_too_large_message() -> str:
    return _("the request body is larger than %(size)s KiB, far more than any request needs") % {
        "size": MAX_JSON_BYTES // 1024
    }


class RecordParser(parsers.BaseParser):
    """A game record file (JSON Lines), passed on as the raw bytes: the engine reads it."""

    media_type = "application/jsonl"

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> parsers.DataAndFiles[bytes, dict[str, Any]]:
        data = stream.read(MAX_RECORD_BYTES + 1)
        if len(data) > MAX_RECORD_BYTES:
            raise RecordTooLarge(
                _("the record file is larger than %(size)s KiB: a game record is far smaller")
                % {"size": MAX_RECORD_BYTES // 1024}
            )
        return parsers.DataAndFiles(bytes(data), {})  # request.data is the bytes


class PlainTextRecordParser(RecordParser):
    media_type = "text/plain"


class OctetStreamRecordParser(RecordParser):
    media_type = "application/octet-stream"


RECORD_PARSERS = (RecordParser, PlainTextRecordParser, OctetStreamRecordParser)
