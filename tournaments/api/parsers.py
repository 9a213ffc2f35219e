"""A player list sent as the request body itself: a CSV file or a pasted list, as text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, parsers

from games.api.parsers import JSONParser
from tournaments import domain

MAX_PLAYER_LIST_BYTES = domain.MAX_PLAYER_LIST_BYTES


class PlayerListTooLarge(exceptions.APIException):
    status_code = 413
    default_detail = gettext_lazy("the player list is too large")
    default_code = "player_list_too_large"


def check_player_list_size(data: bytes | str) -> None:
    """Refuse a player list over :data:`MAX_PLAYER_LIST_BYTES` (413 ``player_list_too_large``):
    a text body, or JSON ``text``."""
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    if size > MAX_PLAYER_LIST_BYTES:
        raise PlayerListTooLarge(
            _("the player list is larger than %(size)s KiB")
            % {"size": MAX_PLAYER_LIST_BYTES // 1024}
        )


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
        check_player_list_size(data)
        try:
            text = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise exceptions.ParseError(_("the player list is not UTF-8 text")) from None
        return parsers.DataAndFiles(text, {})  # request.data is the text


class PlainTextPlayerListParser(PlayerListParser):
    """A pasted list, one name a line (``text/plain``)."""

    media_type = "text/plain"


PLAYER_LIST_PARSERS = (JSONParser, PlayerListParser, PlainTextPlayerListParser)
