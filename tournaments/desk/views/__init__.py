"""The desk's views, one module per area of the dashboard (tournaments.desk.urls routes them)."""
