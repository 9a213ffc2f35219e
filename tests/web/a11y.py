"""A small accessibility checker for the site's server-rendered pages (standard library only).

Any page test can call it::

    from tests.web.a11y import assert_accessible

    assert_accessible(response.content.decode(), where="/desk/")

:func:`check_page` returns the problems it finds, each with its rule, a message and the line:

- ``lang``: the ``<html>`` element names the page's language;
- ``h1``: exactly one ``<h1>``;
- ``heading-order``: no skipped heading level going down (an h2 may follow an h4, an h4 may
  not follow an h2), and the first heading is the h1;
- ``label``: every ``input`` (other than hidden and buttons), ``select`` and ``textarea`` has a
  label: a ``<label for>`` naming its id, an enclosing ``<label>``, ``aria-label`` or
  ``aria-labelledby``;
- ``image-name``: every ``img`` has ``alt`` (``alt=""`` marks a decorative image), every
  ``svg`` and every element with ``role="img"`` has an accessible name (``aria-label``,
  ``aria-labelledby``, ``title``, or for an svg a ``<title>`` child), unless hidden from
  assistive technology (``aria-hidden="true"``);
- ``th-scope``: every ``<th>`` says what it heads (``scope="col"`` / ``"row"`` / ...);
- ``link-text``: every link has text (or an ``aria-label``) that is not a bare "click here",
  "here", "more", "read more" or "link";
- ``duplicate-id`` and ``missing-id``: ids are unique, and ``for`` / ``aria-labelledby`` /
  ``aria-describedby`` name ids that exist.

It reads markup only: it cannot judge colours, focus order or wording. For colours,
:func:`suit_contrast` computes the WCAG contrast of the card text on each suit's background
from the stylesheet's variables.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
     "track", "wbr"}
)  # fmt: skip
"""Elements without an end tag: never on the open-element stack."""
NO_LABEL_NEEDED = frozenset({"hidden", "submit", "button", "reset", "image"})
VAGUE_LINKS = frozenset({"click here", "here", "more", "read more", "link", "this link"})
SCOPES = frozenset({"col", "row", "colgroup", "rowgroup"})


@dataclass(frozen=True, slots=True)
class Problem:
    rule: str
    message: str
    line: int

    def __str__(self) -> str:
        return f"line {self.line}: [{self.rule}] {self.message}"


@dataclass(slots=True)
class _Open:
    """An open element the checker follows (a link, an svg, a label, an svg's title)."""

    tag: str
    line: int
    attrs: dict[str, str]
    text: list[str] = field(default_factory=list)
    named: bool = False


class _Checker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[Problem] = []
        self.stack: list[_Open] = []
        self.headings: list[tuple[int, int, str]] = []  # level, line, text
        self.heading: _Open | None = None
        self.ids: dict[str, int] = {}
        self.label_for: set[str] = set()
        self.fields: list[tuple[str, int, dict[str, str], bool]] = []  # tag, line, attrs, in label
        self.references: list[tuple[str, str, int]] = []  # attribute, id, line
        self.lang: str | None = None

    # ------------------------------------------------------------------ parsing

    def _problem(self, rule: str, message: str, line: int | None = None) -> None:
        self.problems.append(Problem(rule, message, line or self.getpos()[0]))

    def handle_starttag(self, tag: str, attrs_list: list[tuple[str, str | None]]) -> None:
        attrs = {name: value or "" for name, value in attrs_list}
        line = self.getpos()[0]
        self._common(tag, attrs, line)
        if tag not in VOID:
            self.stack.append(_Open(tag, line, attrs))
            if re.fullmatch(r"h[1-6]", tag):
                self.heading = self.stack[-1]

    def handle_startendtag(self, tag: str, attrs_list: list[tuple[str, str | None]]) -> None:
        attrs = {name: value or "" for name, value in attrs_list}
        line = self.getpos()[0]
        self._common(tag, attrs, line)
        if tag == "svg":  # <svg/>: nothing inside it can name it
            self._check_svg(_Open(tag, line, attrs))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index].tag == tag:
                closed = self.stack[index:]
                del self.stack[index:]
                for element in reversed(closed):
                    self._closed(element)
                return

    def handle_data(self, data: str) -> None:
        for element in self.stack:
            if element.tag in ("a", "title", "label") or re.fullmatch(r"h[1-6]", element.tag):
                element.text.append(data)

    # ------------------------------------------------------------------ rules

    def _common(self, tag: str, attrs: dict[str, str], line: int) -> None:
        if tag == "html":
            self.lang = attrs.get("lang", "")
        element_id = attrs.get("id")
        if element_id:
            if element_id in self.ids:
                self._problem(
                    "duplicate-id", f'id "{element_id}" is used twice (first on line '
                    f"{self.ids[element_id]})", line
                )  # fmt: skip
            else:
                self.ids[element_id] = line
        for attribute in ("aria-labelledby", "aria-describedby"):
            for ref in attrs.get(attribute, "").split():
                self.references.append((attribute, ref, line))
        hidden = attrs.get("aria-hidden") == "true"
        if tag == "label":
            if attrs.get("for"):
                self.label_for.add(attrs["for"])
                self.references.append(("for", attrs["for"], line))
        elif tag in ("input", "select", "textarea"):
            kind = attrs.get("type", "text").lower() if tag == "input" else tag
            if kind not in NO_LABEL_NEEDED:
                in_label = any(e.tag == "label" for e in self.stack)
                self.fields.append((tag, line, attrs, in_label))
        elif tag == "img":
            if "alt" not in attrs and not hidden and not _named(attrs):
                self._problem("image-name", f'<img src="{attrs.get("src", "")}"> has no alt')
        elif tag == "th" and attrs.get("scope", "").lower() not in SCOPES:
            self._problem("th-scope", "<th> without scope (col, row, colgroup, rowgroup)")
        if (
            attrs.get("role") == "img"
            and tag not in ("svg", "img")
            and not hidden
            and not _named(attrs)
        ):
            self._problem("image-name", f'<{tag} role="img"> has no aria-label or title')
        for element in self.stack:  # an image inside a link names the link
            if element.tag == "a" and tag in ("img", "svg") and (attrs.get("alt") or _named(attrs)):
                element.text.append(" " + (attrs.get("alt") or attrs.get("aria-label", "x")))

    def _closed(self, element: _Open) -> None:
        tag = element.tag
        if element is self.heading or re.fullmatch(r"h[1-6]", tag):
            level = int(tag[1])
            self.headings.append((level, element.line, " ".join("".join(element.text).split())))
            self.heading = None
        elif tag == "title" and self.stack and self.stack[-1].tag == "svg":
            if "".join(element.text).strip():
                self.stack[-1].named = True
        elif tag == "svg":
            self._check_svg(element)
        elif tag == "a" and "href" in element.attrs:
            words = " ".join("".join(element.text).split())
            name = element.attrs.get("aria-label", "").strip() or words
            if not name:
                self._problem("link-text", f'link to "{element.attrs["href"]}" has no text',
                              element.line)  # fmt: skip
            elif name.casefold().strip(".:! ") in VAGUE_LINKS:
                self._problem("link-text", f'link text "{name}" does not say where it goes',
                              element.line)  # fmt: skip

    def _check_svg(self, element: _Open) -> None:
        attrs = element.attrs
        if attrs.get("aria-hidden") == "true" or attrs.get("role") in ("presentation", "none"):
            return
        if not (element.named or _named(attrs)):
            self._problem(
                "image-name",
                "<svg> has no accessible name (aria-label, aria-labelledby, title, or a <title> "
                'child; aria-hidden="true" if it is decorative)',
                element.line,
            )

    def finish(self) -> list[Problem]:
        if self.lang is not None and not self.lang.strip():
            self._problem("lang", "<html> has no lang attribute", 1)
        h1 = [line for level, line, _ in self.headings if level == 1]
        if len(h1) != 1:
            where = f" (lines {', '.join(map(str, h1))})" if h1 else ""
            self._problem("h1", f"the page has {len(h1)} <h1> instead of one{where}", 1)
        previous = 0
        for level, line, words in self.headings:
            if level > previous + 1:
                after = f"h{previous}" if previous else "the start of the page"
                self._problem("heading-order", f'<h{level}> "{words}" comes after {after}', line)
            previous = level
        for tag, line, attrs, in_label in self.fields:
            labelled = (
                in_label
                or _named(attrs, title=False)
                or (attrs.get("id") and attrs["id"] in self.label_for)
            )
            if not labelled:
                name = attrs.get("name") or attrs.get("id") or tag
                self._problem("label", f'<{tag}> "{name}" has no label', line)
        for attribute, ref, line in self.references:
            if ref not in self.ids:
                self._problem("missing-id", f'{attribute} names id "{ref}", which does not exist',
                              line)  # fmt: skip
        return sorted(self.problems, key=lambda p: p.line)


def _named(attrs: dict[str, str], title: bool = True) -> bool:
    return bool(
        attrs.get("aria-label", "").strip()
        or attrs.get("aria-labelledby", "").strip()
        or (title and attrs.get("title", "").strip())
    )


def check_page(html: str) -> list[Problem]:
    """The accessibility problems found in a page's HTML (empty: none found)."""
    checker = _Checker()
    checker.feed(html)
    checker.close()
    return checker.finish()


def assert_accessible(html: str, where: str = "") -> None:
    """Fail with every problem listed, one per line."""
    problems = check_page(html)
    if problems:
        lines = "\n".join(f"  {p}" for p in problems)
        raise AssertionError(f"accessibility problems{f' in {where}' if where else ''}:\n{lines}")


# ----------------------------------------------------------------------------- colours

SITE_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "site.css"
SUITS = ("green", "red", "yellow", "blue")


def css_rules(css: str) -> list[tuple[list[str], dict[str, str]]]:
    """(selectors, declarations) of each rule, in order; comments dropped, at-rules' inner
    rules included as plain rules."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    rules = []
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        declarations = {}
        for declaration in body.split(";"):
            if ":" in declaration:
                name, value = declaration.split(":", 1)
                declarations[name.strip()] = value.strip()
        rules.append(([s.strip() for s in selectors.split(",")], declarations))
    return rules


def css_variables(css: str) -> dict[str, str]:
    """The custom properties (``--green: #1b6e35``) set on ``:root``."""
    found: dict[str, str] = {}
    for selectors, declarations in css_rules(css):
        if ":root" in selectors:
            found.update({k: v for k, v in declarations.items() if k.startswith("--")})
    return found


def declared(css: str, selector: str, prop: str) -> str | None:
    """The last value of ``prop`` in rules for exactly ``selector`` (None if never set)."""
    value = None
    for selectors, declarations in css_rules(css):
        if selector in selectors and prop in declarations:
            value = declarations[prop]
    return value


def resolve(value: str, variables: dict[str, str]) -> str:
    """A colour as ``#rrggbb``: ``var(--x)`` looked up, ``#abc`` expanded."""
    value = value.strip()
    for _ in range(5):
        match = re.fullmatch(r"var\(\s*(--[\w-]+)\s*(?:,\s*(.+))?\)", value)
        if match is None:
            break
        value = variables.get(match.group(1), match.group(2) or "").strip()
    if value in ("white", "#fff"):
        value = "#ffffff"
    if re.fullmatch(r"#[0-9a-fA-F]{3}", value):
        value = "#" + "".join(c * 2 for c in value[1:])
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        raise ValueError(f"not a colour this checker reads: {value!r}")
    return value.lower()


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#rrggbb``."""
    channels = []
    for i in (1, 3, 5):
        c = int(colour[i : i + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    red, green, blue = channels
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(foreground: str, background: str) -> float:
    """WCAG 2 contrast ratio, 1 to 21."""
    a, b = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (a + 0.05) / (b + 0.05)


@dataclass(frozen=True, slots=True)
class SuitColours:
    suit: str
    text: str
    background: str
    ratio: float


def suit_contrast(
    css: str | None = None, element: str = "card", suits: Iterable[str] = SUITS
) -> list[SuitColours]:
    """The text and background colours of a card (or another ``element`` class drawn in a
    suit, e.g. ``chip``) of each suit, read from the stylesheet (site.css by default), and
    their contrast ratio. The text colour is the most specific one set:
    ``.element.suit-X``, then ``.suit-X``, then ``.element``."""
    css = SITE_CSS.read_text(encoding="utf-8") if css is None else css
    variables = css_variables(css)
    out = []
    for suit in suits:
        background = declared(css, f".suit-{suit}", "background") or variables[f"--{suit}"]
        text = (
            declared(css, f".{element}.suit-{suit}", "color")
            or declared(css, f".suit-{suit}", "color")
            or declared(css, f".{element}", "color")
            or variables["--ink"]
        )
        fg, bg = resolve(text, variables), resolve(background, variables)
        out.append(SuitColours(suit, fg, bg, contrast(fg, bg)))
    return out
