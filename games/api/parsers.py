"""Request body parsers: JSON with this API's error code, and record files as raw bytes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework import exceptions, parsers

from games.api.exceptions import BadJSON, RecordTooLarge

MAX_RECORD_BYTES = 1024 * 1024
"""A whole 4-player record is about 12 KiB; anything near this is not a game record."""


class JSONParser(parsers.JSONParser):
    """DRF's strict JSON parser (no NaN or Infinity), refusing with the code ``bad_json``."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        try:
            return super().parse(stream, media_type, parser_context)
        except exceptions.ParseError as error:
            reason = str(error.detail).removeprefix("JSON parse error - ")
            raise BadJSON(f"the request body is not valid JSON ({reason})") from None


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
                f"the record file is larger than {MAX_RECORD_BYTES // 1024} KiB: "
                "a game record is far smaller"
            )
        return parsers.DataAndFiles(bytes(data), {})  # request.data is the bytes


class PlainTextRecordParser(RecordParser):
    media_type = "text/plain"


class OctetStreamRecordParser(RecordParser):
    media_type = "application/octet-stream"


RECORD_PARSERS = (RecordParser, PlainTextRecordParser, OctetStreamRecordParser)
