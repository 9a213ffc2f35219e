"""The REST API (Django REST framework): thin views over :mod:`games.services`.

Every error has one shape, ``{"error": {"code": ..., "message": ..., ...}}``
(:mod:`games.api.errors`); docs/api.md describes the endpoints for client authors.
"""
