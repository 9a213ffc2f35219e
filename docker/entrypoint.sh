#!/bin/sh
# The image's entrypoint. Before the web server (a command starting with `gunicorn`, the image's
# default) it brings the database schema up to date and collects the static files; then it
# becomes the command (exec), so the command gets the signals (docker stop) as PID 1. Worker,
# beat and one-off commands (`docker compose run web python manage.py ...`) start as given.
set -eu

if [ "${1:-}" = "gunicorn" ]; then
    # Several web containers starting together migrate one at a time (an advisory lock on
    # PostgreSQL); the others then find nothing left to do.
    python /app/docker/migrate.py --noinput
    # Into var/static, served by whitenoise: every web container collects its own copy, the
    # same files under the same hashed names (a few seconds).
    python /app/manage.py collectstatic --noinput --verbosity 0
    echo "entrypoint: database migrated, static files collected; starting $*"
fi

exec "$@"
