"""A player list sent as the request body itself: a CSV file or a pasted list, as text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, parsers

from games.api.parsers import JSONParser

MAX_PLAYER_LIST_BYTES = 256 * 1024
"""A list of 500 players with ratings is about 20 KiB."""


class PlayerListTooLarge(exceptions.APIException):
    status_code = 413
    default_detail = gettext_lazy("the player list is too large")
    default_code = "player_list_too_large"


class PlayerListParser(parsers.BaseParser):
    """A CSV file (``text/csv``), passed on as its text (UTF-8, with or without a BOM)."""

    media_type = "text/csv"

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> parsers.DataAndFiles[str, dict[str, Any]]:
        data = stream.read(MAX_PLAYER_LIST_BYTES + 1) if stream is not None else b""
        if len(data) > MAX_PLAYER_LIST_BYTES:
            raise PlayerListTooLarge(
                _("the player list is larger than %(size)s KiB")
                % {"size": MAX_PLAYER_LIST_BYTES // 1024}
            )
        try:
            text = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise exceptions.ParseError(_("the player list is not UTF-8 text")) from None
        return parsers.DataAndFiles(text, {})  # request.data is the text


class PlainTextPlayerListParser(PlayerListParser):
    """A pasted list, one name a line (``text/plain``)."""

    media_type = "text/plain"


PLAYER_LIST_PARSERS = (JSONParser, PlayerListParser, PlainTextPlayerListParser)
