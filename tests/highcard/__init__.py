"""High Card, a toy fifth game that proves the seam (issue 24): it lives here only, is
registered by one fixture line (``tests/highcard/conftest.py``), and goes through the store, the
API, the table page, a seat phone, a tournament round and the standings with no shared file
knowing it. Two players each play one card (1 to 10), seat 1 first; the higher card wins, equal
cards draw.

- :mod:`.engine` -- its rules, pure Python on the engine's kernel (as ``engine/<game>/``);
- :mod:`.game` -- its Django side (as ``games/<game>/``): game type, pages, API, phone panel,
  refusal sentences, and its templates under ``templates/``.
"""
