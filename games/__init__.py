"""Games played at a table: their event log, stored and replayed through the engine."""
