"""The caching proxy's rules (docker/proxy/), read as text: no nginx, no Docker, no database.

What nginx would do with them is not run here (an ``nginx -t`` in the built image, or the
scaled stack up, costs minutes: benchmarks/compose_scale.py runs it). What is checked is what
a change could quietly break: that only the public addresses reach the cache, and the site's
personal pages (the desk, the admin, logins, a seat's phone, a scorekeeper's table, the API),
as this URLconf spells them, never do; that a session, a message, an API token, a query string,
a language the maps cannot tell, or a response setting a cookie bypass it and are never stored;
that nothing overrides Django's Cache-Control (no proxy_cache_valid, only Vary ignored); that
the language maps pick Django's language for the usual headers; and that the compose stack,
the container and benchmarks/load_standings.py --nginx all use these same files.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent.parent
PROXY = ROOT / "docker" / "proxy"
PERSONAL_COOKIES = ("$cookie_sessionid", "$cookie_messages", "$http_authorization", "$args")


@dataclass
class Block:
    """An nginx block: its directives (name, arguments), in order, and its inner blocks."""

    name: str = ""
    args: tuple[str, ...] = ()
    directives: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)

    def get(self, name: str) -> list[tuple[str, ...]]:
        return [args for directive, args in self.directives if directive == name]


def parse(text: str) -> Block:
    """nginx's configuration syntax, as far as these files use it: comments, quoted words,
    ``name args;`` and ``name args { ... }``."""
    tokens = re.findall(r'"(?:[^"\\]|\\.)*"|#[^\n]*|[{};]|[^\s{};"#]+', text)
    root = Block()
    stack: list[Block] = [root]
    words: list[str] = []
    for token in tokens:
        if token.startswith("#"):
            continue
        if token == ";":
            stack[-1].directives.append((words[0], tuple(words[1:])))
            words = []
        elif token == "{":
            block = Block(words[0], tuple(words[1:]))
            stack[-1].blocks.append(block)
            stack.append(block)
            words = []
        elif token == "}":
            assert not words, f"unterminated directive {words}"
            stack.pop()
        else:
            words.append(token[1:-1] if token.startswith('"') else token)
    assert len(stack) == 1 and not words, "unbalanced braces"
    return root


def locations() -> list[Block]:
    found = parse((PROXY / "cache-locations.conf").read_text()).blocks
    assert found and all(b.name == "location" for b in found)
    return found


def location_for(path: str) -> Block:
    """The location nginx picks for ``path``: the first matching regex, else the longest
    prefix (these files have no ``=`` or ``^~`` locations)."""
    chosen = None
    for block in locations():
        if block.args[0] == "~" and re.search(block.args[1], path):
            return block
        if block.args[0] != "~":
            prefix = block.args[0]
            if path.startswith(prefix) and (chosen is None or len(prefix) > len(chosen.args[0])):
                chosen = block
    assert chosen is not None, f"no location for {path}"
    return chosen


def cached(block: Block) -> bool:
    return any(args != ("off",) for args in block.get("proxy_cache"))


TOURNAMENT = uuid.uuid4()
GAME = uuid.uuid4()
PUBLIC: dict[str, Callable[[], str]] = {
    "the standings": lambda: reverse("public:standings", args=[TOURNAMENT]),
    "a round's pairings": lambda: reverse("public:round", args=[TOURNAMENT, 1]),
    "the club": lambda: reverse("club:club"),
}
PERSONAL: dict[str, Callable[[], str]] = {
    "the desk": lambda: "/desk/",
    "the club's desk": lambda: "/desk/club/",
    "the admin": lambda: reverse("admin:index"),
    "the login": lambda: reverse("login"),
    "the logout": lambda: reverse("logout"),
    "the language form": lambda: reverse("set_language"),
    "a seat's phone": lambda: reverse("seat:page", args=["1.nonce:signature"]),
    "a seat's poll": lambda: reverse("seat:state", args=["1.nonce:signature"]),
    "an official's seat": lambda: reverse("seat:official", args=[GAME, 1]),
    "the API": lambda: "/api/tournaments/",
    "the health check": lambda: reverse("health"),
    "the home page": lambda: reverse("home"),
}


@pytest.mark.parametrize("page", PUBLIC)
def test_public_pages_reach_the_cache(page: str) -> None:
    assert cached(location_for(PUBLIC[page]())), PUBLIC[page]()


@pytest.mark.parametrize("page", PERSONAL)
def test_personal_pages_never_reach_the_cache(page: str) -> None:
    path = PERSONAL[page]()
    assert not cached(location_for(path)), f"{page} ({path}) goes through the cache"


def test_personal_requests_and_responses_bypass_the_cache() -> None:
    for block in filter(cached, locations()):
        bypass = [word for args in block.get("proxy_cache_bypass") for word in args]
        no_cache = [word for args in block.get("proxy_no_cache") for word in args]
        for word in (*PERSONAL_COOKIES, "$tnc_language_unsure"):
            assert word in bypass and word in no_cache, word
        assert "$upstream_http_set_cookie" in no_cache
        # Django's Cache-Control decides what is stored and for how long: nothing stored that
        # it did not mark (no proxy_cache_valid), nothing of its refusals ignored.
        assert not block.get("proxy_cache_valid")
        assert block.get("proxy_ignore_headers") == [("Vary",)]
        assert block.get("proxy_cache_revalidate") == [("on",)]
        # What Vary names, spelled out in the key instead: the poll or the page, gzip, language.
        (key,) = block.get("proxy_cache_key")
        for part in ("$uri", "$http_hx_request", "$tnc_gzip", "$tnc_language", "$host"):
            assert part in key[0], part


def test_the_cookies_named_are_the_sites() -> None:
    from django.conf import settings

    assert settings.SESSION_COOKIE_NAME == "sessionid"
    assert settings.LANGUAGE_COOKIE_NAME == "django_language"
    from django.contrib.messages.storage.cookie import CookieStorage

    assert CookieStorage.cookie_name == "messages"


def language_maps() -> dict[str, list[tuple[str, str]]]:
    maps = {}
    for block in parse((PROXY / "cache-maps.conf").read_text()).blocks:
        assert block.name == "map"
        maps[block.args[1]] = [(name, args[0]) for name, args in block.directives]
    return maps


def lookup(entries: list[tuple[str, str]], value: str) -> str:
    """nginx's map: an exact string first, then the regexes in order, else the default."""
    default = ""
    for source, result in entries:
        if source == "default":
            default = result
        elif not source.startswith("~") and source == value:
            return result
    for source, result in entries:
        if source.startswith("~*") and re.search(source[2:], value, re.IGNORECASE):
            return result
    return default


@pytest.mark.parametrize(
    ("accept_language", "cookie", "language"),
    [
        ("", "", "en"),
        ("fr-FR,fr;q=0.9,en;q=0.8", "", "fr"),
        ("ja", "", "ja"),
        ("ru-RU", "", "ru"),
        ("de-DE,de;q=0.9", "", ""),  # not one of the site's: not cached
        ("en;q=0.5,fr", "", ""),  # the first is not surely the highest q: not cached
        ("de", "fr", "fr"),
        ("fr", "xx", ""),
    ],
)
def test_language_maps_choose_djangos_language(
    accept_language: str, cookie: str, language: str
) -> None:
    maps = language_maps()
    browser = lookup(maps["$tnc_browser_language"], accept_language)
    chosen = lookup(maps["$tnc_language"], cookie)
    if chosen == "$tnc_browser_language":
        chosen = browser
    assert chosen == language
    assert lookup(maps["$tnc_language_unsure"], chosen) == ("1" if not chosen else "0")


def test_one_configuration_everywhere() -> None:
    container = (PROXY / "nginx.conf").read_text()
    for name in ("cache-maps.conf", "cache-locations.conf"):
        assert f"include /etc/nginx/tnc/{name};" in container
        assert f"include %(proxy)s/{name};" in (ROOT / "benchmarks/load_standings.py").read_text()
    assert (
        "COPY cache-maps.conf cache-locations.conf /etc/nginx/tnc/"
        in (PROXY / "Dockerfile").read_text()
    )


class ComposeLoader(yaml.SafeLoader):
    pass


ComposeLoader.add_constructor("!reset", lambda loader, node: None)


def test_the_scaled_stack_is_an_override() -> None:
    base = yaml.load((ROOT / "docker-compose.yml").read_text(), ComposeLoader)
    scale = yaml.load((ROOT / "docker-compose.scale.yml").read_text(), ComposeLoader)
    # The small club's stack stays one web (publishing WEB_PORT) and one worker.
    assert "proxy" not in base["services"]
    assert "replicas" not in base["services"]["web"].get("deploy", {})
    assert base["services"]["web"]["ports"] == ["${WEB_PORT:-127.0.0.1:8000}:8000"]
    services = scale["services"]
    assert services["web"]["deploy"]["replicas"] == 2
    assert services["web"]["ports"] is None  # !reset: only the proxy publishes
    assert services["worker"]["deploy"]["replicas"] == 2
    assert "beat" not in services and "migrate" not in services
    proxy = services["proxy"]
    assert proxy["build"] == "docker/proxy"
    assert proxy["ports"] == ["${WEB_PORT:-127.0.0.1:8000}:8080"]
    assert proxy["depends_on"]["web"] == {"condition": "service_healthy", "restart": True}
