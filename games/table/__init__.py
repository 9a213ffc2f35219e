"""The scorekeeper's table page, shared by every game (docs/scorekeeping.md): ``views`` (the
dispatch to each game's pages, and what their pages share) and ``forms`` (what every table form
posts). Each game's own page is in its package (e.g. games/tricknchef/table_views.py)."""
