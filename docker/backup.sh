#!/bin/sh
# docker/backup.sh [DIRECTORY]: back up a docker compose deployment, from the host (cron).
#
# Writes into DIRECTORY (default: backups/ beside docker-compose.yml), each name stamped with
# the UTC time:
#   events-STAMP.jsonl  the whole event log (manage.py export_events): every game and tournament
#   users-STAMP.json    the accounts the log refers to (manage.py dumpdata auth.group auth.user)
#   digest-STAMP.txt    manage.py projections_digest, to compare with after a restore
#   db-STAMP.dump       the whole database (pg_dump, custom format: pg_restore reads it)
# A file appears only once complete; on any failure the script stops with a non-zero status
# and leaves no partial file. docs/operations.md: how to restore, and a crontab line.
set -eu

cd "$(dirname "$0")/.."
dir=${1:-backups}
mkdir -p "$dir"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
partial=""
trap 'if [ -n "$partial" ]; then rm -f "$partial"; fi' EXIT

# save NAME COMMAND...: the command's standard output into $dir/NAME, renamed into place once
# the command has succeeded.
save() {
    name=$1
    shift
    partial="$dir/.$name.partial"
    "$@" >"$partial"
    mv "$partial" "$dir/$name"
    partial=""
}

save "events-$stamp.jsonl" docker compose exec -T web python manage.py export_events
save "users-$stamp.json" docker compose exec -T web \
    python manage.py dumpdata auth.group auth.user --natural-foreign --indent 1
save "digest-$stamp.txt" docker compose exec -T web python manage.py projections_digest
# The variables are the postgres container's own (single quotes: expanded there, not here).
# shellcheck disable=SC2016
save "db-$stamp.dump" docker compose exec -T postgres \
    sh -c 'pg_dump --username="$POSTGRES_USER" --format=custom "$POSTGRES_DB"'

echo "backup: $dir/{events,users,digest,db}-$stamp.*"
