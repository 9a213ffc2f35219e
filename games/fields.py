"""A JSON column that keeps the document exactly as written.

PostgreSQL's jsonb (what Django's JSONField uses) reorders object keys, and the summaries shown
to users list players in seat order. Projections are only ever read whole, never queried into,
so they are stored as JSON text.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import models


class JSONTextField(models.TextField):  # type: ignore[type-arg]
    description = "JSON stored as text (key order kept)"
    # For django-stubs: any JSON value goes in and comes out.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Any:
        return None if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        return json.loads(value) if isinstance(value, str) else value

    def get_prep_value(self, value: Any) -> str | None:
        if value is None:
            return None
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)

    def value_to_string(self, obj: Any) -> str:
        return json.dumps(self.value_from_object(obj))
