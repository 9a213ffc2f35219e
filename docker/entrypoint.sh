#!/bin/sh
# The image's entrypoint. Before the web server (a command starting with `gunicorn`, the image's
# default) it brings the database schema up to date and collects the static files; then it
# becomes the command (exec), so the command gets the signals (docker stop) as PID 1. Worker,
# beat and one-off commands (`docker compose run web python manage.py ...`) start as given.
#
# Two database roles (docs/operations.md): migrate connects as the owner (DATABASE_OWNER_URL);
# every process it starts connects as the app role (DATABASE_URL) and never sees the owner's
# URL. `as-owner COMMAND...` runs a one-off maintenance command as the owner instead
# (`docker compose run --rm web as-owner python manage.py import_events -`), and `migrate`
# migrates and grants as the web container does on start (`docker compose run --rm web migrate`).
set -eu

# `migrate`: only what the web container does first (after a restore into a new database).
if [ "${1:-}" = "migrate" ]; then
    shift
    exec python /app/docker/migrate.py --noinput "$@"
fi

if [ "${1:-}" = "as-owner" ]; then
    shift
    if [ -z "${DATABASE_OWNER_URL:-}" ]; then
        echo "entrypoint: as-owner needs DATABASE_OWNER_URL (see .env.example)" >&2
        exit 2
    fi
    DATABASE_URL=$DATABASE_OWNER_URL
    export DATABASE_URL
    exec "$@"
fi

if [ "${1:-}" = "gunicorn" ]; then
    # Several web containers starting together migrate one at a time (an advisory lock on
    # PostgreSQL); the others then find nothing left to do. As the owner, then the app role's
    # privileges (docker/migrate.py).
    python /app/docker/migrate.py --noinput
    # Into var/static, served by whitenoise: every web container collects its own copy, the
    # same files under the same hashed names (a few seconds).
    python /app/manage.py collectstatic --noinput --verbosity 0
    echo "entrypoint: database migrated, static files collected; starting $*"
fi

# The server, the worker and beat run as the app role only: no owner's password in their
# environment.
unset DATABASE_OWNER_URL
exec "$@"
