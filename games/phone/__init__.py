"""A seat's phone: each player enters their own hand and plays (docs/scorekeeping.md)."""
