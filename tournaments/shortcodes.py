"""A tournament's short address, ``/t/<code>/``: a few letters a player can type on a phone
(the big screen and the printed pairings show it beside the QR code). Pure: no Django.

The letters are consonants only: no vowel, so no word (rude or otherwise) can come out; no
``l`` (1, I), no ``y``. Lower case, read in any case. A code is derived from the tournament's
id (a hash; a tournament's id is random, so is its code): the first of its candidates that no
other tournament holds, five letters for the first ``FIVE_LETTER_TRIES`` candidates and six
after. Derived, so that a restore from a backup (which rebuilds the projections and assigns
the codes again) gives each tournament its code back (unless two tournaments' candidates met,
which is rare: 19^5 = 2.5 million codes).
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from itertools import count

ALPHABET = "bcdfghjkmnpqrstvwxz"
SHORTEST, LENGTH, LONGEST = 4, 5, 6
FIVE_LETTER_TRIES = 12
PATTERN = f"[A-Za-z]{{{SHORTEST},{LONGEST}}}"
"""What the URL accepts (then looked up, in lower case): 4 to 6 letters."""


def candidates(tournament_id: uuid.UUID) -> Iterator[str]:
    """The tournament's codes, in the order they are tried (endless)."""
    for attempt in count():
        length = LENGTH if attempt < FIVE_LETTER_TRIES else LONGEST
        digest = hashlib.sha256(f"{tournament_id}:{attempt}".encode()).digest()
        number = int.from_bytes(digest[:8], "big")
        letters = []
        for _ in range(length):
            number, letter = divmod(number, len(ALPHABET))
            letters.append(ALPHABET[letter])
        yield "".join(letters)


def normalized(text: str) -> str | None:
    """``text`` as a stored code (lower case), or None if it cannot be one."""
    code = text.strip().lower()
    if SHORTEST <= len(code) <= LONGEST and all(letter in ALPHABET for letter in code):
        return code
    return None
