from __future__ import annotations

# No models yet.
