"""QR codes of the tables' scorekeeper links and of the seats' links, drawn once per link.

segno takes ~12 ms to draw one (most of it choosing the best mask), and the desk of a 250-table
round drew all 250 on every request. What a code shows depends on nothing but the link it
encodes (the table page of a game, /table/<game id>/, on this site: no name, no token, nothing
a scan would tell that the link does not), so a drawing is kept: in this process (the last
``MEMO_SIZE``) and in the shared cache (Django's default cache: Redis in production), so that a
link is drawn once, not once per worker. The dashboard shows a code as an image
(desk.views.printing.qr, cached by the browser); the printable score sheets put them inline.

A seat's link (/seat/<token>/) is a credential: its code is only ever put inline in a page for
the tournament's organizers, never served at a URL of its own, and its shared cache key is a
hash (of the drawing's settings and the link), never the token.

Drawing at a fixed mask: segno spends three quarters of a code's time scoring the 8 masks of ISO
18004 to pick the one with the fewest look-alike patterns. Any of the 8 is a valid code (the
mask is written in the code's format bits, which a scanner reads first); for links of random
letters the best one gains nothing a phone notices. A fixed mask draws a code in ~2 ms instead
of ~7.7 ms: the 1,250 codes of a 250-table round's sheets (4 seats and the table each) in
~2.6 s cold instead of ~9.7 s (benchmarks/desk_qr.py; benchmarks/README.md, "Seat links").
What is left is segno making the code (~1.2 ms) and writing its SVG (~0.6 ms; a hand-written
writer saved 0.4 ms of it, not worth its code). tests/web/test_desk_seat_links.py reads the
modules and the format bits back from the drawing.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable

import segno
from django.core.cache import cache
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

MASK = 0
"""The mask pattern every code is drawn with (0: (row + column) mod 2 == 0): see above."""
BORDER = 2
DRAWING = f"segno error=m mask={MASK} border={BORDER} v2"
"""How a code is drawn: part of the cache key and the ETag, so change it with the drawing."""
CACHE_SECONDS = 30 * 24 * 3600
MEMO_SIZE = 4096

_memo: dict[str, str] = {}


def _digest(url: str) -> str:
    return hashlib.sha256(f"{DRAWING}\n{url}".encode()).hexdigest()


def _key(url: str) -> str:
    return f"desk-qr:{_digest(url)}"


def etag(url: str) -> str:
    """The drawing's entity tag: it changes only with the link or the way codes are drawn."""
    return f'"{_digest(url)[:32]}"'


def draw(url: str) -> str:
    """A QR code of ``url`` as a standalone SVG document, without a size (it fills its box)."""
    out = io.BytesIO()
    segno.make(url, error="m", mask=MASK).save(
        out, kind="svg", border=BORDER, xmldecl=False, omitsize=True
    )
    return out.getvalue().decode()


def _remember(url: str, drawing: str) -> None:
    if len(_memo) >= MEMO_SIZE:
        _memo.clear()
    _memo[url] = drawing


def svg(url: str) -> str:
    """The drawing of ``url``: from this process's memo, the shared cache, or drawn now."""
    return svgs([url])[url]


def svgs(urls: Iterable[str]) -> dict[str, str]:
    """The drawings of several links, with one cache round trip for all those not in memory."""
    urls = list(urls)
    found = {url: _memo[url] for url in urls if url in _memo}
    wanted = [url for url in urls if url not in found]
    if wanted:
        keys = {_key(url): url for url in wanted}
        cached = cache.get_many(list(keys))
        drawn: dict[str, str] = {}
        for key, url in keys.items():
            drawing = cached.get(key)
            if drawing is None:
                drawing = drawn[key] = draw(url)
            found[url] = drawing
            _remember(url, drawing)
        if drawn:
            cache.set_many(drawn, CACHE_SECONDS)
    return found


def inline(drawing: str, label: str) -> SafeString:
    """A drawing to put in a page: an image named for assistive technology."""
    name = escape(label)
    opened = drawing.replace("<svg ", f'<svg role="img" aria-label="{name}" ', 1)
    head, _, rest = opened.partition(">")
    return mark_safe(f"{head}><title>{name}</title>{rest}")  # noqa: S308 (segno's SVG, escaped label)


def forget() -> None:
    """Empty this process's memo (tests)."""
    _memo.clear()
