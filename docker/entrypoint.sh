#!/bin/sh
# The image's entrypoint. Before the web server (a command starting with `gunicorn`, the image's
# default) it collects the static files; then it becomes the command (exec), so the command gets
# the signals (docker stop) as PID 1. Worker, beat and one-off commands
# (`docker compose run --rm web python manage.py ...`) start as given.
#
# Two database roles (docs/operations.md, "The database roles"): the owner migrates, everything
# else connects as the app role (DATABASE_URL). The owner's secrets (DATABASE_OWNER_URL, and
# POSTGRES_PASSWORD, the same password) are in .env.owner, which only the postgres service and
# the one-off migrate service read (docker-compose.yml). In that container:
#   `migrate`             docker/migrate.py: migrate as the owner, then create and grant the app
#                         role (the migrate service's command, run on every `docker compose up`);
#   `as-owner COMMAND...` a maintenance command as the owner
#                         (`docker compose run --rm migrate as-owner python manage.py ...`).
# The servers (gunicorn, celery) refuse to start in a container that holds the owner's secrets:
# anything running as the app user there, or a `docker compose exec` shell, could read them and
# connect as the owner, who may switch the event log's guard off.
set -eu

owner_secrets=""
if [ -n "${DATABASE_OWNER_URL:-}" ]; then
    owner_secrets="DATABASE_OWNER_URL"
fi
if [ -n "${POSTGRES_PASSWORD:-}" ]; then
    owner_secrets="${owner_secrets:+$owner_secrets and }POSTGRES_PASSWORD"
fi

case "${1:-}" in
migrate)
    # Only what `docker compose up` runs first (and after a restore into a new database).
    shift
    exec python /app/docker/migrate.py --noinput "$@"
    ;;
as-owner)
    shift
    if [ -z "${DATABASE_OWNER_URL:-}" ]; then
        echo "entrypoint: as-owner needs DATABASE_OWNER_URL, which only the migrate service" \
            "reads (from .env.owner): docker compose run --rm migrate as-owner $*" >&2
        exit 2
    fi
    DATABASE_URL=$DATABASE_OWNER_URL
    export DATABASE_URL
    exec "$@"
    ;;
gunicorn | celery)
    if [ -n "$owner_secrets" ]; then
        echo "entrypoint: not starting $1: this container's environment holds" \
            "$owner_secrets, the database owner's secret. Keep it in .env.owner only, which" \
            "web, worker and beat do not read (docs/operations.md, \"The env files\")." >&2
        exit 2
    fi
    ;;
esac

if [ "${1:-}" = "gunicorn" ]; then
    # Into var/static, served by whitenoise: every web container collects its own copy, the
    # same files under the same hashed names (a few seconds).
    python /app/manage.py collectstatic --noinput --verbosity 0
    echo "entrypoint: static files collected; starting $*"
fi

# Any other command runs as the app role only, without the owner's secrets.
unset DATABASE_OWNER_URL POSTGRES_PASSWORD
exec "$@"
