"""The desk's long lists as HTML, built in Python rather than in a template loop: the players
(1,000 rows, two forms each) and the standings (1,000 rows). Through Django's template engine
they took most of the dashboard's second; this way, tens of milliseconds (the public standings
do the same). Every value is escaped with the standard
library's html.escape (what Django's escape does, without its lazy wrapper). The words are
translated once per list, not once per row (:class:`RowWords`, :class:`CardWords`).

A row here is the same markup the dashboard's ``player_row`` partial shows (it shows this):
one builder for the whole list, the htmx answer of one row, and the out-of-band mark of a drop.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import quote

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.desk.presenters.dashboard import PlayerRow, StandingRow
from tournaments.desk.presenters.round import RoundView

_PLAYER = "--player--"


@dataclass(frozen=True)
class RowLinks:
    """The player actions' URLs of one tournament (reversed once, not per row) and the form's
    CSRF field (one masked token for the page: every form posts the same secret)."""

    check_in: tuple[str, str]
    drop: tuple[str, str]
    reinstate: tuple[str, str]
    csrf_field: str

    @classmethod
    def of(cls, tournament_id: object, csrf_token: str) -> RowLinks:
        def split(name: str) -> tuple[str, str]:
            head, tail = reverse(f"desk:{name}", args=[tournament_id, _PLAYER]).split(_PLAYER)
            return head, tail

        field = (
            f'<input type="hidden" name="csrfmiddlewaretoken" value="{html.escape(csrf_token)}">'
        )
        return cls(split("check_in"), split("drop"), split("reinstate"), field)


@dataclass(frozen=True)
class RowWords:
    """A player row's words in the current language, looked up once for the whole list."""

    late: str
    dropped: str
    here: str
    drop: str
    reinstate: str
    confirm_drop: str
    """With ``%(name)s``."""

    @classmethod
    def now(cls) -> RowWords:
        return cls(
            late=html.escape(_("late entry")),
            dropped=html.escape(pgettext("player badge", "dropped")),
            here=html.escape(pgettext("checked in", "Here")),
            drop=html.escape(pgettext("drop a player", "Drop")),
            reinstate=html.escape(_("Reinstate")),
            confirm_drop=html.escape(_("Yes, drop %(name)s")),
        )


def _url(parts: tuple[str, str], player: str) -> str:
    return html.escape(parts[0] + quote(player, safe="") + parts[1])


def player_row(
    p: PlayerRow, links: RowLinks, *, check_in: bool, words: RowWords | None = None
) -> str:
    """One player's row: number, name (rating, late entry, dropped, the error of their last
    action), the check-in toggle (when the tournament checks players in), where they sit, and
    the drop or reinstate button. Each form answers htmx with this row (desk.answers)."""
    words = words or RowWords.now()
    pid = html.escape(p.id)
    name = html.escape(p.name)
    dropped = p.dropped
    row_class = ' class="dropped"' if dropped else ""
    out = [f'<tr id="player-{pid}"{row_class}>']
    out.append(f'<td class="num wide-only">{p.number}</td>')
    out.append(f'<th scope="row">{name}')
    if p.rating is not None:
        out.append(f' <span class="muted small">({html.escape(str(p.rating))})</span>')
    if p.late:
        out.append(f' <span class="badge late">{words.late}</span>')
    out.append(members_line(p.members))
    if dropped:
        out.append(f' <span class="badge dropped">{words.dropped}</span>')
    if p.error:
        out.append(f'<p class="error" role="alert">{html.escape(p.error)}</p>')
    out.append("</th>")
    form = (
        'hx-target="closest tr" hx-swap="outerHTML" hx-sync="this:drop" hx-include="#page-version"'
    )
    if check_in:
        url = _url(links.check_in, p.id)
        here = p.checked_in
        out.append(
            f'<td><form method="post" action="{url}" hx-post="{url}" {form}>{links.csrf_field}'
            f'<input type="hidden" name="checked_in" value="{"0" if here else "1"}">'
            f'<button type="submit" id="checkin-{pid}" class="toggle" '
            f'aria-pressed="{"true" if here else "false"}"{" disabled" if dropped else ""}>'
            f'<span class="toggle-box" aria-hidden="true"></span>{words.here}'
            f'<span class="vh">: {name}</span></button></form></td>'
        )
    table, seat = p.seated
    if table:
        seat_text = f' <span class="muted small">{html.escape(seat)}</span>' if seat else ""
        out.append(f'<td class="where">{html.escape(table)}{seat_text}</td>')
    else:
        out.append('<td class="where">—</td>')
    url = _url(links.reinstate if dropped else links.drop, p.id)
    if p.confirm_drop and not dropped:  # the warning is under the name: confirm it here
        button = (
            '<input type="hidden" name="confirm" value="1">'
            f'<button type="submit" id="drop-{pid}" class="small-button danger">'
            f"{words.confirm_drop % {'name': name}}</button>"
        )
    else:
        button = (
            f'<button type="submit" id="drop-{pid}" class="small-button">'
            f'{words.reinstate if dropped else words.drop}<span class="vh"> {name}</span></button>'
        )
    out.append(
        f'<td><form method="post" action="{url}" hx-post="{url}" {form}>{links.csrf_field}'
        f"{button}</form></td></tr>"
    )
    return "".join(out)


def members_line(members: Sequence[str]) -> str:
    """A team's players under its name (nothing for a player)."""
    if not members:
        return ""
    listed = html.escape(_(", ").join(members))
    return f'<span class="members muted small">{listed}</span>'


def player_rows(players: Iterable[PlayerRow], links: RowLinks, *, check_in: bool) -> str:
    words = RowWords.now()
    return "\n".join(player_row(p, links, check_in=check_in, words=words) for p in players)


def standing_name(player: str, name: str, dropped: bool, *, oob: bool = False) -> str:
    """A standings row's player cell (with its dropped mark): alone, out of band, after a drop."""
    swap = ' hx-swap-oob="true"' if oob else ""
    mark = f' <span class="badge dropped">{_dropped()}</span>' if dropped else ""
    return (
        f'<th scope="row" id="standing-{html.escape(player)}"{swap}>{html.escape(name)}{mark}</th>'
    )


def _dropped() -> str:
    return html.escape(pgettext("player badge", "dropped"))


def standings_rows(rows: Iterable[StandingRow]) -> SafeString:
    """The desk's standings rows: rank, the player's cell, then each column's figure."""
    out = []
    for row in rows:
        cells = "".join(f'<td class="num">{html.escape(str(c))}</td>' for c in row.cells[1:])
        out.append(
            ('<tr class="dropped">' if row.dropped else "<tr>")
            + f'<td class="num">{html.escape(str(row.rank))}</td>'
            + standing_name(row.player, row.name, row.dropped)
            + cells
            + "</tr>"
        )
    return mark_safe("\n".join(out))  # noqa: S308 (built from escaped values above)


def safe(text: str) -> SafeString:
    """Markup built above, for a template."""
    return mark_safe(text)  # noqa: S308 (built from escaped values)


_TABLE = 987654321


@dataclass(frozen=True)
class CardWords:
    """The table cards' words in the current language (escaped), looked up once per round;
    the ones with a value take ``%(table)s`` or ``%(round)s``."""

    tables_of_round: str
    table: str
    result_of: str
    place: str
    player: str
    victory_points: str
    first_player: str
    cooks_first: str
    scorekeeper_page: str
    seat_links: str
    of_table: str
    confirm_table: str
    qr_code: str

    @classmethod
    def now(cls) -> CardWords:
        words = {
            "tables_of_round": _("Tables of round %(round)s"),
            "table": _("Table %(table)s"),
            "result_of": _("Result of table %(table)s"),
            "place": pgettext("finishing place at a table", "Place"),
            "player": _("Player"),
            "victory_points": _("Victory points"),
            "first_player": _("first player"),
            "cooks_first": _("cooks first"),
            "scorekeeper_page": _("Scorekeeper page"),
            "seat_links": _("Seat links"),
            "of_table": _("of table %(table)s"),
            "confirm_table": _("Confirm table %(table)s"),
            "qr_code": _("QR code"),
        }
        return cls(**{key: html.escape(text) for key, text in words.items()})


def table_cards(
    rnd: RoundView,
    *,
    tournament_id: object,
    version: int,
    csrf_field: str,
    organizer: bool = False,
) -> str:
    """The tables of a published or closed round (presenters.round_view's tables): seats or
    result, status, the scorekeeper's link, confirmation (a one-button form, as
    desk/_button.html makes it), the QR code as an image the browser keeps, and for organizers
    the way to the table's seat links (never a link itself: the page is also the
    scorekeepers')."""
    head, tail = reverse("desk:confirm", args=[tournament_id, rnd.number, _TABLE]).split(
        str(_TABLE)
    )
    seats_head, seats_tail = reverse(
        "desk:table_seats", args=[tournament_id, rnd.number, _TABLE]
    ).split(str(_TABLE))
    w = CardWords.now()
    out = [f'<ol class="tables" aria-label="{w.tables_of_round % {"round": rnd.number}}">']
    for table in rnd.tables:
        n = table.number
        at = {"table": n}
        status = html.escape(table.status)
        out.append(
            f'<li class="table-card status-{status}" id="table-{n}">'
            f'<h3>{w.table % at} <span class="badge table-status">'
            f"{html.escape(table.status_label)}</span></h3>"
        )
        if table.progress:
            out.append(f'<p class="table-progress muted small">{html.escape(table.progress)}</p>')
        if table.result:
            out.append(
                f'<div class="table-scroll"><table class="result">'
                f'<caption class="vh">{w.result_of % at}</caption>'
                f'<thead><tr><th scope="col" class="num">{w.place}</th>'
                f'<th scope="col">{w.player}</th>'
                f'<th scope="col" class="num">{w.victory_points}</th></tr></thead><tbody>'
            )
            for r in table.result:
                out.append(
                    f'<tr><td class="num">{html.escape(str(r.place))}</td>'
                    f'<th scope="row">{html.escape(r.name)}</th>'
                    f'<td class="num">{html.escape(str(r.victory_points))}</td></tr>'
                )
            out.append("</tbody></table></div>")
        else:
            out.append('<ol class="seats">')
            for s in table.seats:
                first = f'<span class="first">{w.first_player}</span>' if s.first else ""
                if s.cooks_first:
                    first = f'<span class="first">{w.cooks_first}</span>'
                out.append(
                    f'<li class="seat"><span class="seat-no" aria-hidden="true">{s.seat}</span>'
                    f'<span class="seat-name">{html.escape(s.name)}</span>{first}'
                    f"{members_line(s.members)}</li>"
                )
            out.append("</ol>")
        if table.error:
            out.append(f'<p class="error" role="alert">{html.escape(table.error)}</p>')
        out.append('<div class="table-actions">')
        if table.link:
            out.append(
                f'<a href="{html.escape(table.link)}">{w.scorekeeper_page}'
                f'<span class="vh"> {w.of_table % at}</span></a>'
            )
        if organizer and table.game:
            out.append(
                f'<a href="{html.escape(f"{seats_head}{n}{seats_tail}")}">{w.seat_links}'
                f'<span class="vh"> {w.of_table % at}</span></a>'
            )
        if table.status == "finished":
            url = html.escape(f"{head}{n}{tail}")
            out.append(
                f'<form method="post" action="{url}" class="button-form" hx-post="{url}" '
                'hx-target="#round-panel" hx-swap="outerHTML" hx-disabled-elt="find button">'
                f'{csrf_field}<input type="hidden" name="expected_version" value="{version}" '
                'class="desk-version">'
                f'<button type="submit" class="primary">{w.confirm_table % at}</button></form>'
            )
        out.append("</div>")
        if table.qr_src:
            out.append(
                f'<details class="qr"><summary>{w.qr_code}'
                f'<span class="vh"> {w.of_table % at}</span>'
                f'</summary><img src="{html.escape(table.qr_src)}" '
                f'alt="{html.escape(table.qr_label)}" width="160" height="160" '
                f'loading="lazy"><p class="small">{html.escape(table.url)}</p></details>'
            )
        out.append("</li>")
    out.append("</ol>")
    return "\n".join(out)
