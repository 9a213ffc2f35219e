"""The desk's read models, one module per panel (as tournaments.desk.views): frozen, typed views
of a tournament, built from the services' summary (the tournament as this user may see it) and
nothing else. Views hand these to the templates and to the row builders (tournaments.desk.rows);
nothing here touches the request, the ORM or a service.

Each builder takes only the part of the summary it shows, so that an htmx answer builds only
the panels it swaps: a player's change needs :func:`.dashboard.player_rows`,
:func:`.dashboard.counts` and :func:`.dashboard.status_line`, not the round of 250 tables nor
the standings.

- :mod:`.common`: what the panels share (role and pairing-method names, ordinals, lists);
- :mod:`.dashboard`: heading, status line, players, counts, standings, links;
- :mod:`.round`: the round panel's tables, seats, places, status and pairing quality;
- :mod:`.settings`: settings in words, roles, scheduled pairings;
- :mod:`.printing`: score sheets;
- :mod:`.seats`: seat links.
"""
