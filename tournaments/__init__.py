"""Tournaments: players, rounds, table assignment and standings."""
