"""Crazy Kitchen: everything of the game on the Django side (its type, pages, templates, refusal
sentences, API serializers and seat-phone panel)."""
