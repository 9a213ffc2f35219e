"""High Card's Django side, shaped like a ``games/<game>/`` package: its game type
(:mod:`.gametype`), pages (:mod:`.pages`), API bodies (:mod:`.api`), seat-phone panel
(:mod:`.phone`), refusal sentences (:mod:`.refusals`) and templates (``templates/highcard/``)."""
