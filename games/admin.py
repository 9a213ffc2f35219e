from __future__ import annotations

# No models registered yet.
