from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from games import policy, services
        from games.signals import game_status_changed
        from tournaments import gamepolicy, gamerules, placement, ports, tasks
        from tournaments import services as tournament_services
        from tournaments.signals import tournament_appended

        policy.register(gamepolicy.tournament_games)
        policy.register_seating(gamepolicy.tournament_seating)
        policy.register_delay(gamepolicy.relay_delays)
        game_status_changed.connect(_game_status_changed, dispatch_uid="tournaments.sync_game")
        tournament_appended.connect(_round_published, dispatch_uid="tournaments.sheet_codes")
        services.register_rebuilder("tournaments", tournament_services.tournaments_rebuild)
        services.register_digest("tournament", tournament_services.tournaments_digest)
        ports.provide(advance=tasks.advance_on_commit)
        placement.provide_rules(gamerules.placement_rule)


def _game_status_changed(sender: Any, game_id: Any, **kwargs: Any) -> None:
    """After a game's commit: if it is a tournament table, ask the queue to handle its status
    change now. The change itself is in the outbox already: if this message cannot be sent,
    the periodic sweep (``tournaments.sync_pending``) handles it."""
    from games.queue import send
    from tournaments.models import TournamentTable
    from tournaments.tasks import sync_game

    if TournamentTable.objects.filter(game_id=game_id).exists():
        send(sync_game, str(game_id))


def _round_published(
    sender: Any, tournament_id: Any, types: tuple[str, ...], **kwargs: Any
) -> None:
    """After a publish's commit: have a worker draw the round's score sheets' QR codes into the
    shared cache (tournaments.desk.sheets), so the first print finds them. Only where a worker
    runs and PUBLIC_URL says the address they carry: tasks run inline would only move the
    drawing into the publish's own request. A message that is lost costs the first print its
    drawing, nothing else."""
    from django.conf import settings

    from games.queue import send
    from tournaments.tasks import draw_sheet_codes

    if "round_published" not in types or settings.CELERY_TASK_ALWAYS_EAGER:
        return
    if getattr(settings, "PUBLIC_URL", ""):
        send(draw_sheet_codes, str(tournament_id))
