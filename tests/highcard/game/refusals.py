"""High Card's refusals in the reader's language: the shared sentences and its own."""

from __future__ import annotations

from django.utils.translation import gettext

from games.refusals import SHARED, Sentence, simple

SENTENCES: dict[str, Sentence] = {
    **SHARED,
    "bad_card": simple(lambda: gettext("a card is 1 to 10, not %(card)s"), "card"),
}
