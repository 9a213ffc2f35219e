"""The scorekeeper's table page (docs/scorekeeping.md): ``views`` (thin: parse, call a service,
render) and ``presenters`` (an engine state turned into what the templates show; decides
nothing)."""
