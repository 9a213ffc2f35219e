"""The public tournament pages, by responsibility: page models and their pure shaping
(presenters), the standings page rendered once per version and cached (standings_page), its
HTTP caching (conditional), and the views that tie them to requests (views)."""
