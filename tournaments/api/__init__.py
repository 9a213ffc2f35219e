"""The tournaments' REST API, below /api/tournaments/: thin views over
:mod:`tournaments.services`, with the games API's error shape and conventions (docs/api.md,
"Tournaments")."""
