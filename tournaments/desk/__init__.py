"""The organizer desk: the pages a club organizer runs a Swiss tournament from (/desk/,
docs/tournaments.md, "The organizer desk").

- ``views/``: thin views by area (dashboard, players, round, settings, history, printing): parse
  the request (``forms``), call a service (tournaments.services), answer (``answers``);
- ``answers``: the dashboard's context, a panel to htmx, a write's answer;
- ``presenters``, ``history``: typed read models built from the services' summary;
- ``rows``: the long lists (players, standings, a round's tables) as HTML built in Python;
- ``qr``: the tables' QR codes, drawn once per link;
- ``selectors``: the few queries the desk makes beside the services;
- ``http``: who may come in, the 403 page, the tournament as the user sees it.
"""
